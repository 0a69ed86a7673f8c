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

#include "sched/policies/policy.h"

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
    policy_ctx ctx = {t, &f, POLICY_MAX_SPEC_CPU, POLICY_MAX_SPEC_GPU};
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_choice),       cmocka_unit_test(test_bestfit_and_dotprod_scores),
        cmocka_unit_test(test_packing_scores),   cmocka_unit_test(test_clustering_scores),
        cmocka_unit_test(test_fgd_scores),       cmocka_unit_test(test_random_gpu_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
