/* test_policy_cycle.c -- the placement policies' scheduling cycle in the one
 * scheduler (sched.h + plugin_policy.c over the GPU view, gpu_view.h), on
 * hand-built nodes that offer `alibabacloud.com/gpu-milli` (1000 per GPU)
 * and pod classes asking for it. The four cycle tests of the former
 * policy_sched (deleted in a875d38), kept to what they asserted:
 *  - ties go to the node whose name sorts first (cfg.tie_rank), placements
 *    change the next cycle's state, release gives everything back;
 *  - GPU-model constraints (gpu_spec -> the class's models mask), no fit;
 *  - Random picks only feasible nodes and is seeded;
 *  - the lazily synced F_n equals a full recomputation after a long random
 *    mixed sequence of placements and releases under FGD. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sched/policies/policy.h"
#include "sched/sched.h"
#include "util/intern.h"

#define MILLI "alibabacloud.com/gpu-milli"

typedef struct tnode {
    k8s_node node;
    k8s_resource_amount alloc[4];
} tnode;

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* A node `name` with `cpu` cores, 256 GiB, 110 pods and `gpus` GPUs as gpu-milli. */
static void mknode(tnode *t, const char *name, int64_t cpu, int gpus) {
    memset(t, 0, sizeof *t);
    t->node.meta.name = intern(name);
    t->alloc[0] = amt("cpu", cpu);
    t->alloc[1] = amt("memory", (int64_t)256 << 30);
    t->alloc[2] = amt("pods", 110);
    t->alloc[3] = amt(MILLI, 1000 * (int64_t)gpus);
    t->node.allocatable = t->alloc;
    t->node.nallocatable = gpus ? 4 : 3;
}

typedef struct tgroup {
    pod_group_spec g;
    k8s_resource_amount req[2], dp[1];
} tgroup;

/* A pod group: `cpu_milli` millicores, 1 GiB, `milli` gpu-milli (0: CPU only). */
static void mkgroup(tgroup *t, const char *name, int64_t cpu_milli, int64_t milli) {
    memset(t, 0, sizeof *t);
    t->g.name = intern(name);
    t->g.count = 1000;
    char cpu[32];
    snprintf(cpu, sizeof cpu, "%lldm", (long long)cpu_milli);
    t->req[0].name = intern("cpu");
    const char *qerr;
    assert_int_equal(quantity_parse(cpu, strlen(cpu), &t->req[0].value, &qerr), 0);
    t->req[1] = amt("memory", (int64_t)1 << 30);
    t->g.requests = t->req;
    t->g.nrequests = 2;
    if (milli) {
        t->dp[0] = amt(MILLI, milli);
        t->g.dp_resources = t->dp;
        t->g.ndp_resources = 1;
        t->g.has_dp = true;
    }
}

/* The trace settings (engine/sim.c placement_config): policy only, every node,
 * ties by rank, no back-off; `openb` adds the Open-Gpu-Share filter. */
static sched_config policy_cfg(const policy *pol, const uint32_t *rank, bool openb) {
    return (sched_config){.strategy = SCORE_LEAST_ALLOCATED, .weights_set = true, .percentage_of_nodes_to_score = 100,
                          .policy = pol, .policy_weight = 1000, .tie_rank = rank, .openb_filter = openb};
}

static uint32_t next_pod;

/* Enqueue one pod of class c and run its cycle; the node or -1. */
static int place(scheduler *s, uint32_t c, placement *p) {
    uint32_t pod = next_pod++;
    sched_enqueue(s, c, pod);
    uint32_t cc, id;
    assert_true(sched_next(s, &cc, &id));
    assert_int_equal(cc, c);
    assert_int_equal(id, pod);
    return sched_schedule_head(s, c, p) ? p->node : -1;
}

static double frag_sum(scheduler *s) {
    gpu_view_sync(&s->gv);
    double f = 0;
    for (size_t i = 0; i < s->nnodes; i++) f += frag_node(&s->gv.nodes[i], s->typical_in);
    return f;
}

