/* test_sched_walk.c -- the scheduler's cached node walk (sched.c find_best:
 * whole words of tied nodes, per-word best scores kept by refresh, the
 * changed-node list, the bind/release skips of node_changed) checked against
 * the plain algorithm it stands for, step by step over random arrivals,
 * schedules and releases on fleets of mixed nodes:
 *  - kube-scheduler v1.33 pkg/scheduler/schedule_one.go: findNodesThatPassFilters
 *    visits nodes from nextStartNodeIndex, wrapping, until numFeasibleNodesToFind
 *    have passed; the index then advances by the nodes processed; selectHost
 *    picks uniformly among the best-scored. Here: a naive walk over every node
 *    with a copy of the scheduler's RNG gives the node and the next start index
 *    each cycle must give (same draw: rng_below(ties) when ties > 1).
 *  - the cached answers are those recomputed from scratch: after a flush each
 *    node's fits bit agrees with the filters (sched_first_failing) and the
 *    scores with sched_refresh_class's full recomputation and the plugins' own
 *    Score hooks, and every word whose best score is known has that best and
 *    the nodes that have it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sched/framework.h"
#include "sched/plugins/preempt.h"
#include "sched/sched.h"
#include "util/intern.h"
#include "util/rng.h"

#define GI (1LL << 30)
#define MAXN 1100

typedef struct fleet {
    k8s_node nodes[MAXN];
    k8s_resource_amount alloc[MAXN][4];
    size_t n;
} fleet;

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_BINARY_SI)};
}

/* n nodes of four sizes (cpu, memory, 0/4/8 GPUs) in a seeded order. */
static void mkfleet(fleet *f, size_t n, uint64_t seed) {
    static const int64_t cpu[4] = {16, 32, 64, 128}, mem[4] = {64, 128, 512, 1024}, gpus[4] = {0, 4, 8, 8};
    rng r;
    rng_seed(&r, seed);
    memset(f, 0, sizeof *f);
    f->n = n;
    for (size_t i = 0; i < n; i++) {
        int k = (int)rng_below(&r, 4);
        char name[32];
        snprintf(name, sizeof name, "n-%zu", i);
        f->alloc[i][0] = amt("cpu", cpu[k]);
        f->alloc[i][1] = amt("memory", mem[k] * GI);
        f->alloc[i][2] = amt("pods", 110);
        f->alloc[i][3] = amt("nvidia.com/gpu", gpus[k]);
        f->nodes[i].meta.name = intern(name);
        f->nodes[i].allocatable = f->alloc[i];
        f->nodes[i].nallocatable = 4;
    }
}

typedef struct tgroup {
    pod_group_spec g;
    k8s_resource_amount req[2], gpu;
} tgroup;

/* Eight pod shapes: CPU-only, 1, 2, 4, 8 GPUs with CPU and memory in
 * proportion, and 1 GPU with no memory and 0, 200m or 100m CPU. Scoring
 * counts a request of 0 as 100m CPU and 200Mi memory, so a node running the
 * first two of those and one running two of the third request the same but
 * score differently (the node states of sched_states.c must tell them apart). */
#define NGROUPS 8
static void mkgroups(tgroup *t) {
    static const int64_t gpus[NGROUPS] = {0, 1, 2, 4, 8, 1, 1, 1}, small_milli[NGROUPS] = {[6] = 200, [7] = 100};
    for (int k = 0; k < NGROUPS; k++) {
        char name[32];
        snprintf(name, sizeof name, "g%d", k);
        memset(&t[k], 0, sizeof t[k]);
        t[k].g.name = intern(name);
        t[k].g.count = 1000;
        t[k].req[0] = amt("cpu", k ? 6 * gpus[k] : 3);
        t[k].req[1] = amt("memory", (k ? 40 * gpus[k] : 20) * GI);
        t[k].g.requests = t[k].req;
        t[k].g.nrequests = 2;
        if (k >= 5) {   /* the small ones: cpu in millicores or none, no memory */
            char milli[16];
            snprintf(milli, sizeof milli, "%dm", (int)small_milli[k]);
            t[k].req[0].name = intern("cpu");
            assert_int_equal(quantity_parse(milli, strlen(milli), &t[k].req[0].value, NULL), 0);
            t[k].g.nrequests = k == 5 ? 0 : 1;
        }
        if (gpus[k]) {
            t[k].gpu = amt("nvidia.com/gpu", gpus[k]);
            t[k].g.dp_resources = &t[k].gpu;
            t[k].g.ndp_resources = 1;
        }
    }
}

