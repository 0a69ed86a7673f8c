/* test_catalog.c -- the GPU catalog: per model the MIG profile tables and
 * placements equal the reference tables (nvidia-inventory.md sections 2.2-2.4,
 * typed in here independently of data/gpu-catalog.yaml), static layouts are
 * placed as mig-parted would, and a broken catalog file is rejected with a
 * position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"

/* ---- reference tables (from the spec, not from the data file) ----------------- */

typedef struct ref_profile {
    const char *name;
    int id, mem_slices, compute_slices, sms;
    int64_t mib;
    int ce, dec, enc, jpg, ofa, max;
    int starts[8], nstarts;
} ref_profile;

typedef struct ref_model {
    const char *key, *product;
    int64_t mib;
    int sms, cc_major, cc_minor;
    const char *arch;
    ref_profile p[7];
} ref_model;

#define ALL7 {0, 1, 2, 3, 4, 5, 6}, 7
#define EVEN4 {0, 2, 4, 6}, 4
#define THREE {0, 2, 4}, 3
#define TWO {0, 4}, 2
#define ONE {0}, 1

static const ref_model refs[] = {
    {"A100-40GB", "NVIDIA A100-SXM4-40GB", 40960, 108, 8, 0, "Ampere",
     {{"1g.5gb", 19, 1, 1, 14, 4864, 1, 0, 0, 0, 0, 7, ALL7},
      {"1g.5gb+me", 20, 1, 1, 14, 4864, 1, 1, 0, 1, 1, 1, ALL7},
      {"1g.10gb", 15, 2, 1, 14, 9856, 1, 1, 0, 0, 0, 4, EVEN4},
      {"2g.10gb", 14, 2, 2, 28, 9856, 2, 1, 0, 0, 0, 3, THREE},
      {"3g.20gb", 9, 4, 3, 42, 19968, 3, 2, 0, 0, 0, 2, TWO},
      {"4g.20gb", 5, 4, 4, 56, 19968, 4, 2, 0, 0, 0, 1, ONE},
      {"7g.40gb", 0, 8, 7, 98, 40192, 7, 5, 0, 1, 1, 1, ONE}}},
    {"A100-80GB", "NVIDIA A100-SXM4-80GB", 81920, 108, 8, 0, "Ampere",
     {{"1g.10gb", 19, 1, 1, 14, 9728, 1, 0, 0, 0, 0, 7, ALL7},
      {"1g.10gb+me", 20, 1, 1, 14, 9728, 1, 1, 0, 1, 1, 1, ALL7},
      {"1g.20gb", 15, 2, 1, 14, 19968, 1, 1, 0, 0, 0, 4, EVEN4},
      {"2g.20gb", 14, 2, 2, 28, 19968, 2, 1, 0, 0, 0, 3, THREE},
      {"3g.40gb", 9, 4, 3, 42, 40192, 3, 2, 0, 0, 0, 2, TWO},
      {"4g.40gb", 5, 4, 4, 56, 40192, 4, 2, 0, 0, 0, 1, ONE},
      {"7g.80gb", 0, 8, 7, 98, 80896, 7, 5, 0, 1, 1, 1, ONE}}},
    {"H100-80GB", "NVIDIA H100 80GB HBM3", 81559, 132, 9, 0, "Hopper",
     {{"1g.10gb", 19, 1, 1, 16, 9984, 1, 1, 0, 1, 0, 7, ALL7},
      {"1g.10gb+me", 20, 1, 1, 16, 9984, 1, 1, 0, 1, 1, 1, ALL7},
      {"1g.20gb", 15, 2, 1, 26, 20096, 1, 1, 0, 1, 0, 4, EVEN4},
      {"2g.20gb", 14, 2, 2, 32, 20096, 2, 2, 0, 2, 0, 3, THREE},
      {"3g.40gb", 9, 4, 3, 60, 40448, 3, 3, 0, 3, 0, 2, TWO},
      {"4g.40gb", 5, 4, 4, 64, 40448, 4, 4, 0, 4, 0, 1, ONE},
      {"7g.80gb", 0, 8, 7, 132, 81152, 8, 7, 0, 7, 1, 1, ONE}}},
    {"H100-94GB", "NVIDIA H100 NVL", 95830, 132, 9, 0, "Hopper",
     {{"1g.12gb", 19, 1, 1, 16, 11008, 1, 1, 0, 1, 0, 7, ALL7},
      {"1g.12gb+me", 20, 1, 1, 16, 11008, 1, 1, 0, 1, 1, 1, ALL7},
      {"1g.24gb", 15, 2, 1, 26, 22144, 1, 1, 0, 1, 0, 4, EVEN4},
      {"2g.24gb", 14, 2, 2, 32, 22144, 2, 2, 0, 2, 0, 3, THREE},
      {"3g.47gb", 9, 4, 3, 60, 47488, 3, 3, 0, 3, 0, 2, TWO},
      {"4g.47gb", 5, 4, 4, 64, 47488, 4, 4, 0, 4, 0, 1, ONE},
      {"7g.94gb", 0, 8, 7, 132, 95360, 8, 7, 0, 7, 1, 1, ONE}}},
    {"H200-141GB", "NVIDIA H200", 143771, 132, 9, 0, "Hopper",
     {{"1g.18gb", 19, 1, 1, 16, 16384, 1, 1, 0, 1, 0, 7, ALL7},
      {"1g.18gb+me", 20, 1, 1, 16, 16384, 1, 1, 0, 1, 1, 1, ALL7},
      {"1g.35gb", 15, 2, 1, 26, 33280, 1, 1, 0, 1, 0, 4, EVEN4},
      {"2g.35gb", 14, 2, 2, 32, 33280, 2, 2, 0, 2, 0, 3, THREE},
      {"3g.71gb", 9, 4, 3, 60, 66560, 3, 3, 0, 3, 0, 2, TWO},
      {"4g.71gb", 5, 4, 4, 64, 66560, 4, 4, 0, 4, 0, 1, ONE},
      {"7g.141gb", 0, 8, 7, 132, 143360, 8, 7, 0, 7, 1, 1, ONE}}},
};
#define NREFS (sizeof refs / sizeof *refs)

