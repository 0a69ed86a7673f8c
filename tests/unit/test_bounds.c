/* test_bounds.c -- bounded work on hostile input (issue 25): a huge gang is
 * rejected in one pass over the queue, not a search and a move per pod. The
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gang_rejection_is_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
