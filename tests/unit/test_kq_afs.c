/* test_kq_afs.c -- admission fair sharing's LocalQueue usage (sim/queue/kq_afs.c)
 * against the tables of kubernetes-sigs/kueue ff69552e79
 * pkg/util/admissionfairsharing/admission_fair_sharing_test.go:
 * TestCalculateUsageWithDRA, TestCalculateUsageWithNonPositiveWeight and
 * TestCalculateDecayedConsumedConvergesToUsage (expectations are upstream's
 * `wantUsage` / `wantAfterHalfLife`), plus the half-life-0 rule of
 * localqueue_controller.go reconcileConsumedUsage / workload_controller.go
 * updateAfsConsumedUsage (a sample resets, an admission keeps the history). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "queue/kq_afs.h"

/* One LocalQueue over resources {cpu, gpu-logical} (CalculateUsage's sorted order). */
typedef struct fixture {
    kq_afs_config cfg;
    kq_afs a;
    kq_afs_lq lq;
    const char *res[2];
    double w[2], consumed[2], admitted[2];
} fixture;

static void setup(fixture *f, double lq_weight, double w_cpu, double w_gpu) {
    memset(f, 0, sizeof *f);
    f->res[0] = "cpu";
    f->res[1] = "gpu-logical";
    f->w[0] = w_cpu;
    f->w[1] = w_gpu;
    f->lq = (kq_afs_lq){.on = true, .weight = lq_weight, .consumed = f->consumed, .admitted = f->admitted};
    f->a = (kq_afs){.cfg = &f->cfg, .res = f->res, .res_weight = f->w, .nres = 2, .lqs = &f->lq, .nlq = 1};
}

static void test_calculate_usage(void **state) {
    (void)state;
    fixture f;
    /* "DRA resource with default weight": 1 * 2 / 1 */
    setup(&f, 1, 1, 1);
    f.consumed[1] = 2;
    assert_true(kq_afs_usage(&f.a, 0) == 2);
    /* "DRA resource with explicit weight": 3 * 2 / 1 */
    setup(&f, 1, 1, 3);
    f.consumed[1] = 2;
    assert_true(kq_afs_usage(&f.a, 0) == 6);
    /* "mixed CPU and DRA resources": (1*4 + 5*2) / 1 */
    setup(&f, 1, 1, 5);
    f.consumed[0] = 4;
    f.consumed[1] = 2;
    assert_true(kq_afs_usage(&f.a, 0) == 14);
    /* "DRA resource with weight zero contributes nothing" */
    setup(&f, 1, 1, 0);
    f.consumed[1] = 10;
    assert_true(kq_afs_usage(&f.a, 0) == 0);
    /* "DRA resource in both consumed and penalty": 4 * (2+1) / 2 (the penalty folded in) */
    setup(&f, 2, 1, 4);
    f.consumed[1] = 2 + 1;
    assert_true(kq_afs_usage(&f.a, 0) == 6);
    /* TestCalculateUsageWithNonPositiveWeight: +Inf, never NaN */
    setup(&f, 0, 1, 1);
    assert_true(isinf(kq_afs_usage(&f.a, 0)) && kq_afs_usage(&f.a, 0) > 0);   /* "zero weight, idle queue" */
    f.consumed[0] = 4;
    assert_true(isinf(kq_afs_usage(&f.a, 0)) && kq_afs_usage(&f.a, 0) > 0);   /* "zero weight, active queue" */
    setup(&f, -1, 1, 1);
    f.consumed[0] = 4;
    assert_true(isinf(kq_afs_usage(&f.a, 0)) && kq_afs_usage(&f.a, 0) > 0);   /* "negative weight" */
}

/* TestCalculateDecayedConsumedConvergesToUsage: usage 2 cpu sampled every 5 min
 * with a 168 h half-life: 1, 1.5, 1.75 after 1, 2, 3 half-lives (within 1m). */
static void test_decay_converges(void **state) {
    (void)state;
    fixture f;
    setup(&f, 1, 1, 1);
    f.cfg = (kq_afs_config){.on = true, .half_life_ms = 168LL * 3600 * 1000, .sampling_ms = 5 * 60 * 1000};
    f.admitted[0] = 2;
    const double want[] = {1, 1.5, 1.75};
    int64_t t = 0;
    for (int h = 0; h < 3; h++) {
        for (int i = 0; i < 2016; i++) kq_afs_sample(&f.a, 0, t += f.cfg.sampling_ms);
        assert_true(fabs(f.consumed[0] - want[h]) <= 0.001);
        assert_true(f.consumed[0] <= 2);
    }
}

/* usageHalfLifeTime 0: a sample resets the history; an admission keeps it
 * (alpha 0: nothing decays, a zero penalty is folded in). */
static void test_half_life_zero(void **state) {
    (void)state;
    fixture f;
    setup(&f, 1, 1, 1);
    f.cfg = (kq_afs_config){.on = true, .half_life_ms = 0, .sampling_ms = 1000};
    f.consumed[0] = 8;   /* as loaded from the LocalQueue's status */
    double amt[2] = {4, 0};
    kq_afs_admitted(&f.a, 0, amt, 500);
    assert_true(f.consumed[0] == 8);
    kq_afs_sample(&f.a, 0, 1000);
    assert_true(f.consumed[0] == 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calculate_usage),
        cmocka_unit_test(test_decay_converges),
        cmocka_unit_test(test_half_life_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
