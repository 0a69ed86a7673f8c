/* test_queue.c -- the scheduling queue's back-off: a class whose head pod
 * failed is retried on a node change only after podInitialBackoffSeconds
 * doubling up to podMaxBackoffSeconds; priority order survives back-off; and
 * in a whole run the retry happens at the back-off end, not at the event. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "sched/sched.h"
#include "util/intern.h"

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

typedef struct one {
    k8s_node node;
    k8s_resource_amount alloc[3];
    pod_group_spec g[2];
    k8s_resource_amount req[2];
    scheduler s;
} one;

/* One node with 2 cpus; classes asking for 2 cpus (priority 0 and 10). */
static void setup(one *o, int64_t init_ms, int64_t max_ms) {
    memset(o, 0, sizeof *o);
    o->node.meta.name = intern("n0");
    o->alloc[0] = amt("cpu", 2);
    o->alloc[1] = amt("memory", 8LL << 30);
    o->alloc[2] = amt("pods", 110);
    o->node.allocatable = o->alloc;
    o->node.nallocatable = 3;
    o->req[0] = amt("cpu", 2);
    for (int i = 0; i < 2; i++) {
        o->g[i].name = intern(i ? "hi" : "lo");
        o->g[i].count = 100;
        o->g[i].requests = o->req;
        o->g[i].nrequests = 1;
        o->g[i].priority = i ? 10 : 0;
    }
    sched_config cfg = {.backoff_initial_ms = init_ms, .backoff_max_ms = max_ms};
    sched_init(&o->s, &o->node, 1, &cfg, 1);
    sched_add_class(&o->s, &o->g[0], false);
    sched_add_class(&o->s, &o->g[1], false);
    sched_prepare(&o->s);
}

/* Try the next class; returns whether its head pod was placed. */
static bool try_next(scheduler *s, uint32_t want_class, uint32_t want_pod, placement *p) {
    uint32_t c, id;
    assert_true(sched_next(s, &c, &id));
    assert_int_equal(c, want_class);
    assert_int_equal(id, want_pod);
    return sched_schedule_head(s, c, p);
}

static void test_backoff_doubles_to_max(void **state) {
    (void)state;
    one o;
    setup(&o, 1000, 10000);
    scheduler *s = &o.s;
    placement run, p;
    sched_enqueue(s, 0, 0);
    assert_true(try_next(s, 0, 0, &run));   /* pod 0 holds the node */
    sched_enqueue(s, 0, 1);
    static const int64_t want[] = {1000, 2000, 4000, 8000, 10000, 10000};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        int64_t t0 = s->now;
        assert_false(try_next(s, 0, 1, &p));
        assert_true(s->classes[0].blocked);
        assert_int_equal(s->classes[0].backoff_until - t0, want[k]);
        /* the node frees at once: still backing off, so not in the active queue */
        sched_release(s, 0, &run);
        uint32_t c, id;
        assert_false(sched_next(s, &c, &id));
        int64_t at;
        assert_true(sched_take_retry(s, &c, &at));
        assert_int_equal(c, 0);
        assert_int_equal(at, t0 + want[k]);
        assert_false(sched_take_retry(s, &c, &at));
        /* another pod takes the node back before the retry: the retry fails again */
        s->now = at;
        sched_enqueue(s, 1, 100 + (uint32_t)k);
        assert_true(try_next(s, 1, 100 + (uint32_t)k, &run));
        sched_retry(s, 0);
    }
    /* success resets the back-off for the next head pod */
    sched_release(s, 1, &run);
    s->now += 60000;
    assert_int_equal(s->classes[0].backoff_until < s->now, 1);
    sched_retry(s, 0);
    assert_true(try_next(s, 0, 1, &p));
    assert_int_equal(s->classes[0].head_failures, 0);
    sched_free(s);
}

