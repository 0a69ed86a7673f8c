/* test_mut_model.c -- GPU Feature Discovery's nvidia.com/gpu.family label on
 * both sides of the ampere / ada-lovelace boundary (GFD: compute capability
 * 8.x is ampere below 8.9, ada-lovelace from 8.9), with a catalog of two
 * non-MIG models (tests/mutants/catalog-families.yaml). Written to kill a
 * mutant of tools/mutate (docs/MUTATION.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"

static const char *label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

static void test_gpu_family_boundary(void **state) {
    (void)state;
    static const char text[] =
        "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nstop: {allPodsDone: true}\n"
        "cluster:\n  nodePools:\n"
        "  - {name: a10, count: 1, cpu: '8', memory: 64Gi, gpu: {model: A10-24GB, count: 1}}\n"
        "  - {name: l40s, count: 1, cpu: '8', memory: 64Gi, gpu: {model: L40S-48GB, count: 1}}\n"
        "scheduling: {mode: device-plugin}\n"
        "workload:\n  podGroups:\n  - {name: p, arrival: {times: [0s]}, duration: 1s, requests: {cpu: '1'}}\n";
    yfile f;
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    strbuf err = {0};
    memset(&sc, 0, sizeof sc);
    assert_int_equal(yfile_load_mem("s.yaml", text, strlen(text), &f, &err), 0);
    assert_int_equal(scenario_from_tree(f.docs[0], &sc, &err), 0);
    if (catalog_load(TEST_DATA_DIR "/mutants/catalog-families.yaml", &cat, &err)) fail_msg("%s", sb_str(&err));
    if (inventory_build_ex(&sc.cluster, &cat, NULL, 0, &inv, &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(inv.nnodes, 2);
    assert_string_equal(label(&inv.nodes[0], "nvidia.com/gpu.compute.minor"), "6");
    assert_string_equal(label(&inv.nodes[0], "nvidia.com/gpu.family"), "ampere");
    assert_string_equal(label(&inv.nodes[1], "nvidia.com/gpu.compute.minor"), "9");
    assert_string_equal(label(&inv.nodes[1], "nvidia.com/gpu.family"), "ada-lovelace");
    inventory_free(&inv);
    catalog_free(&cat);
    sc.has_file = false;
    scenario_free(&sc);
    yfile_free(&f);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gpu_family_boundary)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
