/* test_policy.c -- the six placement policies and the scheduling cycle on
 * small hand-made clusters: scores worked out by hand from the artifact's
 * formulas, GPU choice inside a node, ties to the first node name, model
 * constraints, release, and the seeded random pick. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sched/policy.h"

#define ANY (~(uint64_t)0)

static gs_node mk(int ngpu, const int *free, int64_t cpu_left) {
    gs_node n;
    gs_node_init(&n, 64000, 1 << 20, 110, ngpu, 0);
    for (int g = 0; g < ngpu && free; g++) n.free[g] = (int16_t)free[g];
    n.cpu_left = cpu_left;
    return n;
}

static const gs_pod share250 = {.cpu = 4000, .mem = 1, .ngpu = 1, .milli = 250, .models = ANY};
static const gs_pod one_gpu = {.cpu = 4000, .mem = 1, .ngpu = 1, .milli = 1000, .models = ANY};

static void test_gpu_choice(void **state) {
    (void)state;
    int f1[] = {600, 300, 300, 1000};
    gs_node n = mk(4, f1, 64000);
    assert_int_equal(gs_best_gpu(&n, &share250), 1);             /* least free that fits, lowest index */
    gs_pod share400 = share250;
    share400.milli = 400;
    assert_int_equal(gs_best_gpu(&n, &share400), 0);
    assert_int_equal(gs_exclusive(&n, 2), 0);                      /* only one fully free GPU */
    int f2[] = {1000, 500, 1000, 1000};
    gs_node m = mk(4, f2, 64000);
    assert_int_equal(gs_exclusive(&m, 2), 0x5);                    /* GPUs 0 and 2 */
    gs_pod two = one_gpu;
    two.ngpu = 2;
    assert_true(gs_fits(&m, &two));
    assert_false(gs_fits(&n, &two));
    gs_take(&m, &two, 0x5);
    assert_int_equal(m.free[0], 0);
    assert_int_equal(m.free[2], 0);
    assert_int_equal(m.naff, 1);
    gs_give(&m, &two, 0x5);
    assert_int_equal(m.free[0], 1000);
    assert_int_equal(m.naff, 0);
    /* filter: CPU, memory, pod count, model */
    gs_node small = mk(4, NULL, 1000);
    assert_false(gs_fits(&small, &share250));
    gs_pod typed = share250;
    typed.models = 2;   /* model id 1 only */
    assert_false(gs_fits(&m, &typed));
    m.model = 1;
    assert_true(gs_fits(&m, &typed));
}

/* Score of one policy for pod p on node n (F_n from a one-shape typical set). */
static int score_of(const policy *pol, const gs_node *n, const gs_pod *p, const frag_typical *t, uint32_t *gpus) {
    double f = t ? frag_node(n, t) : 0;
    policy_ctx ctx = {t, &f};
    return pol->score(&ctx, 0, n, p, gpus);
}

static void test_bestfit_and_dotprod_scores(void **state) {
    (void)state;
    int used6[] = {0, 0, 0, 0, 0, 0, 1000, 1000};
    gs_node idle = mk(8, NULL, 64000), busy = mk(8, used6, 64000);
    uint32_t g;
    /* 100 x (1 - (60000/128000 x 0.5 + free-1000 / 8000 x 0.5)) */
    assert_int_equal(score_of(&policy_bestfit, &busy, &one_gpu, NULL, &g), 70);   /* 1 - 0.296875 */
    assert_int_equal(g, 1u << 6);
    assert_int_equal(score_of(&policy_bestfit, &idle, &one_gpu, NULL, &g), 32);   /* 1 - 0.671875 */
    assert_int_equal(g, 1u << 0);
    /* 100 x (1 - (64000/128000 x 4000/128000 + free/8000 x 1000/8000) / 2) */
    assert_int_equal(score_of(&policy_dotprod, &busy, &one_gpu, NULL, &g), 97);   /* 1 - 0.0234375 */
    assert_int_equal(score_of(&policy_dotprod, &idle, &one_gpu, NULL, &g), 92);   /* 1 - 0.0703125 */
}

