/* test_gpu_metrics.c -- placement-quality measures on hand-made GPU views
 * (sched/policies/gpu_metrics.h): FGD fragmentation against frag_node, stranded GPUs,
 * nodes that fit an N-GPU pod, static-MIG fragmentation; and the typical
 * pods of the shapes seen (sched/policies/typical_seen.h): threshold, order,
 * weights, change detection. Every expectation is worked out in a comment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sched/policies/gpu_metrics.h"
#include "sched/policies/typical_seen.h"

#define ANY (~(uint64_t)0)

/* A node with `ngpu` GPUs whose free milli are free[0..ngpu). */
static gs_node node(int64_t cpu_left, int64_t mem_left, int32_t pods_left, int ngpu, const int *free) {
    gs_node n;
    gs_node_init(&n, cpu_left, mem_left, pods_left, ngpu, ngpu ? 0 : -1);
    for (int g = 0; g < ngpu; g++) n.free[g] = (int16_t)free[g];
    return n;
}

static const int ALL8[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};

/* Typical pods: A (4 CPU, 8 GiB, half a GPU) p 0.5, B (2 CPU, 16 GiB, two
 * whole GPUs) p 0.25, C (1 CPU, no GPU) p 0.25. The smallest GPU shape is B. */
static frag_typical_pod TP[3] = {
    {.shape = {.cpu = 4000, .mem = 8192, .ngpu = 1, .milli = 500, .models = ANY}, .p = 0.5},
    {.shape = {.cpu = 2000, .mem = 16384, .ngpu = 2, .milli = 1000, .models = ANY}, .p = 0.25},
    {.shape = {.cpu = 1000, .models = ANY}, .p = 0.25},
};

/* n0 8 free GPUs, room for all; n1 4 GPUs {1000,1000,300,0}, CPU for B only;
 * n2 8 free GPUs, 1 CPU left (no GPU shape fits: stranded); n3 {1000,600},
 * memory for A only (B does not fit: not counted in nodes_fit, not
 * stranded); n4 4 free GPUs, no pod slot (stranded); n5 CPU-only; n6 one
 * used GPU, nothing left (no idle GPU: not stranded). */
static void view(gs_node *n) {
    n[0] = node(64000, 1 << 20, 110, 8, ALL8);
    n[1] = node(3000, 20000, 10, 4, (const int[]){1000, 1000, 300, 0});
    n[2] = node(1000, 1 << 20, 110, 8, ALL8);
    n[3] = node(50000, 10000, 5, 2, (const int[]){1000, 600});
    n[4] = node(64000, 1 << 20, 0, 4, ALL8);
    n[5] = node(64000, 1 << 20, 110, 0, NULL);
    n[6] = node(0, 0, 0, 1, (const int[]){0});
}

static void test_compute(void **state) {
    (void)state;
    gs_node n[7];
    view(n);
    frag_typical t = {.pods = TP, .n = 3};
    gpu_metrics m;
    gpu_metrics_compute(n, 7, NULL, &t, &m);
    assert_float_equal(m.gpus, 27, 0);                  /* 8 + 4 + 8 + 2 + 4 + 0 + 1 */
    assert_float_equal(m.idle_gpus, 23.9, 1e-12);       /* 8 + 2.3 + 8 + 1.6 + 4 */
    /* F_n (p_A a + p_B b + p_C c): n0 0 + 0 + .25*8000 = 2000; n1 (A lacks
     * CPU) .5*2300 + .25*300 + .25*2300 = 1800; n2 (lacks CPU) 8000; n3 0 +
     * (one whole GPU) .25*1600 + .25*1600 = 800; n4 (FGD ignores pod slots)
     * .25*4000 = 1000: 13600 milli */
    assert_float_equal(m.frag_gpus, 13.6, 1e-12);
    double sum = 0;
    for (int i = 0; i < 7; i++) sum += frag_node(&n[i], &t);
    assert_float_equal(m.frag_gpus, sum / 1000, 1e-12);
    assert_float_equal(m.stranded_gpus, 12, 0);         /* n2's 8 and n4's 4 */
    assert_int_equal(m.nodes_fit[0], 2);                /* >= 1 free GPU and room for B: n0, n1 */
    assert_int_equal(m.nodes_fit[1], 2);                /* n0, n1 (two whole GPUs) */
    assert_int_equal(m.nodes_fit[2], 1);                /* n0 */
    assert_int_equal(m.nodes_fit[3], 1);                /* n0 */
    assert_float_equal(m.mig_frag_pct, -1, 0);
    assert_float_equal(gpu_metrics_frag_pct(&m), 100.0 * 13.6 / 27, 1e-12);
    assert_float_equal(gpu_metrics_frag_ratio_pct(&m), 100.0 * 13.6 / 23.9, 1e-12);

    /* the caller's F_n are used as given */
    double f[7] = {100, 250, 0, 0, 0, 0, 5};
    gpu_metrics_compute(n, 7, f, &t, &m);
    assert_float_equal(m.frag_gpus, 0.355, 1e-12);
}

