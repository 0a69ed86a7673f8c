/* test_place_openb.c -- OpenB in DRA mode with the policy choosing the GPUs
 * (drasim's device filter, alloc.h): for every policy, the DRA run places
 * exactly as the device-plugin run (same arrival curve point for point, no
 * device choice overridden by the allocator); with
 * `scheduling.devicePlacement: allocator` (upstream first fit) the random
 * policy's placements differ. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "util/vec.h"
#include "workload/openb_run.h"

typedef struct outcome {
    double alloc[131], frag[131];
    double differs;
} outcome;

static void run_once(scenario *sc, const char *policy, uint64_t seed, outcome *o) {
    strbuf err = {0};
    sc->seed = seed;
    sc->sched.policy = intern(policy);
    assert_int_equal(scenario_trace_expand(sc, &err), 0);
    k8s_node *nodes;
    size_t n;
    openb_k8s_nodes(sc->trace, &sc->a, &nodes, &n);
    sim_run r;
    sim_init(&r, sc, nodes, n);
    assert_int_equal(workload_execute(&r, NULL), 0);
    assert_int_equal(r.curve.len, 131);
    for (size_t i = 0; i < r.curve.len; i++) {
        o->alloc[i] = r.curve.data[i].gpu_alloc_pct;
        o->frag[i] = r.curve.data[i].frag_gpu_pct;
    }
    o->differs = sim_metric_get(&r, "dra_device_choice_differs");
    sim_free(&r);
    sb_free(&err);
}

static int curve_mismatches(const outcome *a, const outcome *b) {
    int bad = 0;
    for (int i = 0; i < 131; i++) bad += a->alloc[i] != b->alloc[i] || a->frag[i] != b->frag[i];
    return bad;
}

static void test_dra_matches_device_plugin(void **state) {
    (void)state;
    scenario dp, dra;
    strbuf err = {0};
    if (scenario_load(TEST_DATA_DIR "/../scenarios/openb/default.yaml", &dp, &err)) fail_msg("%s", sb_str(&err));
    if (scenario_load(TEST_DATA_DIR "/../scenarios/openb/default-dra.yaml", &dra, &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(dra.sched.mode, SCHED_MODE_DRA);
    static const char *const pols[] = {"random", "dotprod", "gpu-clustering", "gpu-packing", "bestfit", "fgd"};
    static outcome a, b;
    for (size_t p = 0; p < sizeof pols / sizeof *pols; p++) {
        run_once(&dp, pols[p], 42, &a);
        run_once(&dra, pols[p], 42, &b);
        assert_true(isnan(a.differs));         /* device-plugin runs have no allocator */
        assert_true(b.differs == 0);
        assert_int_equal(curve_mismatches(&a, &b), 0);
        print_message("%-15s dp %.2f  dra %.2f\n", pols[p], a.alloc[130], b.alloc[130]);
    }
    /* upstream first fit on the chosen node: random's GPU draw is overridden */
    dra.sched.device_by_allocator = true;
    run_once(&dp, "random", 42, &a);
    run_once(&dra, "random", 42, &b);
    assert_true(b.differs > 100);
    assert_true(curve_mismatches(&a, &b) > 0);
    scenario_free(&dp);
    scenario_free(&dra);
    sb_free(&err);
    intern_reset();
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_dra_matches_device_plugin)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
