/* test_engine.c -- the event agenda's (time, sequence) order and the event
 * loop's determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "engine/event_queue.h"
#include "util/rng.h"

static void test_same_time_fires_in_push_order(void **state) {
    event_queue q;
    evq_init(&q);
    evq_push(&q, 10, EV_ARRIVAL, 1);
    evq_push(&q, 5, EV_COMPLETION, 2);
    evq_push(&q, 10, EV_SAMPLE, 3);
    evq_push(&q, 10, EV_ARRIVAL, 4);
    evq_push(&q, 0, EV_STOP, 5);
    static const uint64_t want[] = {5, 2, 1, 3, 4};
    for (size_t i = 0; i < 5; i++) {
        assert_false(evq_empty(&q));
        event e = evq_pop(&q);
        assert_int_equal(e.arg, want[i]);
    }
    assert_true(evq_empty(&q));
    evq_free(&q);
}

/* Many events with few distinct times: popped order must be sorted by
 * (time, seq), i.e. stable by push order within a time. */
static void test_random_order_is_time_then_sequence(void **state) {
    event_queue q;
    evq_init(&q);
    rng r;
    rng_seed(&r, 7);
    enum { N = 20000 };
    for (uint64_t i = 0; i < N; i++) evq_push(&q, (int64_t)rng_below(&r, 50), EV_ARRIVAL, i);
    event prev = evq_pop(&q);
    for (size_t i = 1; i < N; i++) {
        event e = evq_pop(&q);
        assert_true(e.time > prev.time || (e.time == prev.time && e.seq > prev.seq));
        if (e.time == prev.time) assert_true(e.arg > prev.arg);   /* push order kept */
        prev = e;
    }
    assert_true(evq_empty(&q));
    evq_free(&q);
}

/* Events pushed while draining (a completion at the current time) still
 * come after the ones already queued for that time. */
static void test_push_during_drain(void **state) {
    event_queue q;
    evq_init(&q);
    evq_push(&q, 100, EV_ARRIVAL, 1);
    evq_push(&q, 100, EV_ARRIVAL, 2);
    event e = evq_pop(&q);
    assert_int_equal(e.arg, 1);
    evq_push(&q, 100, EV_COMPLETION, 3);
    evq_push(&q, 99, EV_COMPLETION, 4);   /* in the past of the drain: still ordered by time */
    assert_int_equal(evq_pop(&q).arg, 4);
    assert_int_equal(evq_pop(&q).arg, 2);
    assert_int_equal(evq_pop(&q).arg, 3);
    evq_free(&q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_time_fires_in_push_order),
        cmocka_unit_test(test_random_order_is_time_then_sequence),
        cmocka_unit_test(test_push_during_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