static gpu_catalog cat;

static int setup(void **state) {
    strbuf err = {0};
    int rc = catalog_load(NULL, &cat, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    sb_free(&err);
    return rc;
}

static int teardown(void **state) {
    catalog_free(&cat);
    intern_reset();
    return 0;
}

static void test_models_and_spec_sheet(void **state) {
    /* the five models of nvidia-inventory.md section 4 first, then the wider
     * catalog of issue 13 (tests/unit/test_catalog_models.c) */
    assert_int_equal(cat.nmodels, NREFS + 11);   /* + GB200, B300, GB300 (issue 28) */
    for (size_t i = 0; i < NREFS; i++) {
        const gpu_model *m = catalog_find(&cat, refs[i].key);
        assert_non_null(m);
        assert_string_equal(m->product_name, refs[i].product);
        assert_int_equal(m->memory_mib, refs[i].mib);
        assert_int_equal(m->multiprocessors, refs[i].sms);
        assert_int_equal(m->cc_major, refs[i].cc_major);
        assert_int_equal(m->cc_minor, refs[i].cc_minor);
        assert_string_equal(m->architecture, refs[i].arch);
        assert_int_equal(m->mem_slices_total, 8);
        assert_int_equal(m->compute_slices_total, 7);
    }
    assert_null(catalog_find(&cat, "V100-16GB"));
}

static void test_mig_profile_tables(void **state) {
    for (size_t i = 0; i < NREFS; i++) {
        const gpu_model *m = catalog_find(&cat, refs[i].key);
        assert_int_equal(m->nprofiles, 7);
        for (int k = 0; k < 7; k++) {
            const ref_profile *r = &refs[i].p[k];
            const mig_profile *p = gpu_model_profile(m, r->name);
            if (!p) fail_msg("%s: profile %s missing", refs[i].key, r->name);
            assert_int_equal(p->id, r->id);
            assert_int_equal(p->mem_slices, r->mem_slices);
            assert_int_equal(p->size, r->mem_slices);
            assert_int_equal(p->compute_slices, r->compute_slices);
            assert_int_equal(p->multiprocessors, r->sms);
            assert_int_equal(p->memory_mib, r->mib);
            assert_int_equal(p->copy_engines, r->ce);
            assert_int_equal(p->decoders, r->dec);
            assert_int_equal(p->encoders, r->enc);
            assert_int_equal(p->jpeg, r->jpg);
            assert_int_equal(p->ofa, r->ofa);
            assert_int_equal(p->max_instances, r->max);
            assert_int_equal(p->nstarts, r->nstarts);
            for (int s = 0; s < r->nstarts; s++) assert_int_equal(p->starts[s], r->starts[s]);
        }
    }
}

/* Place `layout` on `model` and compare with "profile@start ..." text. */
static void expect_placement(const char *model, const char *layout, const char *want) {
    const gpu_model *m = catalog_find(&cat, model);
    assert_non_null(m);
    const mig_layout *l = gpu_model_layout(m, layout);
    if (!l) fail_msg("%s has no layout %s", model, layout);
    mig_placement pl[16];
    strbuf err = {0}, got = {0};
    assert_int_equal(mig_layout_place(m, l, pl, &err), 0);
    for (int i = 0; i < l->nprofiles; i++) sb_printf(&got, "%s%s@%d", i ? " " : "", pl[i].profile->name, pl[i].start);
    assert_string_equal(sb_str(&got), want);
    sb_free(&err);
    sb_free(&got);
}

static void test_named_layout_placements(void **state) {
    expect_placement("A100-40GB", "all-balanced", "1g.5gb@0 1g.5gb@1 2g.10gb@2 3g.20gb@4");
    expect_placement("A100-80GB", "all-balanced", "1g.10gb@0 1g.10gb@1 2g.20gb@2 3g.40gb@4");
    expect_placement("H100-80GB", "all-balanced", "1g.10gb@0 1g.10gb@1 2g.20gb@2 3g.40gb@4");
    expect_placement("H100-94GB", "all-balanced", "1g.12gb@0 1g.12gb@1 2g.24gb@2 3g.47gb@4");
    expect_placement("H200-141GB", "all-balanced", "1g.18gb@0 1g.18gb@1 2g.35gb@2 3g.71gb@4");
    expect_placement("H100-80GB", "all-1g.10gb",
                     "1g.10gb@0 1g.10gb@1 1g.10gb@2 1g.10gb@3 1g.10gb@4 1g.10gb@5 1g.10gb@6");
    expect_placement("A100-40GB", "all-1g.10gb", "1g.10gb@0 1g.10gb@2 1g.10gb@4 1g.10gb@6");
    expect_placement("H200-141GB", "all-2g.35gb", "2g.35gb@0 2g.35gb@2 2g.35gb@4");
    expect_placement("H100-94GB", "all-3g.47gb", "3g.47gb@0 3g.47gb@4");
    expect_placement("A100-80GB", "all-7g.80gb", "7g.80gb@0");
    expect_placement("H100-80GB", "all-1g.10gb.me", "1g.10gb+me@0");
}

/* Place an ad-hoc layout given as profile names. */
static int place_adhoc(const char *model, const char **profiles, int n, mig_placement *pl, strbuf *err) {
    const gpu_model *m = catalog_find(&cat, model);
    mig_layout l = {.name = "custom", .profiles = profiles, .nprofiles = n};
    return mig_layout_place(m, &l, pl, err);
}

static void test_creation_order_permutation(void **state) {
    /* 1g.20gb first would take start 0 and block the 4g; mig-parted's next order works */
    const char *order[] = {"1g.20gb", "4g.40gb"};
    mig_placement pl[2];
    strbuf err = {0};
    assert_int_equal(place_adhoc("H100-80GB", order, 2, pl, &err), 0);
    assert_string_equal(pl[0].profile->name, "4g.40gb");
    assert_int_equal(pl[0].start, 0);
    assert_string_equal(pl[1].profile->name, "1g.20gb");
    assert_int_equal(pl[1].start, 4);
    /* 4g + 3g uses all 7 compute slices */
    const char *full[] = {"3g.40gb", "4g.40gb"};
    assert_int_equal(place_adhoc("H100-80GB", full, 2, pl, &err), 0);
    assert_int_equal(pl[0].start, 0);
    assert_string_equal(pl[0].profile->name, "4g.40gb");
    assert_int_equal(pl[1].start, 4);
    sb_free(&err);
}

static void test_layouts_that_do_not_fit(void **state) {
    mig_placement pl[8];
    strbuf err = {0};
    const char *two4g[] = {"4g.40gb", "4g.40gb"};
    assert_int_equal(place_adhoc("H100-80GB", two4g, 2, pl, &err), -1);
    assert_non_null(strstr(sb_str(&err), "does not fit on a H100-80GB GPU"));
    /* memory is free (3g@0 + 1g@4..) but compute slices are not: 3g+3g+1g = 7 compute, 9 memory slices */
    const char *over[] = {"3g.40gb", "3g.40gb", "1g.10gb"};
    assert_int_equal(place_adhoc("H100-80GB", over, 3, pl, &err), -1);
    /* two +me instances: only one media-extension engine set */
    const char *me2[] = {"1g.10gb+me", "1g.10gb+me"};
    assert_int_equal(place_adhoc("H100-80GB", me2, 2, pl, &err), -1);
    /* 2g x3 + 1g: creating the 1g first blocks the third 2g; the order that works leaves it slot 6 */
    const char *ok[] = {"1g.10gb", "2g.20gb", "2g.20gb", "2g.20gb"};
    assert_int_equal(place_adhoc("H100-80GB", ok, 4, pl, &err), 0);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(pl[i].profile->name, "2g.20gb");
        assert_int_equal(pl[i].start, 2 * i);
    }
    assert_string_equal(pl[3].profile->name, "1g.10gb");
    assert_int_equal(pl[3].start, 6);
    sb_free(&err);
}