/* BestFit on three 2-GPU nodes listed as n-b, n-a, n-c (ranks 1, 0, 2). */
static void test_cycle_ties_and_release(void **state) {
    (void)state;
    tnode t[3];
    mknode(&t[0], "n-b", 64, 2);
    mknode(&t[1], "n-a", 64, 2);
    mknode(&t[2], "n-c", 64, 2);
    k8s_node nodes[3] = {t[0].node, t[1].node, t[2].node};
    static const uint32_t rank[3] = {1, 0, 2};
    tgroup share, whole;
    mkgroup(&share, "share250", 4000, 250);
    mkgroup(&whole, "one-gpu", 4000, 1000);
    sched_config cfg = policy_cfg(&policy_bestfit, rank, false);
    scheduler s;
    sched_init(&s, nodes, 3, &cfg, 1);
    assert_int_equal(sched_add_class(&s, &share.g, true), 0);
    assert_int_equal(sched_add_class(&s, &whole.g, true), 1);
    sched_prepare(&s);
    assert_int_equal(s.classes[0].shape.ngpu, 1);
    assert_int_equal(s.classes[0].shape.milli, 250);
    assert_int_equal(s.classes[1].shape.milli, 1000);
    assert_int_equal(s.gv.total_milli, 6000);
    double f0 = frag_sum(&s);
    assert_float_equal(s.gv.frag_total, f0, 1e-9);
    placement p[4];
    /* 1: all three idle, equal BestFit scores: the first name, n-a (index 1),
     *    GPU 0 (best rule: least free that fits, lowest index on equal) */
    assert_int_equal(place(&s, 0, &p[0]), 1);
    assert_int_equal(p[0].gpus, 0x1);
    assert_int_equal(s.gv.used_milli, 250);
    assert_int_equal(s.gv.idle_milli, 6000 - 250);
    assert_int_equal(s.gv.nodes[1].free[0], 750);
    /* 2: n-a now has less left: best fit packs onto it, and onto GPU 0 (750 left < 1000) */
    assert_int_equal(place(&s, 0, &p[1]), 1);
    assert_int_equal(p[1].gpus, 0x1);
    assert_int_equal(s.gv.nodes[1].free[0], 500);
    /* 3: a whole GPU: n-a still has GPU 1 fully free and the least left */
    assert_int_equal(place(&s, 1, &p[2]), 1);
    assert_int_equal(p[2].gpus, 0x2);
    assert_int_equal(s.gv.nodes[1].free[1], 0);
    /* 4: n-a has no fully free GPU; n-b and n-c tie: n-b (index 0) sorts first; GPU 0 */
    assert_int_equal(place(&s, 1, &p[3]), 0);
    assert_int_equal(p[3].gpus, 0x1);
    assert_int_equal(s.gv.used_milli, 250 + 250 + 1000 + 1000);
    assert_int_equal(s.gv.idle_milli, 6000 - 2500);
    double f_mid = frag_sum(&s);
    assert_float_equal(s.gv.frag_total, f_mid, 1e-6);
    assert_true(f_mid > f0);   /* n-a's 500m on GPU 0 cannot take a whole GPU: fragmented */
    /* release in another order: everything comes back */
    sched_release(&s, 1, &p[3]);
    sched_release(&s, 1, &p[2]);
    sched_release(&s, 0, &p[0]);
    sched_release(&s, 0, &p[1]);
    assert_int_equal(s.gv.used_milli, 0);
    assert_int_equal(s.gv.idle_milli, 6000);
    assert_float_equal(frag_sum(&s), f0, 1e-9);
    assert_float_equal(s.gv.frag_total, f0, 1e-9);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.gv.nodes[i].free[0], 1000);
        assert_int_equal(s.gv.nodes[i].free[1], 1000);
        assert_int_equal(s.gv.nodes[i].cpu_left, 64000);
        assert_int_equal(s.gv.nodes[i].naff, 0);
        assert_int_equal(s.used[i * s.nres + RES_CPU], 0);
    }
    /* and the first placement is the same again */
    assert_int_equal(place(&s, 0, &p[0]), 1);
    assert_int_equal(p[0].gpus, 0x1);
    sched_free(&s);
}

/* FGD with a GPU-model constraint: two A100 nodes of 2 GPUs and one T4 node
 * of 1 GPU; a class whose gpu_spec names T4 may use node 2 only. */
