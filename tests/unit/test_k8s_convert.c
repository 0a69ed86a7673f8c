/* test_k8s_convert.c -- resource.k8s.io/v1beta1 and v1beta2 objects decode
 * to what their v1 form decodes to (model/k8s_decode_convert.c, after
 * k8s.io/dynamic-resource-allocation/api/v1beta1/conversion.go), and errors
 * inside converted parts still name their place in the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/k8s_decode.h"
#include "model/k8s_emit.h"
#include "model/cluster.h"
#include "util/intern.h"

static const char v1_slice[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
    "spec:\n  driver: gpu.nvidia.com\n  pool: {name: n, generation: 1, resourceSliceCount: 1}\n  nodeName: n\n"
    "  devices:\n  - name: gpu-0\n    attributes:\n      type: {string: gpu}\n      driverVersion: {version: 580.95.5}\n"
    "    capacity:\n      memory: {value: 80Gi}\n    taints: [{key: k, effect: NoSchedule}]\n";
static const char v1beta1_slice[] =
    "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: s}\n"
    "spec:\n  driver: gpu.nvidia.com\n  pool: {name: n, generation: 1, resourceSliceCount: 1}\n  nodeName: n\n"
    "  devices:\n  - name: gpu-0\n    basic:\n      attributes:\n        type: {string: gpu}\n"
    "        driverVersion: {version: 580.95.5}\n      capacity:\n        memory: {value: 80Gi}\n"
    "      taints: [{key: k, effect: NoSchedule}]\n";

/* The slice as YAML text (the emitter's canonical form). */
static void slice_text(const char *src, strbuf *out) {
    k8s_objects o;
    strbuf err = {0};
    k8s_objects_init(&o);
    if (k8s_decode_mem(&o, "in.yaml", src, strlen(src), &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(o.slices.len, 1);
    arena a = {0};
    ydump(out, k8s_resource_slice_to_yaml(&a, o.slices.data[0]));
    arena_free(&a);
    k8s_objects_free(&o);
    sb_free(&err);
}

static void test_slice_versions_agree(void **state) {
    (void)state;
    strbuf a = {0}, b = {0}, c = {0};
    slice_text(v1_slice, &a);
    slice_text(v1beta1_slice, &b);
    char v1beta2[sizeof v1_slice + 8];
    snprintf(v1beta2, sizeof v1beta2, "apiVersion: resource.k8s.io/v1beta2%s", strchr(v1_slice, '\n'));
    slice_text(v1beta2, &c);
    assert_string_equal(sb_str(&a), sb_str(&b));
    assert_string_equal(sb_str(&a), sb_str(&c));
    assert_non_null(strstr(sb_str(&a), "driverVersion"));
    sb_free(&a);
    sb_free(&b);
    sb_free(&c);
}

/* v1beta1 requests: the exactly-fields move into `exactly`. */
static void test_claim_request(void **state) {
    (void)state;
    static const char src[] =
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c, namespace: d}\n"
        "spec:\n  devices:\n    requests:\n    - name: r\n      deviceClassName: gpu.nvidia.com\n      count: 2\n"
        "      allocationMode: ExactCount\n";
    k8s_objects o;
    strbuf err = {0};
    k8s_objects_init(&o);
    if (k8s_decode_mem(&o, "in.yaml", src, strlen(src), &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(o.claims.len, 1);
    const k8s_device_request *r = &o.claims.data[0]->spec.requests[0];
    assert_string_equal(r->name, "r");
    assert_true(r->has_exactly);
    assert_string_equal(r->exactly.device_class_name, "gpu.nvidia.com");
    assert_int_equal(r->exactly.count, 2);
    k8s_objects_free(&o);
    sb_free(&err);
}

/* An error inside `basic` points at its line and column. */
static void test_error_positions(void **state) {
    (void)state;
    static const char src[] =
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: s}\n"
        "spec:\n  driver: gpu.nvidia.com\n  pool: {name: n, resourceSliceCount: 1}\n  nodeName: n\n"
        "  devices:\n  - name: gpu-0\n    basic:\n      capacity:\n        memory: {value: 12XB}\n";
    k8s_objects o;
    strbuf err = {0};
    k8s_objects_init(&o);
    assert_int_equal(k8s_decode_mem(&o, "in.yaml", src, strlen(src), &err), -1);
    if (!strstr(sb_str(&err), "in.yaml:12:25:") || !strstr(sb_str(&err), "invalid quantity"))
        fail_msg("%s", sb_str(&err));
    k8s_objects_free(&o);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_versions_agree),
        cmocka_unit_test(test_claim_request),
        cmocka_unit_test(test_error_positions),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