static void test_no_backoff_when_disabled(void **state) {
    (void)state;
    one o;
    setup(&o, 0, 0);
    placement run, p;
    sched_enqueue(&o.s, 0, 0);
    assert_true(try_next(&o.s, 0, 0, &run));
    sched_enqueue(&o.s, 0, 1);
    assert_false(try_next(&o.s, 0, 1, &p));
    sched_release(&o.s, 0, &run);   /* at the same instant: retried at once */
    assert_true(try_next(&o.s, 0, 1, &p));
    sched_free(&o.s);
}

/* The active queue: priority first, then arrival, also after back-offs end. */
static void test_priority_after_backoff(void **state) {
    (void)state;
    one o;
    setup(&o, 1000, 10000);
    scheduler *s = &o.s;
    placement run, p;
    sched_enqueue(s, 0, 0);
    assert_true(try_next(s, 0, 0, &run));
    sched_enqueue(s, 0, 1);
    sched_enqueue(s, 1, 2);
    assert_false(try_next(s, 1, 2, &p));   /* higher priority tried first although it arrived later */
    assert_false(try_next(s, 0, 1, &p));
    s->now = 5000;                          /* both back-offs (1 s) are over */
    sched_release(s, 0, &run);
    assert_true(try_next(s, 1, 2, &p));
    /* lo was moved to the active queue too; it is tried, fails and backs off again (2 s) */
    assert_false(try_next(s, 0, 1, &p));
    assert_true(s->classes[0].blocked);
    assert_int_equal(s->classes[0].backoff_until, 5000 + 2000);
    uint32_t c, id;
    assert_false(sched_next(s, &c, &id));
    sched_free(s);
}

static const char *const scenario_text =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: q}\nseed: 1\nstop: {allPodsDone: true}\n"
    "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '2', memory: 8Gi}\n"
    "scheduling: {mode: device-plugin%s}\n"
    "workload:\n  podGroups:\n"
    "  - {name: a, arrival: {times: [0s]}, duration: 500ms, requests: {cpu: '2'}}\n"
    "  - {name: b, arrival: {times: [0s]}, duration: 1s, requests: {cpu: '2'}}\n";

/* Start time of group b's pod in a whole run. */
static int64_t start_of_b(const char *sched_extra) {
    char text[1024];
    snprintf(text, sizeof text, scenario_text, sched_extra);
    yfile f;
    scenario sc;
    strbuf err = {0};
    memset(&sc, 0, sizeof sc);
    assert_int_equal(yfile_load_mem("q.yaml", text, strlen(text), &f, &err), 0);
    if (scenario_from_tree(f.docs[0], &sc, &err)) fail_msg("%s", sb_str(&err));
    k8s_node node = {0};
    k8s_resource_amount alloc[2] = {amt("cpu", 2), amt("memory", 8LL << 30)};
    node.meta.name = intern("n-0");
    node.allocatable = alloc;
    node.nallocatable = 2;
    sim_run r;
    sim_init(&r, &sc, &node, 1);
    assert_int_equal(workload_execute(&r, NULL), 0);
    int64_t start = -2;
    for (size_t i = 0; i < r.pods.len; i++)
        if (r.pods.data[i].group == 1) start = r.pods.data[i].start;
    sim_free(&r);
    scenario_free(&sc);
    yfile_free(&f);
    sb_free(&err);
    return start;
}

static void test_run_retries_at_backoff_end(void **state) {
    (void)state;
    /* b fails at 0 s; a ends at 0.5 s; b is retried when its 1 s back-off ends */
    assert_int_equal(start_of_b(""), 1000);
    assert_int_equal(start_of_b(", podInitialBackoffSeconds: 0"), 500);
    assert_int_equal(start_of_b(", podInitialBackoffSeconds: 2, podMaxBackoffSeconds: 5"), 2000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backoff_doubles_to_max),
        cmocka_unit_test(test_no_backoff_when_disabled),
        cmocka_unit_test(test_priority_after_backoff),
        cmocka_unit_test(test_run_retries_at_backoff_end),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
