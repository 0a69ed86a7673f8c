/* test_sched_dp.c -- the device-plugin baseline scheduler on hand-built
 * nodes: fits / does not fit, frees on completion, nodeSelector, taints,
 * scoring strategies, queue order, sampling (percentageOfNodesToScore). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sched/sched.h"
#include "util/intern.h"

typedef struct tnode {
    k8s_node node;
    k8s_resource_amount alloc[4];
    k8s_kv labels[2];
    k8s_taint taint;
} tnode;

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* A node with `cpu` cores, `mem_gi` GiB, `gpus` nvidia.com/gpu, label zone=`zone`. */
static void mknode(tnode *t, const char *name, int64_t cpu, int64_t mem_gi, int64_t gpus, const char *zone) {
    memset(t, 0, sizeof *t);
    t->node.meta.name = intern(name);
    t->alloc[0] = amt("cpu", cpu);
    t->alloc[1] = amt("memory", mem_gi << 30);
    t->alloc[2] = amt("pods", 110);
    t->alloc[3] = amt("nvidia.com/gpu", gpus);
    t->node.allocatable = t->alloc;
    t->node.nallocatable = gpus ? 4 : 3;
    t->labels[0] = (k8s_kv){intern("zone"), intern(zone)};
    t->node.meta.labels = t->labels;
    t->node.meta.nlabels = 1;
}

static void taint(tnode *t, const char *key, k8s_taint_effect eff) {
    t->taint = (k8s_taint){.key = intern(key), .value = intern("present"), .effect = eff};
    t->node.taints = &t->taint;
    t->node.ntaints = 1;
}

typedef struct tgroup {
    pod_group_spec g;
    k8s_resource_amount req[2], dp[1];
    k8s_kv sel[1];
    k8s_toleration tol[1];
} tgroup;

static void mkgroup(tgroup *t, const char *name, int64_t cpu, int64_t mem_gi, int64_t gpus) {
    memset(t, 0, sizeof *t);
    t->g.name = intern(name);
    t->g.count = 1000;
    t->req[0] = amt("cpu", cpu);
    t->req[1] = amt("memory", mem_gi << 30);
    t->g.requests = t->req;
    t->g.nrequests = 2;
    if (gpus) {
        t->dp[0] = amt("nvidia.com/gpu", gpus);
        t->g.dp_resources = t->dp;
        t->g.ndp_resources = 1;
        t->g.has_dp = true;
    }
}

static k8s_node *flat(tnode *t, size_t n, k8s_node *out) {
    for (size_t i = 0; i < n; i++) out[i] = t[i].node;
    return out;
}

static const sched_config least = {.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true};
static const sched_config most = {.strategy = SCORE_MOST_ALLOCATED, .balanced_allocation = false};

/* Schedule the next pod of class c; returns the node or -1. */
static int place(scheduler *s, uint32_t c, uint32_t pod, placement *p) {
    sched_enqueue(s, c, pod);
    uint32_t cc, id;
    assert_true(sched_next(s, &cc, &id));
    assert_int_equal(cc, c);
    assert_int_equal(id, pod);
    return sched_schedule_head(s, c, p) ? p->node : -1;
}

