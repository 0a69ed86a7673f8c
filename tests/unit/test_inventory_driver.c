/* test_inventory_driver.c -- slices as each NVIDIA DRA driver release
 * publishes them (model/dra_driver.c, inventory_dra.c): attributes per
 * release, MIG device names, slice names of the resourceslice controller,
 * device order drawn from the seed, the dynamic-MIG layout per Kubernetes
 * version, the chart's DeviceClasses and compute-domain slices. Expected
 * values come from the driver's source at tags v25.3.2, v25.8.1, v25.12.0,
 * v0.4.0 (see the comments in dra_driver.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "model/dra_driver.h"
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

typedef struct built {
    yfile f;
    arena a;
    cluster_spec spec;
    inventory inv;
} built;

/* One pool "n" of `count` nodes with `gpu`, under cluster keys `extra`, seed `seed`. */
static void build(built *b, const char *extra, int count, const char *gpu, uint64_t seed) {
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "cluster:\n%s  nodePools:\n  - {name: n, count: %d, cpu: '96', memory: 1Ti, gpu: %s}\n", extra, count,
             gpu);
    strbuf err = {0};
    memset(b, 0, sizeof *b);
    if (yfile_load_mem("c.yaml", yaml, strlen(yaml), &b->f, &err) ||
        cluster_spec_parse(ymap_get(b->f.docs[0], "cluster"), &b->a, &b->spec, &err))
        fail_msg("%s", sb_str(&err));
    b->spec.seed = seed;
    if (inventory_build(&b->spec, &cat, NULL, &b->inv, &err)) fail_msg("%s", sb_str(&err));
    sb_free(&err);
}

static void built_free(built *b) {
    inventory_free(&b->inv);
    arena_free(&b->a);
    yfile_free(&b->f);
}

static const k8s_attribute *attr(const k8s_device *d, const char *domain, const char *id) {
    for (size_t i = 0; i < k8s_dev_nattrs(d); i++) {
        const k8s_attribute *a = k8s_dev_attr(d, i);
        if (!strcmp(a->domain, domain) && !strcmp(a->id, id)) return a;
    }
    return NULL;
}

static const k8s_device *find(const k8s_resource_slice *s, const char *name) {
    for (size_t i = 0; i < s->ndevices; i++)
        if (!strcmp(s->devices[i].name, name)) return &s->devices[i];
    return NULL;
}

/* Attribute sets of each release on a full GPU and a static MIG device. */
static void test_attributes_per_release(void **state) {
    (void)state;
    built b;
    build(&b, "  draDriver: {version: v25.3}\n", 1, "{model: A100-40GB, count: 2, mig: static, migLayout: all-balanced}", 1);
    const k8s_device *m = find(&b.inv.slices[0], "gpu-1-mig-9-4-4");   /* v25.3/v25.8 name: ID, start, size */
    assert_non_null(m);
    assert_int_equal(attr(m, "gpu.nvidia.com", "parentIndex")->i, 1);
    assert_non_null(attr(m, "gpu.nvidia.com", "index"));
    assert_string_equal(attr(m, "gpu.nvidia.com", "pcieBusID")->s, "0000:2a:00.0");
    assert_null(attr(m, "resource.kubernetes.io", "pciBusID"));
    assert_null(attr(m, "gpu.nvidia.com", "addressingMode"));
    assert_null(attr(m, "resource.kubernetes.io", "numaNode"));
    assert_int_equal(b.inv.nclasses, 4);   /* no vfio class before chart v25.12 */
    assert_null(b.inv.classes[0].extended_resource_name);
    built_free(&b);

    build(&b, "  draDriver: {version: v25.8}\n", 1, "{model: H100-80GB, count: 2}", 1);
    const k8s_device *g = find(&b.inv.slices[0], "gpu-1");
    assert_null(attr(g, "gpu.nvidia.com", "index"));
    assert_null(attr(g, "gpu.nvidia.com", "minor"));
    assert_non_null(attr(g, "gpu.nvidia.com", "pcieBusID"));
    assert_null(attr(g, "gpu.nvidia.com", "addressingMode"));
    built_free(&b);

    build(&b, "  draDriver: {version: v25.12}\n", 1, "{model: H100-80GB, count: 2, mig: static, migLayout: all-balanced}", 1);
    m = find(&b.inv.slices[0], "gpu-0-mig-3g40gb-9-4");
    assert_non_null(m);
    assert_string_equal(attr(m, "resource.kubernetes.io", "pciBusID")->s, "0000:18:00.0");
    assert_string_equal(attr(m, "gpu.nvidia.com", "addressingMode")->s, "None");
    assert_null(attr(m, "gpu.nvidia.com", "pcieBusID"));
    assert_null(attr(m, "resource.kubernetes.io", "numaNode"));
    assert_int_equal(b.inv.nclasses, 5);
    assert_string_equal(b.inv.classes[0].extended_resource_name, "nvidia.com/gpu");
    assert_string_equal(b.inv.classes[2].meta.name, "vfio.gpu.nvidia.com");
    assert_string_equal(b.inv.classes[4].meta.name, "compute-domain-default-channel.nvidia.com");
    built_free(&b);
}