static void test_packing_scores(void **state) {
    (void)state;
    int part[] = {400, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    int used[] = {0, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    gs_node idle = mk(8, NULL, 64000), partly = mk(8, part, 64000), onused = mk(8, used, 64000);
    gs_node idle2 = mk(2, NULL, 64000);
    uint32_t g;
    assert_int_equal(score_of(&policy_gpu_packing, &idle, &share250, NULL, &g), 25);     /* 33 - 8 */
    assert_int_equal(score_of(&policy_gpu_packing, &idle2, &share250, NULL, &g), 31);    /* 33 - 2 */
    assert_int_equal(score_of(&policy_gpu_packing, &partly, &share250, NULL, &g), 96);   /* 100 - 40/10 */
    assert_int_equal(g, 1u << 0);
    assert_int_equal(score_of(&policy_gpu_packing, &onused, &share250, NULL, &g), 49);   /* 50 - 1 */
    gs_pod cpu = {.cpu = 1000, .mem = 1, .models = ANY};
    assert_int_equal(score_of(&policy_gpu_packing, &partly, &cpu, NULL, &g), 0);
    assert_int_equal(g, 0);
}

static void test_clustering_scores(void **state) {
    (void)state;
    gs_node idle = mk(8, NULL, 64000), same = mk(8, NULL, 64000), other = mk(8, NULL, 64000), mixed = mk(8, NULL, 64000);
    gs_take(&same, &share250, 1);
    gs_take(&other, &one_gpu, 1);
    gs_take(&mixed, &share250, 2);
    gs_take(&mixed, &one_gpu, 1);
    uint32_t g;
    assert_int_equal(score_of(&policy_gpu_clustering, &same, &share250, NULL, &g), 75);    /* 25 x 250/8000 -> 0, +75 */
    assert_int_equal(score_of(&policy_gpu_clustering, &mixed, &share250, NULL, &g), 50 + 25 * 1250 / 8000);
    assert_int_equal(score_of(&policy_gpu_clustering, &idle, &share250, NULL, &g), 25);
    assert_int_equal(score_of(&policy_gpu_clustering, &other, &share250, NULL, &g), 25 * 1000 / 8000);
    assert_int_equal(score_of(&policy_gpu_clustering, &same, &one_gpu, NULL, &g), 25 * 250 / 8000);
}

/* FGD picks the GPU that grows fragmentation least, which is not the
 * best-fit GPU: with typical pods "one 500m share", putting 400m on the
 * 700m GPU leaves 300m nobody can use (score 42), the idle GPU keeps 600m
 * usable (score 50). */
static void test_fgd_scores(void **state) {
    (void)state;
    frag_typical_pod tp = {.shape = {.cpu = 1000, .ngpu = 1, .milli = 500, .models = ANY}, .p = 1};
    frag_typical t = {.pods = &tp, .n = 1};
    int f[] = {700, 1000};
    gs_node n = mk(2, f, 64000);
    gs_pod share400 = share250;
    share400.milli = 400;
    uint32_t g;
    assert_int_equal(score_of(&policy_fgd, &n, &share400, &t, &g), 50);
    assert_int_equal(g, 1u << 1);
    assert_int_equal(score_of(&policy_bestfit, &n, &share400, NULL, &g), 68);   /* 1 - 0.315625 */
    assert_int_equal(g, 1u << 0);   /* best fit would take GPU 0 */
    /* a whole GPU on an idle 2-GPU node: 1000m idle stays usable for 500m pods: no change, 50 */
    gs_node idle = mk(2, NULL, 64000);
    assert_int_equal(score_of(&policy_fgd, &idle, &one_gpu, &t, &g), 50);
    assert_int_equal(g, 1u << 0);
    /* taking the node's last CPU makes all its idle GPU fragment: 2000m -> sigmoid(-2) = 11 */
    gs_node tight = mk(2, NULL, 4000);
    gs_pod cpu_hog = {.cpu = 4000, .mem = 1, .models = ANY};
    assert_int_equal(score_of(&policy_fgd, &tight, &cpu_hog, &t, &g), 11);
}

static const char *const names3[] = {"n-b", "n-a", "n-c"};

/* Equal scores go to the node whose name sorts first; placements change
 * the state the next cycle sees; release gives everything back. */
static void test_cycle_ties_and_release(void **state) {
    (void)state;
    gs_node nodes[3] = {mk(2, NULL, 64000), mk(2, NULL, 64000), mk(2, NULL, 64000)};
    gs_pod shapes[2] = {share250, one_gpu};
    frag_typical_pod tp = {.shape = share250, .p = 1};
    frag_typical t = {.pods = &tp, .n = 1};
    policy_sched s;
    policy_sched_init(&s, &policy_bestfit, nodes, names3, 3, shapes, 2, &t, 1);
    int32_t node;
    uint32_t g;
    assert_true(policy_sched_place(&s, 0, &node, &g));
    assert_int_equal(node, 1);           /* "n-a" */
    assert_int_equal(g, 1);
    assert_int_equal(s.used_milli, 250);
    assert_int_equal(s.idle_milli, 6000 - 250);
    assert_true(policy_sched_place(&s, 0, &node, &g));
    assert_int_equal(node, 1);           /* best fit packs onto the used node */
    assert_int_equal(g, 1);              /* and the used GPU (750m left) */
    assert_true(policy_sched_place(&s, 1, &node, &g));
    assert_int_equal(node, 1);
    assert_int_equal(g, 2);              /* the fully free GPU */
    assert_true(policy_sched_place(&s, 1, &node, &g));
    assert_int_equal(node, 0);           /* "n-a" has no free GPU left; "n-b" next */
    double f_before = policy_sched_frag(&s);
    assert_float_equal(s.frag_total, f_before, 1e-6);
    policy_sched_release(&s, 1, 0, 1);
    policy_sched_release(&s, 1, 1, 2);
    policy_sched_release(&s, 0, 1, 1);
    policy_sched_release(&s, 0, 1, 1);
    assert_int_equal(s.used_milli, 0);
    assert_int_equal(s.idle_milli, 6000);
    assert_float_equal(policy_sched_frag(&s), 0, 1e-9);
    for (int i = 0; i < 3; i++) assert_int_equal(s.nodes[i].free[0], 1000);
    policy_sched_free(&s);
}

/* Model constraints and no-fit. */
static void test_cycle_models(void **state) {
    (void)state;
    gs_node nodes[3] = {mk(2, NULL, 64000), mk(2, NULL, 64000), mk(1, NULL, 64000)};
    nodes[2].model = 1;
    gs_pod typed = one_gpu;
    typed.models = 2;
    gs_pod shapes[1] = {typed};
    frag_typical t = {0};
    policy_sched s;
    policy_sched_init(&s, &policy_fgd, nodes, names3, 3, shapes, 1, &t, 1);
    int32_t node;
    uint32_t g;
    assert_true(policy_sched_place(&s, 0, &node, &g));
    assert_int_equal(node, 2);
    assert_false(policy_sched_place(&s, 0, &node, &g));   /* its only GPU is taken */
    policy_sched_free(&s);
}

/* Random: only feasible nodes, seeded, spread over them. */
static void test_cycle_random(void **state) {
    (void)state;
    enum { N = 6 };
    const char *names[N] = {"a", "b", "c", "d", "e", "f"};
    gs_node nodes[N];
    for (int i = 0; i < N; i++) nodes[i] = mk(8, NULL, 64000);
    nodes[3].ngpu = 0;   /* cannot take GPU pods */
    gs_pod shapes[1] = {share250};
    frag_typical t = {0};
    int hits[2][N] = {{0}};
    for (int run = 0; run < 2; run++) {
        policy_sched s;
        policy_sched_init(&s, &policy_random, nodes, names, N, shapes, 1, &t, 7);
        for (int k = 0; k < 60; k++) {
            int32_t node;
            uint32_t g;
            assert_true(policy_sched_place(&s, 0, &node, &g));
            hits[run][node]++;
        }
        policy_sched_free(&s);
    }
    assert_memory_equal(hits[0], hits[1], sizeof hits[0]);   /* same seed, same picks */
    assert_int_equal(hits[0][3], 0);
    int used = 0;
    for (int i = 0; i < N; i++) used += hits[0][i] > 0;
    assert_int_equal(used, 5);
    assert_ptr_equal(policy_find("gpu-packing"), &policy_gpu_packing);
    assert_null(policy_find("tetris"));
}

/* Random draws the sharing pod's GPU among those with room (seeded). */
static void test_random_gpu_choice(void **state) {
    (void)state;
    int f[] = {100, 1000, 600, 250};
    gs_node n = mk(4, f, 64000);
    int hits[4] = {0};
    rng r;
    rng_seed(&r, 3);
    for (int k = 0; k < 400; k++) {
        uint32_t g = policy_random.reserve_gpus(&n, &share250, &r);
        assert_int_equal(__builtin_popcount(g), 1);
        hits[__builtin_ctz(g)]++;
    }
    assert_int_equal(hits[0], 0);                 /* 100m left: no room for 250m */
    for (int g = 1; g < 4; g++) assert_true(hits[g] > 80);   /* about 133 each */
    assert_int_equal(policy_random.reserve_gpus(&n, &one_gpu, &r), 1u << 1);   /* whole GPU: lowest free */
    assert_null(policy_bestfit.reserve_gpus);
}

/* The incremental fragmentation (F_n updated only for the changed node, a
 * running cluster sum, cached scores) equals a full recomputation after a
 * long mixed sequence of placements and releases with FGD. */
static void test_incremental_frag(void **state) {
    (void)state;
    enum { N = 12, K = 5 };
    const char *names[N] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    gs_node nodes[N];
    for (int i = 0; i < N; i++) nodes[i] = mk(i % 3 == 0 ? 8 : i % 3 == 1 ? 2 : 4, NULL, 32000 + 8000 * (i % 4));
    gs_pod shapes[K] = {
        {.cpu = 4000, .mem = 1, .ngpu = 1, .milli = 300, .models = ANY},
        {.cpu = 8000, .mem = 1, .ngpu = 1, .milli = 650, .models = ANY},
        {.cpu = 6000, .mem = 1, .ngpu = 1, .milli = 1000, .models = ANY},
        {.cpu = 16000, .mem = 1, .ngpu = 2, .milli = 1000, .models = ANY},
        {.cpu = 12000, .mem = 1, .models = ANY},
    };
    frag_typical_pod tp[K];
    for (int k = 0; k < K; k++) tp[k] = (frag_typical_pod){.shape = shapes[k], .p = 1.0 / K};
    frag_typical t = {.pods = tp, .n = K};
    policy_sched s;
    policy_sched_init(&s, &policy_fgd, nodes, names, N, shapes, K, &t, 5);
    typedef struct { int32_t node; uint32_t gpus; int k; } placed_pod;
    placed_pod placed[400];
    int np = 0;
    rng r;
    rng_seed(&r, 11);
    for (int step = 0; step < 400; step++) {
        if (np > 0 && rng_below(&r, 3) == 0) {   /* release a random placed pod */
            int j = (int)rng_below(&r, (uint64_t)np);
            policy_sched_release(&s, (size_t)placed[j].k, placed[j].node, placed[j].gpus);
            placed[j] = placed[--np];
        } else {
            int k = (int)rng_below(&r, K);
            int32_t node;
            uint32_t g;
            /* reference: score every node afresh, first name among the best */
            int best = -1, want = -1;
            uint32_t want_g = 0;
            for (int i = 0; i < N; i++) {
                if (!gs_fits(&s.nodes[i], &shapes[k])) continue;
                uint32_t gi;
                int sc = policy_fgd.score(&s.ctx, (size_t)i, &s.nodes[i], &shapes[k], &gi);
                if (sc > best) {
                    best = sc;
                    want = i;
                    want_g = gi;
                }
            }
            bool ok = policy_sched_place(&s, (size_t)k, &node, &g);
            assert_int_equal(ok, want >= 0);
            if (ok) {
                assert_int_equal(node, want);
                assert_int_equal(g, want_g);
                placed[np++] = (placed_pod){node, g, k};
            }
        }
        int64_t idle = 0;
        for (int i = 0; i < N; i++) {
            assert_float_equal(s.frag[i], frag_node(&s.nodes[i], &t), 1e-9);
            idle += gs_free_total(&s.nodes[i]);
        }
        assert_int_equal(s.idle_milli, idle);
        assert_float_equal(s.frag_total, policy_sched_frag(&s), 1e-6);
    }
    assert_true(np > 20);
    policy_sched_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_choice),       cmocka_unit_test(test_bestfit_and_dotprod_scores),
        cmocka_unit_test(test_packing_scores),   cmocka_unit_test(test_clustering_scores),
        cmocka_unit_test(test_fgd_scores),       cmocka_unit_test(test_cycle_ties_and_release),
        cmocka_unit_test(test_cycle_models),     cmocka_unit_test(test_cycle_random),
        cmocka_unit_test(test_random_gpu_choice), cmocka_unit_test(test_incremental_frag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
