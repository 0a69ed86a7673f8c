/* test_preempt.c -- DefaultPreemption (sched/plugins/preempt.h) on hand-built device-plugin
 * nodes where the right victims and nominated node are known. */
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


/* Schedule the next pod of class c; returns the node or -1. */
static int place(scheduler *s, uint32_t c, uint32_t pod, placement *p) {
    sched_enqueue(s, c, pod);
    uint32_t cc, id;
    assert_true(sched_next(s, &cc, &id));
    assert_int_equal(cc, c);
    assert_int_equal(id, pod);
    return sched_schedule_head(s, c, p) ? p->node : -1;
}

#include "sched/plugins/preempt.h"

static const sched_config pre_cfg = {.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true,
                                     .preemption = true};

/* Pin class spec t to nodes labelled zone=`zone`. */
static void pin(tgroup *t, const char *zone) {
    t->sel[0] = (k8s_kv){intern("zone"), intern(zone)};
    t->g.node_selector = t->sel;
    t->g.nnode_selector = 1;
}

/* Bind pod `pod` of class c at time `at`; returns its node (-1: PostFilter ran). */
static int place_at(scheduler *s, uint32_t c, uint32_t pod, int64_t at, placement *p) {
    s->now = at;
    return place(s, c, pod, p);
}

/* The victims the PostFilter queued, in order (count returned). */
static size_t victims(scheduler *s, uint32_t *out, size_t max) {
    size_t n = 0;
    uint32_t v, by;
    while (preempt_take_victim(s, &v, &by))
        if (n < max) out[n++] = v;
    return n;
}

/* n0 (zone a): four 2-GPU pods of priority 0 started at 0, 1, 2, 3; n1
 * (zone b): two 4-GPU pods of priority 10. A 4-GPU pod of priority 100 is
 * nominated to n0 (lowest highest-victim priority) and evicts only the two
 * least important pods there (latest started): the first two are reprieved.
 * When they are gone it binds on its nominated node. */
static void test_victims_and_node(void **state) {
    (void)state;
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    mknode(&t[1], "n1", 64, 512, 8, "b");
    tgroup low, mid, high;
    mkgroup(&low, "low", 1, 1, 2);
    pin(&low, "a");
    mkgroup(&mid, "mid", 1, 1, 4);
    pin(&mid, "b");
    mid.g.priority = 10;
    mkgroup(&high, "high", 1, 1, 4);
    high.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, 1);
    sched_add_class(&s, &low.g, true);
    sched_add_class(&s, &mid.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[8];
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(place_at(&s, 0, i, i, &p[i]), 0);
    for (uint32_t i = 4; i < 6; i++) assert_int_equal(place_at(&s, 1, i, 0, &p[i]), 1);
    assert_int_equal(place_at(&s, 2, 6, 10, &p[6]), -1);
    uint32_t v[8];
    assert_int_equal(victims(&s, v, 8), 2);
    assert_int_equal(v[0], 2);   /* by importance: the earlier start first */
    assert_int_equal(v[1], 3);
    assert_int_equal(s.classes[2].nominated, 0);
    /* the same pod does not preempt again while its victims terminate on its nominated node */
    assert_false(preempt_post_filter(&s, 2, 6));
    /* the victims end: the class wakes and binds on n0 */
    sched_release(&s, 0, &p[2]);
    sched_release(&s, 0, &p[3]);
    uint32_t c, id;
    assert_true(sched_next(&s, &c, &id));
    assert_int_equal(c, 2);
    assert_int_equal(id, 6);
    assert_true(sched_schedule_head(&s, 2, &p[6]));
    assert_int_equal(p[6].node, 0);
    assert_int_equal(s.classes[2].nominated, -1);
    uint64_t att, pre, vic;
    preempt_counts(&s, &att, &pre, &vic);
    assert_int_equal(pre, 1);
    assert_int_equal(vic, 2);
    sched_free(&s);
}

