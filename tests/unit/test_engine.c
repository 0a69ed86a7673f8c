/* test_engine.c -- the event agenda's (time, sequence) order and the event
 * loop's determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/event_queue.h"
#include "engine/sim.h"
#include "workload/attach.h"
#include "util/intern.h"
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
        assert_true(e.time > prev.time || (e.time == prev.time && ev_seq(&e) > ev_seq(&prev)));
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

/* Pushes and pops interleaved, every kind, times before the last pop and
 * negative, in the current time bucket (2^16 ms), in later buckets of the
 * ring, beyond the ring (2^16 * 4096 ms) and far beyond: the queue gives the
 * same events in the same order as a plain list searched for its least
 * (time, push order), with the kind and argument each was pushed with. */
static void test_matches_linear_reference(void **state) {
    (void)state;
    enum { N = 8000 };
    typedef struct { int64_t time; uint64_t seq; uint32_t kind; uint64_t arg; } ref_ev;
    ref_ev *ref = malloc(N * sizeof *ref);
    size_t nref = 0;
    event_queue q;
    evq_init(&q);
    rng r;
    rng_seed(&r, 31);
    int64_t now = -20;
    uint64_t pushed = 0;
    for (int step = 0; step < 2 * N; step++) {
        bool push = nref == 0 || (pushed < N && rng_below(&r, 3) != 0);
        if (push) {
            static const int64_t span[] = {60, 1 << 16, 1 << 22, (int64_t)1 << 28, (int64_t)1 << 29, (int64_t)1 << 34};
            int64_t t = now - 5 + (int64_t)rng_below(&r, (uint64_t)span[rng_below(&r, 6)]);
            if (rng_below(&r, 50) == 0) t = now;   /* ties with the last pop */
            uint32_t kind = (uint32_t)rng_below(&r, 256);
            uint64_t arg = ((uint64_t)rng_below(&r, 1u << 30) << 33) | pushed;
            uint64_t seq = evq_push(&q, t, kind, arg);
            assert_int_equal(seq, pushed);
            ref[nref++] = (ref_ev){t, pushed, kind, arg};
            pushed++;
            continue;
        }
        size_t best = 0;
        for (size_t k = 1; k < nref; k++)
            if (ref[k].time < ref[best].time || (ref[k].time == ref[best].time && ref[k].seq < ref[best].seq)) best = k;
        assert_false(evq_empty(&q));
        assert_int_equal(evq_peek(&q)->arg, ref[best].arg);
        event e = evq_pop(&q);
        assert_int_equal(e.time, ref[best].time);
        assert_int_equal(ev_seq(&e), ref[best].seq);
        assert_int_equal(ev_kind(&e), ref[best].kind);
        assert_int_equal(e.arg, ref[best].arg);
        now = e.time;
        ref[best] = ref[--nref];
    }
    assert_true(evq_empty(&q) == (nref == 0));
    evq_free(&q);
    free(ref);
}

/* A whole run: 4 nodes x 4 GPUs, 400 Poisson pods of 1-4 GPUs. */
typedef struct small {
    k8s_node nodes[4];
    k8s_resource_amount alloc[4];
    scenario sc;
    pod_group_spec g[2];
    k8s_resource_amount dp[2];
    sim_run run;
} small;

