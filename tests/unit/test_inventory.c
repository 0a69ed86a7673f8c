/* test_inventory.c -- both views of a cluster: DRA ResourceSlices in the NVIDIA
 * driver's format (full GPUs, static MIG, dynamic MIG split layout) and the
 * device-plugin view (extended resources, GFD labels). Expected values come
 * from nvidia-inventory.md (sections 1.2-1.6, 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"

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

/* A built cluster and what it was built from. */
typedef struct built {
    yfile f;
    arena a;
    cluster_spec spec;
    device_plugin_opts dp;
    inventory inv;
} built;

/* Build from "cluster: ..." YAML (and optional "devicePlugin: ..." at top level).
 * with_dp = false builds the DRA-only view (no extended resources). */
static int build_from(const char *yaml, bool with_dp, built *b, strbuf *err) {
    memset(b, 0, sizeof *b);
    if (yfile_load_mem("c.yaml", yaml, strlen(yaml), &b->f, err)) return -1;
    const ynode *root = b->f.docs[0];
    if (device_plugin_opts_parse(ymap_get(root, "devicePlugin"), &b->dp, err)) return -1;
    if (cluster_spec_parse(ymap_get(root, "cluster"), &b->a, &b->spec, err)) return -1;
    return inventory_build(&b->spec, &cat, with_dp ? &b->dp : NULL, &b->inv, err);
}

static void build_ok(const char *yaml, bool with_dp, built *b) {
    strbuf err = {0};
    if (build_from(yaml, with_dp, b, &err)) fail_msg("build failed: %s", sb_str(&err));
    sb_free(&err);
}

static void built_free(built *b) {
    inventory_free(&b->inv);
    arena_free(&b->a);
    yfile_free(&b->f);
}

/* One-pool cluster text. */
static const char *pool(char *buf, size_t n, const char *gpu, const char *dp) {
    snprintf(buf, n,
             "cluster:\n  nodePools:\n  - name: n\n    count: 1\n    cpu: \"96\"\n    memory: 1Ti\n"
             "    gpu: %s\n%s%s\n",
             gpu, dp ? "devicePlugin: " : "", dp ? dp : "");
    return buf;
}

/* The same with the devices of each slice sorted by name (deviceOrder: sorted). */
static const char *pool_sorted(char *buf, size_t n, const char *gpu) {
    snprintf(buf, n,
             "cluster:\n  draDriver: {deviceOrder: sorted}\n  nodePools:\n  - name: n\n    count: 1\n"
             "    cpu: \"96\"\n    memory: 1Ti\n    gpu: %s\n",
             gpu);
    return buf;
}

static const k8s_device *find_device(const k8s_resource_slice *s, const char *name) {
    for (size_t i = 0; i < s->ndevices; i++)
        if (!strcmp(s->devices[i].name, name)) return &s->devices[i];
    return NULL;
}

static const k8s_attribute *attr(const k8s_device *d, const char *domain, const char *id) {
    for (size_t i = 0; i < k8s_dev_nattrs(d); i++) {
        const k8s_attribute *a = k8s_dev_attr(d, i);
        if (!strcmp(a->domain, domain) && !strcmp(a->id, id)) return a;
    }
    return NULL;
}

static const k8s_capacity *cap(const k8s_device *d, const char *id) {
    for (size_t i = 0; i < d->ncaps; i++)
        if (!strcmp(d->caps[i].id, id)) return &d->caps[i];
    return NULL;
}

static const char *qtext(const quantity *q) {
    static char buf[8][64];
    static int k;
    k = (k + 1) % 8;
    quantity_format_str(q, buf[k], sizeof buf[k]);
    return buf[k];
}

static const char *counter(const k8s_counter_set *cs, const char *name) {
    for (size_t i = 0; i < cs->ncounters; i++)
        if (!strcmp(cs->counters[i].name, name)) return qtext(&cs->counters[i].value);
    return NULL;
}

static const char *label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

