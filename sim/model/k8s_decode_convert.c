/*
 * k8s_decode_convert.c -- resource.k8s.io/v1beta1 and v1beta2 objects read as
 * resource.k8s.io/v1, converted as the API server converts them, by
 * rewriting the YAML tree before the v1 decoder sees it (nodes keep their
 * positions, so errors still point into the file).
 *
 * Sources (Kubernetes v1.34-v1.36, as vendored by NVIDIA/k8s-dra-driver-gpu
 * v0.4.0 under k8s.io/dynamic-resource-allocation/api/{v1beta1,v1beta2}/
 * conversion.go and zz_generated.conversion.go):
 *  - v1beta2 -> v1: field for field (v1 is v1beta2 promoted): nothing to do;
 *  - v1beta1 Device -> v1 Device (Convert_v1beta1_Device_To_v1_Device): the
 *    fields of `basic` (attributes, capacity, consumesCounters, nodeName,
 *    nodeSelector, allNodes, taints, bindsToNode, binding*Conditions,
 *    allowMultipleAllocations, nodeAllocatableResourceMappings) move up to
 *    the device;
 *  - v1beta1 DeviceRequest -> v1 (Convert_v1beta1_DeviceRequest_To_v1_DeviceRequest):
 *    when any of deviceClassName, selectors, allocationMode, count,
 *    adminAccess, tolerations, capacity is set, they move into `exactly`;
 *    name and firstAvailable stay;
 *  - DeviceClass: identical in the three versions.
 */
#include <string.h>

#include "model/k8s_decode_internal.h"

/* A map node like `like` (same position) with room for n entries. */
static ynode *new_map(arena *a, const ynode *like, size_t n) {
    ynode *m = ARENA_NEW(a, ynode, 1);
    *m = *like;
    m->kind = YN_MAP;
    m->keys = ARENA_NEW(a, ynode *, n ? n : 1);
    m->vals = ARENA_NEW(a, ynode *, n ? n : 1);
    m->n = 0;
    m->cap = n;
    return m;
}

static void put(ynode *m, ynode *k, ynode *v) {
    m->keys[m->n] = k;
    m->vals[m->n++] = v;
}

/* A copy of map `m` whose value under `key` is `val`. */
static ynode *with(arena *a, const ynode *m, const char *key, ynode *val) {
    ynode *c = new_map(a, m, m->n);
    for (size_t i = 0; i < m->n; i++) put(c, m->keys[i], y_scalar_eq(m->keys[i], key) ? val : m->vals[i]);
    return c;
}

/* A copy of list `l` with every item passed through f. */
static ynode *each(arena *a, const ynode *l, ynode *(*f)(arena *, ynode *)) {
    ynode *c = ARENA_NEW(a, ynode, 1);
    *c = *l;
    c->vals = ARENA_NEW(a, ynode *, l->n ? l->n : 1);
    for (size_t i = 0; i < l->n; i++) c->vals[i] = f(a, l->vals[i]);
    return c;
}

/* {name, basic: {...}} -> {name, ...}; anything malformed is left for the decoder. */
static ynode *device_v1(arena *a, ynode *dev) {
    if (!dev || dev->kind != YN_MAP) return dev;
    const ynode *basic = ymap_get(dev, "basic");
    size_t extra = basic && basic->kind == YN_MAP ? basic->n : 0;
    ynode *c = new_map(a, dev, dev->n + extra);
    for (size_t i = 0; i < dev->n; i++) {
        if (y_scalar_eq(dev->keys[i], "basic") && basic && basic->kind == YN_MAP) {
            for (size_t j = 0; j < basic->n; j++) put(c, basic->keys[j], basic->vals[j]);
        } else if (!y_scalar_eq(dev->keys[i], "basic") || !y_is_null(dev->vals[i])) {
            put(c, dev->keys[i], dev->vals[i]);
        }
    }
    return c;
}

static ynode *slice_v1(arena *a, ynode *root) {
    const ynode *spec = ymap_get(root, "spec"), *devs = spec && spec->kind == YN_MAP ? ymap_get(spec, "devices") : NULL;
    if (!devs || devs->kind != YN_SEQ) return root;
    return with(a, root, "spec", with(a, spec, "devices", each(a, devs, device_v1)));
}

static bool exact_field(const ynode *k) {
    static const char *const f[] = {"deviceClassName", "selectors", "allocationMode", "count", "adminAccess",
                                    "tolerations", "capacity", NULL};
    for (size_t i = 0; f[i]; i++)
        if (y_scalar_eq(k, f[i])) return true;
    return false;
}

static ynode *request_v1(arena *a, ynode *req) {
    if (!req || req->kind != YN_MAP) return req;
    size_t moved = 0;
    for (size_t i = 0; i < req->n; i++) moved += exact_field(req->keys[i]);
    if (!moved) return req;
    ynode *c = new_map(a, req, req->n - moved + 1), *ex = new_map(a, req, moved);
    ynode *key = ARENA_NEW(a, ynode, 1);
    *key = (ynode){.kind = YN_SCALAR, .plain = true, .str = "exactly", .len = 7, .file = req->file,
                   .line = req->line, .col = req->col};
    for (size_t i = 0; i < req->n; i++) put(exact_field(req->keys[i]) ? ex : c, req->keys[i], req->vals[i]);
    put(c, key, ex);
    return c;
}

/* claim spec: {devices: {requests: [...]}} */
static ynode *claim_spec_v1(arena *a, const ynode *spec) {
    const ynode *devs = spec && spec->kind == YN_MAP ? ymap_get(spec, "devices") : NULL;
    const ynode *reqs = devs && devs->kind == YN_MAP ? ymap_get(devs, "requests") : NULL;
    if (!reqs || reqs->kind != YN_SEQ) return NULL;
    return with(a, spec, "devices", with(a, devs, "requests", each(a, reqs, request_v1)));
}

const ynode *k8s_convert_to_v1(arena *a, const ynode *root, const char *api, const char *kind) {
    if (strcmp(api, "resource.k8s.io/v1beta1") != 0) return root;   /* v1beta2: same shape as v1 */
    ynode *r = (ynode *)root;
    if (!strcmp(kind, "ResourceSlice")) return slice_v1(a, r);
    const ynode *spec = ymap_get(root, "spec");
    if (!spec || spec->kind != YN_MAP) return root;
    if (!strcmp(kind, "ResourceClaim")) {
        ynode *s = claim_spec_v1(a, spec);
        return s ? with(a, root, "spec", s) : root;
    }
    if (!strcmp(kind, "ResourceClaimTemplate")) {
        const ynode *inner = ymap_get(spec, "spec");
        ynode *s = claim_spec_v1(a, inner);
        return s ? with(a, root, "spec", with(a, spec, "spec", s)) : root;
    }
    return root;
}
