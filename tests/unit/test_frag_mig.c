/* test_frag_mig.c -- the MIG fragmentation measure on hand-made H100s
 * (geometry of nvidia-inventory.md §2.1: 1g starts 0-6, 2g 0/2/4, 3g 0/4
 * size 4, 4g 0 size 4, 7g 0 size 8; 7 compute slices). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sched/policies/frag_mig.h"

static const frag_mig_profile G1 = {1, 1, 0x7f, 0}, G2 = {2, 2, 0x15, 0}, G3 = {4, 3, 0x11, 0},
                              G4 = {4, 4, 0x01, 0}, G7 = {8, 7, 0x01, 0};

static void add(frag_mig_typical *t, const frag_mig_profile *m, double w) {
    frag_mig_add(t, m->size, m->compute, m->starts, w);
}

static frag_mig_typical typical_1g_4g(void) {
    frag_mig_typical t = {.compute_total = 7};
    add(&t, &G1, 1);
    add(&t, &G4, 1);
    frag_mig_normalise(&t);
    return t;
}

/* A full GPU is not fragmented; an empty one only by the geometry: a 1g
 * never starts at slot 7, a 2g never at 6, a 4g only at 0 (slots 4-7). */
static void test_empty_and_full_gpus(void **state) {
    (void)state;
    frag_mig_typical t = {.compute_total = 7};
    add(&t, &G1, 4);
    add(&t, &G2, 2);
    add(&t, &G3, 1);
    add(&t, &G4, 1);
    add(&t, &G7, 2);
    frag_mig_normalise(&t);
    assert_true(fabs(t.m[0].p - 0.4) < 1e-12);
    frag_mig_gpu empty = {0, 0}, full = {0xff, 7};
    assert_true(fabs(frag_mig_gpu_frag(&empty, &t) - (0.4 * 1 + 0.2 * 2 + 0.1 * 4)) < 1e-9);
    assert_true(frag_mig_gpu_frag(&full, &t) == 0);
    /* any instance makes the 7g impossible: its share of the free slices counts */
    frag_mig_gpu one = {0x01, 1};
    assert_true(frag_mig_gpu_frag(&one, &t) >= 0.2 * 7 - 1e-9);
}

/* The brief's example: an H100 with a 3g at start 4. The 4g (start 0,
 * compute 3 + 4 = 7) is still possible; every 1g placement (starts 0-3, the
 * only free ones) takes one of its slices, so none keeps it possible. */
static void test_3g_at_4_then_1g(void **state) {
    (void)state;
    frag_mig_typical t = typical_1g_4g();
    frag_mig_gpu g = {frag_mig_span(4, 4), 3};
    assert_int_equal(frag_mig_usable(&g, &G4, 7), 0x0f);
    assert_true(frag_mig_gpu_frag(&g, &t) == 0);
    for (int s = 0; s < 8; s++) {
        if (!frag_mig_fits(&g, &G1, s, 7)) {
            assert_true(s >= 4);
            continue;
        }
        frag_mig_gpu after = {(uint8_t)(g.occ | frag_mig_span(s, 1)), g.compute + 1};
        assert_int_equal(frag_mig_usable(&after, &G4, 7), 0);
        assert_true(fabs(frag_mig_gpu_frag(&after, &t) - 0.5 * 3) < 1e-9);   /* 3 free slices lost to the 4g */
    }
}

/* On an empty H100 with typical {1g, 4g}, a 1g at start 0 kills the 4g (the
 * first-fit choice); the measure puts it at 4, keeping slices 0-3 for a 4g. */
static void test_1g_avoids_the_4g_region(void **state) {
    (void)state;
    frag_mig_typical t = typical_1g_4g();
    frag_mig_gpu g = {0, 0};
    double d;
    int s = frag_mig_best_start(&g, &G1, &t, &d);
    assert_int_equal(s, 4);
    frag_mig_gpu at0 = {0x01, 1};
    assert_true(d < frag_mig_gpu_frag(&at0, &t));
    frag_mig_gpu at4 = {0x10, 1};
    assert_int_equal(frag_mig_usable(&at4, &G4, 7), 0x0f);
}

/* 2g x 3 (slices 0-5, 6 compute): a 1g fits at 6 and uses the last compute
 * slice; slice 7 is then free but unusable by anything. */
static void test_compute_slices_bound_placements(void **state) {
    (void)state;
    frag_mig_typical t = {.compute_total = 7};
    add(&t, &G1, 1);
    frag_mig_normalise(&t);
    frag_mig_gpu g = {0x3f, 6};
    assert_true(frag_mig_fits(&g, &G1, 6, 7));
    assert_true(fabs(frag_mig_gpu_frag(&g, &t) - 1) < 1e-9);   /* slice 7: a 1g never starts there */
    g = (frag_mig_gpu){0x7f, 7};
    assert_false(frag_mig_fits(&g, &G1, 6, 7));
    assert_true(fabs(frag_mig_gpu_frag(&g, &t) - 1) < 1e-9);
    /* compute exhausted with memory free: 4g + 3g-sized demand blocked */
    frag_mig_gpu h = {0x0f, 7};
    assert_false(frag_mig_fits(&h, &G1, 4, 7));
    assert_int_equal(frag_mig_usable(&h, &G1, 7), 0);
    assert_true(fabs(frag_mig_gpu_frag(&h, &t) - 4) < 1e-9);
}

/* A 2g next to a 1g at 0: at 2 it keeps the 3g at 4 possible, at 4 it does not. */
static void test_2g_keeps_the_3g(void **state) {
    (void)state;
    frag_mig_typical t = {.compute_total = 7};
    add(&t, &G2, 1);
    add(&t, &G3, 1);
    frag_mig_normalise(&t);
    frag_mig_gpu g = {0x01, 1};
    double d;
    assert_int_equal(frag_mig_best_start(&g, &G2, &t, &d), 2);
    frag_mig_gpu at4 = {0x31, 3};
    assert_true(d < frag_mig_gpu_frag(&at4, &t) - frag_mig_gpu_frag(&g, &t));
    frag_mig_gpu full = {0xff, 7};
    assert_int_equal(frag_mig_best_start(&full, &G1, &t, &d), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_empty_and_full_gpus),
                                       cmocka_unit_test(test_3g_at_4_then_1g),
                                       cmocka_unit_test(test_1g_avoids_the_4g_region),
                                       cmocka_unit_test(test_compute_slices_bound_placements),
                                       cmocka_unit_test(test_2g_keeps_the_3g)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
