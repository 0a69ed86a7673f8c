/* test_alloc_taints.c -- device taints set while a run goes
 * (allocator_set_device_taints, alloc/alloc_taints.c): NoSchedule and
 * NoExecute keep a device out unless the request tolerates them, None does
 * not, clearing them brings the device back, and the slice's own taints are
 * replaced, not added to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "alloc/alloc.h"
#include "model/k8s_decode.h"
#include "util/intern.h"

#define HDR "apiVersion: resource.k8s.io/v1\n"
static const char SRC[] =
    "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
    "---\n" HDR "kind: DeviceClass\nmetadata: {name: c}\n"
    "---\n" HDR "kind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: d\n"
    "  pool: {name: p, resourceSliceCount: 1}\n  nodeName: node-1\n  devices:\n  - name: dev-0\n  - name: dev-1\n"
    "    taints: [{key: own, effect: NoSchedule}]\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: plain}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n"
    "---\n" HDR "kind: ResourceClaim\nmetadata: {name: tolerant}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, tolerations: "
    "[{key: k, operator: Exists, effect: NoExecute}]}}]}}\n";

typedef struct fix {
    k8s_objects o;
    allocator *A;
    arena ar;
    strbuf err;
} fix;

static void fix_init(fix *x) {
    memset(x, 0, sizeof *x);
    k8s_objects_init(&x->o);
    if (k8s_decode_mem(&x->o, "t.yaml", SRC, strlen(SRC), &x->err)) fail_msg("decode: %s", sb_str(&x->err));
    alloc_features f;
    assert_int_equal(alloc_features_for_version("1.36", &f, &x->err), 0);
    x->A = allocator_new(&f, x->o.slices.data, x->o.slices.len, x->o.classes.data, x->o.classes.len, NULL, 1);
}

static void fix_free(fix *x) {
    allocator_free(x->A);
    arena_free(&x->ar);
    k8s_objects_free(&x->o);
    sb_free(&x->err);
}

/* The device claim `which` (0 plain, 1 tolerant) gets alone, or NULL when none. */
static const char *take(fix *x, int which) {
    k8s_resource_claim *c = x->o.claims.data[which];
    k8s_allocation out;
    uint64_t steps;
    alloc_status st = allocator_allocate(x->A, k8s_find_node(&x->o, "node-1"), &c, 1, &x->ar, &out, &steps, &x->err);
    return st == ALLOC_OK ? out.results[0].device : NULL;
}

static void test_taint_effects(void **state) {
    (void)state;
    fix x;
    fix_init(&x);
    const char *d = intern("d"), *p = intern("p");
    assert_string_equal(take(&x, 0), "dev-0");                  /* dev-1 has its slice's own NoSchedule */
    k8s_taint ns = {.key = intern("k"), .effect = TAINT_NO_SCHEDULE};
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-0"), &ns, 1));
    assert_null(take(&x, 0));                                   /* both tainted */
    assert_null(take(&x, 1));                                   /* a NoExecute toleration does not cover NoSchedule */
    k8s_taint ne = {.key = intern("k"), .effect = TAINT_NO_EXECUTE};
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-0"), &ne, 1));
    assert_null(take(&x, 0));
    assert_string_equal(take(&x, 1), "dev-0");                  /* tolerated */
    k8s_taint none = {.key = intern("k"), .effect = TAINT_NONE};
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-0"), &none, 1));
    assert_string_equal(take(&x, 0), "dev-0");                  /* None: informational */
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-1"), NULL, 0));
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-0"), &ns, 1));
    assert_string_equal(take(&x, 0), "dev-1");                  /* its own taint replaced by none */
    assert_true(allocator_set_device_taints(x.A, d, p, intern("dev-0"), NULL, 0));
    assert_string_equal(take(&x, 0), "dev-0");                  /* cleared */
    assert_false(allocator_set_device_taints(x.A, d, p, intern("dev-9"), NULL, 0));
    fix_free(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_taint_effects)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