static void small_run(small *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    t->alloc[0] = (k8s_resource_amount){intern("cpu"), quantity_from_int64(16, QF_DECIMAL_SI)};
    t->alloc[1] = (k8s_resource_amount){intern("memory"), quantity_from_int64(64LL << 30, QF_BINARY_SI)};
    t->alloc[2] = (k8s_resource_amount){intern("pods"), quantity_from_int64(110, QF_DECIMAL_SI)};
    t->alloc[3] = (k8s_resource_amount){intern("nvidia.com/gpu"), quantity_from_int64(4, QF_DECIMAL_SI)};
    static const char *const names[] = {"n0", "n1", "n2", "n3"};
    for (int i = 0; i < 4; i++) {
        t->nodes[i].meta.name = intern(names[i]);
        t->nodes[i].allocatable = t->alloc;
        t->nodes[i].nallocatable = 4;
    }
    for (int k = 0; k < 2; k++) {
        t->g[k].name = intern(k ? "big" : "small");
        t->g[k].count = 200;
        t->g[k].arrival = (arrival_spec){.kind = ARRIVAL_POISSON, .mean_gap_ms = 60000};
        t->g[k].duration = (duration_dist){.kind = DIST_EXPONENTIAL, .a = 600000};
        t->dp[k] = (k8s_resource_amount){intern("nvidia.com/gpu"), quantity_from_int64(k ? 4 : 1, QF_DECIMAL_SI)};
        t->g[k].dp_resources = &t->dp[k];
        t->g[k].ndp_resources = 1;
        t->g[k].has_dp = true;
    }
    t->g[1].priority = 1;
    t->sc.name = intern("small");
    t->sc.seed = seed;
    t->sc.stop_time = SIM_TIME_NEVER;
    t->sc.stop_all_pods_done = true;
    t->sc.sample_interval = 60000;
    t->sc.sched.mode = SCHED_MODE_DEVICE_PLUGIN;
    t->sc.sched.dp.time_slicing_replicas = 1;
    t->sc.sched.balanced_allocation = true;
    t->sc.groups = t->g;
    t->sc.ngroups = 2;
    sim_init(&t->run, &t->sc, t->nodes, 4);
    assert_int_equal(workload_execute(&t->run, NULL), 0);
}

/* Same seed, same run; every pod ran; never more GPUs in use than exist;
 * a pod never starts before it arrives; samples are in time order. */
static void test_run_is_deterministic_and_consistent(void **state) {
    small *a = test_malloc(sizeof *a), *b = test_malloc(sizeof *b), *c = test_malloc(sizeof *c);
    small_run(a, 5);
    small_run(b, 5);
    small_run(c, 6);
    assert_int_equal(a->run.pods.len, 400);
    assert_int_equal(b->run.pods.len, 400);
    int differ = 0;
    for (size_t i = 0; i < 400; i++) {
        const sim_pod *x = &a->run.pods.data[i], *y = &b->run.pods.data[i], *z = &c->run.pods.data[i];
        assert_true(x->arrival == y->arrival && x->start == y->start && x->end == y->end && x->node == y->node &&
                    x->group == y->group && x->ordinal == y->ordinal);
        differ += x->arrival != z->arrival || x->node != z->node;
    }
    assert_true(differ > 300);
    for (size_t i = 0; i < 400; i++) {
        const sim_pod *p = &a->run.pods.data[i];
        assert_int_equal(p->state, POD_SUCCEEDED);
        assert_true(p->start >= p->arrival);
        assert_int_equal(p->end, p->start + p->duration);
        if (i) assert_true(p->arrival >= a->run.pods.data[i - 1].arrival);   /* ids in arrival order */
    }
    for (size_t i = 0; i < a->run.samples.len; i++) {
        assert_true(a->run.samples.data[i].gpu_equiv <= 16.0);
        if (i) assert_true(a->run.samples.data[i].t > a->run.samples.data[i - 1].t);
    }
    assert_true(sim_metric_get(&a->run, "gpu_alloc_peak_pct") <= 100.0);
    assert_true(sim_metric_get(&a->run, "wait_max_s") > 0);   /* 4-GPU pods had to wait for whole nodes */
    sim_free(&a->run);
    sim_free(&b->run);
    sim_free(&c->run);
    test_free(a);
    test_free(b);
    test_free(c);
}

