/* test_kq_gate.c -- the Kueue gate's requeue of an evicted gang Workload
 * (sim/queue/kq_gate.c), driven through queue/gate.h in an order the engine
 * does not produce today: the replacement gang is completed by a pod that
 * arrives after the last requeue call (a gang requeued while still collecting
 * its pods). Kueue ff69552e79 requeues a PodsReadyTimeout-evicted Workload
 * only at requeueState.requeueAt (pkg/workload/workload.go UpdateRequeueState;
 * pkg/controller/core/workload_controller.go Reconcile) and never requeues a
 * deactivated one (spec.active false); both must hold however its pods come
 * back. Expectations derived by hand in each test's comment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/scenario.h"
#include "queue/gate.h"

/* One ClusterQueue `team` (24 GPUs) and one gang group `big` of 2 pods x
 * 6 GPUs (owner job); waitForPodsReady: timeout 30 s, backoff base 5 s,
 * backoffLimitCount LIMIT. */
static const char SCENARIO[] =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {time: 300s}\n"
    "cluster:\n  nodePools:\n  - {name: g, count: 1, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}\n"
    "scheduling: {mode: device-plugin}\n"
    "workload:\n  podGroups:\n"
    "  - {name: big, count: 2, arrival: {times: [0s, 0s]}, duration: 100s, gang: {minCount: 2}, owner: job,\n"
    "     namespace: team, labels: {kueue.x-k8s.io/queue-name: team}, requests: {cpu: \"1\", memory: 1Gi},\n"
    "     gpu: {devicePlugin: {nvidia.com/gpu: 6}}}\n"
    "queues:\n  manager: kueue\n  objects:\n"
    "  - apiVersion: config.kueue.x-k8s.io/v1beta2\n    kind: Configuration\n"
    "    waitForPodsReady: {timeout: 30s, requeuingStrategy: {backoffBaseSeconds: 5, backoffLimitCount: LIMIT}}\n"
    "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: h100}}\n"
    "  - apiVersion: kueue.x-k8s.io/v1beta2\n    kind: ClusterQueue\n    metadata: {name: team}\n"
    "    spec:\n      resourceGroups:\n      - coveredResources: [cpu, memory, nvidia.com/gpu]\n"
    "        flavors:\n        - name: h100\n          resources:\n"
    "          - {name: cpu, nominalQuota: 32}\n          - {name: memory, nominalQuota: 256Gi}\n"
    "          - {name: nvidia.com/gpu, nominalQuota: 24}\n"
    "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: team, namespace: team}, "
    "spec: {clusterQueue: team}}\n";

typedef struct fixture {
    scenario sc;
    queue_gate *q;
    queue_cycle_out out;
} fixture;

static void setup(fixture *x, const char *limit) {
    memset(x, 0, sizeof *x);
    char src[sizeof SCENARIO + 16];
    const char *at = strstr(SCENARIO, "LIMIT");
    snprintf(src, sizeof src, "%.*s%s%s", (int)(at - SCENARIO), SCENARIO, limit, at + 5);
    strbuf err = {0};
    int rc = yfile_load_mem("s.yaml", src, strlen(src), &x->sc.file, &err);
    x->sc.has_file = true;
    if (!rc) rc = scenario_from_tree(x->sc.file.docs[0], &x->sc, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    assert_int_equal(rc, 0);
    sb_free(&err);
    x->q = kq_gate_new(&x->sc);
    assert_non_null(x->q);
}

static void teardown(fixture *x) {
    queue_gate_free(x->q);
    VEC_FREE(x->out.admitted);
    VEC_FREE(x->out.evict);
    VEC_FREE(x->out.pins);
    scenario_free(&x->sc);
}

static bool arrive(fixture *x, uint32_t pod, int64_t t) { return x->q->arrive(x->q->ctx, pod, 0, &x->sc.groups[0], t); }

/* One admission cycle at t; returns the number of pods admitted. */
static size_t cycle(fixture *x, int64_t t) {
    x->out.admitted.len = x->out.evict.len = x->out.pins.len = 0;
    x->q->cycle(x->q->ctx, t, &x->out);
    return x->out.admitted.len;
}

/* Pods 0 and 1 admitted at 0 s (12 of 24 GPUs), never bound: at the 30 s
 * deadline the gate evicts both (PodsReadyTimeout, or deactivation). As the
 * engine does for pending pods: pod 0 is deleted, its replacement 2 arrives
 * (a new gang, collecting), pod 0 ends, requeued(0, 2); pod 1 is deleted and
 * ends. Pod 1's replacement is not made here: the gang completes only when
 * pod 3 arrives at 31 s, after the last requeue call. */
static void time_out_then_collect(fixture *x) {
    assert_true(arrive(x, 0, 0));
    assert_true(arrive(x, 1, 0));
    assert_int_equal(cycle(x, 0), 2);
    assert_int_equal(x->q->take_wake(x->q->ctx), 30000);   /* the PodsReady deadline */
    assert_int_equal(cycle(x, 30000), 0);
    assert_int_equal(x->out.evict.len, 2);
    assert_true(arrive(x, 2, 30000));
    x->q->ended(x->q->ctx, 0, 30000);
    x->q->requeued(x->q->ctx, 0, 2);
    x->q->ended(x->q->ctx, 1, 30000);
    assert_true(arrive(x, 3, 31000));
}

/* requeueState.count 1: backoff 5 s x 2^0, jitter below 0.0001 x 5 s = 0.5 ms
 * (rounded down to 0): requeueAt 35 s. The gang completed at 31 s is not a
 * head before 35 s (before the fix gang_collect dropped gang_wl.not_before
 * and the gang was admitted at 31 s); at 35 s both pods are admitted. */
static void test_collecting_gang_waits_for_backoff(void **state) {
    (void)state;
    fixture x;
    setup(&x, "5");
    time_out_then_collect(&x);
    assert_int_equal(cycle(&x, 31000), 0);
    assert_int_equal(cycle(&x, 34999), 0);
    bool woken = false;   /* the gate asked for a cycle at the backoff's end */
    for (int64_t w; (w = x.q->take_wake(x.q->ctx)) >= 0;) woken |= w == 35000;
    assert_true(woken);
    assert_int_equal(cycle(&x, 35000), 2);
    assert_int_equal(x.out.admitted.data[0], 2);
    assert_int_equal(x.out.admitted.data[1], 3);
    teardown(&x);
}

/* backoffLimitCount 0: at the 30 s deadline count 0 + 1 > 0: deactivated
 * (triggerDeactivation). Its replacement gang, completed at 31 s, is never
 * queued (before the fix it was admitted at 31 s); why-pending says so. */
static void test_collecting_gang_stays_deactivated(void **state) {
    (void)state;
    fixture x;
    setup(&x, "0");
    time_out_then_collect(&x);
    assert_int_equal(cycle(&x, 31000), 0);
    assert_int_equal(cycle(&x, 100000), 0);
    const char *why = x.q->why(x.q->ctx, 0);
    assert_non_null(why);
    assert_non_null(strstr(why, "Workload deactivated after 1 PodsReady timeout(s) (backoffLimitCount 0)"));
    teardown(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collecting_gang_waits_for_backoff),
        cmocka_unit_test(test_collecting_gang_stays_deactivated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
