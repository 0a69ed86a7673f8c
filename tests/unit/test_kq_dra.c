/* test_kq_dra.c -- Kueue's counter quota for partitionable devices
 * (sim/queue/kq_dra.c), table cases transcribed from kubernetes-sigs/kueue
 * ff69552e79 pkg/dra/counters_test.go: TestComputeCounterCharges (the charge
 * is the largest counter value over the matched devices and counter sets,
 * clamped to int64, negative -> 0, times count saturating) and
 * TestGroupSlicesByPool (the highest generation per pool, complete when
 * resourceSliceCount slices of it exist, slices of other drivers ignored).
 * Expectations are the upstream `want` values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "queue/kq_dra.h"

#define MI (INT64_C(1024) * 1024)
#define GI (MI * 1024)

/* A device consuming counters (name=value pairs) from one counter set. */
typedef struct tdev {
    k8s_device d;
    k8s_counter_set cs[2];
    k8s_counter c[2][2];
} tdev;

static quantity q(const char *s) {
    quantity v;
    const char *err = NULL;
    assert_int_equal(quantity_parse(s, strlen(s), &v, &err), 0);
    return v;
}

/* makeDevice(name, profile, memoryValue): memory "" = no consumesCounters */
static void make_device(tdev *t, const char *name, const char *memory) {
    memset(t, 0, sizeof *t);
    t->d.name = name;
    if (!*memory) return;
    t->c[0][0] = (k8s_counter){"memory", q(memory)};
    t->cs[0] = (k8s_counter_set){"gpu-counter-set", t->c[0], 1};
    t->d.consumes = t->cs;
    t->d.nconsumes = 1;
}

static int64_t charge(tdev *devs, size_t n, int64_t count, bool *found) {
    const k8s_device *m[4];
    for (size_t i = 0; i < n; i++) m[i] = &devs[i].d;
    return kq_dra_counter_charge(m, n, "memory", count, found);
}

static void test_compute_counter_charges(void **state) {
    (void)state;
    tdev d[3];
    bool found;
    /* "single device, count=1" */
    make_device(&d[0], "mig-1g10gb-0", "9856Mi");
    assert_int_equal(charge(d, 1, 1, &found), 9856 * MI);
    assert_true(found);
    /* "single device, count=3" */
    assert_int_equal(charge(d, 1, 3, &found), 9856 * MI * 3);
    /* "multiple devices same value, MAX is same" */
    make_device(&d[1], "mig-1g10gb-1", "9856Mi");
    make_device(&d[2], "mig-1g10gb-2", "9856Mi");
    assert_int_equal(charge(d, 3, 1, &found), 9856 * MI);
    /* "multiple devices different values, MAX wins" */
    make_device(&d[1], "mig-3g40gb-0", "40Gi");
    assert_int_equal(charge(d, 2, 1, &found), 40 * GI);
    /* "counter not in config, skipped": multiprocessors 14 beside memory */
    make_device(&d[0], "mig-1g10gb-0", "9856Mi");
    d[0].c[0][1] = (k8s_counter){"multiprocessors", q("14")};
    d[0].cs[0].ncounters = 2;
    assert_int_equal(charge(d, 1, 1, &found), 9856 * MI);
    /* "multiple ConsumesCounters entries, MAX across counter sets" */
    make_device(&d[0], "multi-set-device", "10Gi");
    d[0].c[1][0] = (k8s_counter){"memory", q("30Gi")};
    d[0].cs[1] = (k8s_counter_set){"set-b", d[0].c[1], 1};
    d[0].d.nconsumes = 2;
    assert_int_equal(charge(d, 1, 1, &found), 30 * GI);
    /* "no consumesCounters, no deviceSelector": want nil */
    make_device(&d[0], "whole-gpu-0", "");
    assert_int_equal(charge(d, 1, 1, &found), 0);
    assert_false(found);
    /* "count multiplication saturates instead of overflowing int64" */
    make_device(&d[0], "big-counter-0", "8000000000000000000");
    assert_int_equal(charge(d, 1, 2, &found), INT64_MAX);
    assert_true(found);
    /* "counter that Value() would truncate is clamped before multiply" */
    make_device(&d[0], "truncating-0", "10000000000000000000");
    assert_int_equal(charge(d, 1, 2, &found), INT64_MAX);
    /* "counter above int64 is clamped at count=1" */
    make_device(&d[0], "overmax-0", "9223372036854775808");
    assert_int_equal(charge(d, 1, 1, &found), INT64_MAX);
    /* "negative counter is clamped to zero" (count 2) and "... at count=1" */
    make_device(&d[0], "negative-0", "-5");
    assert_int_equal(charge(d, 1, 2, &found), 0);
    assert_true(found);
    assert_int_equal(charge(d, 1, 1, &found), 0);
    /* "fractional counter rounds up at count=1" */
    make_device(&d[0], "fractional-0", "500m");
    assert_int_equal(charge(d, 1, 1, &found), 1);
    /* "sub-integer negative counter is clamped to zero" */
    make_device(&d[0], "negative-fractional-0", "-500m");
    assert_int_equal(charge(d, 1, 1, &found), 0);
}

/* makeResourceSlice(name, driver, poolName, gen, sliceCount, nil) */
static k8s_resource_slice slice(const char *driver, const char *pool, int64_t gen, int64_t count) {
    return (k8s_resource_slice){.driver = driver, .pool = pool, .generation = gen, .slice_count = count};
}

typedef struct pool_case {
    const char *name;
    k8s_resource_slice s[4];
    size_t n;
    size_t want_pools;
    const char *pool[2];
    bool complete[2];
    int64_t gen[2];
} pool_case;

static void test_group_slices_by_pool(void **state) {
    (void)state;
    const char *g = "gpu.nvidia.com";
    const pool_case cases[] = {
        {"single pool, complete", {slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 1, 2)}, 2, 1,
         {"node1-gpu0"}, {true}, {1}},
        {"single pool, incomplete", {slice(g, "node1-gpu0", 1, 2)}, 1, 1, {"node1-gpu0"}, {false}, {1}},
        {"two pools",
         {slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu1", 1, 2),
          slice(g, "node1-gpu1", 1, 2)},
         4, 2, {"node1-gpu0", "node1-gpu1"}, {true, true}, {1, 1}},
        {"filter by driver", {slice(g, "node1-gpu0", 1, 1), slice("net.example.com", "node1-net0", 1, 1)}, 2, 1,
         {"node1-gpu0"}, {true}, {1}},
        {"higher generation replaces older",
         {slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 2, 2),
          slice(g, "node1-gpu0", 2, 2)},
         4, 1, {"node1-gpu0"}, {true}, {2}},
        {"mixed generation, incomplete new",
         {slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 1, 2), slice(g, "node1-gpu0", 2, 2)}, 3, 1,
         {"node1-gpu0"}, {false}, {2}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const pool_case *t = &cases[c];
        const k8s_resource_slice *ps[4];
        for (size_t i = 0; i < t->n; i++) ps[i] = &t->s[i];
        kq_dra_pool *p;
        size_t np = kq_dra_pools(ps, t->n, g, &p);
        print_message("%s\n", t->name);
        assert_int_equal(np, t->want_pools);
        for (size_t i = 0; i < np; i++) {
            assert_string_equal(p[i].name, t->pool[i]);
            assert_int_equal(kq_dra_pool_complete(&p[i]), t->complete[i]);
            assert_int_equal(p[i].generation, t->gen[i]);
        }
        kq_dra_pools_free(p, np);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_counter_charges),
        cmocka_unit_test(test_group_slices_by_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
