/* test_sched_dra_openb.c -- OpenB shapes as DRA claims on GPUs with a
 * consumable milli capacity: sharing pods split a GPU, whole-GPU pods need
 * untouched GPUs, model constraints select by productName, released shares
 * give their capacity back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sched/dra/dra_openb.h"
#include "util/intern.h"
#include "model/openb_trace.h"

static void test_shares_whole_gpus_and_models(void **state) {
    (void)state;
    openb_node on[2] = {{.name = "v100", .cpu_milli = 8000, .memory_mib = 1024, .gpus = 2, .model = "V100M16"},
                        {.name = "t4", .cpu_milli = 8000, .memory_mib = 1024, .gpus = 1, .model = "T4"}};
    k8s_node kn[2] = {0};
    kn[0].meta.name = intern("v100");
    kn[1].meta.name = intern("t4");
    trace_spec t = {0};
    t.nodes = on;
    t.nnodes = 2;
    const char *models[2] = {"V100M16", "T4"};
    gs_pod shapes[4] = {{.cpu = 100, .ngpu = 1, .milli = 600, .models = ~(uint64_t)0},
                        {.cpu = 100, .ngpu = 2, .milli = 1000, .models = 1},
                        {.cpu = 100, .ngpu = 1, .milli = 500, .models = 2},
                        {.cpu = 100, .ngpu = 0, .milli = 0, .models = ~(uint64_t)0}};
    dra_openb *d = dra_openb_new(&t, kn, shapes, 4, models, 2, 1);
    uint32_t g;
    assert_true(dra_openb_allocate(d, 0, 0, 0, 0, &g));
    assert_int_equal(g, 1);                        /* gpu-0: 400 milli left */
    assert_true(dra_openb_allocate(d, 1, 0, 0, 0, &g));
    assert_int_equal(g, 2);                        /* 600 does not fit in 400: gpu-1 */
    assert_false(dra_openb_allocate(d, 2, 1, 0, 0, &g));   /* no untouched GPU for a 2-GPU pod */
    dra_openb_release(d, 0);
    assert_false(dra_openb_allocate(d, 2, 1, 0, 0, &g));   /* gpu-1 still shared */
    dra_openb_release(d, 1);
    assert_true(dra_openb_allocate(d, 2, 1, 0, 0, &g));
    assert_int_equal(g, 3);
    /* the T4-only shape: not on the V100 node, fine on the T4 node, twice fits 500 + 500 */
    assert_false(dra_openb_allocate(d, 3, 2, 0, 0, &g));
    assert_true(dra_openb_allocate(d, 3, 2, 1, 0, &g));
    assert_true(dra_openb_allocate(d, 4, 2, 1, 0, &g));
    assert_int_equal(g, 1);
    assert_false(dra_openb_allocate(d, 5, 2, 1, 0, &g));
    /* CPU-only shapes allocate nothing */
    assert_true(dra_openb_allocate(d, 6, 3, 1, 0, &g));
    assert_int_equal(g, 0);
    assert_int_equal(dra_openb_calls(d), 9);   /* CPU-only shapes do not call the allocator */
    dra_openb_free(d);
}

/* A preferred GPU set (the policy's choice) decides which GPUs the claim
 * gets; when it does not fit, the allocator's first fit is taken. */
static void test_preferred_gpus(void **state) {
    (void)state;
    openb_node on[1] = {{.name = "n", .cpu_milli = 8000, .memory_mib = 1024, .gpus = 4, .model = "V100M16"}};
    k8s_node kn[1] = {0};
    kn[0].meta.name = intern("n");
    trace_spec t = {0};
    t.nodes = on;
    t.nnodes = 1;
    const char *models[1] = {"V100M16"};
    gs_pod shapes[2] = {{.cpu = 100, .ngpu = 1, .milli = 700, .models = ~(uint64_t)0},
                        {.cpu = 100, .ngpu = 2, .milli = 1000, .models = ~(uint64_t)0}};
    dra_openb *d = dra_openb_new(&t, kn, shapes, 2, models, 1, 1);
    uint32_t g;
    assert_true(dra_openb_allocate(d, 0, 0, 0, 1u << 2, &g));
    assert_int_equal(g, 1u << 2);                  /* gpu-2 as asked, not first-fit gpu-0 */
    assert_true(dra_openb_allocate(d, 1, 0, 0, 1u << 2, &g));
    assert_int_equal(g, 1u << 0);                  /* 700 no longer fits gpu-2: first fit */
    assert_true(dra_openb_allocate(d, 2, 1, 0, (1u << 1) | (1u << 3), &g));
    assert_int_equal(g, (1u << 1) | (1u << 3));    /* whole GPUs: exactly the chosen pair */
    dra_openb_free(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_shares_whole_gpus_and_models),
                                       cmocka_unit_test(test_preferred_gpus)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