/* preemptionPolicy: Never: the pod waits, nothing is evicted. */
static void test_never(void **state) {
    (void)state;
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    tgroup low, high;
    mkgroup(&low, "low", 1, 1, 8);
    mkgroup(&high, "high", 1, 1, 8);
    high.g.priority = 100;
    high.g.preempt_never = true;
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &pre_cfg, 1);
    sched_add_class(&s, &low.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[2];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 1, 1, 1, &p[1]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 0);
    assert_int_equal(s.classes[1].nominated, -1);
    sched_free(&s);
}

/* Equal or higher priority pods are never victims. */
static void test_equal_priority_not_victim(void **state) {
    (void)state;
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    tgroup a, b;
    mkgroup(&a, "a", 1, 1, 8);
    a.g.priority = 100;
    mkgroup(&b, "b", 1, 1, 8);
    b.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &pre_cfg, 1);
    sched_add_class(&s, &a.g, true);
    sched_add_class(&s, &b.g, true);
    sched_prepare(&s);
    placement p[2];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 1, 1, 1, &p[1]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 0);
    sched_free(&s);
}

/* One node, two 4-GPU pods of priority 0: "plain" started at 0, "guarded"
 * (disruption budget maxUnavailable 0 when `budget`) at 5. Without a budget
 * the later one (guarded) is the victim; with it, the budget-violating pod is
 * reprieved first, so plain is the victim. */
static void run_budget(bool budget, uint32_t want) {
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    tgroup plain, guarded, high;
    mkgroup(&plain, "plain", 1, 1, 4);
    mkgroup(&guarded, "guarded", 1, 1, 4);
    guarded.g.has_pdb = budget;
    guarded.g.pdb_max = true;
    guarded.g.pdb_value = 0;
    mkgroup(&high, "high", 1, 1, 4);
    high.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &pre_cfg, 1);
    sched_add_class(&s, &plain.g, true);
    sched_add_class(&s, &guarded.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[3];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 1, 1, 5, &p[1]), 0);
    assert_int_equal(place_at(&s, 2, 2, 9, &p[2]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 1);
    assert_int_equal(v[0], want);
    sched_free(&s);
}

static void test_budget_reprieved_first(void **state) {
    (void)state;
    run_budget(false, 1);
    run_budget(true, 0);
}

/* n0 holds an 8-GPU pod of priority 0 whose budget (minAvailable 1) forbids
 * its eviction; n1 one of priority 5 without a budget. Fewest violations
 * comes before the lowest priority: n1. */
static void test_fewest_violations_first(void **state) {
    (void)state;
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    mknode(&t[1], "n1", 64, 512, 8, "b");
    tgroup guarded, plain, high;
    mkgroup(&guarded, "guarded", 1, 1, 8);
    pin(&guarded, "a");
    guarded.g.has_pdb = true;
    guarded.g.pdb_value = 1;   /* minAvailable 1 */
    mkgroup(&plain, "plain", 1, 1, 8);
    pin(&plain, "b");
    plain.g.priority = 5;
    mkgroup(&high, "high", 1, 1, 8);
    high.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, 1);
    sched_add_class(&s, &guarded.g, true);
    sched_add_class(&s, &plain.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[3];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 1, 1, 0, &p[1]), 1);
    assert_int_equal(place_at(&s, 2, 2, 1, &p[2]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 1);
    assert_int_equal(v[0], 1);
    assert_int_equal(s.classes[2].nominated, 1);
    sched_free(&s);
}

/* Same priority, count and sum on both nodes: the node whose victims started
 * latest (n1, started at 10) is chosen, whatever the seeded offset. */
