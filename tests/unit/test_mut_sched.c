/* test_mut_sched.c -- scores and rules that only show as a different number,
 * each expectation computed by hand from the upstream formula it models
 * (written to kill mutants of tools/mutate, docs/MUTATION.md):
 * NodeResourcesFit LeastAllocated / BalancedAllocation scores, the adaptive
 * percentageOfNodesToScore, the FGD fragmentation boundary (free == milli),
 * OpenB inflation's stop rule and the rounding of sampled durations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sched/framework.h"
#include "sched/policies/frag.h"
#include "util/intern.h"
#include "util/rng.h"
#include "model/openb_trace.h"
#include "workload/workload.h"

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* One node of 10 cpu / 10 GiB; one class asking 2 cpu / 6 GiB (no GPU). */
typedef struct one {
    k8s_node node;
    k8s_resource_amount alloc[3], req[2];
    pod_group_spec g;
    scheduler s;
} one;

static void one_init(one *t, const sched_config *cfg) {
    memset(t, 0, sizeof *t);
    t->node.meta.name = intern("n0");
    t->alloc[0] = amt("cpu", 10);
    t->alloc[1] = amt("memory", (int64_t)10 << 30);
    t->alloc[2] = amt("pods", 110);
    t->node.allocatable = t->alloc;
    t->node.nallocatable = 3;
    t->g.name = intern("c");
    t->g.count = 1;
    t->req[0] = amt("cpu", 2);
    t->req[1] = amt("memory", (int64_t)6 << 30);
    t->g.requests = t->req;
    t->g.nrequests = 2;
    sched_init(&t->s, &t->node, 1, cfg, 1);
    sched_add_class(&t->s, &t->g, true);
    sched_prepare(&t->s);
}

/* LeastAllocated (noderesources/least_allocated.go): per resource
 * (alloc - req) * 100 / alloc in integers, then the weighted mean:
 * cpu (10 - 2) / 10 -> 80, memory (10 - 6) / 10 -> 40, mean 60. */
static void test_least_allocated_score(void **state) {
    (void)state;
    one t;
    one_init(&t, &(sched_config){.strategy = SCORE_LEAST_ALLOCATED});
    assert_int_equal(plugin_node_resources_fit.score(&t.s, &t.s.classes[0], 0), 60);
    sched_free(&t.s);
}

/* BalancedAllocation (balanced_allocation.go, two resources): the standard
 * deviation of the requested fractions 0.2 and 0.6 is |0.2 - 0.6| / 2 = 0.2,
 * score (1 - 0.2) * 100 = 80. */
static void test_balanced_allocation_score(void **state) {
    (void)state;
    one t;
    one_init(&t, &(sched_config){.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true});
    assert_int_equal(plugin_balanced_allocation.score(&t.s, &t.s.classes[0], 0), 80);
    sched_free(&t.s);
}

/* RequestedToCapacityRatio (noderesources/requested_to_capacity_ratio.go,
 * kubernetes v1.36, requestedToCapacityRatioScorer): a resource whose shape
 * score is 0 is left out of the weighted mean ("if resourceScore > 0"). Shape
 * {0%: 0, 50%: 0, 100%: 10}, scaled x10: cpu 2/10 = 20 % -> 0 (left out);
 * memory 6/10 = 60 % -> 0 + (10 - 0) * 10 * (60 - 50) / (100 - 50) = 20.
 * Mean over the scoring resources: 20 / 1 = 20 (keeping cpu's 0 would give 10). */
static void test_ratio_skips_zero_scores(void **state) {
    (void)state;
    static const shape_point shape[] = {{0, 0}, {50, 0}, {100, 10}};
    one t;
    one_init(&t, &(sched_config){.strategy = SCORE_REQUESTED_TO_CAPACITY_RATIO, .shape = shape, .nshape = 3});
    assert_int_equal(plugin_node_resources_fit.score(&t.s, &t.s.classes[0], 0), 20);
    sched_free(&t.s);
}

/* numFeasibleNodesToFind (schedule_one.go): adaptive percentage
 * 50 - nodes/125, at least 5 %, at least 100 nodes; below 100 nodes all. */
static void test_nodes_to_find(void **state) {
    (void)state;
    static const struct { size_t nodes; size_t want; } v[] = {
        {99, 99},      /* fewer than 100: every node */
        {500, 230},    /* 50 - 4 = 46 % */
        {1000, 420},   /* 50 - 8 = 42 % */
        {3000, 780},   /* 50 - 24 = 26 % */
        {5000, 500},   /* 50 - 40 = 10 % */
        {6000, 300},   /* 50 - 48 = 2 % -> 5 % */
        {1500, 570},   /* 50 - 12 = 38 % */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        scheduler s;
        memset(&s, 0, sizeof s);
        s.nnodes = v[i].nodes;
        if (sched_num_nodes_to_find(&s) != v[i].want)
            fail_msg("%zu nodes: %zu to find, want %zu", v[i].nodes, sched_num_nodes_to_find(&s), v[i].want);
    }
}