static const char *alloc(const k8s_node *n, const char *name) {
    for (size_t i = 0; i < n->nallocatable; i++)
        if (!strcmp(n->allocatable[i].name, name)) return qtext(&n->allocatable[i].value);
    return NULL;
}

/* ---- DRA view ------------------------------------------------------------------ */

static void test_h100_dynamic_mig_split_layout(void **state) {
    char buf[512];
    built b;
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 1, mig: dynamic}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 2);
    const k8s_resource_slice *cs = &b.inv.slices[0], *ds = &b.inv.slices[1];
    for (int i = 0; i < 2; i++) {
        assert_string_equal(b.inv.slices[i].driver, "gpu.nvidia.com");
        assert_string_equal(b.inv.slices[i].pool, "n-0");
        assert_string_equal(b.inv.slices[i].node_name, "n-0");
        assert_int_equal(b.inv.slices[i].slice_count, 2);
    }
    /* slice 0: counters only, one 15-counter set */
    assert_int_equal(cs->ndevices, 0);
    assert_int_equal(cs->nshared_counters, 1);
    assert_string_equal(cs->shared_counters[0].name, "gpu-0-counter-set");
    assert_int_equal(cs->shared_counters[0].ncounters, 15);
    assert_string_equal(counter(&cs->shared_counters[0], "memory"), "81152Mi");
    assert_string_equal(counter(&cs->shared_counters[0], "multiprocessors"), "132");
    assert_string_equal(counter(&cs->shared_counters[0], "copy-engines"), "8");
    assert_string_equal(counter(&cs->shared_counters[0], "ofa-engines"), "1");
    assert_string_equal(counter(&cs->shared_counters[0], "memory-slice-7"), "1");
    assert_null(counter(&cs->shared_counters[0], "memory-slice-8"));

    /* slice 1: devices only: gpu-0 + 25 abstract MIG devices, sorted by name */
    assert_int_equal(ds->nshared_counters, 0);
    assert_int_equal(ds->ndevices, 26);
    for (size_t i = 1; i < ds->ndevices; i++) assert_true(strcmp(ds->devices[i - 1].name, ds->devices[i].name) < 0);
    static const char *names[] = {
        "gpu-0", "gpu-0-mig-1g10gb-19-0", "gpu-0-mig-1g10gb-19-6", "gpu-0-mig-1g10gb-me-20-0",
        "gpu-0-mig-1g10gb-me-20-6", "gpu-0-mig-1g20gb-15-0", "gpu-0-mig-1g20gb-15-6", "gpu-0-mig-2g20gb-14-4",
        "gpu-0-mig-3g40gb-9-0", "gpu-0-mig-3g40gb-9-4", "gpu-0-mig-4g40gb-5-0", "gpu-0-mig-7g80gb-0-0"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!find_device(ds, names[i])) fail_msg("missing device %s", names[i]);
    assert_null(find_device(ds, "gpu-0-mig-1g10gb-19-7"));
    assert_null(find_device(ds, "gpu-0-mig-2g20gb-14-6"));

    /* gpu-0 consumes every counter; capacities are the 7g values */
    const k8s_device *g = find_device(ds, "gpu-0");
    assert_string_equal(attr(g, "gpu.nvidia.com", "type")->s, "gpu");
    assert_non_null(attr(g, "gpu.nvidia.com", "uuid"));
    assert_string_equal(qtext(&cap(g, "memory")->value), "81152Mi");
    assert_int_equal(g->nconsumes, 1);
    assert_string_equal(g->consumes[0].name, "gpu-0-counter-set");
    assert_int_equal(g->consumes[0].ncounters, 15);

    /* 3g at start 4: own capacities + memory-slice-4..7, no uuid */
    const k8s_device *m = find_device(ds, "gpu-0-mig-3g40gb-9-4");
    assert_string_equal(attr(m, "gpu.nvidia.com", "type")->s, "mig");
    assert_string_equal(attr(m, "gpu.nvidia.com", "profile")->s, "3g.40gb");
    assert_string_equal(attr(m, "gpu.nvidia.com", "parentUUID")->s, attr(g, "gpu.nvidia.com", "uuid")->s);
    assert_null(attr(m, "gpu.nvidia.com", "uuid"));
    assert_null(cap(m, "memorySlice4"));
    assert_string_equal(qtext(&cap(m, "memory")->value), "40448Mi");
    assert_string_equal(qtext(&cap(m, "multiprocessors")->value), "60");
    const k8s_counter_set *c = &m->consumes[0];
    assert_int_equal(c->ncounters, 7 + 4);
    assert_string_equal(counter(c, "memory-slice-4"), "1");
    assert_string_equal(counter(c, "memory-slice-7"), "1");
    assert_null(counter(c, "memory-slice-3"));
    assert_string_equal(counter(c, "encoders"), "0");   /* zero-valued counters are kept */
    /* +me consumes the OFA engine */
    assert_string_equal(counter(&find_device(ds, "gpu-0-mig-1g10gb-me-20-3")->consumes[0], "ofa-engines"), "1");
    built_free(&b);
}