static void test_latest_start(void **state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        tnode t[2];
        k8s_node nodes[2];
        mknode(&t[0], "n0", 64, 512, 8, "a");
        mknode(&t[1], "n1", 64, 512, 8, "b");
        tgroup a, b, high;
        mkgroup(&a, "a", 1, 1, 8);
        pin(&a, "a");
        mkgroup(&b, "b", 1, 1, 8);
        pin(&b, "b");
        mkgroup(&high, "high", 1, 1, 8);
        high.g.priority = 100;
        scheduler s;
        sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, seed);
        sched_add_class(&s, &a.g, true);
        sched_add_class(&s, &b.g, true);
        sched_add_class(&s, &high.g, true);
        sched_prepare(&s);
        placement p[3];
        assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
        assert_int_equal(place_at(&s, 1, 1, 10, &p[1]), 1);
        assert_int_equal(place_at(&s, 2, 2, 20, &p[2]), -1);
        uint32_t v[2];
        assert_int_equal(victims(&s, v, 2), 1);
        assert_int_equal(v[0], 1);
        sched_free(&s);
    }
}

/* n0: two 4-GPU pods of priority 1 (sum 2 + 2*2^31); n1: one 8-GPU pod of
 * priority 1 (sum 1 + 2^31): equal highest priority, smaller sum wins: n1.
 * With n1's pod at priority 2 instead, n0 wins on the highest priority. */
static void run_sum(int32_t n1prio, int want_node) {
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    mknode(&t[1], "n1", 64, 512, 8, "b");
    tgroup a, b, high;
    mkgroup(&a, "a", 1, 1, 4);
    pin(&a, "a");
    a.g.priority = 1;
    mkgroup(&b, "b", 1, 1, 8);
    pin(&b, "b");
    b.g.priority = n1prio;
    mkgroup(&high, "high", 1, 1, 8);
    high.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, 3);
    sched_add_class(&s, &a.g, true);
    sched_add_class(&s, &b.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[4];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 0, 1, 0, &p[1]), 0);
    assert_int_equal(place_at(&s, 1, 2, 0, &p[2]), 1);
    assert_int_equal(place_at(&s, 2, 3, 5, &p[3]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), want_node == 0 ? 2 : 1);
    assert_int_equal(s.classes[2].nominated, want_node);
    sched_free(&s);
}

static void test_sum_then_highest(void **state) {
    (void)state;
    run_sum(1, 1);
    run_sum(2, 0);
}

/* pickOneNodeForPreemption (kubernetes v1.36, pkg/scheduler/framework/
 * preemption/preemption.go): after the fewest PDB violations, the lowest
 * highest-victim priority and the smallest sum of (priority + MaxInt32 + 1),
 * the node with the FEWEST victims wins. n0: a 4-GPU pod of priority 0 and
 * one of priority -2147483648 (its term in the sum is 0), started at 10;
 * n1: one 8-GPU pod of priority 0, started at 0. Highest 0 = 0, sums
 * 2^31 = 2^31, victims 2 > 1: n1, with one victim (pod 2). The next
 * criterion (latest start of the highest-priority victims) would pick n0. */
static void test_fewest_victims(void **state) {
    (void)state;
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    mknode(&t[1], "n1", 64, 512, 8, "b");
    tgroup a, lowest, b, high;
    mkgroup(&a, "a", 1, 1, 4);
    pin(&a, "a");
    mkgroup(&lowest, "lowest", 1, 1, 4);
    pin(&lowest, "a");
    lowest.g.priority = INT32_MIN;
    mkgroup(&b, "b", 1, 1, 8);
    pin(&b, "b");
    mkgroup(&high, "high", 1, 1, 8);
    high.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, 5);
    sched_add_class(&s, &a.g, true);
    sched_add_class(&s, &lowest.g, true);
    sched_add_class(&s, &b.g, true);
    sched_add_class(&s, &high.g, true);
    sched_prepare(&s);
    placement p[4];
    assert_int_equal(place_at(&s, 0, 0, 10, &p[0]), 0);
    assert_int_equal(place_at(&s, 1, 1, 10, &p[1]), 0);
    assert_int_equal(place_at(&s, 2, 2, 0, &p[2]), 1);
    assert_int_equal(place_at(&s, 3, 3, 20, &p[3]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 1);
    assert_int_equal(v[0], 2);
    assert_int_equal(s.classes[3].nominated, 1);
    sched_free(&s);
}

/* A second high-priority pod does not count on the room promised to the
 * first one's nomination (RunFilterPluginsWithNominatedPods): it preempts on
 * the other node. */
