/* test_k8s_decode.c -- decoding Kubernetes objects: fields, defaults, Lists,
 * validation limits and error positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/k8s_decode.h"
#include "util/intern.h"

static int decode(k8s_objects *o, const char *src, strbuf *err) {
    k8s_objects_init(o);
    return k8s_decode_mem(o, "in.yaml", src, strlen(src), err);
}

/* Decoding must fail with a message containing every given fragment. */
static void expect_error(const char *src, const char *frag1, const char *frag2) {
    k8s_objects o;
    strbuf err = {0};
    assert_int_equal(decode(&o, src, &err), -1);
    if (!strstr(sb_str(&err), frag1) || (frag2 && !strstr(sb_str(&err), frag2)))
        fail_msg("error '%s' lacks '%s' / '%s'", sb_str(&err), frag1, frag2 ? frag2 : "");
    sb_free(&err);
    k8s_objects_free(&o);
}

static const char *slice_src =
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceSlice\n"
    "metadata: {name: s1}\n"
    "spec:\n"
    "  driver: gpu.example.com\n"
    "  pool: {name: p1, generation: 3, resourceSliceCount: 2}\n"
    "  nodeName: n1\n"
    "  devices:\n"
    "  - name: gpu-0\n"
    "    attributes:\n"
    "      model: {string: H100}\n"
    "      numa: {int: 1}\n"
    "      other.io/fast: {bool: true}\n"
    "      driverVersion: {version: 1.2.3}\n"
    "    capacity:\n"
    "      memory: {value: 80Gi}\n"
    "    taints:\n"
    "    - {key: k, value: v, effect: NoExecute}\n";

static void test_slice_fields(void **state) {
    k8s_objects o;
    strbuf err = {0};
    assert_int_equal(decode(&o, slice_src, &err), 0);
    assert_int_equal(o.slices.len, 1);
    const k8s_resource_slice *s = o.slices.data[0];
    assert_ptr_equal(s->driver, intern("gpu.example.com"));
    assert_int_equal(s->generation, 3);
    assert_int_equal(s->slice_count, 2);
    assert_ptr_equal(s->node_name, intern("n1"));
    assert_int_equal(s->ndevices, 1);
    const k8s_device *d = &s->devices[0];
    assert_int_equal(d->nattrs, 4);
    assert_ptr_equal(d->attrs[0].domain, intern("gpu.example.com"));   /* bare name: driver domain */
    assert_ptr_equal(d->attrs[0].id, intern("model"));
    assert_int_equal(d->attrs[0].kind, ATTR_STRING);
    assert_int_equal(d->attrs[1].kind, ATTR_INT);
    assert_int_equal(d->attrs[1].i, 1);
    assert_ptr_equal(d->attrs[2].domain, intern("other.io"));
    assert_true(d->attrs[2].b);
    assert_int_equal(d->attrs[3].kind, ATTR_VERSION);
    assert_true(d->attrs[3].v_ok);
    assert_int_equal(d->attrs[3].v.minor, 2);
    quantity want;
    const char *e;
    assert_int_equal(quantity_parse("80Gi", 4, &want, &e), 0);
    assert_int_equal(quantity_cmp(&d->caps[0].value, &want), 0);
    assert_int_equal(d->ntaints, 1);
    assert_int_equal(d->taints[0].effect, TAINT_NO_EXECUTE);
    k8s_objects_free(&o);
    sb_free(&err);
}

static void test_claim_defaults_and_list(void **state) {
    const char *src =
        "apiVersion: v1\nkind: List\nitems:\n"
        "- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: gpu}\n"
        "  spec: {selectors: [{cel: {expression: 'device.driver == \"x\"'}}]}\n"
        "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n  metadata: {name: c1, namespace: ns}\n"
        "  spec:\n    devices:\n      requests:\n      - name: r0\n        exactly: {deviceClassName: gpu}\n"
        "      - name: r1\n        firstAvailable:\n        - {name: a, deviceClassName: gpu, allocationMode: All}\n"
        "        - {name: b, deviceClassName: gpu, count: 2}\n"
        "      constraints:\n      - {matchAttribute: x.io/numa}\n"
        "- apiVersion: v1\n  kind: Node\n  metadata: {name: n1, labels: {zone: a}}\n";
    k8s_objects o;
    strbuf err = {0};
    assert_int_equal(decode(&o, src, &err), 0);
    assert_int_equal(o.all.len, 3);
    assert_int_equal(o.all.data[0].kind, K8S_DEVICE_CLASS);
    assert_int_equal(o.classes.data[0]->nselectors, 1);
    const k8s_resource_claim *c = o.claims.data[0];
    assert_ptr_equal(c->meta.namespace_, intern("ns"));
    assert_int_equal(c->spec.nrequests, 2);
    assert_true(c->spec.requests[0].has_exactly);
    assert_int_equal(c->spec.requests[0].exactly.mode, ALLOC_MODE_EXACT_COUNT);
    assert_int_equal(c->spec.requests[0].exactly.count, 1);   /* default */
    assert_int_equal(c->spec.requests[1].nfirst_available, 2);
    assert_int_equal(c->spec.requests[1].first_available[0].mode, ALLOC_MODE_ALL);
    assert_int_equal(c->spec.requests[1].first_available[1].count, 2);
    assert_int_equal(c->spec.constraints[0].kind, CONSTRAINT_MATCH);
    assert_ptr_equal(k8s_find_node(&o, "n1")->meta.labels[0].value, intern("a"));
    assert_non_null(k8s_find_class(&o, "gpu"));
    assert_null(k8s_find_class(&o, "nope"));
    k8s_objects_free(&o);
    sb_free(&err);
}