static void test_dynamic_mig_slice_counts(void **state) {
    char buf[512];
    built b;
    /* 8 GPUs: 1 counter slice with 8 sets + 8 device slices */
    build_ok(pool(buf, sizeof buf, "{model: H200-141GB, count: 8, mig: dynamic}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 9);
    assert_int_equal(b.inv.slices[0].nshared_counters, 8);
    assert_string_equal(b.inv.slices[0].shared_counters[7].name, "gpu-7-counter-set");
    for (size_t i = 1; i < 9; i++) {
        assert_int_equal(b.inv.slices[i].ndevices, 26);
        assert_int_equal(b.inv.slices[i].slice_count, 9);
    }
    assert_non_null(find_device(&b.inv.slices[8], "gpu-7-mig-7g141gb-0-0"));
    /* equal arrays are stored once: capacities across GPUs, attributes within one GPU */
    const k8s_device *a0 = find_device(&b.inv.slices[1], "gpu-0-mig-1g18gb-19-0");
    const k8s_device *a3 = find_device(&b.inv.slices[1], "gpu-0-mig-1g18gb-19-3");
    const k8s_device *b0 = find_device(&b.inv.slices[2], "gpu-1-mig-1g18gb-19-0");
    assert_ptr_equal(a0->caps, b0->caps);
    assert_ptr_equal(a0->attrs, a3->attrs);
    assert_ptr_not_equal(a0->attrs, b0->attrs);   /* pciBusID differs */
    /* the per-GPU identity is a run of its own, shared by the GPU's MIG devices */
    assert_int_equal(a0->nattrs_own, 1);
    assert_string_equal(a0->attrs_own[0].id, "parentUUID");
    assert_ptr_equal(a0->attrs_own, a3->attrs_own);
    assert_ptr_not_equal(a0->attrs_own, b0->attrs_own);   /* parentUUID differs */
    assert_ptr_not_equal(a0->consumes[0].counters, a3->consumes[0].counters);   /* memory-slice-0 vs -3 */
    assert_ptr_equal(a0->consumes[0].counters, b0->consumes[0].counters);
    assert_int_equal(b.inv.info[0].first_slice, 0);
    assert_int_equal(b.inv.info[0].nslices, 9);
    built_free(&b);
    /* 10 GPUs: counter sets split 8 + 2 (API limit of 8 per slice) */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 10, mig: dynamic}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 12);
    assert_int_equal(b.inv.slices[0].nshared_counters, 8);
    assert_int_equal(b.inv.slices[1].nshared_counters, 2);
    built_free(&b);
    /* Ampere with MIG on at plugin start: only the 25 MIG devices */
    build_ok(pool(buf, sizeof buf, "{model: A100-40GB, count: 1, mig: dynamic}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 2);
    assert_int_equal(b.inv.slices[1].ndevices, 25);
    assert_null(find_device(&b.inv.slices[1], "gpu-0"));
    assert_string_equal(counter(&b.inv.slices[0].shared_counters[0], "memory"), "40192Mi");
    built_free(&b);
}

static void test_static_mig_layouts(void **state) {
    char buf[512];
    built b;
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8, mig: static, migLayout: all-1g.10gb}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 1);
    const k8s_resource_slice *s = &b.inv.slices[0];
    assert_int_equal(s->slice_count, 1);
    assert_int_equal(s->ndevices, 56);
    assert_null(find_device(s, "gpu-0"));   /* the parent is not announced */
    for (int g = 0; g < 8; g++)
        for (int k = 0; k < 7; k++) {
            char name[64], slice[32];
            snprintf(name, sizeof name, "gpu-%d-mig-1g10gb-19-%d", g, k);
            const k8s_device *d = find_device(s, name);
            if (!d) fail_msg("missing %s", name);
            assert_int_equal(d->nconsumes, 0);
            assert_non_null(attr(d, "gpu.nvidia.com", "uuid"));
            assert_string_equal(qtext(&cap(d, "memory")->value), "9984Mi");
            snprintf(slice, sizeof slice, "memorySlice%d", k);
            assert_non_null(cap(d, slice));
        }
    built_free(&b);

    build_ok(pool_sorted(buf, sizeof buf, "{model: A100-40GB, count: 1, mig: static, migLayout: all-balanced}"), false, &b);
    s = &b.inv.slices[0];
    assert_int_equal(s->ndevices, 4);
    assert_string_equal(s->devices[0].name, "gpu-0-mig-1g5gb-19-0");
    assert_string_equal(s->devices[1].name, "gpu-0-mig-1g5gb-19-1");
    assert_string_equal(s->devices[2].name, "gpu-0-mig-2g10gb-14-2");
    assert_string_equal(s->devices[3].name, "gpu-0-mig-3g20gb-9-4");
    const k8s_device *d3 = &s->devices[3];
    for (int i = 4; i < 8; i++) {
        char slice[32];
        snprintf(slice, sizeof slice, "memorySlice%d", i);
        assert_non_null(cap(d3, slice));
    }
    assert_null(cap(d3, "memorySlice3"));
    assert_string_equal(qtext(&cap(d3, "memory")->value), "19968Mi");
    assert_string_equal(qtext(&cap(d3, "decoders")->value), "2");
    assert_string_equal(attr(d3, "gpu.nvidia.com", "productName")->s, "NVIDIA A100-SXM4-40GB");
    built_free(&b);

    /* more than 128 devices: the pool is cut into several slices (API limit) */
    build_ok(pool_sorted(buf, sizeof buf, "{model: H100-80GB, count: 19, mig: static, migLayout: all-1g.10gb}"), false, &b);
    assert_int_equal(b.inv.nslices, 2);
    assert_int_equal(b.inv.slices[0].ndevices, 128);
    assert_int_equal(b.inv.slices[1].ndevices, 19 * 7 - 128);
    assert_int_equal(b.inv.slices[0].slice_count, 2);
    assert_int_equal(b.inv.slices[1].slice_count, 2);
    assert_true(strcmp(b.inv.slices[0].devices[127].name, b.inv.slices[1].devices[0].name) < 0);
    assert_true(b.inv.slices[0].meta.name != b.inv.slices[1].meta.name);
    built_free(&b);

    /* all-enabled: MIG on but no instances -> nothing announced */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 2, mig: static, migLayout: all-enabled}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 0);
    built_free(&b);
}