/* What one cycle of class ci must do: the node (-1: none fits) and the next start index. */
static int naive_choice(scheduler *s, uint32_t ci, size_t *next_start) {
    const pod_class *c = &s->classes[ci];
    size_t n = s->nnodes, want = sched_num_nodes_to_find(s), start = s->next_start, found = 0, last = 0, nt = 0;
    static uint32_t ties[MAXN];
    int32_t best = INT32_MIN;
    for (size_t j = 0; j < n && found < want; j++) {
        size_t i = (start + j) % n;
        if (!((c->fits[i >> 6] >> (i & 63)) & 1)) continue;
        found++;
        last = j;
        if (c->score[i] > best) { best = c->score[i]; nt = 0; }
        if (c->score[i] == best) ties[nt++] = (uint32_t)i;
    }
    *next_start = start;
    if (!found) return -1;
    rng copy = s->rng;
    size_t r = nt > 1 ? (size_t)rng_below(&copy, nt) : 0;
    *next_start = (start + (found < want ? n : last + 1)) % n;
    return (int)ties[r];
}

/* Class ci's cache (flushed) against a fresh evaluation of every node. */
static void check_cache(scheduler *s, uint32_t ci) {
    pod_class *c = &s->classes[ci];
    size_t n = s->nnodes;
    static int32_t score[MAXN];
    for (size_t i = 0; i < n; i++) {
        bool fits = (c->fits[i >> 6] >> (i & 63)) & 1;
        assert_int_equal(fits, c->prefiltered && sched_first_failing(s, ci, i) < 0);
        if (!fits) {
            assert_int_equal(c->score[i], INT32_MIN);
            continue;
        }
        int64_t total = 0;   /* the plugins' own Score hooks (refresh inlines them when s->plain) */
        for (size_t p = 0; p < s->nplugins; p++)
            if (s->plugins[p]->score && s->weights[p]) total += s->weights[p] * s->plugins[p]->score(s, c, i);
        assert_int_equal(c->score[i], total);
    }
    for (size_t w = 0; (w + 1) * 64 <= n; w++) {
        if (!c->wbest[w]) continue;
        int32_t m = INT32_MIN;
        uint64_t best = 0;
        for (size_t i = w * 64; i < w * 64 + 64; i++) m = c->score[i] > m ? c->score[i] : m;
        for (size_t i = w * 64; i < w * 64 + 64; i++) best |= (uint64_t)(c->score[i] == m) << (i & 63);
        assert_int_equal(c->wmax[w], m);
        assert_int_equal(c->wbest[w], best);
    }
    memcpy(score, c->score, n * sizeof *score);
    sched_refresh_class(s, ci);   /* every node recomputed: the same scores */
    assert_memory_equal(score, c->score, n * sizeof *score);
}

typedef struct running {
    uint32_t cls;
    placement p;
} running;