static void test_allocation_status(void **state) {
    const char *src =
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
        "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: g}}]}}\n"
        "status:\n  allocation:\n    devices:\n      results:\n"
        "      - {request: r, driver: d, pool: p, device: x, shareID: 11111111-2222-4333-8444-555555555555,\n"
        "         consumedCapacity: {memory: 1Gi}}\n"
        "    nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n]}]}]}\n";
    k8s_objects o;
    strbuf err = {0};
    assert_int_equal(decode(&o, src, &err), 0);
    const k8s_resource_claim *c = o.claims.data[0];
    assert_true(c->allocated);
    assert_int_equal(c->allocation.nresults, 1);
    assert_non_null(c->allocation.results[0].share_id);
    assert_int_equal(c->allocation.results[0].nconsumed, 1);
    assert_true(c->allocation.has_node_selector);
    assert_int_equal(c->allocation.node_selector.terms[0].nmatch_fields, 1);
    k8s_objects_free(&o);
    sb_free(&err);
}

static void test_template_and_pod(void **state) {
    const char *src =
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t}\n"
        "spec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: g, count: 3}}]}}}\n"
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
        "spec:\n  containers:\n  - {name: a, resources: {requests: {cpu: 500m}}}\n"
        "  - {name: b, resources: {requests: {cpu: '1'}, limits: {memory: 1Gi}}}\n"
        "  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]\n"
        "  tolerations: [{operator: Exists}]\n";
    k8s_objects o;
    strbuf err = {0};
    assert_int_equal(decode(&o, src, &err), 0);
    assert_int_equal(o.templates.data[0]->spec.requests[0].exactly.count, 3);
    const k8s_pod *p = o.pods.data[0];
    assert_int_equal(p->nrequests, 2);
    assert_int_equal(quantity_milli_value(&p->requests[0].value), 1500);   /* 500m + 1 */
    assert_ptr_equal(p->claims[0].template_name, intern("t"));
    assert_int_equal(p->tolerations[0].op, TOL_OP_EXISTS);
    k8s_objects_free(&o);
    sb_free(&err);
}

static void test_errors_name_position_object_field(void **state) {
    /* unknown field: file:line:col, object and path */
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                 "spec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
                 "  devices:\n  - name: a\n    colour: red\n",
                 "in.yaml:10:5: unknown field 'colour'", "ResourceSlice s: spec.devices[0]");
    expect_error("apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n", "in.yaml:2:7: unsupported kind 'Secret'", NULL);
    expect_error("apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata: {name: x}\n",
                 "unsupported apiVersion 'resource.k8s.io/v1alpha3' (expected resource.k8s.io/v1, v1beta2 or v1beta1)",
                 NULL);
    expect_error("a: [1, 2\n", "in.yaml:", "invalid YAML");
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                 "spec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
                 "  devices:\n  - name: a\n    capacity: {memory: {value: 12XB}}\n",
                 "in.yaml:10:32:", "invalid quantity '12XB'");
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: Bad_Name}\n",
                 "ResourceClaim Bad_Name", "invalid name");
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                 "spec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n",
                 "exactly one of nodeName", NULL);
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                 "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: g, count: 0}}]}}\n",
                 "spec.devices.requests[0].exactly", "count must be greater than zero");
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                 "spec: {devices: {requests: [{name: r}]}}\n",
                 "exactly one of 'exactly' and 'firstAvailable'", NULL);
}

/* Build a slice with n devices (optionally each with a taint). */
static char *big_slice(int n, bool tainted) {
    strbuf b = {0};
    sb_puts(&b, "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                "spec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n  devices:\n");
    for (int i = 0; i < n; i++) {
        sb_printf(&b, "  - name: dev-%d\n", i);
        if (tainted) sb_puts(&b, "    taints: [{key: k, effect: NoSchedule}]\n");
    }
    return b.s;
}

static void test_limits(void **state) {
    k8s_objects o;
    strbuf err = {0};
    char *ok = big_slice(128, false);
    assert_int_equal(decode(&o, ok, &err), 0);
    k8s_objects_free(&o);
    free(ok);
    char *too_many = big_slice(129, false);
    expect_error(too_many, "spec.devices", "at most 128 items");
    free(too_many);
    char *tainted = big_slice(65, true);
    expect_error(tainted, "at most 64 devices", NULL);
    free(tainted);
    /* 33 requests */
    strbuf b = {0};
    sb_puts(&b, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                "spec:\n  devices:\n    requests:\n");
    for (int i = 0; i < 33; i++) sb_printf(&b, "    - {name: r%d, exactly: {deviceClassName: g}}\n", i);
    expect_error(b.s, "spec.devices.requests", "at most 32 items");
    sb_free(&b);
    expect_error("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                 "spec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n"
                 "  devices:\n  - name: a\n    attributes: {s: {string: "
                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}}\n",
                 "spec.devices[0].attributes.s.string", "longer than 64");
    sb_free(&err);
}

