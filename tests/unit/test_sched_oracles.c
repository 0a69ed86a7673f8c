/* test_sched_oracles.c -- scheduler behaviour only a number shows, with the
 * expected values worked out by hand (issue 19's surviving mutants):
 * NoExecute node taints filter like NoSchedule, ties between equally scored
 * nodes are broken at random (selectHost), BalancedAllocation's spread is
 * |f_cpu - f_mem| / 2, and a 100 Pi node's scores do not overflow. */
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
    k8s_resource_amount alloc[3];
    k8s_taint taint;
} tnode;

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_BINARY_SI)};
}

/* A node with `cpu` cores and `mem` bytes of memory. */
static void mknode(tnode *t, const char *name, int64_t cpu, int64_t mem) {
    memset(t, 0, sizeof *t);
    t->node.meta.name = intern(name);
    t->alloc[0] = amt("cpu", cpu);
    t->alloc[1] = amt("memory", mem);
    t->alloc[2] = amt("pods", 110);
    t->node.allocatable = t->alloc;
    t->node.nallocatable = 3;
}

typedef struct tgroup {
    pod_group_spec g;
    k8s_resource_amount req[2];
    k8s_toleration tol[1];
} tgroup;

static void mkgroup(tgroup *t, const char *name, int64_t cpu, int64_t mem) {
    memset(t, 0, sizeof *t);
    t->g.name = intern(name);
    t->g.count = 1000;
    t->req[0] = amt("cpu", cpu);
    t->req[1] = amt("memory", mem);
    t->g.requests = t->req;
    t->g.nrequests = 2;
}

static k8s_node *flat(tnode *t, size_t n, k8s_node *out) {
    for (size_t i = 0; i < n; i++) out[i] = t[i].node;
    return out;
}

static const sched_config least = {.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true};

static int place(scheduler *s, uint32_t c, uint32_t pod) {
    placement p;
    sched_enqueue(s, c, pod);
    uint32_t cc, id;
    assert_true(sched_next(s, &cc, &id));
    return sched_schedule_head(s, c, &p) ? p.node : -1;
}

#define GI (1LL << 30)

/* A NoExecute taint keeps untolerating pods off the node, exactly as
 * NoSchedule does (TaintToleration filters both effects); a NoSchedule
 * toleration does not tolerate it, a NoExecute one does. */
static void test_no_execute_taint_filters(void **state) {
    (void)state;
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "tainted", 8, 16 * GI);
    t[0].taint = (k8s_taint){.key = intern("maintenance"), .value = intern("now"), .effect = TAINT_NO_EXECUTE};
    t[0].node.taints = &t[0].taint;
    t[0].node.ntaints = 1;
    tgroup plain, wrong, right;
    mkgroup(&plain, "plain", 1, GI);
    mkgroup(&wrong, "tolerates-noschedule", 1, GI);
    wrong.tol[0] = (k8s_toleration){.key = intern("maintenance"), .op = TOL_OP_EXISTS, .has_op = true,
                                    .effect = TAINT_NO_SCHEDULE, .has_effect = true};
    wrong.g.tolerations = wrong.tol;
    wrong.g.ntolerations = 1;
    mkgroup(&right, "tolerates-noexecute", 1, GI);
    right.tol[0] = wrong.tol[0];
    right.tol[0].effect = TAINT_NO_EXECUTE;
    right.g.tolerations = right.tol;
    right.g.ntolerations = 1;
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &least, 1);
    sched_add_class(&s, &plain.g, true);
    sched_add_class(&s, &wrong.g, true);
    sched_add_class(&s, &right.g, true);
    sched_prepare(&s);
    assert_int_equal(place(&s, 0, 0), -1);
    assert_int_equal(place(&s, 1, 1), -1);
    assert_int_equal(place(&s, 2, 2), 0);
    strbuf why = {0};
    sched_explain(&s, 0, &why);
    assert_string_equal(sb_str(&why), "0/1 nodes are available: 1 node(s) had untolerated taint {maintenance: now}.");
    sb_free(&why);
    sched_free(&s);
}

/* Four identical empty nodes tie; over 400 scheduler seeds the first pod
 * lands on each about 100 times (binomial sd ~8.7; bounds at > 5 sd). A
 * scheduler that always takes the first best node puts all 400 on node 0. */
static void test_ties_are_broken_at_random(void **state) {
    (void)state;
    tnode t[4];
    k8s_node nodes[4];
    char name[8];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "n%d", i);
        mknode(&t[i], name, 8, 16 * GI);
    }
    tgroup g;
    mkgroup(&g, "w", 1, GI);
    int seen[4] = {0};
    for (uint64_t seed = 1; seed <= 400; seed++) {
        scheduler s;
        sched_init(&s, flat(t, 4, nodes), 4, &least, seed);
        sched_add_class(&s, &g.g, true);
        sched_prepare(&s);
        int n = place(&s, 0, 0);
        assert_true(n >= 0 && n < 4);
        seen[n]++;
        sched_free(&s);
    }
    for (int i = 0; i < 4; i++) {
        assert_true(seen[i] > 55);
        assert_true(seen[i] < 145);
    }
}

/* BalancedAllocation = 100 * (1 - |f_cpu - f_mem| / 2), by hand:
 * node 4 cpu / 8 Gi, pod 1 cpu / 6 Gi: f = 0.25 and 0.75, spread 0.25 -> 75;
 * LeastAllocated: cpu (4000-1000)*100/4000 = 75, memory (8-6)*100/8 = 25 ->
 * 50; total 125 (a doubled spread would give 100). */
static void test_balanced_allocation_spread(void **state) {
    (void)state;
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "n0", 4, 8 * GI);
    tgroup g;
    mkgroup(&g, "skewed", 1, 6 * GI);
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    assert_int_equal(s.classes[0].score[0], 125);
    sched_free(&s);
}

/* 100 Pi of memory: (alloc - req) * 100 overflows int64 in upstream's
 * formula. Pod 1 cpu / 10 Pi on an empty 64-cpu / 100 Pi node, by hand:
 * cpu (64000-1000)*100/64000 = 98, memory 90*100/100 = 90 -> 94;
 * balanced: f = 1/64 and 0.1, spread 0.0421875 -> 95 (truncated); 189. */
static void test_huge_memory_scores(void **state) {
    (void)state;
    const int64_t PI = 1LL << 50;
    tnode t[1];
    k8s_node nodes[1];
    mknode(&t[0], "huge", 64, 100 * PI);
    tgroup g;
    mkgroup(&g, "p", 1, 10 * PI);
    scheduler s;
    sched_init(&s, flat(t, 1, nodes), 1, &least, 1);
    sched_add_class(&s, &g.g, true);
    sched_prepare(&s);
    assert_int_equal(s.classes[0].score[0], 189);
    sched_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_execute_taint_filters),
        cmocka_unit_test(test_ties_are_broken_at_random),
        cmocka_unit_test(test_balanced_allocation_spread),
        cmocka_unit_test(test_huge_memory_scores),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
