/* test_inventory_check.c -- cross-slice consistency of recorded inventories
 * (issue 10): slices for missing Nodes are errors; incomplete pools, duplicate
 * devices and unknown counters are warnings (the allocator's view). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/inventory_parts.h"
#include "model/k8s_decode.h"

#define NODE "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
#define SLICE(name, node, pool, count, rest)                                                      \
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " name "}\nspec:\n"    \
    "  driver: gpu.example.com\n  nodeName: " node "\n"                                           \
    "  pool: {name: " pool ", generation: 1, resourceSliceCount: " count "}\n" rest "---\n"

/* Decode src and run the check; returns its result with warnings and error. */
static int check(const char *src, strbuf *warn, strbuf *err) {
    k8s_objects o;
    k8s_objects_init(&o);
    if (k8s_decode_mem(&o, "inv.yaml", src, strlen(src), err)) fail_msg("decode: %s", sb_str(err));
    sb_clear(warn);
    int rc = inventory_check_recorded(&o, warn, err);
    k8s_objects_free(&o);
    return rc;
}

static void test_consistent(void **state) {
    strbuf warn = {0}, err = {0};
    const char *src = NODE SLICE("s0", "n1", "p", "2", "  sharedCounters:\n  - {name: cs, counters: {mem: {value: 8Gi}}}\n")
        SLICE("s1", "n1", "p", "2", "  devices:\n  - name: a\n    consumesCounters:\n"
                                    "    - {counterSet: cs, counters: {mem: {value: 4Gi}}}\n  - name: b\n");
    assert_int_equal(check(src, &warn, &err), 0);
    assert_int_equal(warn.len, 0);
    sb_free(&warn);
    sb_free(&err);
}

static void test_missing_node_is_an_error(void **state) {
    strbuf warn = {0}, err = {0};
    const char *src = NODE SLICE("s1", "n1", "p", "1", "  devices: [{name: a}]\n")
        SLICE("s2", "ghost", "q", "1", "  devices: [{name: a}]\n");
    assert_int_equal(check(src, &warn, &err), -1);
    assert_string_equal(sb_str(&err), "inv.yaml:14:1: ResourceSlice s2: nodeName ghost: the inventory has no such "
                                      "Node (its devices could never be allocated)");
    sb_free(&warn);
    sb_free(&err);
}

static void test_pool_warnings(void **state) {
    strbuf warn = {0}, err = {0};
    /* incomplete: 1 of 2 slices */
    assert_int_equal(check(NODE SLICE("s1", "n1", "p", "2", "  devices: [{name: a}]\n"), &warn, &err), 0);
    assert_string_equal(sb_str(&warn), "inv.yaml:5:1: ResourceSlice s1: pool gpu.example.com/p generation 1 has 1 "
                                       "of its 2 slices (resourceSliceCount): the allocator treats the pool as "
                                       "incomplete and allocates none of its devices\n");
    /* duplicate devices across slices of one pool */
    assert_int_equal(check(NODE SLICE("s1", "n1", "p", "2", "  devices: [{name: a}, {name: b}]\n")
                           SLICE("s2", "n1", "p", "2", "  devices: [{name: b}]\n"), &warn, &err), 0);
    assert_non_null(strstr(sb_str(&warn), "pool gpu.example.com/p lists device b more than once: the allocator "
                                          "treats the pool as invalid"));
    /* an unknown counter set, an unknown counter */
    assert_int_equal(check(NODE SLICE("s1", "n1", "p", "1", "  devices:\n  - name: a\n    consumesCounters:\n"
                                                            "    - {counterSet: nope, counters: {mem: {value: 1}}}\n"),
                           &warn, &err), 0);
    assert_non_null(strstr(sb_str(&warn), "ResourceSlice s1: device a consumes counters from counter set nope, which "
                                          "no slice of pool gpu.example.com/p defines"));
    assert_int_equal(check(NODE SLICE("s0", "n1", "p", "2", "  sharedCounters:\n  - {name: cs, counters: {mem: {value: 8}}}\n")
                           SLICE("s1", "n1", "p", "2", "  devices:\n  - name: a\n    consumesCounters:\n"
                                                       "    - {counterSet: cs, counters: {sm: {value: 1}}}\n"),
                           &warn, &err), 0);
    assert_non_null(strstr(sb_str(&warn), "device a consumes counter sm, which counter set cs of pool "
                                          "gpu.example.com/p does not define"));
    /* only the newest generation counts: an old, smaller generation is ignored */
    const char *gens = NODE SLICE("s1", "n1", "p", "1", "  devices: [{name: a}]\n")
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s0}\nspec:\n"
        "  driver: gpu.example.com\n  nodeName: n1\n  pool: {name: p, generation: 0, resourceSliceCount: 5}\n"
        "  devices: [{name: a}]\n";
    assert_int_equal(check(gens, &warn, &err), 0);
    assert_int_equal(warn.len, 0);
    sb_free(&warn);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consistent),
        cmocka_unit_test(test_missing_node_is_an_error),
        cmocka_unit_test(test_pool_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