static void test_cycle_models(void **state) {
    (void)state;
    tnode t[3];
    mknode(&t[0], "a", 64, 2);
    mknode(&t[1], "b", 64, 2);
    mknode(&t[2], "c", 64, 1);
    k8s_node nodes[3] = {t[0].node, t[1].node, t[2].node};
    const gpu_view_node gn[3] = {{2, intern("A100")}, {2, intern("A100")}, {1, intern("T4")}};
    static const uint32_t rank[3] = {0, 1, 2};
    tgroup typed;
    mkgroup(&typed, "t4-only", 4000, 1000);
    typed.g.gpu_spec = intern("T4");
    sched_config cfg = policy_cfg(&policy_fgd, rank, false);
    cfg.gpu_nodes = gn;
    scheduler s;
    sched_init(&s, nodes, 3, &cfg, 1);
    sched_add_class(&s, &typed.g, true);
    sched_prepare(&s);
    assert_int_equal(s.gv.nmodels, 2);
    assert_int_equal(gpu_view_model_id(&s.gv, intern("T4")), 1);
    assert_int_equal(s.classes[0].shape.models, 0x2);   /* model id 1 only */
    assert_int_equal(s.classes[0].nfit, 1);
    placement p, q;
    assert_int_equal(place(&s, 0, &p), 2);
    assert_int_equal(p.gpus, 0x1);
    assert_int_equal(place(&s, 0, &q), -1);   /* its only GPU is taken; the A100s never qualify */
    assert_true(s.classes[0].blocked);
    strbuf why = {0};
    sched_explain(&s, 0, &why);
    assert_string_equal(sb_str(&why), "0/3 nodes are available: 1 Insufficient alibabacloud.com/gpu-milli, "
                                      "2 Insufficient free GPU (placement policy).");
    sb_free(&why);
    /* the T4 comes back: the class wakes and goes there again */
    sched_release(&s, 0, &p);
    assert_false(s.classes[0].blocked);
    uint32_t c, id;
    assert_true(sched_next(&s, &c, &id));
    assert_true(sched_schedule_head(&s, c, &q));
    assert_int_equal(q.node, 2);
    sched_free(&s);
}

/* Random over six 8-GPU nodes a..f where d has no GPU: 60 sharing pods. */
static void random_run(uint64_t seed, const uint32_t *rank, int hits[6], int32_t seq[60]) {
    tnode t[6];
    const char *names[6] = {"a", "b", "c", "d", "e", "f"};
    for (int i = 0; i < 6; i++) mknode(&t[i], names[i], 64, i == 3 ? 0 : 8);
    k8s_node nodes[6];
    for (int i = 0; i < 6; i++) nodes[i] = t[i].node;
    tgroup share;
    mkgroup(&share, "share250", 500, 250);
    sched_config cfg = policy_cfg(&policy_random, rank, false);
    scheduler s;
    sched_init(&s, nodes, 6, &cfg, seed);
    sched_add_class(&s, &share.g, true);
    sched_prepare(&s);
    assert_int_equal(s.classes[0].nfit, 5);
    memset(hits, 0, 6 * sizeof *hits);
    for (int k = 0; k < 60; k++) {
        placement p;
        int n = place(&s, 0, &p);
        assert_true(n >= 0 && n < 6);
        assert_int_equal(__builtin_popcount(p.gpus), 1);   /* one GPU of the node's 8 */
        assert_true(p.gpus < 0x100);
        hits[n]++;
        seq[k] = n;
    }
    int64_t used = 0;
    for (int i = 0; i < 6; i++) used += s.gv.nodes[i].ngpu * 1000 - gs_free_total(&s.gv.nodes[i]);
    assert_int_equal(used, 60 * 250);
    sched_free(&s);
}

static void test_cycle_random(void **state) {
    (void)state;
    static const uint32_t rank[6] = {0, 1, 2, 3, 4, 5};
    for (int mode = 0; mode < 2; mode++) {   /* ties by rank (trace settings) and selectHost (no rank) */
        const uint32_t *r = mode ? NULL : rank;
        int hits[3][6];
        int32_t seq[3][60];
        random_run(7, r, hits[0], seq[0]);
        random_run(7, r, hits[1], seq[1]);
        random_run(8, r, hits[2], seq[2]);
        assert_memory_equal(seq[0], seq[1], sizeof seq[0]);   /* same seed, same picks */
        assert_memory_not_equal(seq[0], seq[2], sizeof seq[0]);   /* another seed, other picks */
        assert_int_equal(hits[0][3], 0);                      /* d is never feasible */
        int nodes_used = 0;
        for (int i = 0; i < 6; i++) nodes_used += hits[0][i] > 0;
        assert_int_equal(nodes_used, 5);                      /* spread over every feasible node */
        for (int i = 0; i < 6; i++) assert_true(i == 3 || hits[0][i] >= 4);   /* 12 expected each */
    }
    assert_ptr_equal(policy_find("gpu-packing"), &policy_gpu_packing);
    assert_null(policy_find("tetris"));
}

/* FGD over 12 nodes (8, 2 or 4 GPUs; 32..56 cores) and five shapes, 400
 * random steps (a third releases): every cycle's node and GPUs equal a
 * fresh scoring of every node (first name among the best), and after every
 * step the lazily synced F_n, frag_total and idle milli equal a full
 * recomputation over a mirror of the node states. */
