/* test_inventory_recorded.c -- an inventory written as Kubernetes YAML and read
 * back as a recorded inventory gives the same cluster; bad recorded files fail
 * with positions. */
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

static const char *scenario =
    "cluster:\n"
    "  nodePools:\n"
    "  - name: h100\n"
    "    count: 2\n"
    "    cpu: \"96\"\n"
    "    memory: 1Ti\n"
    "    taints: [{key: dedicated, value: ml, effect: NoSchedule}]\n"
    "    gpu: {model: H100-80GB, count: 8, mig: dynamic}\n"
    "  - name: a100\n"
    "    count: 1\n"
    "    cpu: 64\n"
    "    memory: 512Gi\n"
    "    gpu: {model: A100-40GB, count: 2, mig: static, migLayout: all-balanced}\n"
    "  - name: cpu\n"
    "    count: 2\n"
    "    cpu: 16\n"
    "    memory: 64Gi\n"
    "devicePlugin: {migStrategy: mixed}\n";

/* Write `text` to a fresh temporary file; returns its path (static buffer). */
static const char *temp_file(const char *text, size_t len) {
    static char path[64];
    strcpy(path, "/tmp/drasim-recorded-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

static void assert_same_amounts(const k8s_resource_amount *a, size_t na, const k8s_resource_amount *b, size_t nb) {
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {   /* same names and values, in any order */
        size_t j = 0;
        while (j < nb && b[j].name != a[i].name) j++;
        assert_true(j < nb);
        assert_int_equal(quantity_cmp(&a[i].value, &b[j].value), 0);
    }
}

static void test_round_trip(void **state) {
    gpu_catalog cat = {0};
    yfile f;
    arena a = {0};
    cluster_spec spec;
    device_plugin_opts dp;
    inventory built, back;
    strbuf err = {0}, yaml = {0};
    assert_int_equal(catalog_load(NULL, &cat, &err), 0);
    assert_int_equal(yfile_load_mem("s.yaml", scenario, strlen(scenario), &f, &err), 0);
    assert_int_equal(device_plugin_opts_parse(ymap_get(f.docs[0], "devicePlugin"), &dp, &err), 0);
    assert_int_equal(cluster_spec_parse(ymap_get(f.docs[0], "cluster"), &a, &spec, &err), 0);
    assert_int_equal(inventory_build(&spec, &cat, &dp, &built, &err), 0);
    inventory_write_yaml(&built, &yaml);
    const char *path = temp_file(yaml.s, yaml.len);
    int rc = inventory_load_recorded(path, &cat, &back, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    assert_int_equal(rc, 0);
    unlink(path);

    assert_int_equal(back.nnodes, built.nnodes);
    assert_int_equal(back.nslices, built.nslices);
    assert_int_equal(back.nclasses, built.nclasses);
    for (size_t i = 0; i < built.nnodes; i++) {
        const k8s_node *x = &built.nodes[i], *y = &back.nodes[i];
        assert_ptr_equal(x->meta.name, y->meta.name);
        assert_int_equal(x->meta.nlabels, y->meta.nlabels);
        assert_int_equal(x->ntaints, y->ntaints);
        assert_same_amounts(x->allocatable, x->nallocatable, y->allocatable, y->nallocatable);
        assert_ptr_equal(built.info[i].gpu, back.info[i].gpu);
        assert_int_equal(built.info[i].gpus, back.info[i].gpus);
        assert_int_equal(built.info[i].nslices, back.info[i].nslices);
        for (size_t s = 0; s < built.info[i].nslices; s++) {
            const k8s_resource_slice *p = &built.slices[built.info[i].first_slice + s];
            const k8s_resource_slice *q = &back.slices[back.info[i].first_slice + s];
            assert_ptr_equal(p->meta.name, q->meta.name);
            assert_int_equal(p->ndevices, q->ndevices);
            assert_int_equal(p->nshared_counters, q->nshared_counters);
            for (size_t d = 0; d < p->ndevices; d++) {
                assert_ptr_equal(p->devices[d].name, q->devices[d].name);
                assert_int_equal(k8s_dev_nattrs(&p->devices[d]), k8s_dev_nattrs(&q->devices[d]));
                for (size_t a = 0; a < k8s_dev_nattrs(&p->devices[d]); a++) {   /* both runs come back */
                    const k8s_attribute *x = k8s_dev_attr(&p->devices[d], a), *y = NULL;
                    for (size_t b = 0; b < k8s_dev_nattrs(&q->devices[d]) && !y; b++)
                        if (k8s_dev_attr(&q->devices[d], b)->id == x->id) y = k8s_dev_attr(&q->devices[d], b);
                    assert_non_null(y);
                    assert_ptr_equal(x->domain, y->domain);
                    assert_ptr_equal(x->s, y->s);
                }
                assert_int_equal(p->devices[d].ncaps, q->devices[d].ncaps);
                assert_int_equal(p->devices[d].nconsumes, q->devices[d].nconsumes);
            }
        }
    }
    /* the H100 nodes are dynamic-MIG: 9 slices each (counters + 8 device slices) */
    assert_int_equal(back.info[0].nslices, 9);
    assert_int_equal(back.info[0].gpus, 8);
    assert_string_equal(back.info[2].gpu->key, "A100-40GB");
    assert_null(back.info[3].gpu);
    inventory_free(&built);
    inventory_free(&back);
    yfile_free(&f);
    arena_free(&a);
    catalog_free(&cat);
    sb_free(&err);
    sb_free(&yaml);
}

static void test_kind_list_and_errors(void **state) {
    strbuf err = {0};
    inventory inv;
    const char *list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1}\n"
                       "  status: {allocatable: {cpu: '4', memory: 8Gi}}\n";
    const char *p = temp_file(list, strlen(list));
    assert_int_equal(inventory_load_recorded(p, NULL, &inv, &err), 0);
    assert_int_equal(inv.nnodes, 1);
    assert_string_equal(inv.nodes[0].meta.name, "n1");
    inventory_free(&inv);
    unlink(p);

    const char *pod = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: v1\nkind: Pod\n"
                      "metadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x}]}\n";
    p = temp_file(pod, strlen(pod));
    assert_int_equal(inventory_load_recorded(p, NULL, &inv, &err), -1);
    assert_non_null(strstr(sb_str(&err), ":5:1: Pod p: a recorded inventory holds only"));
    unlink(p);

    const char *none = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n";
    p = temp_file(none, strlen(none));
    assert_int_equal(inventory_load_recorded(p, NULL, &inv, &err), -1);
    assert_non_null(strstr(sb_str(&err), "needs at least one Node"));
    unlink(p);

    const char *bad = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: 3}\n";
    p = temp_file(bad, strlen(bad));
    assert_int_equal(inventory_load_recorded(p, NULL, &inv, &err), -1);
    assert_non_null(strstr(sb_str(&err), ":4:"));
    unlink(p);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_kind_list_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
