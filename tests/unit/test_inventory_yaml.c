/* test_inventory_yaml.c -- the inventory written as Kubernetes YAML reloads
 * with yaml_tree and holds the expected objects, in the driver's field format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"

static const char *scenario =
    "cluster:\n"
    "  nodePools:\n"
    "  - name: h100\n"
    "    count: 2\n"
    "    cpu: \"96\"\n"
    "    memory: 1Ti\n"
    "    labels: {topology.kubernetes.io/zone: a}\n"
    "    taints: [{key: dedicated, value: ml, effect: NoSchedule}]\n"
    "    gpu: {model: H100-80GB, count: 8, mig: dynamic}\n"
    "  - name: a100\n"
    "    count: 1\n"
    "    cpu: 64\n"
    "    memory: 512Gi\n"
    "    gpu: {model: A100-40GB, count: 2, mig: static, migLayout: all-balanced}\n"
    "  - name: cpu\n"
    "    count: 3\n"
    "    cpu: 16\n"
    "    memory: 64Gi\n"
    "devicePlugin: {migStrategy: mixed}\n";

typedef struct fixture {
    gpu_catalog cat;
    yfile f;
    arena a;
    cluster_spec spec;
    device_plugin_opts dp;
    inventory inv;
    strbuf out;
} fixture;

static int setup(void **state) {
    static fixture fx;
    strbuf err = {0};
    memset(&fx, 0, sizeof fx);
    if (catalog_load(NULL, &fx.cat, &err) || yfile_load_mem("s.yaml", scenario, strlen(scenario), &fx.f, &err) ||
        device_plugin_opts_parse(ymap_get(fx.f.docs[0], "devicePlugin"), &fx.dp, &err) ||
        cluster_spec_parse(ymap_get(fx.f.docs[0], "cluster"), &fx.a, &fx.spec, &err) ||
        inventory_build(&fx.spec, &fx.cat, &fx.dp, &fx.inv, &err)) {
        fprintf(stderr, "setup: %s\n", sb_str(&err));
        sb_free(&err);
        return -1;
    }
    inventory_write_yaml(&fx.inv, &fx.out);
    sb_free(&err);
    *state = &fx;
    return 0;
}

static int teardown(void **state) {
    fixture *fx = *state;
    sb_free(&fx->out);
    inventory_free(&fx->inv);
    arena_free(&fx->a);
    yfile_free(&fx->f);
    catalog_free(&fx->cat);
    intern_reset();
    return 0;
}

static const ynode *path(const ynode *n, const char *a, const char *b, const char *c) {
    n = ymap_get(n, a);
    if (b) n = ymap_get(n, b);
    if (c) n = ymap_get(n, c);
    return n;
}

static void test_kinds_and_counts(void **state) {
    fixture *fx = *state;
    yfile y;
    strbuf err = {0};
    if (yfile_load_mem("out.yaml", sb_str(&fx->out), fx->out.len, &y, &err)) fail_msg("reload: %s", sb_str(&err));
    /* 6 nodes; the chart's 5 classes; h100: 1 counter slice + 8 device slices each; a100: 1 legacy slice */
    assert_int_equal(y.ndocs, 6 + 5 + 2 * 9 + 1);
    size_t nodes = 0, classes = 0, slices = 0;
    for (size_t i = 0; i < y.ndocs; i++) {
        const ynode *d = y.docs[i], *kind = ymap_get(d, "kind"), *api = ymap_get(d, "apiVersion");
        assert_non_null(path(d, "metadata", "name", NULL));
        if (y_scalar_eq(kind, "Node")) {
            assert_true(y_scalar_eq(api, "v1"));
            assert_int_equal(classes + slices, 0);   /* Nodes come first */
            nodes++;
        } else if (y_scalar_eq(kind, "DeviceClass")) {
            assert_true(y_scalar_eq(api, "resource.k8s.io/v1"));
            assert_int_equal(slices, 0);
            classes++;
        } else if (y_scalar_eq(kind, "ResourceSlice")) {
            assert_true(y_scalar_eq(api, "resource.k8s.io/v1"));
            slices++;
        } else {
            fail_msg("unexpected kind in document %zu", i);
        }
    }
    assert_int_equal(nodes, 6);
    assert_int_equal(classes, 5);
    assert_int_equal(slices, 19);
    assert_int_equal(slices, fx->inv.nslices);
    sb_free(&err);
    yfile_free(&y);
}

static void test_node_document(void **state) {
    fixture *fx = *state;
    yfile y;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("out.yaml", sb_str(&fx->out), fx->out.len, &y, &err), 0);
    const ynode *h = y.docs[1], *a = y.docs[2];
    assert_true(y_scalar_eq(path(h, "metadata", "name", NULL), "h100-1"));
    assert_true(y_scalar_eq(path(h, "metadata", "labels", "topology.kubernetes.io/zone"), "a"));
    assert_true(y_scalar_eq(path(h, "metadata", "labels", "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3"));
    const ynode *taint = path(h, "spec", "taints", NULL);
    assert_int_equal(taint->kind, YN_SEQ);
    assert_true(y_scalar_eq(ymap_get(taint->vals[0], "effect"), "NoSchedule"));
    assert_true(y_scalar_eq(path(h, "status", "allocatable", "cpu"), "96"));
    assert_false(path(h, "status", "allocatable", "cpu")->plain);   /* quantities are strings */
    assert_true(y_scalar_eq(path(h, "status", "allocatable", "memory"), "1Ti"));
    assert_true(y_scalar_eq(path(h, "status", "allocatable", "nvidia.com/gpu"), "8"));
    assert_true(y_scalar_eq(path(a, "status", "capacity", "nvidia.com/mig-1g.5gb"), "4"));
    /* a node without GPUs or taints has no spec and no nvidia labels */
    const ynode *c = y.docs[5];
    assert_null(ymap_get(c, "spec"));
    assert_null(path(c, "metadata", "labels", "nvidia.com/gpu.count"));
    assert_null(path(c, "status", "allocatable", "nvidia.com/gpu"));
    sb_free(&err);
    yfile_free(&y);
}