static void test_incremental_frag(void **state) {
    (void)state;
    enum { N = 12, K = 5, STEPS = 400 };
    tnode t[N];
    k8s_node nodes[N];
    uint32_t rank[N];
    char names[N][4];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "%c", 'a' + i);
        mknode(&t[i], names[i], 32 + 8 * (i % 4), i % 3 == 0 ? 8 : i % 3 == 1 ? 2 : 4);
        nodes[i] = t[i].node;
        rank[i] = (uint32_t)i;
    }
    tgroup g[K];
    mkgroup(&g[0], "s300", 4000, 300);
    mkgroup(&g[1], "s650", 8000, 650);
    mkgroup(&g[2], "g1", 6000, 1000);
    mkgroup(&g[3], "g2", 16000, 2000);
    mkgroup(&g[4], "cpu", 12000, 0);
    sched_config cfg = policy_cfg(&policy_fgd, rank, true);
    cfg.drop_unschedulable = true;   /* a pod that fits nowhere is dropped, as under profile openb-artifact */
    scheduler s;
    sched_init(&s, nodes, N, &cfg, 5);
    for (int k = 0; k < K; k++) sched_add_class(&s, &g[k].g, true);
    sched_prepare(&s);
    assert_int_equal(s.classes[3].shape.ngpu, 2);
    assert_int_equal(s.classes[3].shape.milli, 1000);
    assert_int_equal(s.typical_in->n, K);
    gs_node mirror[N];
    memcpy(mirror, s.gv.nodes, sizeof mirror);
    typedef struct { placement p; int k; } placed_pod;
    placed_pod placed[STEPS];
    int np = 0, placements = 0, misses = 0;
    rng r;
    rng_seed(&r, 11);
    for (int step = 0; step < STEPS; step++) {
        if (np > 0 && rng_below(&r, 3) == 0) {   /* release a random placed pod */
            int j = (int)rng_below(&r, (uint64_t)np);
            gs_pod shape = s.classes[placed[j].k].shape;
            gs_give(&mirror[placed[j].p.node], &shape, placed[j].p.gpus);
            sched_release(&s, (uint32_t)placed[j].k, &placed[j].p);
            placed[j] = placed[--np];
        } else {
            int k = (int)rng_below(&r, K);
            gs_pod shape = s.classes[k].shape;
            /* reference: F_n afresh, score every node that fits, first name among the best */
            double f[N];
            for (int i = 0; i < N; i++) f[i] = frag_node(&mirror[i], s.typical_in);
            policy_ctx ctx = {.typical = s.typical_in, .node_frag = f, .max_cpu = 56000, .max_gpu = 8000};
            int best = -1, want = -1;
            uint32_t want_g = 0;
            for (int i = 0; i < N; i++) {
                if (!gs_fits(&mirror[i], &shape)) continue;
                uint32_t gi;
                int sc = policy_fgd.score(&ctx, (size_t)i, &mirror[i], &shape, &gi);
                if (sc > best) {
                    best = sc;
                    want = i;
                    want_g = gi;
                }
            }
            placement p;
            int got = place(&s, (uint32_t)k, &p);
            assert_int_equal(got, want);
            if (got >= 0) {
                assert_int_equal(p.gpus, want_g);
                gs_take(&mirror[got], &shape, p.gpus);
                placed[np++] = (placed_pod){p, k};
                placements++;
            } else {
                misses++;   /* dropped (drop_unschedulable): the class stays in the queue */
                assert_false(s.classes[k].blocked);
            }
        }
        gpu_view_sync(&s.gv);
        int64_t idle = 0;
        double total = 0;
        for (int i = 0; i < N; i++) {
            assert_memory_equal(s.gv.nodes[i].free, mirror[i].free, sizeof mirror[i].free);
            assert_int_equal(s.gv.nodes[i].cpu_left, mirror[i].cpu_left);
            double fi = frag_node(&mirror[i], s.typical_in);
            assert_float_equal(s.gv.frag[i], fi, 1e-9);
            total += fi;
            idle += gs_free_total(&mirror[i]);
        }
        assert_int_equal(s.gv.idle_milli, idle);
        assert_int_equal(s.gv.used_milli + s.gv.idle_milli, s.gv.total_milli);
        assert_float_equal(s.gv.frag_total, total, 1e-6);
    }
    print_message("incremental F_n: %d placements, %d without a node, %d still placed\n", placements, misses, np);
    assert_true(placements > 150);
    assert_true(np > 20);
    sched_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycle_ties_and_release),
        cmocka_unit_test(test_cycle_models),
        cmocka_unit_test(test_cycle_random),
        cmocka_unit_test(test_incremental_frag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