static void test_fits_then_does_not_fit_then_frees(void **state) {
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 32, 256, 8, "a");
    mknode(&t[1], "n1", 32, 256, 8, "a");
    tgroup g;
    mkgroup(&g, "train", 4, 32, 4);
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    placement p[5];
    int per_node[2] = {0, 0};
    for (uint32_t i = 0; i < 4; i++) {
        int n = place(&s, 0, i, &p[i]);
        assert_true(n == 0 || n == 1);
        per_node[n]++;
    }
    assert_int_equal(per_node[0], 2);   /* 4 GPUs each: exactly two per node */
    assert_int_equal(per_node[1], 2);
    /* device units: the two pods on a node got disjoint halves */
    for (int i = 0; i < 4; i++) assert_int_equal(__builtin_popcountll(p[i].units[0]), 4);
    /* the fifth does not fit: the class blocks, the reason is kube-scheduler's */
    assert_int_equal(place(&s, 0, 4, &p[4]), -1);
    assert_true(s.classes[0].blocked);
    uint32_t c, id;
    assert_false(sched_next(&s, &c, &id));
    strbuf why = {0};
    sched_explain(&s, 0, &why);
    assert_string_equal(sb_str(&why), "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
    /* a completion frees its GPUs and wakes the class */
    int freed_node = p[1].node;
    uint64_t freed_units = p[1].units[0];
    sched_release(&s, 0, &p[1]);
    assert_false(s.classes[0].blocked);
    assert_true(sched_next(&s, &c, &id));
    assert_int_equal(id, 4);
    assert_true(sched_schedule_head(&s, 0, &p[4]));
    assert_int_equal(p[4].node, freed_node);
    assert_int_equal(p[4].units[0], freed_units);
    sb_free(&why);
    sched_free(&s);
}

static void test_node_selector(void **state) {
    tnode t[3];
    k8s_node nodes[3];
    mknode(&t[0], "n0", 32, 256, 8, "a");
    mknode(&t[1], "n1", 32, 256, 8, "b");
    mknode(&t[2], "n2", 32, 256, 8, "a");
    tgroup g;
    mkgroup(&g, "zb", 1, 1, 1);
    g.sel[0] = (k8s_kv){intern("zone"), intern("b")};
    g.g.dp_node_selector = g.sel;   /* gpu.devicePlugin.nodeSelector */
    g.g.ndp_node_selector = 1;
    scheduler s;
    sched_init(&s, flat(t, 3, nodes), 3, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    placement p;
    for (uint32_t i = 0; i < 8; i++) assert_int_equal(place(&s, 0, i, &p), 1);
    assert_int_equal(place(&s, 0, 8, &p), -1);
    strbuf why = {0};
    sched_explain(&s, 0, &why);
    assert_string_equal(sb_str(&why), "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, "
                                      "2 node(s) didn't match Pod's node affinity/selector.");
    sb_free(&why);
    sched_free(&s);
}

static void test_taints_and_tolerations(void **state) {
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "gpu", 32, 256, 8, "a");
    mknode(&t[1], "soft", 32, 256, 0, "a");
    taint(&t[0], "nvidia.com/gpu", TAINT_NO_SCHEDULE);
    taint(&t[1], "spot", TAINT_PREFER_NO_SCHEDULE);   /* never filters */
    tgroup cpu, tol, gpu_no_tol;
    mkgroup(&cpu, "cpu", 1, 1, 0);
    mkgroup(&tol, "tolerating", 1, 1, 0);
    tol.tol[0] = (k8s_toleration){.key = intern("nvidia.com/gpu"), .op = TOL_OP_EXISTS, .has_op = true,
                                  .effect = TAINT_NO_SCHEDULE, .has_effect = true};
    tol.g.tolerations = tol.tol;
    tol.g.ntolerations = 1;
    mkgroup(&gpu_no_tol, "gpu-no-tol", 1, 1, 1);
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &least, 1);
    sched_add_class(&s, &cpu.g, true);
    sched_add_class(&s, &tol.g, true);
    sched_add_class(&s, &gpu_no_tol.g, true);
    sched_prepare(&s);
    placement p;
    for (uint32_t i = 0; i < 5; i++) assert_int_equal(place(&s, 0, i, &p), 1);
    /* tolerating pods may use both; LeastAllocated sends them to the emptier gpu node */
    assert_int_equal(place(&s, 1, 10, &p), 0);
    assert_int_equal(place(&s, 2, 20, &p), -1);
    strbuf why = {0};
    sched_explain(&s, 2, &why);
    assert_string_equal(sb_str(&why), "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, "
                                      "1 node(s) had untolerated taint {nvidia.com/gpu: present}.");
    sb_free(&why);
    sched_free(&s);
}