static void test_full_gpus(void **state) {
    char buf[512];
    built b;
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8}", NULL), false, &b);
    assert_int_equal(b.inv.nslices, 1);
    const k8s_resource_slice *s = &b.inv.slices[0];
    assert_int_equal(s->ndevices, 8);
    const k8s_device *d = find_device(s, "gpu-7");
    assert_non_null(d);
    assert_int_equal(d->ncaps, 1);
    assert_string_equal(qtext(&cap(d, "memory")->value), "81559Mi");   /* physical total in legacy mode */
    const k8s_attribute *cc = attr(d, "gpu.nvidia.com", "cudaComputeCapability");
    assert_int_equal(cc->kind, ATTR_VERSION);
    assert_string_equal(cc->s, "9.0.0");
    assert_true(cc->v_ok);
    assert_int_equal(cc->v.major, 9);
    assert_string_equal(attr(d, "gpu.nvidia.com", "architecture")->s, "Hopper");
    assert_string_equal(attr(d, "gpu.nvidia.com", "brand")->s, "Nvidia");
    assert_null(attr(d, "resource.kubernetes.io", "numaNode"));   /* no driver release publishes it */
    assert_string_equal(attr(d, "gpu.nvidia.com", "addressingMode")->s, "None");
    const char *bus = attr(d, "resource.kubernetes.io", "pciBusID")->s;
    assert_int_equal(strlen(bus), 12);
    assert_true(!strncmp(bus, "0000:", 5));
    const char *uuid = attr(d, "gpu.nvidia.com", "uuid")->s;
    assert_true(!strncmp(uuid, "GPU-", 4));
    assert_int_equal(strlen(uuid), 40);
    assert_true(uuid != attr(find_device(s, "gpu-6"), "gpu.nvidia.com", "uuid")->s);
    /* DeviceClasses: the chart's five (v0.4.0) */
    assert_int_equal(b.inv.nclasses, 5);
    assert_string_equal(b.inv.classes[0].meta.name, "gpu.nvidia.com");
    assert_string_equal(b.inv.classes[0].extended_resource_name, "nvidia.com/gpu");
    assert_string_equal(b.inv.classes[0].selectors[0],
                        "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'");
    assert_string_equal(b.inv.classes[1].meta.name, "mig.nvidia.com");
    assert_null(b.inv.classes[1].extended_resource_name);
    assert_non_null(strstr(b.inv.classes[1].selectors[0], ".type == 'mig'"));
    built_free(&b);
}