static void test_no_gpu_shape(void **state) {
    (void)state;
    gs_node n[7];
    view(n);
    /* only the CPU pod: stranded = nothing left at all (n4: no pod slot);
     * nodes_fit = any room left: n0, n1 (2 whole), n2, n3 (1 whole) */
    frag_typical_pod cpu = {.shape = TP[2].shape, .p = 1};
    frag_typical t = {.pods = &cpu, .n = 1};
    gpu_metrics m;
    gpu_metrics_compute(n, 7, NULL, &t, &m);
    assert_float_equal(m.stranded_gpus, 4, 0);
    assert_int_equal(m.nodes_fit[0], 4);
    assert_int_equal(m.nodes_fit[1], 3);
    assert_int_equal(m.nodes_fit[2], 2);
    assert_int_equal(m.nodes_fit[3], 2);
    assert_float_equal(m.frag_gpus, 23.9, 1e-12);   /* a CPU pod finds every idle GPU fragmented */
    gpu_metrics_compute(n, 7, NULL, NULL, &m);       /* no typical pods at all */
    assert_float_equal(m.frag_gpus, 0, 0);
    assert_float_equal(m.stranded_gpus, 4, 0);
    assert_int_equal(m.nodes_fit[3], 2);
}

static void test_zero_requests(void **state) {
    (void)state;
    /* a typical GPU pod asking for no CPU and no memory (frag_typical's mem is
     * 0) still needs some left: the node out of CPU is stranded, the one with
     * 1m CPU and 1 MiB left is not */
    frag_typical_pod tp = {.shape = {.ngpu = 1, .milli = 1000, .models = ANY}, .p = 1};
    frag_typical t = {.pods = &tp, .n = 1};
    gs_node n[3] = {node(0, 1 << 20, 110, 2, ALL8), node(1, 1, 1, 2, ALL8), node(5000, 0, 110, 1, ALL8)};
    gpu_metrics m;
    gpu_metrics_compute(n, 3, NULL, &t, &m);
    assert_float_equal(m.stranded_gpus, 3, 0);   /* n0's 2 (no CPU) and n2's 1 (no memory) */
    assert_int_equal(m.nodes_fit[0], 1);
    assert_int_equal(m.nodes_fit[1], 1);
    assert_int_equal(m.nodes_fit[2], 0);
}

static void test_mig_static(void **state) {
    (void)state;
    /* profiles 1g, 2g, 3g; demand 3 : 0 : 1 -> p 0.75, 0, 0.25. Free
     * instances: node 0 {2, 1, 1}, node 1 {0, 2, 0}: free slices 1g 2, 2g 6,
     * 3g 3 = 11; usable 0.75*2 + 0.25*3 = 2.25; F = 8.75 of 14 slices
     * (2 GPUs) = 62.5 % */
    int slices[3] = {1, 2, 3};
    double demand[3] = {3, 0, 1};
    int64_t free[6] = {2, 1, 1, 0, 2, 0};
    assert_float_equal(gpu_metrics_mig_static_pct(3, slices, demand, free, 2, 14), 62.5, 1e-12);
    /* no MIG demand: every free slice is fragment: 11 of 22 */
    double none[3] = {0, 0, 0};
    assert_float_equal(gpu_metrics_mig_static_pct(3, slices, none, free, 2, 22), 50, 1e-12);
    /* only 2g asked for: 1g's 2 + 3g's 3 slices = 5 of 20 */
    double only2[3] = {0, 7, 0};
    assert_float_equal(gpu_metrics_mig_static_pct(3, slices, only2, free, 2, 20), 25, 1e-12);
    assert_float_equal(gpu_metrics_mig_static_pct(3, slices, demand, free, 2, 0), -1, 0);   /* no MIG GPUs */
}

static gs_pod shape(int64_t cpu, int64_t mem, int ngpu, int milli) {
    return (gs_pod){.cpu = cpu, .mem = mem, .ngpu = ngpu, .milli = milli, .models = ANY};
}

