/* test_catalog_models.c -- the wider GPU catalog (issue 13): every model and
 * alias is found, product names are NVML's, and every MIG profile's name is
 * the one go-nvlib computes from the catalog's memory sizes
 * (vendor/github.com/NVIDIA/go-nvlib/pkg/nvlib/device/mig_profile.go,
 * getMigMemorySizeGB: the profile's share of memory rounded up to eighths,
 * times the total in whole GiB, rounded). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"

static gpu_catalog cat;

static int setup(void **state) {
    (void)state;
    strbuf err = {0};
    int rc = catalog_load(NULL, &cat, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    sb_free(&err);
    return rc;
}

static int teardown(void **state) {
    (void)state;
    catalog_free(&cat);
    intern_reset();
    return 0;
}

static void test_models_and_aliases(void **state) {
    (void)state;
    static const char *const want[][3] = {
        {"A100-PCIE-40GB", "NVIDIA A100-PCIE-40GB", "7"},   {"A100-PCIE-80GB", "NVIDIA A100 80GB PCIe", "7"},
        {"A100-SXM4-40GB", "NVIDIA A100-SXM4-40GB", "7"},   {"A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB", "7"},
        {"H100-SXM-80GB", "NVIDIA H100 80GB HBM3", "7"},    {"H100-PCIE-80GB", "NVIDIA H100 PCIe", "7"},
        {"H100-NVL", "NVIDIA H100 NVL", "7"},               {"H200-NVL", "NVIDIA H200 NVL", "7"},
        {"H200-141GB", "NVIDIA H200", "7"},                 {"L40S", "NVIDIA L40S", "0"},
        {"L4", "NVIDIA L4", "0"},                           {"A10", "NVIDIA A10", "0"},
        {"B200", "NVIDIA B200", "7"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const gpu_model *m = catalog_find(&cat, want[i][0]);
        if (!m) fail_msg("no model %s", want[i][0]);
        assert_string_equal(m->product_name, want[i][1]);
        assert_int_equal(m->nprofiles, atoi(want[i][2]));
    }
    assert_ptr_equal(catalog_find(&cat, "H100-NVL"), catalog_find(&cat, "H100-94GB"));
    /* rack-scale parts (issue 28): 18 trays x 4 GPUs in one NVLink domain; HGX nodes: their 8 GPUs */
    const gpu_model *gb = catalog_find(&cat, "GB200");
    assert_non_null(gb);
    assert_int_equal(gb->nvlink_domain_gpus, 72);
    assert_int_equal(gb->node_gpus, 4);
    assert_int_equal(gb->nprofiles, 7);
    assert_ptr_equal(catalog_find(&cat, "GB300-NVL72"), catalog_find(&cat, "GB300"));
    assert_int_equal(catalog_find(&cat, "GB300")->nvlink_domain_gpus, 72);
    assert_int_equal(catalog_find(&cat, "B300")->nvlink_domain_gpus, 8);
    assert_non_null(gpu_model_profile(catalog_find(&cat, "B300"), "7g.269gb"));
    const gpu_model *b = catalog_find(&cat, "B200");
    assert_int_equal(b->cc_major, 10);
    assert_string_equal(b->architecture, "Blackwell");
    assert_string_equal(catalog_find(&cat, "L40S")->architecture, "Ada Lovelace");
}

/* go-nvlib's profile memory in GB from the NVML sizes. */
static unsigned nvlib_gb(int64_t total_mib, int64_t profile_mib) {
    double frac = (double)profile_mib / (double)total_mib;
    frac = ceil(frac * 8) / 8;
    double total_gib = (double)((total_mib + 1023) / 1024);
    return (unsigned)llround(frac * total_gib);
}

static void test_profile_names_match_memory(void **state) {
    (void)state;
    int checked = 0;
    for (int i = 0; i < cat.nmodels; i++) {
        const gpu_model *m = &cat.models[i];
        for (int k = 0; k < m->nprofiles; k++) {
            const mig_profile *p = &m->profiles[k];
            unsigned g, gb;
            if (sscanf(p->name, "%ug.%ugb", &g, &gb) != 2) fail_msg("%s: profile name %s", m->key, p->name);
            if (gb != nvlib_gb(m->memory_mib, p->memory_mib))
                fail_msg("%s %s: go-nvlib would name it %ugb", m->key, p->name, nvlib_gb(m->memory_mib, p->memory_mib));
            assert_int_equal((int)g, p->compute_slices);
            checked++;
        }
    }
    assert_true(checked >= 70);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_and_aliases),
        cmocka_unit_test(test_profile_names_match_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