/* ---- broken catalog files ------------------------------------------------------ */

static const char *good_model =
    "apiVersion: drasim/v1\n"
    "kind: GpuCatalog\n"
    "driverVersion: 570.172.8\n"
    "cudaDriverVersion: 12.8.0\n"
    "models:\n"
    "- key: X\n"
    "  productName: NVIDIA X\n"
    "  gfdProduct: NVIDIA-X\n"
    "  pciDeviceId: \"0x1\"\n"
    "  architecture: Hopper\n"
    "  brand: Nvidia\n"
    "  computeCapability: \"9.0\"\n"
    "  memoryMiB: 1000\n"
    "  multiprocessors: 100\n"
    "  memorySlices: 8\n"
    "  computeSlices: 7\n"
    "  migProfiles:\n"
    "  - {name: 1g, id: 19, memorySlices: 1, computeSlices: 1, multiprocessors: 10, memoryMiB: 100, copyEngines: 1, "
    "decoders: 0, encoders: 0, jpegEngines: 0, ofaEngines: 0, maxInstances: 7, starts: [0, 1, 2, 3, 4, 5, 6]}\n"
    "  - {name: 7g, id: 0, memorySlices: 8, computeSlices: 7, multiprocessors: 100, memoryMiB: 900, copyEngines: 7, "
    "decoders: 0, encoders: 0, jpegEngines: 0, ofaEngines: 0, maxInstances: 1, starts: [0]}\n"
    "  migLayouts:\n"
    "    all-1g: {1g: 7}\n";