/* ---- nodes and the device-plugin view ---------------------------------------------- */

static void test_nodes_from_pools(void **state) {
    const char *yaml =
        "cluster:\n  nodePools:\n"
        "  - name: cpu\n    count: 2\n    cpu: 32500m\n    memory: 128Gi\n    maxPods: 50\n"
        "  - name: gpu\n    count: 3\n    cpu: \"96\"\n    memory: 1Ti\n"
        "    labels: {topology.kubernetes.io/zone: a, kubernetes.io/os: custom}\n"
        "    taints: [{key: dedicated, value: ml, effect: NoSchedule}, {key: x, effect: NoExecute}]\n"
        "    gpu: {model: A100-80GB, count: 4}\n";
    built b;
    build_ok(yaml, true, &b);
    assert_int_equal(b.inv.nnodes, 5);
    assert_string_equal(b.inv.nodes[0].meta.name, "cpu-0");
    assert_string_equal(b.inv.nodes[4].meta.name, "gpu-2");
    const k8s_node *c = &b.inv.nodes[1], *g = &b.inv.nodes[3];
    assert_int_equal(quantity_milli_value(&c->allocatable[0].value), 32500);
    assert_string_equal(alloc(c, "cpu"), "32500m");
    assert_string_equal(alloc(c, "memory"), "128Gi");
    assert_string_equal(alloc(c, "pods"), "50");
    assert_null(alloc(c, "nvidia.com/gpu"));
    assert_null(label(c, "nvidia.com/gpu.product"));
    assert_int_equal(b.inv.info[1].gpus, 0);
    assert_int_equal(b.inv.info[1].nslices, 0);
    assert_string_equal(alloc(g, "pods"), "110");
    assert_string_equal(alloc(g, "nvidia.com/gpu"), "4");
    assert_int_equal(g->ncapacity, g->nallocatable);
    assert_string_equal(label(g, "kubernetes.io/hostname"), "gpu-1");
    assert_string_equal(label(g, "kubernetes.io/os"), "custom");   /* pool labels win */
    assert_string_equal(label(g, "topology.kubernetes.io/zone"), "a");
    for (size_t i = 1; i < g->meta.nlabels; i++) assert_true(strcmp(g->meta.labels[i - 1].key, g->meta.labels[i].key) < 0);
    assert_int_equal(g->ntaints, 2);
    assert_string_equal(g->taints[0].key, "dedicated");
    assert_string_equal(g->taints[0].value, "ml");
    assert_int_equal(g->taints[0].effect, TAINT_NO_SCHEDULE);
    assert_null(g->taints[1].value);
    assert_int_equal(g->taints[1].effect, TAINT_NO_EXECUTE);
    assert_ptr_equal(b.inv.info[3].gpu, catalog_find(&cat, "A100-80GB"));
    assert_int_equal(b.inv.info[3].gpus, 4);
    assert_int_equal(b.inv.nslices, 3);   /* one per GPU node */
    assert_int_equal(b.inv.info[4].first_slice, 2);
    built_free(&b);
}