/* Quantities arrive as the API server stores them: canonical text, parsed
 * again. "1.5Gi" written in YAML is 1536Mi, an integer for CEL's isInteger. */
static void test_quantities_canonical(void **state) {
    (void)state;
    k8s_objects o;
    strbuf err = {0};
    const char *src = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                      "spec:\n  driver: d.example.com\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n"
                      "  nodeName: n\n  devices:\n  - name: x\n    capacity:\n"
                      "      memory: {value: 1.5Gi}\n      milli: {value: 1000m}\n";
    assert_int_equal(decode(&o, src, &err), 0);
    const k8s_device *d = &o.slices.data[0]->devices[0];
    assert_int_equal(d->ncaps, 2);
    int64_t v;
    quantity raw;
    const char *msg;
    assert_int_equal(quantity_parse("1.5Gi", 5, &raw, &msg), 0);
    assert_false(quantity_as_int64(&raw, &v));            /* as a literal: not an integer */
    assert_true(quantity_as_int64(&d->caps[0].value, &v)); /* as stored: 1536Mi */
    assert_int_equal(v, 1610612736);
    assert_true(quantity_as_int64(&d->caps[1].value, &v)); /* 1000m is stored as 1 */
    assert_int_equal(v, 1);
    sb_free(&err);
    k8s_objects_free(&o);
}

/* Regression (issue 10): a recorded Node allocatable "1.5" GPUs became 2 and
 * "-2" was accepted. The API server's ValidateResourceQuantityValue: never
 * negative; extended resources (and pods) whole numbers. */
static void test_resource_values_as_api_server(void **state) {
    const char *node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable:\n    %s: \"%s\"\n";
    char src[512];
    snprintf(src, sizeof src, node, "nvidia.com/gpu", "1.5");
    expect_error(src, "in.yaml:6:21: Node n1: status.allocatable.nvidia.com/gpu: invalid value '1.5': must be an integer", NULL);
    snprintf(src, sizeof src, node, "nvidia.com/gpu", "-2");
    expect_error(src, "in.yaml:6:21: Node n1: status.allocatable.nvidia.com/gpu: invalid value '-2': must be greater than or equal to 0", NULL);
    snprintf(src, sizeof src, node, "cpu", "-1");
    expect_error(src, "status.allocatable.cpu: invalid value '-1': must be greater than or equal to 0", NULL);
    snprintf(src, sizeof src, node, "pods", "110.5");
    expect_error(src, "status.allocatable.pods: invalid value '110.5': must be an integer", NULL);
    snprintf(src, sizeof src, node, "example.com/foo", "1001m");
    expect_error(src, "must be an integer", NULL);
    /* fine: fractional cpu and memory (native), whole GPUs written any way, hugepages */
    const char *ok[][2] = {{"cpu", "1.5"}, {"memory", "1.5Gi"}, {"nvidia.com/gpu", "2000m"}, {"nvidia.com/gpu", "8"},
                           {"nvidia.com/mig-1g.10gb", "7"}, {"hugepages-2Mi", "1.5Gi"}, {"kubernetes.io/foo", "0.5"},
                           {"nvidia.com/gpu", "0"}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        snprintf(src, sizeof src, node, ok[i][0], ok[i][1]);
        k8s_objects o;
        strbuf err = {0};
        if (decode(&o, src, &err)) fail_msg("%s: %s refused: %s", ok[i][0], ok[i][1], sb_str(&err));
        sb_free(&err);
        k8s_objects_free(&o);
    }
    /* capacity and pod requests follow the same rule */
    expect_error("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  capacity: {nvidia.com/gpu: 0.5}\n",
                 "status.capacity.nvidia.com/gpu: invalid value '0.5': must be an integer", NULL);
    expect_error("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
                 "    resources: {requests: {nvidia.com/gpu: 1.5}}\n",
                 "in.yaml:7:44: Pod p: spec.containers[0].resources.requests.nvidia.com/gpu: invalid value '1.5': must be an integer", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_fields),
        cmocka_unit_test(test_claim_defaults_and_list),
        cmocka_unit_test(test_allocation_status),
        cmocka_unit_test(test_template_and_pod),
        cmocka_unit_test(test_errors_name_position_object_field),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_quantities_canonical),
        cmocka_unit_test(test_resource_values_as_api_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
