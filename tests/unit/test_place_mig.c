/* test_place_mig.c -- fragmentation-aware dynamic-MIG placement through the
 * real allocator (tests/place/mig-1gpu.yaml: one H100, typical 1g and 4g
 * claims). Upstream first fit puts the 1g at memory slice 0, where the 4g
 * (start 0 only) can no longer go; with `policy: fgd` the 1g goes to slice
 * 4 and the 4g still fits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/dra/dra_internal.h"
#include "sched/policies/place_mig.h"
#include "util/intern.h"

typedef struct fixture {
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    dra_state *d;
    arena a;
    strbuf err;
} fixture;

static void setup(fixture *f, bool fgd) {
    memset(f, 0, sizeof *f);
    if (scenario_load(TEST_DATA_DIR "/place/mig-1gpu.yaml", &f->sc, &f->err)) fail_msg("%s", sb_str(&f->err));
    if (!fgd) f->sc.sched.policy = NULL;
    if (catalog_load(NULL, &f->cat, &f->err)) fail_msg("%s", sb_str(&f->err));
    if (inventory_build(&f->sc.cluster, &f->cat, NULL, &f->inv, &f->err)) fail_msg("%s", sb_str(&f->err));
    f->d = dra_new(&f->sc, &f->inv, &f->err);
    assert_non_null(f->d);
    assert_non_null(f->d->mig);
}

static void teardown(fixture *f) {
    dra_free(f->d);
    inventory_free(&f->inv);
    catalog_free(&f->cat);
    scenario_free(&f->sc);
    arena_free(&f->a);
    sb_free(&f->err);
}

/* Allocate group g's claim on the node; commit it when it fits. */
static alloc_status place(fixture *f, size_t g, k8s_allocation *out, int *score) {
    k8s_resource_claim *c = &f->d->cls[g].own[0];
    alloc_status st = place_mig_allocate(f->d->mig, f->d->A, &f->inv.nodes[0], 0, &c, 1, &f->a, out, NULL, &f->err,
                                         score);
    if (st == ALLOC_OK) {
        allocator_commit(f->d->A, out);
        place_mig_commit(f->d->mig, out, 0);
    }
    return st;
}

static void test_first_fit_blocks_the_4g(void **state) {
    (void)state;
    fixture f;
    setup(&f, false);
    k8s_allocation al;
    int score;
    assert_int_equal(place(&f, 0, &al, &score), ALLOC_OK);
    assert_int_equal(score, -1);   /* upstream's choice */
    assert_string_equal(al.results[0].device, "gpu-0-mig-1g10gb-19-0");
    double frag = place_mig_frag_pct(f.d->mig);
    assert_int_equal(place(&f, 1, &al, &score), ALLOC_UNSATISFIABLE);
    assert_true(frag > 40);   /* 7 free slices, none usable by the 4g: (0.5*1 + 0.5*7)/8 */
    assert_int_equal(place_mig_decisions(f.d->mig), 0);
    teardown(&f);
}

static void test_fgd_keeps_the_4g(void **state) {
    (void)state;
    fixture f;
    setup(&f, true);
    k8s_allocation al;
    int score;
    double empty = place_mig_frag_pct(f.d->mig);
    assert_int_equal(place(&f, 0, &al, &score), ALLOC_OK);
    assert_string_equal(al.results[0].device, "gpu-0-mig-1g10gb-19-4");
    assert_true(score >= 0 && score <= 100);
    /* empty: slice 7 lost to the 1g, 4-7 to the 4g: (0.5*1 + 0.5*4)/8; the 1g
     * at 4 used a slice the 4g never could: (0.5*1 + 0.5*3)/8 */
    assert_true(fabs(empty - 100 * 2.5 / 8) < 1e-9);
    assert_true(fabs(place_mig_frag_pct(f.d->mig) - 100 * 2.0 / 8) < 1e-9);
    assert_int_equal(place(&f, 1, &al, &score), ALLOC_OK);
    assert_string_equal(al.results[0].device, "gpu-0-mig-4g40gb-5-0");
    assert_int_equal(place_mig_decisions(f.d->mig), 2);
    /* slices 5-7 left: 5, 6 usable by a 1g, none by a 4g: (0.5*1 + 0.5*3)/8 */
    assert_true(fabs(place_mig_frag_pct(f.d->mig) - 100 * 2.0 / 8) < 1e-9);
    /* release the 4g: its slices come back, a 4g fits again */
    allocator_release(f.d->A, &al);
    place_mig_release(f.d->mig, &al, 0);
    assert_true(fabs(place_mig_frag_pct(f.d->mig) - 100 * 2.0 / 8) < 1e-9);
    assert_int_equal(place(&f, 1, &al, &score), ALLOC_OK);
    assert_string_equal(al.results[0].device, "gpu-0-mig-4g40gb-5-0");
    teardown(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_first_fit_blocks_the_4g),
                                       cmocka_unit_test(test_fgd_keeps_the_4g)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
