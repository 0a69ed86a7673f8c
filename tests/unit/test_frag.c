/* test_frag.c -- the fragmentation measure on hand-made nodes, typical pods
 * (threshold, order, renormalisation), and the typical pods of the real
 * OpenB default trace against the numbers published with the artifact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sched/policies/frag.h"
#include "model/openb_trace.h"

#define ANY (~(uint64_t)0)

static gs_node node4(void) {
    gs_node n;
    gs_node_init(&n, 10000, 1 << 20, 110, 4, 0);
    n.free[0] = 1000;
    n.free[1] = 300;
    n.free[2] = 0;
    n.free[3] = 600;
    return n;
}

/* frag(n, m) through frag_node, the function the simulator calls (gpu_view.c,
 * policy_fgd.c), with m as the only typical pod (p = 1). */
static double frag_one(const gs_node *n, const gs_pod *m) {
    frag_typical_pod tp = {.shape = *m, .p = 1};
    frag_typical t = {.pods = &tp, .n = 1};
    return frag_node(n, &t);
}

static void test_frag_node_pod(void **state) {
    (void)state;
    gs_node n = node4();
    gs_pod cpu = {.cpu = 1000, .models = ANY};
    gs_pod share = {.cpu = 1000, .ngpu = 1, .milli = 500, .models = ANY};
    gs_pod share_big_cpu = {.cpu = 20000, .ngpu = 1, .milli = 500, .models = ANY};
    gs_pod one = {.cpu = 1000, .ngpu = 1, .milli = 1000, .models = ANY};
    gs_pod two = {.cpu = 1000, .ngpu = 2, .milli = 1000, .models = ANY};
    gs_pod other_model = {.cpu = 1000, .ngpu = 1, .milli = 100, .models = 2};
    assert_float_equal(frag_one(&n, &cpu), 1900, 0);          /* CPU pod: all idle GPU */
    assert_float_equal(frag_one(&n, &share), 300, 0);         /* fits: GPUs below 500 */
    assert_float_equal(frag_one(&n, &share_big_cpu), 1900, 0);/* lacks CPU */
    assert_float_equal(frag_one(&n, &one), 900, 0);           /* fits: partly used GPUs */
    assert_float_equal(frag_one(&n, &two), 1900, 0);          /* lacks GPUs */
    assert_float_equal(frag_one(&n, &other_model), 1900, 0);  /* no access */
    frag_typical t = {0};
    frag_typical_pod tp[2] = {{.shape = share, .p = 0.75}, {.shape = two, .p = 0.25}};
    t.pods = tp;
    t.n = 2;
    assert_float_equal(frag_node(&n, &t), 0.75 * 300 + 0.25 * 1900, 1e-9);
    gs_node full;
    gs_node_init(&full, 10000, 1, 110, 2, 0);
    full.free[0] = full.free[1] = 0;
    assert_float_equal(frag_node(&full, &t), 0, 0);   /* nothing idle, nothing fragmented */
    gs_node cpu_node;
    gs_node_init(&cpu_node, 10000, 1, 110, 0, -1);
    assert_float_equal(frag_node(&cpu_node, &t), 0, 0);
}

/* Both sides of every boundary of the measure: a GPU whose free milli equals
 * the shape's milli can take it (not fragmented), one milli less cannot; a
 * node with exactly ngpu such GPUs fits, one fewer does not; CPU left equal
 * to the shape's CPU fits, one milli less does not. */
static void test_frag_boundaries(void **state) {
    (void)state;
    gs_node n;
    gs_node_init(&n, 4000, 1 << 20, 110, 3, 0);
    n.free[0] = 500;
    n.free[1] = 499;
    n.free[2] = 1000;
    n.cpu_left = 4000;
    gs_pod at = {.cpu = 4000, .ngpu = 1, .milli = 500, .models = ANY};
    gs_pod above = {.cpu = 4000, .ngpu = 1, .milli = 501, .models = ANY};
    gs_pod cpu_over = {.cpu = 4001, .ngpu = 1, .milli = 500, .models = ANY};
    gs_pod two_at = {.cpu = 1000, .ngpu = 2, .milli = 500, .models = ANY};
    gs_pod three_at = {.cpu = 1000, .ngpu = 3, .milli = 500, .models = ANY};
    assert_float_equal(frag_one(&n, &at), 499, 0);        /* GPU 0 (free == milli) and 2 fit; 1 is below */
    assert_float_equal(frag_one(&n, &above), 999, 0);     /* GPUs 0 and 1 are below 501 */
    assert_float_equal(frag_one(&n, &cpu_over), 1999, 0); /* one milli-CPU short: all idle GPU */
    assert_float_equal(frag_one(&n, &two_at), 499, 0);    /* exactly 2 GPUs with >= 500 */
    assert_float_equal(frag_one(&n, &three_at), 1999, 0); /* only 2 of 3 */
    /* mixing shapes weights each by its popularity */
    frag_typical_pod tp[2] = {{.shape = at, .p = 0.25}, {.shape = above, .p = 0.75}};
    frag_typical t = {.pods = tp, .n = 2};
    assert_float_equal(frag_node(&n, &t), 0.25 * 499 + 0.75 * 999, 1e-9);
}