/* Slice names: <node>-gpu.nvidia.com-xxxxx (controller v0.34, v25.x) and
 * <index %05x>-gpu.nvidia.com-<node>-xxxxx (v0.36, v0.4); the random part is
 * the seed's, so the same seed gives the same names. */
static void test_slice_names(void **state) {
    (void)state;
    built b, c;
    build(&b, "  draDriver: {version: v25.12}\n", 1, "{model: H100-80GB, count: 8}", 7);
    const char *n = b.inv.slices[0].meta.name;
    assert_int_equal(strlen(n), strlen("n-0-gpu.nvidia.com-") + 5);
    assert_true(!strncmp(n, "n-0-gpu.nvidia.com-", 19));
    assert_true(strspn(n + 19, "bcdfghjklmnpqrstvwxz2456789") == 5);
    build(&c, "  draDriver: {version: v25.12}\n", 1, "{model: H100-80GB, count: 8}", 7);
    assert_string_equal(c.inv.slices[0].meta.name, n);
    built_free(&c);
    build(&c, "  draDriver: {version: v25.12}\n", 1, "{model: H100-80GB, count: 8}", 8);
    assert_string_not_equal(c.inv.slices[0].meta.name, n);
    built_free(&c);
    built_free(&b);

    build(&b, "", 1, "{model: H100-80GB, count: 16, mig: dynamic}", 1);
    assert_int_equal(b.inv.nslices, 18);   /* 2 counter slices + 16 device slices */
    for (size_t i = 0; i < b.inv.nslices; i++) {
        char prefix[40];
        snprintf(prefix, sizeof prefix, "%05zx-gpu.nvidia.com-n-0-", i);
        assert_true(!strncmp(b.inv.slices[i].meta.name, prefix, strlen(prefix)));
        if (i) assert_true(strcmp(b.inv.slices[i - 1].meta.name, b.inv.slices[i].meta.name) < 0);
    }
    built_free(&b);

    /* long node names: the API server cuts generateName to 58 characters */
    char pool[200];
    snprintf(pool, sizeof pool, "{model: H100-80GB, count: 1}");
    build(&b, "  draDriver: {version: v25.8}\n", 1, pool, 1);
    assert_true(strlen(b.inv.slices[0].meta.name) <= 63);
    built_free(&b);
}

/* Devices of a legacy slice come in an order drawn from the seed (a
 * permutation of the sorted names); deviceOrder: sorted keeps them sorted;
 * dynamic-MIG slices are always sorted (the driver sorts them). */
static void test_device_order(void **state) {
    (void)state;
    built b, s;
    build(&b, "", 1, "{model: H100-80GB, count: 8}", 1);
    build(&s, "  draDriver: {deviceOrder: sorted}\n", 1, "{model: H100-80GB, count: 8}", 1);
    const k8s_resource_slice *x = &b.inv.slices[0], *y = &s.inv.slices[0];
    assert_int_equal(x->ndevices, 8);
    bool same = true;
    for (size_t i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "gpu-%zu", i);
        assert_string_equal(y->devices[i].name, name);
        assert_non_null(find(x, name));
        same = same && !strcmp(x->devices[i].name, name);
    }
    assert_false(same);
    built_free(&b);
    built_free(&s);

    build(&b, "", 2, "{model: H100-80GB, count: 2, mig: dynamic}", 1);
    for (size_t i = 0; i < b.inv.nslices; i++)
        for (size_t k = 1; k < b.inv.slices[i].ndevices; k++)
            assert_true(strcmp(b.inv.slices[i].devices[k - 1].name, b.inv.slices[i].devices[k].name) < 0);
    built_free(&b);
}

/* Dynamic MIG: split layout from 1.35 (counters-only slice first), combined
 * on 1.34 (one slice per GPU with its counter set and its devices). */
