/* test_alloc.c -- the allocator's C API: outcomes, search steps, allocated
 * state, admin access, counters, shared devices and share IDs, features.
 * Classes without selectors are used so that no CEL is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alloc/alloc.h"
#include "model/k8s_decode.h"
#include "util/intern.h"

#define HDR "apiVersion: resource.k8s.io/v1\n"
#define NODE1 "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: {zone: a}}\n"
#define CLASS "---\n" HDR "kind: DeviceClass\nmetadata: {name: c}\n"

typedef struct run {
    k8s_objects o;
    allocator *A;
    arena ar;
    k8s_allocation out[4];
    alloc_status st;
    uint64_t steps;
    strbuf err;
} run;

/* Allocate every unallocated claim of src for node-1. */
static void run_src(run *r, const char *src, const char *features, uint64_t seed) {
    memset(r, 0, sizeof *r);
    k8s_objects_init(&r->o);
    if (k8s_decode_mem(&r->o, "t.yaml", src, strlen(src), &r->err)) fail_msg("decode: %s", sb_str(&r->err));
    alloc_features f;
    assert_int_equal(alloc_features_parse(features, &f, &r->err), 0);
    alloc_state_builder sb = {0};
    k8s_resource_claim *to_allocate[4];
    size_t n = 0;
    for (size_t i = 0; i < r->o.claims.len; i++) {
        if (r->o.claims.data[i]->allocated) alloc_state_add_claim(&sb, r->o.claims.data[i], f.consumable_capacity);
        else to_allocate[n++] = r->o.claims.data[i];
    }
    r->A = allocator_new(&f, r->o.slices.data, r->o.slices.len, r->o.classes.data, r->o.classes.len, &sb.st, seed);
    alloc_state_builder_free(&sb);
    r->st = allocator_allocate(r->A, k8s_find_node(&r->o, "node-1"), to_allocate, n, &r->ar, r->out, &r->steps, &r->err);
}

static void run_free(run *r) {
    allocator_free(r->A);
    arena_free(&r->ar);
    k8s_objects_free(&r->o);
    sb_free(&r->err);
}

static const char *slice_n(int n) {
    static char buf[4096];
    int k = snprintf(buf, sizeof buf, "---\n" HDR "kind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: d\n"
                                      "  pool: {name: p, resourceSliceCount: 1}\n  nodeName: node-1\n  devices:\n");
    for (int i = 0; i < n; i++) k += snprintf(buf + k, sizeof buf - (size_t)k, "  - name: dev-%d\n", i);
    return buf;
}

static void test_simple_result_and_selector(void **state) {
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, count: 2}}]}}\n",
             NODE1, CLASS, slice_n(3));
    run r;
    run_src(&r, src, "none", 1);
    assert_int_equal(r.st, ALLOC_OK);
    assert_int_equal(r.out[0].nresults, 2);
    assert_string_equal(r.out[0].results[0].device, "dev-0");
    assert_string_equal(r.out[0].results[1].device, "dev-1");
    assert_string_equal(r.out[0].results[0].request, "r");
    assert_true(r.out[0].has_node_selector);
    assert_string_equal(r.out[0].node_selector.terms[0].match_fields[0].values[0], "node-1");
    /* start, dev-0, dev-1 -> next request, next claim, done */
    assert_int_equal(r.steps, 5);
    run_free(&r);
}

static void test_combination_pruning_steps(void **state) {
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, count: 5}}]}}\n",
             NODE1, CLASS, slice_n(4));
    run r;
    run_src(&r, src, "none", 1);
    assert_int_equal(r.st, ALLOC_UNSATISFIABLE);
    assert_int_equal(r.steps, 16);   /* subsets of 4 devices in increasing order: 1+4+6+4+1 */
    /* a step limit stops the same search early, one just large enough does not */
    k8s_resource_claim *claim = r.o.claims.data[0];
    k8s_allocation out;
    uint64_t steps;
    allocator_set_step_limit(r.A, 10);
    assert_int_equal(allocator_allocate(r.A, k8s_find_node(&r.o, "node-1"), &claim, 1, &r.ar, &out, &steps, &r.err),
                     ALLOC_TIMEOUT);
    assert_int_equal(steps, 11);
    assert_non_null(strstr(sb_str(&r.err), "timed out trying to allocate devices"));
    allocator_set_step_limit(r.A, 16);
    assert_int_equal(allocator_allocate(r.A, k8s_find_node(&r.o, "node-1"), &claim, 1, &r.ar, &out, &steps, &r.err),
                     ALLOC_UNSATISFIABLE);
    run_free(&r);
}