static void test_typical_build(void **state) {
    (void)state;
    frag_pod_in in[10];
    for (int i = 0; i < 10; i++) in[i] = (frag_pod_in){.cpu = 1000, .milli = 1000, .ngpu = 1, .spec = "", .models = ANY};
    for (int i = 5; i < 8; i++) in[i].milli = 500;          /* 3 sharing pods */
    in[8] = (frag_pod_in){.cpu = 2000, .milli = 0, .ngpu = 0, .spec = "", .models = ANY};   /* 1 CPU pod */
    in[9] = (frag_pod_in){.cpu = 4000, .milli = 0, .ngpu = 0, .spec = "", .models = ANY};   /* 1 CPU pod */
    frag_typical t;
    frag_typical_build(in, 10, 80, true, &t);
    assert_int_equal(t.ndistinct, 4);
    assert_int_equal(t.n, 2);                 /* 5 + 3 = 8 of 10 reaches 80 % */
    assert_int_equal(t.pods[0].shape.milli, 1000);
    assert_int_equal(t.pods[0].count, 5);
    assert_float_equal(t.pods[0].p, 5.0 / 8, 1e-12);
    assert_float_equal(t.pods[1].p, 3.0 / 8, 1e-12);
    assert_float_equal(t.coverage_pct, 80, 1e-9);
    frag_typical_free(&t);
    /* 95 %: all four; equal counts put the larger shape (more CPU) first */
    frag_typical_build(in, 10, 95, true, &t);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.pods[2].shape.cpu, 4000);
    assert_int_equal(t.pods[3].shape.cpu, 2000);
    double sum = 0;
    for (size_t i = 0; i < t.n; i++) sum += t.pods[i].p;
    assert_float_equal(sum, 1, 1e-12);
    frag_typical_free(&t);
    /* without CPU pods only the GPU shapes count */
    frag_typical_build(in, 10, 100, false, &t);
    assert_int_equal(t.ndistinct, 2);
    assert_int_equal(t.n, 2);
    frag_typical_free(&t);
}

/* The artifact's log for the default trace: "Count top 35 pod resource spec
 * as typical ones, accounting for 95.26% of all pods" (91 distinct shapes). */
static void test_typical_default_trace(void **state) {
    (void)state;
    arena a = {0};
    strbuf err = {0};
    openb_pod *pods;
    size_t n;
    assert_int_equal(openb_load_pods(TEST_DATA_DIR "/openb/openb_pod_list_default.csv", &a, &pods, &n, &err), 0);
    assert_int_equal(n, 8152);
    frag_pod_in *in = calloc(n, sizeof *in);
    for (size_t i = 0; i < n; i++)
        in[i] = (frag_pod_in){pods[i].cpu_milli ? pods[i].cpu_milli : 100, pods[i].gpu_milli, pods[i].num_gpu,
                              pods[i].gpu_spec, ANY};
    frag_typical t;
    frag_typical_build(in, n, 95, true, &t);
    assert_int_equal(t.ndistinct, 91);
    assert_int_equal(t.n, 35);
    assert_float_equal(t.coverage_pct, 95.26, 0.005);
    frag_typical_free(&t);
    free(in);
    arena_free(&a);
    sb_free(&err);
}

/* Python's round(x, 2) as the artifact logs it: printf's %.2f read back. */
static double round2_ref(double x) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", x);
    return strtod(buf, NULL);
}

/* The fixed-point sum against the double sum it stands for: 3,000 nodes
 * whose F_n are popularity-weighted milli (as frag_node gives them) change
 * one at a time, 200,000 times; whenever frag_fixed_round2 answers, its
 * answer is round2 of the node-order double sum, bit for bit. It must
 * answer nearly always (it declines only within the double sum's error of
 * a rounding tie). */
static void test_fixed_sum_matches_double_sum(void **state) {
    (void)state;
    enum { N = 3000, STEPS = 200000 };
    static double v[N];
    frag_fixed_sum fs;
    frag_fixed_reset(&fs);
    static const double p[] = {0.3512, 1.0 / 3, 0.0712, 0.00011, 2.0 / 7, 0.1};
    uint64_t r = 12345;
    long answered = 0;
    for (int step = 0; step < STEPS; step++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t i = (r >> 33) % N;
        double f = 0;
        int terms = (int)((r >> 20) % 4);
        for (int k = 0; k < terms; k++) f += p[(r >> (8 + 3 * k)) % 6] * (double)((r >> (40 + 5 * k)) % 8001);
        frag_fixed_change(&fs, v[i], f);
        v[i] = f;
        if (step % 7) continue;
        double sum = 0, got;
        for (size_t k = 0; k < N; k++) sum += v[k];
        if (frag_fixed_round2(&fs, N, &got)) {
            double want = round2_ref(sum);
            assert_memory_equal(&got, &want, sizeof got);
            answered++;
        }
    }
    assert_true(answered > (STEPS / 7) * 99 / 100);
}