/* stop.time cuts the run: nothing after it, pods then running stay Running. */
static void test_stop_time(void **state) {
    small *a = test_malloc(sizeof *a);
    memset(a, 0, sizeof *a);
    small_run(a, 5);
    sim_time end = 2 * (a->run.pods.data[199].arrival);   /* so that the stop cuts the arrivals */
    sim_free(&a->run);
    small_run(a, 5);   /* rebuild, then rerun with a stop in the middle */
    sim_free(&a->run);
    a->sc.stop_time = end / 2;
    a->sc.stop_all_pods_done = false;
    sim_init(&a->run, &a->sc, a->nodes, 4);
    assert_int_equal(workload_execute(&a->run, NULL), 0);
    assert_int_equal(a->run.end_time, end / 2);
    int running = 0;
    for (size_t i = 0; i < a->run.pods.len; i++) {
        const sim_pod *p = &a->run.pods.data[i];
        assert_true(p->arrival < end / 2);
        if (p->state == POD_SUCCEEDED) assert_true(p->end < end / 2);
        running += p->state == POD_RUNNING;
    }
    assert_true(running > 0);
    assert_true(a->run.pods.len < 400);
    sim_free(&a->run);
    test_free(a);
}

/* Issue 31: a pod record is 48 bytes; a source's pod names and the pods
 * replacements replace live beside the array. Expectations by hand: the
 * names array grows to the last named id only (ids 0..4 unnamed, 5 named:
 * 6 entries; an unnamed pod past it adds none), and replacement links are
 * found by id in whatever order they were noted. */
static void test_pod_side_tables(void **state) {
    (void)state;
    assert_int_equal(sizeof(sim_pod), 48);
    sim_run r;
    memset(&r, 0, sizeof r);
    sim_pod_set_name(&r, 3, NULL);   /* unnamed: nothing kept */
    assert_int_equal(r.pod_names.len, 0);
    assert_null(sim_pod_name(&r, 3));
    sim_pod_set_name(&r, 5, "job-a");
    assert_int_equal(r.pod_names.len, 6);
    for (uint32_t i = 0; i < 5; i++) assert_null(sim_pod_name(&r, i));
    assert_string_equal(sim_pod_name(&r, 5), "job-a");
    sim_pod_set_name(&r, 9, NULL);
    assert_int_equal(r.pod_names.len, 6);
    assert_null(sim_pod_name(&r, 9));
    assert_null(sim_pod_name(&r, 1000000));
    sim_pod_set_name(&r, 2, "job-b");   /* inside the array: no growth */
    assert_int_equal(r.pod_names.len, 6);
    assert_string_equal(sim_pod_name(&r, 2), "job-b");
    /* pod 7 replaces pod 4 (4 + 1 stored), pod 12 replaces 7, then out of order: 9 replaces 1 */
    sim_pod_set_replaces(&r, 7, 5);
    sim_pod_set_replaces(&r, 12, 8);
    sim_pod_set_replaces(&r, 9, 2);
    assert_int_equal(r.replaced.len, 3);
    assert_int_equal(r.replaced.data[0].pod, 7);
    assert_int_equal(r.replaced.data[1].pod, 9);
    assert_int_equal(r.replaced.data[2].pod, 12);
    assert_int_equal(sim_pod_replaces(&r, 7), 5);
    assert_int_equal(sim_pod_replaces(&r, 9), 2);
    assert_int_equal(sim_pod_replaces(&r, 12), 8);
    for (uint32_t i = 0; i < 20; i++)
        if (i != 7 && i != 9 && i != 12) assert_int_equal(sim_pod_replaces(&r, i), 0);
    sim_pod_set_replaces(&r, 9, 3);   /* noted again: replaced, not added */
    assert_int_equal(r.replaced.len, 3);
    assert_int_equal(sim_pod_replaces(&r, 9), 3);
    VEC_FREE(r.pod_names);
    VEC_FREE(r.replaced);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_time_fires_in_push_order),
        cmocka_unit_test(test_random_order_is_time_then_sequence),
        cmocka_unit_test(test_push_during_drain),
        cmocka_unit_test(test_matches_linear_reference),
        cmocka_unit_test(test_run_is_deterministic_and_consistent),
        cmocka_unit_test(test_stop_time),
        cmocka_unit_test(test_pod_side_tables),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