static void test_device_plugin_none_and_time_slicing(void **state) {
    char buf[512];
    built b;
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8}", "{migStrategy: none}"), true, &b);
    const k8s_node *n = &b.inv.nodes[0];
    assert_string_equal(alloc(n, "nvidia.com/gpu"), "8");
    assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3");
    assert_string_equal(label(n, "nvidia.com/gpu.count"), "8");
    assert_string_equal(label(n, "nvidia.com/gpu.memory"), "81559");
    assert_string_equal(label(n, "nvidia.com/gpu.family"), "hopper");
    assert_string_equal(label(n, "nvidia.com/gpu.compute.major"), "9");
    assert_string_equal(label(n, "nvidia.com/gpu.replicas"), "1");
    assert_string_equal(label(n, "nvidia.com/gpu.sharing-strategy"), "none");
    assert_string_equal(label(n, "nvidia.com/mig.strategy"), "none");
    assert_string_equal(label(n, "nvidia.com/mig.capable"), "true");
    built_free(&b);

    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8}", "{timeSlicing: {replicas: 4}}"), true, &b);
    n = &b.inv.nodes[0];
    assert_string_equal(alloc(n, "nvidia.com/gpu"), "32");
    assert_null(alloc(n, "nvidia.com/gpu.shared"));
    assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3-SHARED");
    assert_string_equal(label(n, "nvidia.com/gpu.replicas"), "4");
    assert_string_equal(label(n, "nvidia.com/gpu.sharing-strategy"), "time-slicing");
    built_free(&b);

    build_ok(pool(buf, sizeof buf, "{model: A100-40GB, count: 2}", "{timeSlicing: {replicas: 3, renameByDefault: true}}"),
             true, &b);
    n = &b.inv.nodes[0];
    assert_string_equal(alloc(n, "nvidia.com/gpu.shared"), "6");
    assert_null(alloc(n, "nvidia.com/gpu"));
    assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB");
    assert_string_equal(label(n, "nvidia.com/gpu.family"), "ampere");
    built_free(&b);

    /* DRA-only view: GFD labels but no extended resources */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8}", NULL), false, &b);
    assert_null(alloc(&b.inv.nodes[0], "nvidia.com/gpu"));
    assert_string_equal(label(&b.inv.nodes[0], "nvidia.com/gpu.count"), "8");
    built_free(&b);
}

