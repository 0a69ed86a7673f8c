/* test_bounds.c -- bounded work on hostile input (issue 25): a huge gang is
 * rejected in one pass over the queue, not a search and a move per pod;
 * sums and products of huge quantities saturate or are refused (no signed
 * overflow, which UBSan flags in the sanitizer build). The
 * runs are built from scenario text held here; expectations are derived by
 * hand in the comments. tests/bounds.cmake gives this test a timeout that
 * the quadratic versions exceed many times over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/autoscaler_spec.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/attach.h"

typedef struct brun {
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    strbuf err;
    int rc;   /* workload_execute's result */
} brun;

/* Load scenario text; 0, or -1 with t->err set (the scenario is refused). */
static int brun_load(brun *t, const char *yaml) {
    memset(t, 0, sizeof *t);
    assert_int_equal(yfile_load_mem("bounds.yaml", yaml, strlen(yaml), &t->sc.file, &t->err), 0);
    t->sc.has_file = true;
    return scenario_from_tree(t->sc.file.docs[0], &t->sc, &t->err);
}

/* Build the inventory and run; t->rc is workload_execute's result. */
static void brun_go(brun *t) {
    assert_int_equal(catalog_load(NULL, &t->cat, &t->err), 0);
    if (inventory_build_ex(&t->sc.cluster, &t->cat, &t->sc.sched.dp, INV_NO_SLICES, &t->inv, &t->err))
        fail_msg("%s", sb_str(&t->err));
    sim_init(&t->run, &t->sc, t->inv.nodes, t->inv.nnodes);
    t->rc = workload_execute(&t->run, NULL);
}

static void brun_free(brun *t) {
    if (t->inv.nodes) {
        sim_free(&t->run);
        inventory_free(&t->inv);
        catalog_free(&t->cat);
    }
    scenario_free(&t->sc);
    sb_free(&t->err);
    intern_reset();
}

/* Finding 8: 400,000 one-GPU pods in one gang (minCount 400,000) on one
 * 8-GPU node, 1.37's workload cycle. The last pod arrives at 399.999 s (1 ms
 * apart): quorum. Every cycle places 8 pods and fails; the group back-off is
 * 1, 2, 4, 8, then 10 s (capped), so cycles fail at quorum + 0, 1, 3, 7, 15,
 * 25, 35 and 45 s; the next would be at + 55 s, after the stop at 450 s: 8
 * failed attempts, each taking 399,992 pods out of the queue. Quadratic, that
 * is 8 x 1.6e11 / 2 moved entries (a minute or more); linear, well under a
 * second. */
static void test_gang_rejection_is_linear(void **state) {
    (void)state;
    static const char yaml[] =
        "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: gang}\nseed: 1\nstop: {time: 450s}\n"
        "cluster:\n  kubernetesVersion: \"1.37\"\n  nodePools:\n"
        "  - {name: g, count: 1, cpu: \"64\", memory: 512Gi, gpu: {model: A100-80GB, count: 8}}\n"
        "scheduling: {mode: device-plugin}\n"
        "workload:\n  podGroups:\n  - name: gang\n    count: 400000\n    arrival: {constant: {interval: 1ms}}\n"
        "    duration: 30m\n    gang: {minCount: 400000, timeout: 5m}\n"
        "    requests: {cpu: 1m, memory: 1Mi}\n    gpu: {devicePlugin: {nvidia.com/gpu: 1}}\n";
    brun t;
    if (brun_load(&t, yaml)) fail_msg("%s", sb_str(&t.err));
    brun_go(&t);
    assert_int_equal(t.rc, 0);
    assert_true(sim_metric_get(&t.run, "gang_attempts_failed") == 8);
    assert_true(sim_metric_get(&t.run, "gangs_started") == 0);
    assert_int_equal(sched_waiting(&t.run.sched, 0), 0);   /* rejected at 445 s, requeued only at 455 s */
    brun_free(&t);
}

/* A device-plugin scenario: NODES nodes of pool fields POOL (cpu, memory),
 * 8 A100s each, and the workload text WORK. */
static void scenario_text(strbuf *y, int nodes, const char *pool, const char *extra, const char *work) {
    sb_printf(y,
              "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {time: 1h}\n"
              "cluster:\n  nodePools:\n  - {name: g, count: %d, %s, gpu: {model: A100-80GB, count: 8}}\n%s"
              "scheduling: {mode: device-plugin}\nworkload:\n%s",
              nodes, pool, extra, work);
}

/* Finding 15: max-graceful-termination-sec x 1000 overflowed int64 (UB);
 * now at most a year (as terminationGracePeriodSeconds), named with its place. */
