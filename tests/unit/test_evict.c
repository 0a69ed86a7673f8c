/* test_evict.c -- sim_evict (engine/sim_evict.h): graceful termination, the
 * owner's replacement and the work lost, on a one-node cluster where every
 * number can be worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "engine/sim_evict.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "workload/attach.h"

#include "scenario_fixture.h"

/* A test source that evicts pod 0 at `at` (its only event), with `grace`. */
typedef struct evictor {
    int id;
    sim_time at, grace;
    evict_cause cause;
    int was;                                  /* what sim_evict returned */
} evictor;

static int ev_start(sim_run *r, void *ctx) {
    evictor *e = ctx;
    sim_schedule_background(r, e->id, e->at, 0);
    return 0;
}

static int ev_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    (void)arg;
    evictor *e = ctx;
    e->was = sim_evict(r, 0, e->cause, "test eviction", e->grace, t);
    return 0;
}

/* One 8-GPU H100 node; group `train` (8 GPUs, 10 h) and `small` (1 GPU, 1 h,
 * arriving at 30 min: it waits for the node) with `lifecycle` on train. */
static void run_with(fixture *x, evictor *e, const char *lifecycle) {
    char body[2048];
    snprintf(body, sizeof body, "%s"
             "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}\n"
             "scheduling: {mode: device-plugin}\n"
             "workload:\n  podGroups:\n"
             "  - {name: train, count: 1, arrival: {times: [0s]}, duration: 10h, requests: {cpu: \"8\"},\n"
             "     gpu: {devicePlugin: {nvidia.com/gpu: 8}}%s}\n"
             "  - {name: small, count: 1, arrival: {times: [30m]}, duration: 1h, requests: {cpu: \"1\"},\n"
             "     gpu: {devicePlugin: {nvidia.com/gpu: 1}}}\n",
             fixture_head, lifecycle);
    int rc = fixture_load(x, "s.yaml", body);
    if (rc) fprintf(stderr, "%s\n", sb_str(&x->err));
    assert_int_equal(rc, 0);
    workload_attach(&x->run);
    sim_source src = {.ctx = e, .start = ev_start, .event = ev_event};
    e->id = sim_add_source(&x->run, &src);
    assert_true(e->id >= 0);
    assert_int_equal(sim_execute(&x->run, NULL), 0);
}

static double group_metric(const sim_run *r, const char *group, const char *name) {
    for (size_t i = 0; i < r->summary.len; i++) {
        const sim_metric *m = &r->summary.data[i];
        if (!strcmp(m->name, name) && ((!group && !m->group) || (group && m->group && !strcmp(group, m->group))))
            return m->value;
    }
    return NAN;
}

/* A bare pod evicted at 2 h 30 m: lost with 2.5 h x 8 GPUs of work; it keeps
 * the node for its 30 s grace period, so `small` starts at 2 h 30 m 30 s. */
static void test_bare_pod_is_lost_after_grace(void **state) {
    (void)state;
    fixture x;
    evictor e = {.at = SIM_SECONDS(9000), .grace = -1, .cause = EVICT_FAULT};
    run_with(&x, &e, "");
    const sim_run *r = &x.run;
    assert_int_equal(e.was, POD_RUNNING);
    assert_int_equal(r->pods.len, 2);
    assert_int_equal(r->pods.data[0].state, POD_DELETED);
    assert_int_equal(r->pods.data[0].end, SIM_SECONDS(9030));
    assert_int_equal(r->pods.data[1].start, SIM_SECONDS(9030));
    assert_string_equal(sim_delete_reason(r, 0), "test eviction");
    assert_true(group_metric(r, NULL, "evictions") == 1);
    assert_true(group_metric(r, NULL, "evictions_fault") == 1);
    assert_true(group_metric(r, "train", "pods_lost") == 1);
    assert_true(fabs(group_metric(r, "train", "gpu_hours_lost") - 20.0) < 1e-9);
    assert_true(group_metric(r, "small", "evictions") == 0);
    /* the run ends when `small` ends: the evicted pod's old completion (10 h) keeps nothing alive */
    assert_int_equal(r->end_time, SIM_SECONDS(9030 + 3600));
    teardown(&x);
}

/* A job with 1 h checkpoints evicted at 2 h 30 m (grace 0): 30 min of work is
 * lost; its replacement arrives at once and needs 10 h - 2 h, but `small`
 * (queued since 30 m: the queue is FIFO within a priority) takes a GPU first,
 * so the replacement starts when small ends, an hour later. */