/* Where it must decline: an exact tie (0.125 x 100 = 12.5), a value below
 * 2^-80, a negative one; a reset makes it usable again. */
static void test_fixed_sum_declines(void **state) {
    (void)state;
    frag_fixed_sum fs;
    double got;
    frag_fixed_reset(&fs);
    frag_fixed_change(&fs, 0, 0.125);
    assert_false(frag_fixed_round2(&fs, 1, &got));
    frag_fixed_change(&fs, 0.125, 0.25);
    assert_true(frag_fixed_round2(&fs, 1, &got));
    assert_true(got == 0.25);
    frag_fixed_change(&fs, 0, 0x1p-90);
    assert_false(frag_fixed_round2(&fs, 2, &got));
    frag_fixed_reset(&fs);
    frag_fixed_change(&fs, 0, -1);
    assert_false(frag_fixed_round2(&fs, 1, &got));
    frag_fixed_reset(&fs);
    frag_fixed_change(&fs, 0, 1234.5678);
    assert_true(frag_fixed_round2(&fs, 1, &got));
    assert_true(got == 1234.57);
}

/* Near ties, where the double sum's rounding decides: a large F_n plus a
 * decimal just off a tie (x.xx5 is never exact in binary), in both orders.
 * The double sum often lands on the other side of the tie than the exact
 * sum; every answer must still be round2 of the double sum. Offsets from
 * 1e-13 to 1e-7 put some well clear of the error bound, which it answers. */
static void test_fixed_sum_near_ties(void **state) {
    (void)state;
    static const double off[] = {0, 1e-13, -1e-13, 1e-11, -1e-11, 1e-9, -1e-9, 1e-7, -1e-7};
    long answered = 0, declined = 0;
    for (int a = 1; a <= 3000; a += 7)
        for (int b = 0; b < 100 * 9; b++) {
            double v[2] = {a * 37.0 + 0.25, (b / 9) / 100.0 + 0.005 + off[b % 9]};
            for (int order = 0; order < 2; order++) {
                double x = v[order], y = v[1 - order], got;
                frag_fixed_sum fs;
                frag_fixed_reset(&fs);
                frag_fixed_change(&fs, 0, x);
                frag_fixed_change(&fs, 0, y);
                double sum = 0;
                sum += x;
                sum += y;
                if (frag_fixed_round2(&fs, 2, &got)) {
                    double want = round2_ref(sum);
                    assert_memory_equal(&got, &want, sizeof got);
                    answered++;
                } else {
                    declined++;
                }
            }
        }
    assert_true(answered > 1000 && declined > 1000);   /* both paths taken */
}

/* frag_node with the typical pods' memo gives what it gives without one, in
 * both float orders, over random node states that repeat (and collide in
 * the memo's slots). */
static void test_memo_same_values(void **state) {
    (void)state;
    frag_pod_in in[12];
    static const int milli[] = {1000, 500, 250, 1000, 0, 700, 1000, 300, 1000, 0, 150, 1000};
    for (int i = 0; i < 12; i++)
        in[i] = (frag_pod_in){.cpu = 1000 * (i % 5 + 1), .milli = milli[i], .ngpu = milli[i] == 1000 ? i % 4 + 1 : milli[i] ? 1 : 0,
                              .spec = "", .models = i == 7 ? 2 : ANY};
    int64_t count[12] = {9, 7, 5, 5, 4, 3, 3, 2, 2, 1, 1, 1};
    for (int artifact = 0; artifact < 2; artifact++) {
        frag_typical t;
        frag_typical_build_counted(in, count, 12, 95, true, &t);
        if (artifact) frag_typical_artifact(&t);
        assert_non_null(t.memo);
        frag_typical bare = t;
        bare.memo = NULL;
        uint64_t r = 99;
        for (int k = 0; k < 60000; k++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            gs_node n;
            gs_node_init(&n, 32000, 1 << 20, 110, (int)((r >> 60) % 9), (int)((r >> 58) % 2));
            n.cpu_left = 1000 * (int64_t)((r >> 20) % 40);
            for (int g = 0; g < n.ngpu; g++) n.free[g] = (int16_t)(250 * ((r >> (24 + 3 * g)) % 5));
            double a = frag_node(&n, &t), b = frag_node(&n, &bare);
            assert_memory_equal(&a, &b, sizeof a);
        }
        frag_typical_free(&t);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_sum_matches_double_sum),
        cmocka_unit_test(test_fixed_sum_declines),
        cmocka_unit_test(test_fixed_sum_near_ties),
        cmocka_unit_test(test_memo_same_values),
        cmocka_unit_test(test_frag_node_pod),
        cmocka_unit_test(test_frag_boundaries),
        cmocka_unit_test(test_typical_build),
        cmocka_unit_test(test_typical_default_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
