/* test_openb_artifact.c -- the OpenB profile openb-artifact reproduces the FGD
 * paper artifact's published runs exactly: for two pod lists (default: tune
 * up; multigpu50: tune down, many 8-GPU pods) and the five deterministic
 * policies, drasim's arrival curve equals the published per-seed row
 * (data/openb/expected/, 131 points, allocation and fragmentation, to 2
 * decimals). Plus the stop rule of the sampling (per-GPU milli, not total)
 * on a case where the two rules differ. The full 1,020-run matrix is
 * tools/openb/reproduce.sh (docs/OPENB.md). */
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
#include "model/scenario.h"
#include "util/csv.h"
#include "util/intern.h"
#include "model/openb_trace.h"
#include "model/openb_artifact.h"
#include "workload/openb_run.h"

#define DATA TEST_DATA_DIR "/../data/openb/"

/* The published row (column X = value) of list/label/seed in one expected CSV. */
static void published_row(const char *file, const char *list, const char *label, int seed, double row[131]) {
    csv_table t;
    strbuf err = {0};
    if (csv_load(file, &t, &err)) fail_msg("%s", sb_str(&err));
    int cw = csv_col(&t, "workload"), cp = csv_col(&t, "sc_policy"), cs = csv_col(&t, "seed"), c0 = csv_col(&t, "0");
    assert_true(cw >= 0 && cp >= 0 && cs >= 0 && c0 >= 0);
    char w[64];
    snprintf(w, sizeof w, "openb_pod_list_%s", list);
    int found = 0;
    for (size_t r = 0; r < t.nrows; r++)
        if (!strcmp(csv_cell(&t, r, cw), w) && !strcmp(csv_cell(&t, r, cp), label) &&
            atoi(csv_cell(&t, r, cs)) == seed) {
            for (int x = 0; x <= 130; x++) row[x] = strtod(csv_cell(&t, r, c0 + x), NULL);
            found++;
        }
    assert_int_equal(found, 1);
    csv_free(&t);
    sb_free(&err);
}

/* Run scenarios/openb/<list>.yaml with a policy and seed; compare every point. */
static void expect_published(const char *list, const char *policy, const char *label, int seed) {
    char path[512];
    snprintf(path, sizeof path, TEST_DATA_DIR "/../scenarios/openb/%s.yaml", list);
    scenario sc;
    strbuf err = {0};
    if (scenario_load(path, &sc, &err)) fail_msg("%s", sb_str(&err));
    assert_true(sc.trace && sc.trace->artifact);
    sc.seed = (uint64_t)seed;
    sc.sched.policy = intern(policy);
    assert_int_equal(scenario_trace_expand(&sc, &err), 0);
    k8s_node *nodes;
    size_t n;
    openb_k8s_nodes(sc.trace, &sc.a, &nodes, &n);
    sim_run r;
    sim_init(&r, &sc, nodes, n);
    assert_int_equal(workload_execute(&r, NULL), 0);
    double alloc[131], frag[131];
    published_row(DATA "expected/analysis_allo_discrete.csv", list, label, seed, alloc);
    published_row(DATA "expected/analysis_frag_discrete.csv", list, label, seed, frag);
    assert_int_equal(r.curve.len, 131);
    for (size_t i = 0; i < r.curve.len; i++) {
        const sim_curve_point *p = &r.curve.data[i];
        assert_int_equal(p->arrived_pct, (int)i);
        if (fabs(p->gpu_alloc_pct - alloc[i]) > 0.005 || fabs(p->frag_gpu_pct - frag[i]) > 0.005)
            fail_msg("%s %s seed %d at %zu %%: drasim %.2f / %.2f, published %.2f / %.2f", list, policy, seed, i,
                     p->gpu_alloc_pct, p->frag_gpu_pct, alloc[i], frag[i]);
    }
    sim_free(&r);
    scenario_free(&sc);
    sb_free(&err);
    intern_reset();
}

static const struct { const char *policy, *label; } policies[] = {
    {"dotprod", "02-DotProd"}, {"gpu-clustering", "03-GpuClustering"}, {"gpu-packing", "04-GpuPacking"},
    {"bestfit", "05-BestFit"}, {"fgd", "06-FGD"}};

static void test_default_seed42(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        expect_published("default", policies[i].policy, policies[i].label, 42);
}

static void test_multigpu50_seed47(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        expect_published("multigpu50", policies[i].policy, policies[i].label, 47);
}

/* Sampling stops at the first draw whose PER-GPU milli would overshoot
 * (tuneUpPods compares podTotal + MilliGpu, then adds the total): with only
 * 8-GPU pods (8000 milli) and a 10-GPU target, one clone is still added
 * (8000 + 1000 <= 10000); comparing the total (8000 + 8000) would add none. */
static void test_stop_rule_per_gpu(void **state) {
    (void)state;
    openb_pod pods[] = {{.name = "p8", .cpu_milli = 1000, .memory_mib = 1, .num_gpu = 8, .gpu_milli = 1000,
                         .gpu_spec = "", .creation_s = -1, .deletion_s = -1}};
    size_t n;
    uint32_t *seq = openb_inflate(pods, 1, 10000, 1.0, 42, &n);
    assert_int_equal(n, 2);   /* the trace pod and one clone */
    free(seq);
    openb_node nodes[] = {{.name = "n0", .cpu_milli = 96000, .memory_mib = 1000, .gpus = 8, .model = "G2"},
                          {.name = "n1", .cpu_milli = 96000, .memory_mib = 1000, .gpus = 2, .model = "T4"}};
    uint32_t rank[2];
    strbuf err = {0};
    assert_int_equal(openb_artifact_build(pods, 1, nodes, 2, 1.0, 42, &seq, &n, rank, NULL, &err), 0);
    assert_int_equal(n, 2);
    assert_true((rank[0] == 0 && rank[1] == 1) || (rank[0] == 1 && rank[1] == 0));
    free(seq);
    /* CPU-only pods: nothing to tune, an error rather than an endless draw */
    openb_pod cpu[] = {{.name = "c", .cpu_milli = 1000, .memory_mib = 1, .gpu_spec = "", .creation_s = -1,
                        .deletion_s = -1}};
    assert_int_equal(openb_artifact_build(cpu, 1, nodes, 2, 1.3, 42, &seq, &n, rank, NULL, &err), -1);
    assert_non_null(strstr(sb_str(&err), "request no GPU"));
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_stop_rule_per_gpu), cmocka_unit_test(test_default_seed42),
                                       cmocka_unit_test(test_multigpu50_seed47)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