/* Write text (with `from` replaced by `to`) to a temp file and load it as a catalog. */
static int load_variant(const char *from, const char *to, gpu_catalog *c, strbuf *err, char *path, size_t pn) {
    const char *hit = strstr(good_model, from);
    assert_non_null(hit);
    snprintf(path, pn, "/tmp/drasim-catalog-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%.*s%s%s", (int)(hit - good_model), good_model, to, hit + strlen(from));
    fclose(f);
    int rc = catalog_load(path, c, err);
    unlink(path);
    return rc;
}

/* Expect "PATH:LINE:COL: ...fragment..." */
static void expect_error(const char *from, const char *to, int line, int col, const char *fragment) {
    gpu_catalog c;
    strbuf err = {0};
    char path[64], prefix[128];
    assert_int_equal(load_variant(from, to, &c, &err, path, sizeof path), -1);
    snprintf(prefix, sizeof prefix, "%s:%d:%d: ", path, line, col);
    if (strncmp(sb_str(&err), prefix, strlen(prefix)) != 0 || !strstr(sb_str(&err), fragment))
        fail_msg("got '%s', want prefix '%s' and '%s'", sb_str(&err), prefix, fragment);
    sb_free(&err);
}

static void test_catalog_file_errors(void **state) {
    gpu_catalog c;
    strbuf err = {0};
    char path[64];
    /* the unmodified text loads */
    assert_int_equal(load_variant("key: X", "key: X", &c, &err, path, sizeof path), 0);
    assert_int_equal(c.nmodels, 1);
    assert_int_equal(c.models[0].layouts[0].nprofiles, 7);
    catalog_free(&c);
    sb_free(&err);

    expect_error("  brand: Nvidia\n", "  brand: Nvidia\n  colour: green\n", 12, 3, "unknown field 'colour' in a GPU model");
    expect_error("  memoryMiB: 1000\n", "  memoryMiB: lots\n", 13, 14, "expected an integer");
    expect_error("  multiprocessors: 100\n", "", 6, 3, "missing field 'multiprocessors' in X");
    expect_error("starts: [0]}", "starts: [1]}", 19, 195, "placement start 1");
    expect_error("all-1g: {1g: 7}", "all-1g: {2g: 1}", 21, 14, "has no MIG profile '2g'");
    expect_error("all-1g: {1g: 7}", "all-1g: {1g: 7, 7g: 1}", 21, 5, "does not fit");
    expect_error("computeCapability: \"9.0\"", "computeCapability: nine", 12, 22, "MAJOR.MINOR");
    expect_error("kind: GpuCatalog", "kind: Catalog", 2, 7, "expected GpuCatalog");

    assert_int_equal(catalog_load("/nonexistent/gpu-catalog.yaml", &c, &err), -1);
    assert_non_null(strstr(sb_str(&err), "/nonexistent/gpu-catalog.yaml: cannot open"));
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_and_spec_sheet),
        cmocka_unit_test(test_mig_profile_tables),
        cmocka_unit_test(test_named_layout_placements),
        cmocka_unit_test(test_creation_order_permutation),
        cmocka_unit_test(test_layouts_that_do_not_fit),
        cmocka_unit_test(test_catalog_file_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