static void test_graceful_termination_bound(void **state) {
    (void)state;
    strbuf y = {0};
    scenario_text(&y, 1, "cpu: \"64\", memory: 512Gi, autoscaling: {min: 0, max: 2}",
                  "autoscaler: {max-graceful-termination-sec: 9223372036854775}\n",
                  "  podGroups:\n  - {name: p, count: 1, arrival: {times: [0s]}, duration: 1h, requests: {cpu: \"1\"}}\n");
    brun t;
    assert_int_not_equal(brun_load(&t, sb_str(&y)), 0);
    if (!strstr(sb_str(&t.err), "bounds.yaml:9:44: max-graceful-termination-sec: expected 0 to 31536000 (a year), "
                                "found 9223372036854775"))
        fail_msg("%s", sb_str(&t.err));
    brun_free(&t);
    sb_clear(&y);
    scenario_text(&y, 1, "cpu: \"64\", memory: 512Gi, autoscaling: {min: 0, max: 2}",
                  "autoscaler: {max-graceful-termination-sec: 31536000}\n",
                  "  podGroups:\n  - {name: p, count: 1, arrival: {times: [0s]}, duration: 1h, requests: {cpu: \"1\"}}\n");
    if (brun_load(&t, sb_str(&y))) fail_msg("%s", sb_str(&t.err));
    assert_true(t.sc.autoscaler->max_graceful_termination == 31536000LL * 1000);
    brun_free(&t);
    sb_free(&y);
}

/* Finding 15: 8Ei of memory is 2^63 bytes, one more than int64 holds, so the
 * quantity saturates at 2^63 - 1; summed with another container's 1Mi it
 * stays there, and the class's shape in MiB rounds up to exactly 2^43
 * (the rounding added 2^20 - 1 to 2^63 - 1: signed overflow). The same for
 * a Lua pod's memory = "8Ei". The pod never fits a 512Gi node. */
static void test_memory_8ei(void **state) {
    (void)state;
    static const char *const work[] = {
        "  podGroups:\n  - name: big\n    count: 1\n    arrival: {times: [0s]}\n    duration: 1h\n    containers:\n"
        "    - {name: a, resources: {requests: {cpu: \"1\", memory: 8Ei}}}\n"
        "    - {name: b, resources: {requests: {cpu: \"1\", memory: 1Mi}}}\n",
        "  lua: {script: " TEST_DATA_DIR "/bounds/mem8ei.lua}\n"};
    for (int k = 0; k < 2; k++) {
        strbuf y = {0};
        scenario_text(&y, 1, "cpu: \"64\", memory: 512Gi", "", work[k]);
        brun t;
        if (brun_load(&t, sb_str(&y))) fail_msg("%s", sb_str(&t.err));
        brun_go(&t);
        assert_int_equal(t.rc, 0);
        const pod_class *c = &t.run.sched.classes[t.run.sched.nclasses - 1];
        assert_true(c->shape.mem == (int64_t)1 << 43);
        for (size_t i = 0; i < c->ndemand; i++)
            if (c->demand[i].res == RES_MEMORY) assert_true(c->demand[i].amount == INT64_MAX);
        assert_true(sim_metric_get(&t.run, "pods_scheduled") == 0);
        brun_free(&t);
        sb_free(&y);
    }
}

/* Finding 15: the cluster's total allocatable saturates instead of wrapping:
 * 3 nodes of 4Ei (3 x 2^62 > 2^63 - 1), of 16Ei (each already 2^63 - 1) and
 * of 1e30 CPUs (each 2^63 - 1 millicores). Three pods of 4Ei each bind on the
 * 4Ei nodes: the total in use saturates too. */
static void test_total_allocatable_saturates(void **state) {
    (void)state;
    static const struct { const char *pool; int res; } cases[] = {
        {"cpu: \"64\", memory: 4Ei", RES_MEMORY},
        {"cpu: \"64\", memory: 16Ei", RES_MEMORY},
        {"cpu: \"1e30\", memory: 512Gi", RES_CPU},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        strbuf y = {0};
        scenario_text(&y, 3, cases[k].pool, "",
                      "  podGroups:\n  - {name: p, count: 3, arrival: {times: [0s, 0s, 0s]}, duration: 1h, "
                      "requests: {cpu: \"1\", memory: 4Ei}}\n");
        brun t;
        if (brun_load(&t, sb_str(&y))) fail_msg("%s", sb_str(&t.err));
        brun_go(&t);
        assert_int_equal(t.rc, 0);
        assert_true(t.run.tot_alloc[cases[k].res] == INT64_MAX);
        if (k == 0) {
            assert_true(sim_metric_get(&t.run, "pods_scheduled") == 3);
            assert_true(t.run.tot_used[RES_MEMORY] == INT64_MAX);
        }
        brun_free(&t);
        sb_free(&y);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gang_rejection_is_linear),
        cmocka_unit_test(test_graceful_termination_bound),
        cmocka_unit_test(test_memory_8ei),
        cmocka_unit_test(test_total_allocatable_saturates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