static void test_typical_seen_threshold(void **state) {
    (void)state;
    gs_pod s1 = shape(1000, 4096, 1, 1000), s2 = shape(2000, 4096, 1, 500), s3 = shape(500, 1024, 0, 0),
           s4 = shape(8000, 65536, 8, 1000);
    typical_seen ts;
    typical_seen_init(&ts, 95, true);
    typical_seen_add(&ts, &s4, 5);
    typical_seen_add(&ts, &s3, 15);
    typical_seen_add(&ts, &s1, 20);
    typical_seen_add(&ts, &s2, 30);
    typical_seen_add(&ts, &s1, 30);   /* s1: 50 in all */
    typical_seen_add(&ts, &s2, 0);    /* ignored */
    frag_typical t;
    typical_seen_build(&ts, &t);
    /* 100 pods, 95 % = 95: 50 + 30 + 15 reaches it, s4 is left out */
    assert_int_equal(t.n, 3);
    assert_int_equal(t.ndistinct, 4);
    assert_int_equal(t.total, 100);
    assert_int_equal(t.covered, 95);
    assert_float_equal(t.coverage_pct, 95, 0);
    assert_int_equal(t.pods[0].shape.cpu, 1000);
    assert_int_equal(t.pods[1].shape.cpu, 2000);
    assert_int_equal(t.pods[2].shape.cpu, 500);
    assert_int_equal(t.pods[0].shape.mem, 4096);   /* memory is kept */
    assert_float_equal(t.pods[0].p, 50.0 / 95, 1e-15);
    assert_float_equal(t.pods[1].p, 30.0 / 95, 1e-15);
    assert_float_equal(t.pods[2].p, 15.0 / 95, 1e-15);
    frag_typical_free(&t);
    typical_seen_free(&ts);

    /* without CPU pods: 85 pods, 80.75 needed: 50 + 30 + 5, all three GPU shapes */
    typical_seen_init(&ts, 95, false);
    typical_seen_add(&ts, &s1, 50);
    typical_seen_add(&ts, &s2, 30);
    typical_seen_add(&ts, &s3, 15);
    typical_seen_add(&ts, &s4, 5);
    typical_seen_build(&ts, &t);
    assert_int_equal(t.n, 3);
    assert_int_equal(t.total, 85);
    assert_int_equal(t.pods[2].shape.ngpu, 8);
    assert_float_equal(t.pods[2].p, 5.0 / 85, 1e-15);
    frag_typical_free(&t);
    typical_seen_free(&ts);
}

static void test_typical_seen_order(void **state) {
    (void)state;
    /* equal counts: the larger shape first (cpu, then milli, ngpu, models, mem) */
    gs_pod a = shape(1000, 100, 1, 1000), b = shape(2000, 100, 1, 1000), c = shape(1000, 200, 1, 1000);
    typical_seen x, y;
    typical_seen_init(&x, 100, true);
    typical_seen_init(&y, 100, true);
    typical_seen_add(&x, &a, 10);
    typical_seen_add(&x, &b, 10);
    typical_seen_add(&x, &c, 10);
    /* the same counts in another order and in pieces */
    typical_seen_add(&y, &c, 4);
    typical_seen_add(&y, &b, 10);
    typical_seen_add(&y, &a, 10);
    typical_seen_add(&y, &c, 6);
    frag_typical tx, ty;
    typical_seen_build(&x, &tx);
    typical_seen_build(&y, &ty);
    assert_int_equal(tx.n, 3);
    assert_int_equal(tx.ndistinct, 3);   /* a and c differ by memory only: two shapes */
    assert_int_equal(tx.pods[0].shape.cpu, 2000);
    assert_int_equal(tx.pods[1].shape.mem, 200);
    assert_int_equal(tx.pods[2].shape.mem, 100);
    for (size_t i = 0; i < 3; i++) {
        assert_memory_equal(&tx.pods[i].shape, &ty.pods[i].shape, sizeof(gs_pod));
        assert_true(tx.pods[i].p == ty.pods[i].p);
    }
    frag_typical_free(&tx);
    frag_typical_free(&ty);
    typical_seen_free(&x);
    typical_seen_free(&y);
}

static void test_typical_seen_changed(void **state) {
    (void)state;
    gs_pod a = shape(1000, 100, 1, 1000), b = shape(2000, 100, 1, 500);
    typical_seen ts;
    typical_seen_init(&ts, 95, true);
    assert_true(typical_seen_changed(&ts));   /* never built */
    frag_typical t;
    typical_seen_build(&ts, &t);              /* nothing seen: empty */
    assert_int_equal(t.n, 0);
    frag_typical_free(&t);
    assert_false(typical_seen_changed(&ts));
    typical_seen_add(&ts, &a, 3);
    typical_seen_add(&ts, &b, 1);
    assert_true(typical_seen_changed(&ts));
    typical_seen_build(&ts, &t);
    frag_typical_free(&t);
    assert_false(typical_seen_changed(&ts));
    typical_seen_add(&ts, &a, 3);             /* 6 : 2, the same weights */
    typical_seen_add(&ts, &b, 1);
    assert_false(typical_seen_changed(&ts));
    typical_seen_add(&ts, &b, 1);             /* 6 : 3 */
    assert_true(typical_seen_changed(&ts));
    typical_seen_build(&ts, &t);
    assert_float_equal(t.pods[0].p, 6.0 / 9, 1e-15);
    frag_typical_free(&t);
    typical_seen_free(&ts);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute),
        cmocka_unit_test(test_no_gpu_shape),
        cmocka_unit_test(test_zero_requests),
        cmocka_unit_test(test_mig_static),
        cmocka_unit_test(test_typical_seen_threshold),
        cmocka_unit_test(test_typical_seen_order),
        cmocka_unit_test(test_typical_seen_changed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
