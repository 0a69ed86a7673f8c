/* test_usage_model.c -- the contention model's arithmetic (engine/sim_usage.h)
 * and the usage profiles' draws (model/usage.c), on hand-computed cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "engine/sim_usage.h"
#include "model/usage.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* Water-filling: caps 0.1, 0.5, 0.9 on capacity 1: 0.1 is met (below 1/3),
 * the other two split 0.9: 0.45 each (0.5 and 0.9 are both above it). */
static void test_fair_share(void **st) {
    (void)st;
    const double cap[] = {0.1, 0.5, 0.9};
    NEAR(sim_usage_fair_share(cap, 3, 1.0, 0), 0.1);
    NEAR(sim_usage_fair_share(cap, 3, 1.0, 1), 0.45);
    NEAR(sim_usage_fair_share(cap, 3, 1.0, 2), 0.45);
    /* capacity 1.2 > sum of the two smallest (0.6): 0.9 gets the rest, 0.6 */
    NEAR(sim_usage_fair_share(cap, 3, 1.2, 2), 0.6);
    /* everything fits: each gets its cap */
    NEAR(sim_usage_fair_share(cap, 3, 2.0, 2), 0.9);
    /* one tenant alone: its cap, at most the capacity */
    const double one[] = {0.8};
    NEAR(sim_usage_fair_share(one, 1, 1.0, 0), 0.8);
    NEAR(sim_usage_fair_share(one, 1, 0.5, 0), 0.5);
    /* idle tenants take nothing */
    const double idle[] = {0, 0, 1};
    NEAR(sim_usage_fair_share(idle, 3, 1.0, 2), 1.0);
}

/* Time-slicing: 1 / (1 + c (n - 1)); MPS: 1 / (1 + beta max(0, D - 1)). */
static void test_capacity(void **st) {
    (void)st;
    NEAR(sim_usage_capacity(SHARE_TIME_SLICING, 1, 0.9, 0.1, 0.3), 1.0);
    NEAR(sim_usage_capacity(SHARE_TIME_SLICING, 3, 0.2, 0.1, 0.3), 1 / 1.2);
    NEAR(sim_usage_capacity(SHARE_MPS, 3, 0.9, 0.1, 0.3), 1.0);
    NEAR(sim_usage_capacity(SHARE_MPS, 2, 1.5, 0.1, 0.3), 1 / 1.15);
}

/* Draws: fixed, uniform within bounds, quantile interpolation, clamping. */
static void test_draws(void **st) {
    (void)st;
    rng r;
    rng_seed(&r, 1);
    busy_dist fixed = {.kind = BUSY_FIXED, .a = 0.3};
    NEAR(usage_draw(&fixed, &r), 0.3);
    busy_dist uni = {.kind = BUSY_UNIFORM, .a = 0.2, .b = 0.4};
    for (int i = 0; i < 1000; i++) {
        double x = usage_draw(&uni, &r);
        assert_true(x >= 0.2 && x <= 0.4);
    }
    static const double q[] = {0, 0.5, 1}, v[] = {0, 0.1, 1};
    busy_dist quant = {.kind = BUSY_QUANTILES, .q = q, .v = v, .n = 3};
    double below = 0, sum = 0;
    for (int i = 0; i < 100000; i++) {
        double x = usage_draw(&quant, &r);
        assert_true(x >= 0 && x <= 1);
        below += x <= 0.1;
        sum += x;
    }
    /* half the mass below 0.1; mean = 0.5 * 0.05 + 0.5 * 0.55 = 0.3 */
    assert_true(fabs(below / 100000 - 0.5) < 0.01);
    assert_true(fabs(sum / 100000 - 0.3) < 0.01);
    busy_dist logn = {.kind = BUSY_LOGNORMAL, .a = 0.9, .b = 3};
    for (int i = 0; i < 1000; i++) assert_true(usage_draw(&logn, &r) <= 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fair_share),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_draws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
