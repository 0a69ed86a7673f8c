/* test_frag.c -- the fragmentation measure on hand-made nodes, typical pods
 * (threshold, order, renormalisation), and the typical pods of the real
 * OpenB default trace against the numbers published with the artifact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frag_node_pod),
        cmocka_unit_test(test_frag_boundaries),
        cmocka_unit_test(test_typical_build),
        cmocka_unit_test(test_typical_default_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