/* LeastAllocated spreads, MostAllocated packs; exact kube-scheduler scores. */
static void test_scoring_strategies(void **state) {
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 4, 8, 0, "a");
    mknode(&t[1], "n1", 4, 8, 0, "a");
    tgroup g;
    mkgroup(&g, "w", 1, 2, 0);
    for (int strat = 0; strat < 2; strat++) {
        scheduler s;
        sched_init(&s, flat(t, 2, nodes), 2, strat ? &most : &least, 9);
        sched_add_class(&s, &g.g, true);
        sched_prepare(&s);
        /* empty node: cpu (4000-1000)*100/4000 = 75, memory 75 -> 75; balanced 100 */
        assert_int_equal(s.classes[0].score[0], strat ? 25 : 175);
        placement p1, p2;
        int a = place(&s, 0, 0, &p1), b = place(&s, 0, 1, &p2);
        if (strat) assert_int_equal(a, b);
        else assert_int_not_equal(a, b);
        /* after one pod: least 50 + balanced 100 on the used node */
        if (!strat) assert_int_equal(s.classes[0].score[a], 150);
        sched_free(&s);
    }
}

static void test_priority_then_arrival(void **state) {
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 2, 8, 0, "a");
    tgroup lo, hi;
    mkgroup(&lo, "lo", 1, 1, 0);
    mkgroup(&hi, "hi", 1, 1, 0);
    hi.g.priority = 10;
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &least, 1);
    sched_add_class(&s, &lo.g, true);
    sched_add_class(&s, &hi.g, true);
    sched_prepare(&s);
    sched_enqueue(&s, 0, 0);
    sched_enqueue(&s, 0, 1);
    sched_enqueue(&s, 1, 2);
    uint32_t c, id;
    placement p;
    assert_true(sched_next(&s, &c, &id));
    assert_int_equal(id, 2);   /* higher priority first although it arrived last */
    assert_true(sched_schedule_head(&s, c, &p));
    assert_true(sched_next(&s, &c, &id));
    assert_int_equal(id, 0);
    assert_true(sched_schedule_head(&s, c, &p));
    assert_true(sched_next(&s, &c, &id));
    assert_int_equal(id, 1);
    assert_false(sched_schedule_head(&s, c, &p));   /* 2 cpus used up */
    assert_false(sched_next(&s, &c, &id));
    sched_free(&s);
}

/* numFeasibleNodesToFind and the rotating start index. */
static void test_percentage_of_nodes_to_score(void **state) {
    enum { N = 1000 };
    static tnode t[N];
    static k8s_node nodes[N];
    char name[16];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "n%d", i);
        mknode(&t[i], name, 8, 8, 0, "a");
    }
    tgroup g;
    mkgroup(&g, "w", 1, 1, 0);
    static const struct { size_t nodes; int pct; size_t want; } cases[] = {
        {50, 0, 50}, {99, 0, 99}, {200, 0, 100}, {1000, 0, 420}, {1000, 10, 100}, {1000, 30, 300}, {1000, 100, 1000}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        sched_config cfg = least;
        cfg.percentage_of_nodes_to_score = cases[k].pct;
        scheduler s;
        sched_init(&s, flat(t, cases[k].nodes, nodes), cases[k].nodes, &cfg, 1);
        assert_int_equal(sched_num_nodes_to_find(&s), cases[k].want);
        sched_free(&s);
    }
    scheduler s;
    sched_init(&s, flat(t, N, nodes), N, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    placement p;
    int n0 = place(&s, 0, 0, &p);
    assert_true(n0 >= 0 && n0 < 420);          /* chosen among the first 420 */
    assert_int_equal(s.next_start, 420);
    int n1 = place(&s, 0, 1, &p);
    assert_true(n1 >= 420 && n1 < 840);        /* the next window */
    assert_int_equal(s.next_start, 840);
    sched_free(&s);
    /* 10,000 nodes: 5% (the floor of the adaptive percentage) */
    static tnode big[10000];
    static k8s_node bign[10000];
    for (int i = 0; i < 10000; i++) mknode(&big[i], "b", 8, 8, 0, "a");
    sched_init(&s, flat(big, 10000, bign), 10000, &least, 1);
    assert_int_equal(sched_num_nodes_to_find(&s), 500);
    sched_free(&s);
}