static void test_slice_documents(void **state) {
    fixture *fx = *state;
    yfile y;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("out.yaml", sb_str(&fx->out), fx->out.len, &y, &err), 0);
    const ynode *gpu_class = y.docs[6];
    assert_true(y_scalar_eq(path(gpu_class, "spec", "extendedResourceName", NULL), "nvidia.com/gpu"));
    const ynode *sel = path(gpu_class, "spec", "selectors", NULL);
    assert_int_equal(sel->n, 1);
    assert_true(y_scalar_eq(path(sel->vals[0], "cel", "expression", NULL),
                            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"));

    const ynode *counters = y.docs[11], *devs = y.docs[12];
    const ynode *pool = path(counters, "spec", "pool", NULL);
    assert_true(y_scalar_eq(ymap_get(pool, "name"), "h100-0"));
    assert_true(y_scalar_eq(ymap_get(pool, "resourceSliceCount"), "9"));
    assert_true(ymap_get(pool, "resourceSliceCount")->plain);   /* an integer */
    assert_true(y_scalar_eq(path(counters, "spec", "driver", NULL), "gpu.nvidia.com"));
    assert_true(y_scalar_eq(path(counters, "spec", "nodeName", NULL), "h100-0"));
    assert_null(path(counters, "spec", "devices", NULL));   /* split layout: counters only */
    const ynode *sets = path(counters, "spec", "sharedCounters", NULL);
    assert_int_equal(sets->n, 8);
    assert_int_equal(ymap_get(sets->vals[0], "counters")->n, 15);
    assert_true(y_scalar_eq(path(ymap_get(sets->vals[0], "counters"), "memory", "value", NULL), "81152Mi"));

    assert_null(path(devs, "spec", "sharedCounters", NULL));
    const ynode *dl = path(devs, "spec", "devices", NULL);
    assert_int_equal(dl->n, 26);
    const ynode *g0 = dl->vals[0];
    assert_true(y_scalar_eq(ymap_get(g0, "name"), "gpu-0"));
    const ynode *at = ymap_get(g0, "attributes");
    assert_true(y_scalar_eq(path(at, "type", "string", NULL), "gpu"));
    assert_true(y_scalar_eq(path(at, "cudaComputeCapability", "version", NULL), "9.0.0"));
    assert_null(ymap_get(at, "resource.kubernetes.io/numaNode"));   /* the driver never publishes it */
    assert_true(y_scalar_eq(path(at, "addressingMode", "string", NULL), "None"));
    assert_non_null(path(at, "resource.kubernetes.io/pciBusID", "string", NULL));
    assert_null(ymap_get(at, "gpu.nvidia.com/type"));   /* the driver's own attributes are bare */
    /* attribute keys are sorted */
    for (size_t i = 1; i < at->n; i++) assert_true(strcmp(at->keys[i - 1]->str, at->keys[i]->str) < 0);
    const ynode *cc = ymap_get(g0, "consumesCounters");
    assert_int_equal(cc->n, 1);
    assert_true(y_scalar_eq(ymap_get(cc->vals[0], "counterSet"), "gpu-0-counter-set"));
    assert_true(y_scalar_eq(path(ymap_get(cc->vals[0], "counters"), "multiprocessors", "value", NULL), "132"));

    /* static MIG slice of the a100 node (last document) */
    const ynode *st = y.docs[y.ndocs - 1];
    assert_true(y_scalar_eq(path(st, "spec", "pool", "resourceSliceCount"), "1"));
    const ynode *sd = path(st, "spec", "devices", NULL);
    assert_int_equal(sd->n, 8);
    const ynode *m3 = NULL;   /* devices come in the driver's arbitrary order */
    for (size_t i = 0; i < sd->n; i++)
        if (y_scalar_eq(ymap_get(sd->vals[i], "name"), "gpu-0-mig-3g20gb-9-4")) m3 = sd->vals[i];
    assert_non_null(m3);
    assert_true(y_scalar_eq(path(ymap_get(m3, "capacity"), "memorySlice7", "value", NULL), "1"));
    assert_true(y_scalar_eq(path(ymap_get(m3, "attributes"), "profile", "string", NULL), "3g.20gb"));
    assert_null(ymap_get(m3, "consumesCounters"));
    sb_free(&err);
    yfile_free(&y);
}

static void test_output_is_deterministic(void **state) {
    fixture *fx = *state;
    strbuf again = {0};
    inventory_write_yaml(&fx->inv, &again);
    assert_int_equal(again.len, fx->out.len);
    assert_memory_equal(sb_str(&again), sb_str(&fx->out), again.len);
    /* a second build gives the same text (uuids and bus IDs are synthesized deterministically) */
    inventory inv2;
    strbuf err = {0}, third = {0};
    assert_int_equal(inventory_build(&fx->spec, &fx->cat, &fx->dp, &inv2, &err), 0);
    inventory_write_yaml(&inv2, &third);
    assert_string_equal(sb_str(&third), sb_str(&fx->out));
    inventory_free(&inv2);
    sb_free(&again);
    sb_free(&third);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_and_counts),
        cmocka_unit_test(test_node_document),
        cmocka_unit_test(test_slice_documents),
        cmocka_unit_test(test_output_is_deterministic),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