static void test_device_plugin_mig_strategies(void **state) {
    char buf[512];
    built b;
    /* single + uniform layout: one nvidia.com/gpu per MIG device */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8, mig: static, migLayout: all-1g.10gb}",
                  "{migStrategy: single}"), true, &b);
    const k8s_node *n = &b.inv.nodes[0];
    assert_string_equal(alloc(n, "nvidia.com/gpu"), "56");
    assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb");
    assert_string_equal(label(n, "nvidia.com/gpu.count"), "56");
    assert_string_equal(label(n, "nvidia.com/gpu.memory"), "9984");
    assert_string_equal(label(n, "nvidia.com/gpu.multiprocessors"), "16");
    assert_string_equal(label(n, "nvidia.com/gpu.slices.gi"), "1");
    assert_string_equal(label(n, "nvidia.com/gpu.engines.copy"), "1");
    assert_string_equal(label(n, "nvidia.com/mig.strategy"), "single");
    assert_string_equal(label(n, "nvidia.com/mig.config"), "all-1g.10gb");
    built_free(&b);

    /* single + mixed layout: invalid */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 2, mig: static, migLayout: all-balanced}",
                  "{migStrategy: single}"), true, &b);
    n = &b.inv.nodes[0];
    assert_string_equal(alloc(n, "nvidia.com/gpu"), "0");
    assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3-MIG-INVALID");
    assert_string_equal(label(n, "nvidia.com/gpu.count"), "0");
    built_free(&b);

    /* mixed: nvidia.com/mig-<profile> per profile, no nvidia.com/gpu */
    build_ok(pool(buf, sizeof buf, "{model: H100-80GB, count: 8, mig: static, migLayout: all-balanced}",
                  "{migStrategy: mixed, timeSlicing: {replicas: 2}}"), true, &b);
    n = &b.inv.nodes[0];
    assert_null(alloc(n, "nvidia.com/gpu"));
    assert_string_equal(alloc(n, "nvidia.com/mig-1g.10gb"), "32");
    assert_string_equal(alloc(n, "nvidia.com/mig-2g.20gb"), "16");
    assert_string_equal(alloc(n, "nvidia.com/mig-3g.40gb"), "16");
    assert_string_equal(label(n, "nvidia.com/mig-1g.10gb.count"), "16");
    assert_string_equal(label(n, "nvidia.com/mig-3g.40gb.memory"), "40448");
    assert_string_equal(label(n, "nvidia.com/mig-3g.40gb.multiprocessors"), "60");
    assert_string_equal(label(n, "nvidia.com/mig-3g.40gb.slices.gi"), "4");
    assert_string_equal(label(n, "nvidia.com/mig-3g.40gb.slices.ci"), "3");
    assert_string_equal(label(n, "nvidia.com/mig-2g.20gb.replicas"), "2");
    assert_string_equal(label(n, "nvidia.com/gpu.replicas"), "0");
    built_free(&b);

    /* mixed + media extensions: '+' becomes '.' */
    build_ok(pool(buf, sizeof buf, "{model: A100-80GB, count: 1, mig: static, migLayout: all-1g.10gb.me}",
                  "{migStrategy: mixed}"), true, &b);
    assert_string_equal(alloc(&b.inv.nodes[0], "nvidia.com/mig-1g.10gb.me"), "1");
    built_free(&b);

    /* none on a static-MIG node: MIG is ignored, one nvidia.com/gpu per physical GPU */
    build_ok(pool(buf, sizeof buf, "{model: A100-40GB, count: 4, mig: static, migLayout: all-1g.5gb}", "{}"), true, &b);
    assert_string_equal(alloc(&b.inv.nodes[0], "nvidia.com/gpu"), "4");
    assert_null(alloc(&b.inv.nodes[0], "nvidia.com/mig-1g.5gb"));
    assert_string_equal(label(&b.inv.nodes[0], "nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB");
    built_free(&b);

    /* mixed on a node without MIG: full GPUs */
    build_ok(pool(buf, sizeof buf, "{model: H200-141GB, count: 4}", "{migStrategy: mixed}"), true, &b);
    assert_string_equal(alloc(&b.inv.nodes[0], "nvidia.com/gpu"), "4");
    assert_string_equal(label(&b.inv.nodes[0], "nvidia.com/gpu.product"), "NVIDIA-H200");
    built_free(&b);

    /* dynamic MIG: the device plugin sees full GPUs */
    build_ok(pool(buf, sizeof buf, "{model: H100-94GB, count: 2, mig: dynamic}", "{migStrategy: single}"), true, &b);
    assert_string_equal(alloc(&b.inv.nodes[0], "nvidia.com/gpu"), "2");
    built_free(&b);
}

/* ---- errors that need the catalog ------------------------------------------------------- */

static void expect_build_error(const char *gpu, const char *want) {
    char buf[512];
    built b;
    strbuf err = {0};
    assert_int_equal(build_from(pool(buf, sizeof buf, gpu, NULL), true, &b, &err), -1);
    if (!strstr(sb_str(&err), want)) fail_msg("got '%s', want '%s'", sb_str(&err), want);
    sb_free(&err);
    built_free(&b);
}

