/* test_workload.c -- arrival processes and duration distributions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "util/intern.h"
#include "workload/workload.h"

static pod_group_spec group(const char *name, int64_t count) {
    pod_group_spec g;
    memset(&g, 0, sizeof g);
    g.name = intern(name);
    g.count = count;
    g.duration.kind = DIST_FIXED;
    g.duration.a = 1000;
    return g;
}

static void test_constant_and_count(void **state) {
    pod_group_spec g = group("c", 3);
    g.arrival = (arrival_spec){.kind = ARRIVAL_CONSTANT, .start = 5000, .interval = 30000};
    workload_group w;
    workload_group_init(&w, &g, 1);
    sim_time t, d;
    static const sim_time want[] = {5000, 35000, 65000};
    for (int i = 0; i < 3; i++) {
        assert_true(workload_next(&w, &t, &d));
        assert_int_equal(t, want[i]);
        assert_int_equal(d, 1000);
    }
    assert_false(workload_next(&w, &t, &d));
}

static void test_times(void **state) {
    sim_time times[] = {0, 10, 10, 400};
    pod_group_spec g = group("t", 4);
    g.arrival = (arrival_spec){.kind = ARRIVAL_TIMES, .times = times};
    workload_group w;
    workload_group_init(&w, &g, 1);
    sim_time t, d;
    for (int i = 0; i < 4; i++) {
        assert_true(workload_next(&w, &t, &d));
        assert_int_equal(t, times[i]);
    }
    assert_false(workload_next(&w, &t, &d));
}

/* Poisson: mean gap close to 1/rate; same seed and name = same stream;
 * another name = another stream. */
static void test_poisson_mean_and_determinism(void **state) {
    pod_group_spec g = group("p", 20000), h = group("other", 20000);
    g.arrival = (arrival_spec){.kind = ARRIVAL_POISSON, .mean_gap_ms = 15000};
    h.arrival = g.arrival;
    workload_group a, b, c;
    workload_group_init(&a, &g, 42);
    workload_group_init(&b, &g, 42);
    workload_group_init(&c, &h, 42);
    sim_time ta = 0, tb, tc, d;
    int differ = 0;
    for (int i = 0; i < 20000; i++) {
        assert_true(workload_next(&a, &ta, &d));
        assert_true(workload_next(&b, &tb, &d));
        assert_true(workload_next(&c, &tc, &d));
        assert_int_equal(ta, tb);
        differ += ta != tc;
    }
    assert_true(differ > 19000);
    double mean = (double)ta / 20000;
    assert_true(fabs(mean - 15000) < 15000 * 0.03);
}

static void test_duration_distributions(void **state) {
    rng r;
    rng_seed(&r, 3);
    duration_dist u = {.kind = DIST_UNIFORM, .a = 100, .b = 200};
    duration_dist e = {.kind = DIST_EXPONENTIAL, .a = 60000};
    duration_dist l = {.kind = DIST_LOGNORMAL, .a = 1800000, .sigma = 0.8};
    double esum = 0;
    sim_time ls[10001];
    for (int i = 0; i < 10001; i++) {
        sim_time x = workload_sample_duration(&u, &r);
        assert_true(x >= 100 && x <= 200);
        esum += (double)workload_sample_duration(&e, &r);
        ls[i] = workload_sample_duration(&l, &r);
    }
    assert_true(fabs(esum / 10001 - 60000) < 60000 * 0.05);
    /* log-normal: half of the draws below the median */
    int below = 0;
    for (int i = 0; i < 10001; i++) below += ls[i] < 1800000;
    assert_true(below > 4800 && below < 5200);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_and_count),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_poisson_mean_and_determinism),
        cmocka_unit_test(test_duration_distributions),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