static void test_claim_limit_is_error(void **state) {
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, count: 33}}]}}\n",
             NODE1, CLASS, slice_n(2));
    run r;
    run_src(&r, src, "none", 1);
    assert_int_equal(r.st, ALLOC_ERROR);
    assert_non_null(strstr(sb_str(&r.err), "claim claim: number of requested devices 33 exceeds the claim limit of 32"));
    run_free(&r);
}

static void test_allocated_and_admin(void **state) {
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s---\n" HDR "kind: ResourceClaim\nmetadata: {name: old}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n"
             "status: {allocation: {devices: {results: [{request: r, driver: d, pool: p, device: dev-0}]}}}\n"
             "---\n" HDR "kind: ResourceClaim\nmetadata: {name: admin}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, adminAccess: true}}]}}\n"
             "---\n" HDR "kind: ResourceClaim\nmetadata: {name: plain}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n",
             NODE1, CLASS, slice_n(2));
    run r;
    run_src(&r, src, "AdminAccess", 1);
    assert_int_equal(r.st, ALLOC_OK);
    /* admin access ignores the existing allocation ... */
    assert_string_equal(r.out[0].results[0].device, "dev-0");
    assert_true(r.out[0].results[0].admin_access);
    /* ... the plain claim cannot use dev-0 */
    assert_string_equal(r.out[1].results[0].device, "dev-1");
    run_free(&r);
    /* the same input with AdminAccess off: the set field alone is an error */
    run_src(&r, src, "none", 1);
    assert_int_equal(r.st, ALLOC_ERROR);
    assert_non_null(strstr(sb_str(&r.err), "admin access is requested, but the feature is disabled"));
    run_free(&r);
}

static const char *counters_src =
    NODE1 CLASS
    "---\n" HDR "kind: ResourceSlice\nmetadata: {name: counters}\nspec:\n  driver: d\n"
    "  pool: {name: p, resourceSliceCount: 3}\n  nodeName: node-1\n"
    "  sharedCounters: [{name: gpu, counters: {mem: {value: 8Gi}}}]\n"
    "---\n" HDR "kind: ResourceSlice\nmetadata: {name: local}\nspec:\n  driver: d\n"
    "  pool: {name: p, resourceSliceCount: 3}\n  nodeName: node-1\n  devices:\n"
    "  - {name: big, consumesCounters: [{counterSet: gpu, counters: {mem: {value: 6Gi}}}]}\n"
    "  - {name: small, consumesCounters: [{counterSet: gpu, counters: {mem: {value: 2Gi}}}]}\n"
    "---\n" HDR "kind: ResourceSlice\nmetadata: {name: remote}\nspec:\n  driver: d\n"
    "  pool: {name: p, resourceSliceCount: 3}\n  nodeName: node-2\n  devices:\n"
    "  - {name: far, consumesCounters: [{counterSet: gpu, counters: {mem: {value: 4Gi}}}]}\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: old}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n"
    "status: {allocation: {devices: {results: [{request: r, driver: d, pool: p, device: far}]}}}\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n";

static void test_counters_across_nodes(void **state) {
    run r;
    /* "far" on node-2 already uses 4 of 8Gi: "big" (6Gi) no longer fits */
    run_src(&r, counters_src, "PartitionableDevices", 1);
    assert_int_equal(r.st, ALLOC_OK);
    assert_string_equal(r.out[0].results[0].device, "small");
    run_free(&r);
    /* without the feature, counter slices and consuming devices are unusable */
    run_src(&r, counters_src, "none", 1);
    assert_int_equal(r.st, ALLOC_UNSATISFIABLE);
    run_free(&r);
}

static const char *shared_src =
    NODE1 CLASS
    "---\n" HDR "kind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d\n"
    "  pool: {name: p, resourceSliceCount: 1}\n  nodeName: node-1\n  devices:\n"
    "  - name: nic\n    allowMultipleAllocations: true\n"
    "    capacity: {bw: {value: '10', requestPolicy: {default: '1', validRange: {min: '1', step: '2'}}}}\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: a}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, capacity: {requests: {bw: '4'}}}}]}}\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: b}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n";