static void test_job_replacement_resumes_from_checkpoint(void **state) {
    (void)state;
    fixture x;
    evictor e = {.at = SIM_SECONDS(9000), .grace = 0, .cause = EVICT_PREEMPTION};
    run_with(&x, &e, ", owner: job, checkpoint: 1h");
    const sim_run *r = &x.run;
    assert_int_equal(r->pods.len, 3);
    const sim_pod *rep = &r->pods.data[2];
    assert_int_equal(sim_pod_replaces(r, 2), 1);
    assert_int_equal(rep->group, 0);
    assert_int_equal(rep->arrival, SIM_SECONDS(9000));
    assert_int_equal(r->pods.data[1].start, SIM_SECONDS(9000));
    assert_int_equal(rep->start, SIM_SECONDS(9000 + 3600));
    assert_int_equal(rep->duration, SIM_SECONDS(8 * 3600));
    assert_int_equal(rep->state, POD_SUCCEEDED);
    assert_int_equal(r->end_time, SIM_SECONDS(9000 + 3600 + 8 * 3600));
    assert_true(fabs(group_metric(r, "train", "gpu_hours_lost_preemption") - 4.0) < 1e-9);
    assert_true(group_metric(r, "train", "pods_replaced") == 1);
    assert_true(group_metric(r, "train", "pods_lost") == 0);
    teardown(&x);
}

/* A service replica: no work lost, its successor serves the remaining 7.5 h. */
static void test_service_replacement_serves_the_rest(void **state) {
    (void)state;
    fixture x;
    evictor e = {.at = SIM_SECONDS(9000), .grace = 0, .cause = EVICT_DRAIN};
    run_with(&x, &e, ", owner: service");
    const sim_pod *rep = &x.run.pods.data[2];
    assert_int_equal(rep->duration, SIM_SECONDS(36000 - 9000));
    assert_true(group_metric(&x.run, "train", "gpu_hours_lost") == 0);
    assert_true(group_metric(&x.run, NULL, "evictions_drain") == 1);
    teardown(&x);
}

/* An ended pod cannot be evicted (no eviction: the counters say 0, issue 26); a
 * background event after the last pod does not keep the run alive. */
static void test_ended_pod_and_background_event(void **state) {
    (void)state;
    fixture x;
    evictor e = {.at = SIM_SECONDS(37000), .grace = -1, .was = 99};   /* train ended at 36000 s */
    run_with(&x, &e, ", terminationGracePeriodSeconds: 5");
    assert_int_equal(e.was, -1);
    assert_true(group_metric(&x.run, NULL, "evictions") == 0);
    assert_true(group_metric(&x.run, "train", "evictions") == 0);
    assert_true(group_metric(&x.run, NULL, "gpu_hours_lost") == 0);
    teardown(&x);
    evictor late = {.at = SIM_SECONDS(100000), .grace = -1, .was = 99};
    run_with(&x, &late, "");
    assert_int_equal(late.was, 99);   /* never fired */
    assert_int_equal(x.run.end_time, SIM_SECONDS(36000 + 3600));
    teardown(&x);
}

/* A job evicted with its custom grace period of 5 s: small starts then. */
static void test_group_grace_period(void **state) {
    (void)state;
    fixture x;
    evictor e = {.at = SIM_SECONDS(9000), .grace = -1, .cause = EVICT_FAULT};
    run_with(&x, &e, ", terminationGracePeriodSeconds: 5");
    assert_int_equal(x.run.pods.data[0].end, SIM_SECONDS(9005));
    assert_int_equal(x.run.pods.data[1].start, SIM_SECONDS(9005));
    teardown(&x);
}

/* Bad lifecycle fields name the field and its place. */
static void test_lifecycle_errors(void **state) {
    (void)state;
    static const struct { const char *field, *want; } cases[] = {
        {", owner: replicaset", "owner: expected none, job or service"},
        {", owner: service, checkpoint: 1h", "checkpoint: only a pod group with owner: job"},
        {", owner: job, checkpoint: 0s", "checkpoint: expected a positive duration"},
        {", terminationGracePeriodSeconds: -1", "terminationGracePeriodSeconds: expected an integer from 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[1024];
        snprintf(body, sizeof body, "%s"
                 "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: \"64\", memory: 512Gi}\n"
                 "scheduling: {mode: device-plugin}\n"
                 "workload:\n  podGroups:\n  - {name: a, count: 1, arrival: {times: [0s]}, duration: 1h%s}\n",
                 fixture_head, cases[i].field);
        fixture x;
        assert_int_not_equal(fixture_load(&x, "s.yaml", body), 0);
        if (!strstr(sb_str(&x.err), cases[i].want)) fprintf(stderr, "got: %s\n", sb_str(&x.err));
        assert_non_null(strstr(sb_str(&x.err), cases[i].want));
        assert_non_null(strstr(sb_str(&x.err), "s.yaml:"));
        teardown(&x);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bare_pod_is_lost_after_grace),
        cmocka_unit_test(test_job_replacement_resumes_from_checkpoint),
        cmocka_unit_test(test_service_replacement_serves_the_rest),
        cmocka_unit_test(test_ended_pod_and_background_event),
        cmocka_unit_test(test_group_grace_period),
        cmocka_unit_test(test_lifecycle_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