static void test_dynamic_mig_layout_per_k8s_version(void **state) {
    (void)state;
    built b;
    build(&b, "  kubernetesVersion: \"1.34\"\n", 1, "{model: H100-80GB, count: 2, mig: dynamic}", 1);
    assert_int_equal(b.inv.nslices, 2);
    for (size_t i = 0; i < 2; i++) {
        const k8s_resource_slice *s = &b.inv.slices[i];
        assert_int_equal(s->slice_count, 2);
        assert_int_equal(s->nshared_counters, 1);
        char set[32], gpu[16];
        snprintf(set, sizeof set, "gpu-%zu-counter-set", i);
        snprintf(gpu, sizeof gpu, "gpu-%zu", i);
        assert_string_equal(s->shared_counters[0].name, set);
        assert_int_equal(s->ndevices, 26);
        assert_non_null(find(s, gpu));
    }
    built_free(&b);
    build(&b, "  kubernetesVersion: \"1.35\"\n", 1, "{model: H100-80GB, count: 2, mig: dynamic}", 1);
    assert_int_equal(b.inv.nslices, 3);
    assert_int_equal(b.inv.slices[0].nshared_counters, 2);
    assert_int_equal(b.inv.slices[0].ndevices, 0);
    built_free(&b);
}

/* Compute-domain slices when enabled; driver/CUDA versions per pool. */
static void test_compute_domains_and_versions(void **state) {
    (void)state;
    built b;
    build(&b, "  draDriver: {computeDomains: true}\n", 1,
          "{model: H100-80GB, count: 1, driverVersion: 580.95.5, cudaDriverVersion: '13.0'}", 1);
    assert_int_equal(b.inv.nslices, 2);
    assert_int_equal(b.inv.info[0].nslices, 2);
    const k8s_resource_slice *cd = &b.inv.slices[1];
    assert_string_equal(cd->driver, "compute-domain.nvidia.com");
    assert_string_equal(cd->pool, "n-0");
    assert_true(!strncmp(cd->meta.name, "00000-compute-domain.nvidia.com-n-0-", 36));
    const k8s_device *ch = find(cd, "channel-0");
    assert_non_null(ch);
    assert_non_null(find(cd, "daemon-0"));
    assert_string_equal(attr(ch, "compute-domain.nvidia.com", "type")->s, "channel");
    assert_int_equal(attr(ch, "compute-domain.nvidia.com", "id")->i, 0);
    const k8s_device *g = find(&b.inv.slices[0], "gpu-0");
    assert_string_equal(attr(g, "gpu.nvidia.com", "driverVersion")->s, "580.95.5");
    assert_string_equal(attr(g, "gpu.nvidia.com", "cudaDriverVersion")->s, "13.0.0");   /* semver, as published */
    built_free(&b);
}

/* Settings that the chosen release cannot publish are errors with a position. */
static void test_bad_settings(void **state) {
    (void)state;
    static const char *const bad[][2] = {
        {"cluster:\n  draDriver: {version: v25.8}\n  nodePools:\n  - {name: n, count: 1, cpu: '1', memory: 1Gi, "
         "gpu: {model: H100-80GB, count: 1, mig: dynamic}}\n",
         "c.yaml:4:87: gpu.mig: dynamic MIG needs driver v25.12 or later"},
        {"cluster:\n  draDriver: {version: v26.1}\n  nodePools: []\n", "c.yaml:2:24: draDriver.version: expected one of"},
        {"cluster:\n  kubernetesVersion: '1.33'\n  nodePools: []\n", "c.yaml:2:22: kubernetesVersion: expected 1.34"},
        {"cluster:\n  draDriver: {deviceOrder: random}\n  nodePools: []\n", "c.yaml:2:28: draDriver.deviceOrder"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        yfile f;
        arena a = {0};
        cluster_spec spec;
        strbuf err = {0};
        assert_int_equal(yfile_load_mem("c.yaml", bad[i][0], strlen(bad[i][0]), &f, &err), 0);
        assert_int_equal(cluster_spec_parse(ymap_get(f.docs[0], "cluster"), &a, &spec, &err), -1);
        if (strncmp(sb_str(&err), bad[i][1], strlen(bad[i][1])) != 0) fail_msg("got: %s", sb_str(&err));
        sb_free(&err);
        arena_free(&a);
        yfile_free(&f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attributes_per_release),
        cmocka_unit_test(test_slice_names),
        cmocka_unit_test(test_device_order),
        cmocka_unit_test(test_dynamic_mig_layout_per_k8s_version),
        cmocka_unit_test(test_compute_domains_and_versions),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