static void test_catalog_errors_have_positions(void **state) {
    expect_build_error("{model: V100, count: 8}", "c.yaml:7:18: gpu.model: unknown GPU model 'V100' (the catalog has: A100-40GB");
    expect_build_error("{model: H100-80GB, count: 8, mig: static, migLayout: all-1g.5gb}",
                       "c.yaml:7:63: gpu.migLayout: GPU model H100-80GB has no MIG layout 'all-1g.5gb' (known: ");
}

/* Nodes after the first of a GPU shape are copies of its template: same
 * devices, shared attribute arrays, but their own slice names, pool and GPU
 * identity (uuid, parentUUID; static MIG uuids). */
static void test_nodes_share_a_template(void **state) {
    built b;
    build_ok("cluster:\n  nodePools:\n  - {name: d, count: 3, cpu: '96', memory: 1Ti, gpu: {model: H100-80GB, count: 8, "
             "mig: dynamic}}\n  - {name: s, count: 2, cpu: '96', memory: 1Ti, gpu: {model: A100-40GB, count: 2, mig: "
             "static, migLayout: all-balanced}}\n",
             false, &b);
    const inv_node *n0 = &b.inv.info[0], *n2 = &b.inv.info[2];
    assert_int_equal(n0->nslices, n2->nslices);
    const k8s_resource_slice *s0 = &b.inv.slices[n0->first_slice + 6], *s2 = &b.inv.slices[n2->first_slice + 6];
    assert_ptr_equal(s2->pool, s2->node_name);
    assert_ptr_not_equal(s0->pool, s2->pool);
    assert_non_null(strstr(s2->meta.name, s2->node_name));
    assert_int_equal(s2->slice_count, 9);
    const k8s_device *g2 = find_device(s2, "gpu-5");
    const k8s_device *m0 = find_device(s0, "gpu-5-mig-1g10gb-19-3"), *m2 = find_device(s2, "gpu-5-mig-1g10gb-19-3");
    assert_non_null(g2);
    assert_non_null(m2);
    assert_ptr_equal(m0->attrs, m2->attrs);   /* shared across nodes */
    assert_ptr_equal(m0->caps, m2->caps);
    assert_ptr_equal(attr(m2, "gpu.nvidia.com", "parentUUID")->s, attr(g2, "gpu.nvidia.com", "uuid")->s);
    assert_ptr_not_equal(attr(m0, "gpu.nvidia.com", "parentUUID")->s, attr(m2, "gpu.nvidia.com", "parentUUID")->s);
    assert_string_equal(attr(m2, "resource.kubernetes.io", "pciBusID")->s, "0000:ab:00.0");
    /* static MIG: a MIG device of the second node has its own uuid */
    const inv_node *t0 = &b.inv.info[3], *t1 = &b.inv.info[4];
    const k8s_device *a = &b.inv.slices[t0->first_slice].devices[0];
    const k8s_device *c = find_device(&b.inv.slices[t1->first_slice], a->name);
    assert_non_null(c);
    assert_int_equal(a->nattrs_own, 2);
    assert_int_equal(c->nattrs_own, 2);
    assert_true(!strncmp(attr(c, "gpu.nvidia.com", "uuid")->s, "MIG-", 4));
    assert_ptr_not_equal(attr(a, "gpu.nvidia.com", "uuid")->s, attr(c, "gpu.nvidia.com", "uuid")->s);
    built_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_dynamic_mig_split_layout),
        cmocka_unit_test(test_dynamic_mig_slice_counts),
        cmocka_unit_test(test_nodes_share_a_template),
        cmocka_unit_test(test_static_mig_layouts),
        cmocka_unit_test(test_full_gpus),
        cmocka_unit_test(test_nodes_from_pools),
        cmocka_unit_test(test_device_plugin_none_and_time_slicing),
        cmocka_unit_test(test_device_plugin_mig_strategies),
        cmocka_unit_test(test_catalog_errors_have_positions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