/* Requests larger than any node: blocked forever, reason names the resource. */
static void test_never_fits(void **state) {
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 8, 16, 2, "a");
    tgroup g;
    mkgroup(&g, "huge", 16, 8, 4);
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    placement p;
    assert_int_equal(place(&s, 0, 0, &p), -1);
    strbuf why = {0};
    sched_explain(&s, 0, &why);
    assert_string_equal(sb_str(&why), "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu.");
    sb_free(&why);
    sched_free(&s);
}

/* Required node affinity: In / NotIn / Gt on labels, ORed terms. */
static void test_node_affinity(void **state) {
    tnode t[3];
    k8s_node nodes[3];
    mknode(&t[0], "n0", 8, 8, 0, "a");
    mknode(&t[1], "n1", 8, 8, 0, "b");
    mknode(&t[2], "n2", 8, 8, 0, "c");
    for (int i = 0; i < 3; i++) {
        static const char *const gen[] = {"3", "5", "9"};
        t[i].labels[1] = (k8s_kv){intern("gen"), intern(gen[i])};
        t[i].node.meta.nlabels = 2;
    }
    const char *zone_b[] = {intern("b")};
    const char *four[] = {intern("4")};
    k8s_selector_req not_b = {.key = intern("zone"), .op = SEL_OP_NOT_IN, .values = zone_b, .nvalues = 1};
    k8s_selector_req gt4 = {.key = intern("gen"), .op = SEL_OP_GT, .values = four, .nvalues = 1};
    k8s_selector_req both[2] = {not_b, gt4};
    k8s_selector_term and_term = {.match_expressions = both, .nmatch_expressions = 2};
    tgroup g;
    mkgroup(&g, "aff", 1, 1, 0);
    g.g.has_affinity = true;
    g.g.required_affinity = (k8s_node_selector){.terms = &and_term, .nterms = 1};
    scheduler s;
    sched_init(&s, flat(t, 3, nodes), 3, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    /* zone not b and gen > 4: only n2 */
    placement p;
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(place(&s, 0, i, &p), 2);
    sched_free(&s);
    /* two terms ORed: zone In [b]  or  gen > 4  -> n1 and n2 */
    k8s_selector_req in_b = {.key = intern("zone"), .op = SEL_OP_IN, .values = zone_b, .nvalues = 1};
    k8s_selector_term terms[2] = {{.match_expressions = &in_b, .nmatch_expressions = 1},
                                  {.match_expressions = &gt4, .nmatch_expressions = 1}};
    g.g.required_affinity = (k8s_node_selector){.terms = terms, .nterms = 2};
    sched_init(&s, flat(t, 3, nodes), 3, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    int seen[3] = {0, 0, 0};
    for (uint32_t i = 0; i < 6; i++) seen[place(&s, 0, i, &p)]++;
    assert_int_equal(seen[0], 0);
    assert_int_equal(seen[1], 3);   /* LeastAllocated alternates between the two */
    assert_int_equal(seen[2], 3);
    sched_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_then_does_not_fit_then_frees),
        cmocka_unit_test(test_node_selector),
        cmocka_unit_test(test_taints_and_tolerations),
        cmocka_unit_test(test_scoring_strategies),
        cmocka_unit_test(test_priority_then_arrival),
        cmocka_unit_test(test_percentage_of_nodes_to_score),
        cmocka_unit_test(test_never_fits),
        cmocka_unit_test(test_node_affinity),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