/* FGD (artifact's fragmentation): a GPU whose free milli equals the pod's
 * milli can host it, so it is not a fragment. Node: GPUs with 500 and 300
 * milli free; typical pod 1 x 500 milli: GPU 0 fits, GPU 1 (300) is a
 * fragment: frag = 300. A pod of 300 milli fits both: frag = 0. */
static void test_frag_boundary(void **state) {
    (void)state;
    gs_node n;
    gs_node_init(&n, 8000, 65536, 110, 2, 0);
    n.free[0] = 500;
    n.free[1] = 300;
    gs_pod half = {.cpu = 1000, .ngpu = 1, .milli = 500, .models = ~(uint64_t)0};
    gs_pod third = {.cpu = 1000, .ngpu = 1, .milli = 300, .models = ~(uint64_t)0};
    assert_true(frag_node_pod(&n, &half) == 300.0);
    assert_true(frag_node_pod(&n, &third) == 0.0);
    frag_typical_pod tp[2] = {{.shape = half, .p = 0.75, .count = 3}, {.shape = third, .p = 0.25, .count = 1}};
    frag_typical t = {.pods = tp, .n = 2};
    assert_true(fabs(frag_node(&n, &t) - 0.75 * 300.0) < 1e-9);
    /* a 2-GPU pod of 500 milli each needs both GPUs >= 500: with 500 and 500 free it fits: 0 */
    n.free[1] = 500;
    gs_pod two = {.cpu = 1000, .ngpu = 2, .milli = 500, .models = ~(uint64_t)0};
    frag_typical_pod tp2 = {.shape = two, .p = 1.0, .count = 1};
    frag_typical t2 = {.pods = &tp2, .n = 1};
    assert_true(frag_node(&n, &t2) == 0.0);
}

/* OpenB inflation (the FGD artifact): draw pods until the next one's
 * per-GPU milli would overshoot ratio * cluster milli; the pod then adds
 * num_gpu * gpu_milli. One trace pod of 4 GPUs x 1000 milli, cluster 10,000
 * milli, ratio 1: 4000 -> (+1000 <= 10000) 8000 -> (+1000 <= 10000) 12000 ->
 * (+1000 > 10000) stop: 3 pods. */
static void test_openb_inflate_stop_rule(void **state) {
    (void)state;
    openb_pod p = {.name = "p", .cpu_milli = 1000, .memory_mib = 1024, .num_gpu = 4, .gpu_milli = 1000,
                   .gpu_spec = "", .creation_s = -1, .deletion_s = -1};
    size_t n = 0;
    uint32_t *seq = openb_inflate(&p, 1, 10000, 1.0, 7, &n);
    assert_int_equal(n, 3);
    free(seq);
}

/* Durations are rounded to the nearest millisecond (docs/SCENARIOS.md):
 * an exponential draw d becomes llround(d), never the truncated value. */
static void test_duration_rounding(void **state) {
    (void)state;
    duration_dist d = {.kind = DIST_EXPONENTIAL, .a = 7};
    rng a, b;
    rng_seed(&a, 11);
    rng_seed(&b, 11);
    int rounded_up = 0;
    for (int i = 0; i < 200; i++) {
        double x = rng_exponential(&b, 7.0);
        sim_time got = workload_sample_duration(&d, &a);
        assert_int_equal(got, (sim_time)llround(x));
        rounded_up += (double)got > x;
    }
    assert_true(rounded_up > 0);   /* the case a truncation gets wrong did occur */
}

/* NodeAffinity Gt / Lt (v1 NodeSelectorRequirement): strict comparisons of
 * the integer label value; equal is neither greater nor less. */
static void test_affinity_gt_lt_strict(void **state) {
    (void)state;
    k8s_kv label = {intern("gen"), intern("5")};
    k8s_node n = {.meta = {.name = intern("n"), .labels = &label, .nlabels = 1}};
    static const struct { k8s_selector_op op; const char *v; bool want; } v[] = {
        {SEL_OP_GT, "4", true}, {SEL_OP_GT, "5", false}, {SEL_OP_LT, "6", true}, {SEL_OP_LT, "5", false}};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        const char *vals[] = {intern(v[i].v)};
        k8s_selector_req r = {.key = intern("gen"), .op = v[i].op, .values = vals, .nvalues = 1};
        k8s_selector_term term = {.match_expressions = &r, .nmatch_expressions = 1};
        k8s_node_selector sel = {.terms = &term, .nterms = 1};
        if (node_selector_matches(&sel, &n) != v[i].want) fail_msg("case %zu: gen=5 %s %s", i, v[i].op == SEL_OP_GT ? "Gt" : "Lt", v[i].v);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_least_allocated_score), cmocka_unit_test(test_balanced_allocation_score),
        cmocka_unit_test(test_nodes_to_find),         cmocka_unit_test(test_frag_boundary),
        cmocka_unit_test(test_openb_inflate_stop_rule), cmocka_unit_test(test_duration_rounding),
        cmocka_unit_test(test_affinity_gt_lt_strict), cmocka_unit_test(test_ratio_skips_zero_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