static void test_nominated_room_is_taken(void **state) {
    (void)state;
    tnode t[2];
    k8s_node nodes[2];
    mknode(&t[0], "n0", 64, 512, 8, "a");
    mknode(&t[1], "n1", 64, 512, 8, "b");
    tgroup a, b, h1, h2;
    mkgroup(&a, "a", 1, 1, 4);
    pin(&a, "a");
    mkgroup(&b, "b", 1, 1, 8);
    pin(&b, "b");
    b.g.priority = 50;
    mkgroup(&h1, "h1", 1, 1, 4);
    h1.g.priority = 100;
    mkgroup(&h2, "h2", 1, 1, 4);
    h2.g.priority = 100;
    scheduler s;
    sched_init(&s, flat(t, 2, nodes), 2, &pre_cfg, 1);
    sched_add_class(&s, &a.g, true);
    sched_add_class(&s, &b.g, true);
    sched_add_class(&s, &h1.g, true);
    sched_add_class(&s, &h2.g, true);
    sched_prepare(&s);
    placement p[6];
    assert_int_equal(place_at(&s, 0, 0, 0, &p[0]), 0);
    assert_int_equal(place_at(&s, 0, 1, 1, &p[1]), 0);
    assert_int_equal(place_at(&s, 1, 2, 0, &p[2]), 1);
    assert_int_equal(place_at(&s, 2, 3, 5, &p[3]), -1);
    uint32_t v[2];
    assert_int_equal(victims(&s, v, 2), 1);
    assert_int_equal(v[0], 1);                 /* n0's later pod */
    assert_int_equal(place_at(&s, 3, 4, 6, &p[4]), -1);
    assert_int_equal(victims(&s, v, 2), 1);
    /* n0 would need pod 0 too, but 4 GPUs there are promised to h1: n1 */
    assert_int_equal(v[0], 2);
    assert_int_equal(s.classes[3].nominated, 1);
    sched_free(&s);
}

/* 250 full nodes, one 8-GPU pod of priority 0 each, started at 0..249 s. The
 * dry run stops after max(10 % of 250, 100) = 100 candidates from a seeded
 * offset, so the victim is the latest started among some 100 nodes: never
 * one started before 99 s, and not always the latest of all (249 s). */
static void test_candidate_count(void **state) {
    (void)state;
    enum { N = 250 };
    static tnode t[N];
    static k8s_node nodes[N];
    static placement p[N + 1];
    char name[16];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "n%d", i);
        mknode(&t[i], name, 64, 512, 8, "a");
    }
    int not_latest = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tgroup low, high;
        mkgroup(&low, "low", 1, 1, 8);
        mkgroup(&high, "high", 1, 1, 8);
        high.g.priority = 100;
        scheduler s;
        sched_init(&s, flat(t, N, nodes), N, &pre_cfg, seed);
        sched_add_class(&s, &low.g, true);
        sched_add_class(&s, &high.g, true);
        sched_prepare(&s);
        for (uint32_t i = 0; i < N; i++) assert_true(place_at(&s, 0, i, (int64_t)i * 1000, &p[i]) >= 0);
        assert_int_equal(place_at(&s, 1, N, 300000, &p[N]), -1);
        uint32_t v[2];
        assert_int_equal(victims(&s, v, 2), 1);
        assert_true(v[0] >= 99);
        not_latest += v[0] != N - 1;
        assert_int_equal(s.classes[1].nominated, p[v[0]].node);
        sched_free(&s);
    }
    assert_true(not_latest > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_victims_and_node),
        cmocka_unit_test(test_never),
        cmocka_unit_test(test_equal_priority_not_victim),
        cmocka_unit_test(test_budget_reprieved_first),
        cmocka_unit_test(test_fewest_violations_first),
        cmocka_unit_test(test_latest_start),
        cmocka_unit_test(test_sum_then_highest), cmocka_unit_test(test_fewest_victims),
        cmocka_unit_test(test_nominated_room_is_taken),
        cmocka_unit_test(test_candidate_count),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