/* steps random events on n nodes under cfg; returns how many pods bound. */
static size_t drive(const sched_config *cfg, size_t n, uint64_t seed, int steps) {
    static fleet f;
    static running run[20000];
    tgroup g[NGROUPS];
    mkfleet(&f, n, seed);
    mkgroups(g);
    scheduler s;
    sched_init(&s, f.nodes, n, cfg, seed);
    for (int k = 0; k < NGROUPS; k++) assert_int_equal(sched_add_class(&s, &g[k].g, true), k);
    sched_prepare(&s);
    rng r;
    rng_seed(&r, seed ^ 0x5eed);
    size_t nrun = 0, bound = 0;
    uint32_t next_pod = 0;
    for (int step = 0; step < steps; step++) {
        uint64_t a = rng_below(&r, 100);
        if (a < 45) {
            sched_enqueue(&s, (uint32_t)rng_below(&r, NGROUPS), next_pod++);
        } else if (a < 85) {
            uint32_t ci, pod;
            if (!sched_next(&s, &ci, &pod)) continue;
            sched_flush_class(&s, ci);
            check_cache(&s, ci);
            size_t want_start;
            int want = naive_choice(&s, ci, &want_start);
            running *x = &run[nrun];
            bool ok = sched_schedule_head(&s, ci, &x->p);
            assert_int_equal(ok, want >= 0);
            assert_int_equal(s.next_start, want_start);
            if (!ok) continue;
            assert_int_equal(x->p.node, want);
            x->cls = ci;
            nrun++;
            bound++;
        } else {   /* one pod ends, or now and then a burst of them (over the changed-node list's 64) */
            size_t k = a < 98 ? 1 : 150;
            for (; k > 0 && nrun > 0; k--) {
                size_t i = (size_t)rng_below(&r, nrun);
                sched_release(&s, run[i].cls, &run[i].p);
                run[i] = run[--nrun];
            }
        }
        assert_true(nrun < sizeof run / sizeof *run);
        for (uint32_t ci = 0; a >= 85 && ci < NGROUPS; ci++) {   /* a blocked class fits nowhere, else it was woken */
            if (!s.classes[ci].blocked) continue;
            assert_int_equal(s.classes[ci].nfit, 0);
            for (size_t i = 0; i < n; i++) assert_true(sched_first_failing(&s, ci, i) >= 0);
        }
    }
    sched_free(&s);
    return bound;
}

static const sched_config least = {.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true};
static const sched_config most = {.strategy = SCORE_MOST_ALLOCATED};
static const sched_config unscored = {.weights_set = true};   /* every score weight 0: all fitting nodes tie */
/* RequestedToCapacityRatio: not inlined (the plugins' hooks score) */
static const shape_point ratio_shape[] = {{.utilization = 0, .score = 0}, {.utilization = 100, .score = 10}};
static const sched_config ratio = {.strategy = SCORE_REQUESTED_TO_CAPACITY_RATIO, .balanced_allocation = true,
                                   .shape = ratio_shape, .nshape = 2};

/* Scores differ from node to node (LeastAllocated + BalancedAllocation). */
static void test_walk_least_allocated(void **state) {
    (void)state;
    assert_true(drive(&least, 1000, 1, 6000) > 1000);
    assert_true(drive(&least, 777, 2, 6000) > 1000);
}

/* Weights other than 1 (profile weights, scoring resources' weights), and a
 * strategy refresh does not inline: the same walk, scores as the plugins give. */
static void test_walk_weighted(void **state) {
    (void)state;
    /* LeastAllocated 3 + BalancedAllocation 2, and memory weighing 2 for cpu's 1 (names interned, as the loader's) */
    const score_resource cpu1_mem2[] = {{.name = intern("cpu"), .weight = 1}, {.name = intern("memory"), .weight = 2}};
    const sched_config weighted = {.strategy = SCORE_LEAST_ALLOCATED, .balanced_allocation = true, .weights_set = true,
                                   .fit_weight = 3, .balanced_weight = 2, .score_resources = cpu1_mem2,
                                   .nscore_resources = 2};
    assert_true(drive(&weighted, 1000, 8, 6000) > 1000);
    assert_true(drive(&ratio, 900, 9, 6000) > 1000);
}

/* MostAllocated: the best nodes fill up first. */
static void test_walk_most_allocated(void **state) {
    (void)state;
    assert_true(drive(&most, 1000, 3, 6000) > 1000);
}

/* Nothing scores: every feasible node ties (bench_dp's fleet), and node_changed
 * skips a class on a bind where the node does not fit it and on a release
 * where it does. */
static void test_walk_unscored(void **state) {
    (void)state;
    assert_true(drive(&unscored, 1000, 4, 6000) > 1000);
    assert_true(drive(&unscored, 1090, 5, 6000) > 1000);
}

/* Under 100 nodes every node is searched; 130 nodes: 100 of them. */
static void test_walk_small(void **state) {
    (void)state;
    assert_true(drive(&least, 70, 6, 4000) > 300);
    assert_true(drive(&unscored, 130, 7, 4000) > 300);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_least_allocated),
        cmocka_unit_test(test_walk_most_allocated),
        cmocka_unit_test(test_walk_weighted),
        cmocka_unit_test(test_walk_unscored),
        cmocka_unit_test(test_walk_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