static void test_shared_device_capacity_and_share_ids(void **state) {
    run r;
    run_src(&r, shared_src, "ConsumableCapacity", 42);
    assert_int_equal(r.st, ALLOC_OK);
    const k8s_device_result *a = &r.out[0].results[0], *b = &r.out[1].results[0];
    assert_string_equal(a->device, "nic");
    assert_string_equal(b->device, "nic");   /* shared by both claims */
    /* 4 rounds up to min + k*step = 5; the default is 1 */
    assert_int_equal(quantity_value(&a->consumed[0].value), 5);
    assert_int_equal(quantity_value(&b->consumed[0].value), 1);
    assert_non_null(a->share_id);
    assert_int_equal(strlen(a->share_id), 36);
    assert_int_equal(a->share_id[8], '-');
    assert_int_equal(a->share_id[14], '4');
    assert_true(a->share_id != b->share_id);
    const char *first = a->share_id;
    run_free(&r);
    run_src(&r, shared_src, "ConsumableCapacity", 42);   /* same seed, same IDs */
    assert_ptr_equal(r.out[0].results[0].share_id, first);
    run_free(&r);
    run_src(&r, shared_src, "ConsumableCapacity", 43);
    assert_true(r.out[0].results[0].share_id != first);
    run_free(&r);
    /* without ConsumableCapacity a capacity request is an error */
    run_src(&r, shared_src, "none", 1);
    assert_int_equal(r.st, ALLOC_ERROR);
    run_free(&r);
}

static void test_invalid_pool_is_node_error(void **state) {
    const char *src = NODE1 CLASS
        "---\n" HDR "kind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: d\n"
        "  pool: {name: p, resourceSliceCount: 2}\n  nodeName: node-1\n  devices: [{name: x}]\n"
        "---\n" HDR "kind: ResourceSlice\nmetadata: {name: s2}\nspec:\n  driver: d\n"
        "  pool: {name: p, resourceSliceCount: 2}\n  nodeName: node-1\n  devices: [{name: x}]\n"
        "---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
        "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n";
    run r;
    run_src(&r, src, "none", 1);
    assert_int_equal(r.st, ALLOC_NODE_ERROR);
    assert_non_null(strstr(sb_str(&r.err), "invalid resource pools were encountered"));
    run_free(&r);
}

/* allocator_commit: later calls see committed devices and counter use. */
static void test_commit(void **state) {
    run r;
    run_src(&r, counters_src, "PartitionableDevices", 1);
    assert_int_equal(r.st, ALLOC_OK);
    assert_string_equal(r.out[0].results[0].device, "small");
    allocator_commit(r.A, &r.out[0]);
    /* "small" is taken now and "big" still does not fit next to "far" */
    k8s_resource_claim *claim = r.o.claims.data[1];
    k8s_allocation out;
    uint64_t steps;
    assert_int_equal(allocator_allocate(r.A, k8s_find_node(&r.o, "node-1"), &claim, 1, &r.ar, &out, &steps, &r.err),
                     ALLOC_UNSATISFIABLE);
    run_free(&r);

    char src[8192];
    snprintf(src, sizeof src, "%s%s%s---\n" HDR "kind: ResourceClaim\nmetadata: {name: claim}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n", NODE1, CLASS, slice_n(2));
    run_src(&r, src, "none", 1);
    const k8s_node *node = k8s_find_node(&r.o, "node-1");
    claim = r.o.claims.data[0];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(allocator_allocate(r.A, node, &claim, 1, &r.ar, &out, &steps, &r.err), ALLOC_OK);
        assert_int_equal(out.results[0].device[4] - '0', i);   /* dev-0, then dev-1 */
        allocator_commit(r.A, &out);
    }
    assert_int_equal(allocator_allocate(r.A, node, &claim, 1, &r.ar, &out, &steps, &r.err), ALLOC_UNSATISFIABLE);
    run_free(&r);
}

static void test_features(void **state) {
    alloc_features f;
    strbuf err = {0}, out = {0};
    assert_int_equal(alloc_features_parse("PrioritizedList,DeviceTaints", &f, &err), 0);
    assert_true(f.prioritized_list && f.device_taints && !f.admin_access);
    assert_int_equal(alloc_features_parse("Bogus", &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "unknown feature 'Bogus'"));
    assert_int_equal(alloc_features_for_version("1.35", &f, &err), 0);
    alloc_features_format(&f, &out);
    assert_string_equal(sb_str(&out), "AdminAccess,PrioritizedList");
    sb_clear(&out);
    assert_int_equal(alloc_features_for_version("1.36", &f, &err), 0);
    alloc_features_format(&f, &out);
    assert_string_equal(sb_str(&out), "AdminAccess,PrioritizedList,PartitionableDevices,DeviceTaints,"
                                      "ConsumableCapacity,DeviceBindingAndStatus");
    assert_int_equal(alloc_features_for_version("1.33", &f, &err), -1);
    sb_free(&err);
    sb_free(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple_result_and_selector),
        cmocka_unit_test(test_combination_pruning_steps),
        cmocka_unit_test(test_claim_limit_is_error),
        cmocka_unit_test(test_allocated_and_admin),
        cmocka_unit_test(test_counters_across_nodes),
        cmocka_unit_test(test_shared_device_capacity_and_share_ids),
        cmocka_unit_test(test_invalid_pool_is_node_error),
        cmocka_unit_test(test_commit),
        cmocka_unit_test(test_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
