/*
 * kueue_config.c -- the parts of Kueue's Configuration (config.kueue.x-k8s.io
 * v1beta1 and v1beta2, kubernetes-sigs/kueue ff69552e79
 * apis/config/v1beta2/configuration_types.go) that drasim models:
 *
 *   apiVersion: config.kueue.x-k8s.io/v1beta2
 *   kind: Configuration
 *   fairSharing:
 *     preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
 *   resources:
 *     deviceClassMappings:             # DRA claims charged against quota
 *     - {name: example.com/gpu, deviceClassNames: [gpu.nvidia.com]}
 *     - name: gpu.memory               # counter quota of partitionable devices (MIG)
 *       deviceClassNames: [mig.nvidia.com]
 *       sources: [{counter: {name: memory, driver: gpu.nvidia.com,
 *                  deviceSelector: {cel: {expression: "device.driver == 'gpu.nvidia.com'"}}}}]
 *   featureGates: {KueueDRAIntegrationPartitionableDevices: true}   # read: these, ConsumableCapacity, AdmissionFairSharing
 *   waitForPodsReady:                  # v1beta2: on even when absent (30 min)
 *     timeout: 10m
 *     blockAdmission: false
 *     recoveryTimeout: 10m
 *     requeuingStrategy: {timestamp: Eviction, backoffLimitCount: 5,
 *                         backoffBaseSeconds: 60, backoffMaxSeconds: 3600}
 *
 * v1beta2 turns fair sharing on by the presence of `fairSharing`; v1beta1 by
 * `enable: true` (both forms are read). Other keys of the Configuration
 * (namespace, integrations, ...) are accepted and ignored: they do not
 * change admission. The same `fairSharing` map is a scenario's
 * queues.fairSharing (model/scenario_queues.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cel/cel.h"
#include "model/k8s_decode_internal.h"
#include "model/kueue.h"
#include "model/scenario.h"
#include "util/intern.h"

int kq_decode_fair_sharing(kq_config *c, const ynode *fs, bool default_on, strbuf *err) {
    static const char *const keys[] = {"enable", "preemptionStrategies", NULL};
    if (y_expect(fs, YN_MAP, "fairSharing", err) || ymap_check_keys(fs, keys, "fairSharing", err)) return -1;
    bool on = default_on;
    const ynode *v;
    if ((v = ymap_get(fs, "enable")) && y_bool(v, "fairSharing.enable", &on, err)) return -1;
    c->fair_sharing = on;
    c->where = fs;
    /* Kueue's default (v1beta1 defaults.go): both strategies */
    c->fs_strategies[0] = KQ_FS_LE_FINAL;
    c->fs_strategies[1] = KQ_FS_LT_INITIAL;
    c->nfs_strategies = 2;
    if (!(v = ymap_get(fs, "preemptionStrategies"))) return 0;
    if (y_expect(v, YN_SEQ, "fairSharing.preemptionStrategies", err)) return -1;
    kq_fs_strategy got[2] = {0};
    bool ok = v->n >= 1 && v->n <= 2;
    for (size_t i = 0; ok && i < v->n; i++) {
        if (y_scalar_eq(v->vals[i], "LessThanOrEqualToFinalShare")) got[i] = KQ_FS_LE_FINAL;
        else if (y_scalar_eq(v->vals[i], "LessThanInitialShare")) got[i] = KQ_FS_LT_INITIAL;
        else ok = false;
    }
    if (ok && v->n == 2) ok = got[0] == KQ_FS_LE_FINAL && got[1] == KQ_FS_LT_INITIAL;
    if (!ok) {
        yerr(err, v, "fairSharing.preemptionStrategies: supported values: [LessThanOrEqualToFinalShare], "
                     "[LessThanInitialShare], [LessThanOrEqualToFinalShare, LessThanInitialShare]");
        return -1;
    }
    memcpy(c->fs_strategies, got, sizeof got);
    c->nfs_strategies = v->n;
    return 0;
}

const char *kq_dc_resource(const kq_config *c, const char *device_class) {
    for (size_t i = 0; i < c->ndc_mappings; i++)
        if (!strcmp(c->dc_mappings[i].device_class, device_class)) return c->dc_mappings[i].resource;
    return NULL;
}

/* Feature gates of the Configuration's `featureGates` map that change what
 * drasim models (pkg/features/kube_features.go at ff69552e79: counter
 * sources beta and on since v0.19, capacity sources alpha and off;
 * AdmissionFairSharing beta and on since v0.15). */
typedef struct dra_gates {
    bool partitionable, consumable;
    bool afs;                          /* AdmissionFairSharing: beta and on since v0.15 */
} dra_gates;

static int decode_gates(const ynode *root, dra_gates *g, strbuf *err) {
    *g = (dra_gates){.partitionable = true, .consumable = false, .afs = true};
    const ynode *m = ymap_get(root, "featureGates");
    if (!m || y_is_null(m)) return 0;
    if (y_expect(m, YN_MAP, "featureGates", err)) return -1;
    const ynode *v;
    if ((v = ymap_get(m, "KueueDRAIntegrationPartitionableDevices")) &&
        y_bool(v, "featureGates.KueueDRAIntegrationPartitionableDevices", &g->partitionable, err))
        return -1;
    if ((v = ymap_get(m, "AdmissionFairSharing")) && y_bool(v, "featureGates.AdmissionFairSharing", &g->afs, err))
        return -1;
    if ((v = ymap_get(m, "KueueDRAIntegrationConsumableCapacity")) &&
        y_bool(v, "featureGates.KueueDRAIntegrationConsumableCapacity", &g->consumable, err))
        return -1;
    return 0;
}

/* One counter source (validation.go validateDeviceClassMappings,
 * validateDeviceClassSource): name a DNS label, driver a DNS subdomain of at
 * most 63 characters, deviceSelector.cel.expression set and compiling. */
static int decode_counter(const ynode *c, kq_dc_counter *out, strbuf *err) {
    static const char *const keys[] = {"name", "driver", "deviceSelector", NULL};
    if (y_expect(c, YN_MAP, "sources[].counter", err) || ymap_check_keys(c, keys, "sources[].counter", err)) return -1;
    const ynode *v;
    *out = (kq_dc_counter){.where = c};
    if (ymap_need(c, "name", "sources[].counter", &v, err) || y_str(v, "counter.name", &out->name, err)) return -1;
    if (!k8s_is_dns_label(out->name)) {
        yerr(err, v, "deviceClassMappings: sources[].counter.name: Invalid value: \"%s\": must be a DNS label", out->name);
        return -1;
    }
    if (ymap_need(c, "driver", "sources[].counter", &v, err) || y_str(v, "counter.driver", &out->driver, err)) return -1;
    if (strlen(out->driver) > 63 || !k8s_is_dns_subdomain(out->driver)) {
        yerr(err, v, "deviceClassMappings: sources[].counter.driver: Invalid value: \"%s\": must be a DNS subdomain "
                     "of at most 63 characters", out->driver);
        return -1;
    }
    const ynode *sel = ymap_get(c, "deviceSelector"), *cel = sel ? ymap_get(sel, "cel") : NULL,
                *e = cel && cel->kind == YN_MAP ? ymap_get(cel, "expression") : NULL;
    if (!e || e->kind != YN_SCALAR || !e->len) {
        yerr(err, sel ? sel : c, "deviceClassMappings: sources[].counter.deviceSelector.cel.expression: Required value");
        return -1;
    }
    cel_options o = {.device_env = true};
    strbuf why = {0};
    cel_program *p = cel_compile(e->str, e->len, &o, &why);
    if (!p) {
        yerr(err, e, "deviceClassMappings: sources[].counter.deviceSelector.cel.expression: CEL compilation failed: %s",
             why.len ? sb_str(&why) : "?");
        sb_free(&why);
        return -1;
    }
    cel_program_free(p);
    sb_free(&why);
    out->selector = intern_n(e->str, e->len);
    return 0;
}

/* A mapping's `sources`: counter sources kept, capacity sources refused
 * (Kueue refuses them unless KueueDRAIntegrationConsumableCapacity is on;
 * drasim does not model them when it is). */
static int decode_sources(kq_objects *o, const ynode *src, const dra_gates *g, kq_dc_counter **out, size_t *n,
                          strbuf *err) {
    *out = NULL;
    *n = 0;
    if (!src || y_is_null(src)) return 0;
    if (y_expect(src, YN_SEQ, "deviceClassMappings sources", err)) return -1;
    *out = ARENA_NEW(&o->a, kq_dc_counter, src->n ? src->n : 1);
    for (size_t i = 0; i < src->n; i++) {
        static const char *const keys[] = {"counter", "capacity", NULL};
        const ynode *e = src->vals[i];
        if (y_expect(e, YN_MAP, "sources entry", err) || ymap_check_keys(e, keys, "sources entry", err)) return -1;
        const ynode *c = ymap_get(e, "counter"), *cap = ymap_get(e, "capacity");
        if (c && y_is_null(c)) c = NULL;
        if (cap && y_is_null(cap)) cap = NULL;
        if (!c == !cap) {
            yerr(err, e, "deviceClassMappings: sources[%zu]: exactly one source type must be set per entry", i);
            return -1;
        }
        if (cap) {
            if (!g->consumable)
                yerr(err, cap, "deviceClassMappings: sources[%zu].capacity: capacity sources require "
                               "KueueDRAIntegrationConsumableCapacity to be enabled", i);
            else
                yerr(err, cap, "deviceClassMappings: sources[%zu].capacity: capacity quota (consumable capacity, "
                               "KueueDRAIntegrationConsumableCapacity, alpha) is not modelled by drasim", i);
            return -1;
        }
        if (!g->partitionable) {
            yerr(err, c, "deviceClassMappings: sources[%zu].counter: counter sources require "
                         "KueueDRAIntegrationPartitionableDevices to be enabled", i);
            return -1;
        }
        if (decode_counter(c, &(*out)[(*n)++], err)) return -1;
    }
    return 0;
}

/* resources.deviceClassMappings (pkg/config/validation.go
 * validateDeviceClassMappings: names set, a DeviceClass in one mapping
 * unless every mapping of it has a counter source of its own counter name;
 * pkg/dra/mapper.go PopulateFromConfiguration). */
static int decode_dc_mappings(kq_objects *o, const ynode *res, const dra_gates *g, strbuf *err) {
    static const char *const rkeys[] = {"deviceClassMappings", "transformations", "excludeResourcePrefixes", NULL};
    if (y_expect(res, YN_MAP, "resources", err) || ymap_check_keys(res, rkeys, "resources", err)) return -1;
    const ynode *m = ymap_get(res, "deviceClassMappings");
    if (!m || y_is_null(m)) return 0;
    if (y_expect(m, YN_SEQ, "resources.deviceClassMappings", err)) return -1;
    size_t total = 0;
    for (size_t i = 0; i < m->n; i++) {
        static const char *const keys[] = {"name", "deviceClassNames", "sources", NULL};
        const ynode *e = m->vals[i], *dc;
        if (y_expect(e, YN_MAP, "deviceClassMappings entry", err) || ymap_check_keys(e, keys, "deviceClassMappings entry", err) ||
            ymap_need(e, "deviceClassNames", "deviceClassMappings entry", &dc, err) ||
            y_expect(dc, YN_SEQ, "deviceClassNames", err))
            return -1;
        total += dc->n;
    }
    o->config.dc_mappings = ARENA_NEW(&o->a, kq_dc_mapping, total ? total : 1);
    for (size_t i = 0; i < m->n; i++) {
        const ynode *e = m->vals[i], *nm, *dc = ymap_get(m->vals[i], "deviceClassNames");
        const char *res;
        if (ymap_need(e, "name", "deviceClassMappings entry", &nm, err) || y_str(nm, "deviceClassMappings name", &res, err))
            return -1;
        if (!*res) { yerr(err, nm, "deviceClassMappings name: must not be empty"); return -1; }
        kq_dc_counter *ctr;
        size_t nctr;
        if (decode_sources(o, ymap_get(e, "sources"), g, &ctr, &nctr, err)) return -1;
        const char *cname = nctr ? ctr[0].name : NULL;   /* counterNameForMapping: the first source's */
        for (size_t k = 0; k < dc->n; k++) {
            const char *cls;
            if (y_str(dc->vals[k], "deviceClassNames entry", &cls, err)) return -1;
            for (size_t j = 0; j < o->config.ndc_mappings; j++) {
                const kq_dc_mapping *x = &o->config.dc_mappings[j];
                if (strcmp(x->device_class, cls)) continue;
                if (!strcmp(x->resource, res)) {
                    yerr(err, dc->vals[k], "deviceClassMappings: DeviceClass '%s' is mapped twice", cls);
                    return -1;
                }
                if (!cname || !x->ncounters) {
                    yerr(err, dc->vals[k], "deviceClassMappings: DeviceClass '%s': device class already mapped to resource %s",
                         cls, x->resource);
                    return -1;
                }
                if (!strcmp(x->counters[0].name, cname)) {
                    yerr(err, dc->vals[k], "deviceClassMappings: DeviceClass '%s': device class already has a counter "
                                           "source for counter \"%s\"", cls, cname);
                    return -1;
                }
            }
            o->config.dc_mappings[o->config.ndc_mappings++] = (kq_dc_mapping){cls, res, ctr, nctr};
        }
    }
    return 0;
}

/* A non-negative int32 (Kueue's *int32 fields; validation.go: not negative). */
static int nonneg_int(const ynode *m, const char *key, int64_t *out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    if (!v || y_is_null(v)) return 0;
    char what[64];
    snprintf(what, sizeof what, "requeuingStrategy.%s", key);
    if (y_int(v, what, out, err)) return -1;
    if (*out < 0 || *out > INT32_MAX) {
        yerr(err, v, "waitForPodsReady.%s: must be between 0 and %d", what, INT32_MAX);
        return -1;
    }
    return 0;
}

/* A duration field of waitForPodsReady (Go's metav1.Duration text); false
 * when absent. Negative durations cannot be written in drasim's form. */
static int wfpr_duration(const ynode *m, const char *key, int64_t *out, bool *given, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    *given = v && !y_is_null(v);
    if (!*given) return 0;
    char what[64];
    snprintf(what, sizeof what, "waitForPodsReady.%s", key);
    return scenario_parse_duration(v, what, out, err);
}

/* waitForPodsReady with Kueue's defaults and validation (pkg/config/validation.go
 * validateWaitForPodsReady). `m` NULL: the defaults of a v1beta2 Configuration. */
static int decode_wait_ready(kq_wait_ready *w, const ynode *m, bool v1beta1, strbuf *err) {
    *w = (kq_wait_ready){.on = !v1beta1, .timeout_ms = 30 * 60 * 1000, .backoff_limit = -1,
                         .backoff_base_s = 60, .backoff_max_s = 3600};
    if (!m || y_is_null(m)) {
        w->recovery_ms = w->timeout_ms;
        return 0;
    }
    static const char *const keys1[] = {"enable", "timeout", "blockAdmission", "requeuingStrategy", "recoveryTimeout", NULL};
    const char *const *keys = v1beta1 ? keys1 : keys1 + 1;   /* v1beta2 has no `enable` */
    if (y_expect(m, YN_MAP, "waitForPodsReady", err) || ymap_check_keys(m, keys, "waitForPodsReady", err)) return -1;
    const ynode *v;
    if ((v = ymap_get(m, "enable")) && y_bool(v, "waitForPodsReady.enable", &w->on, err)) return -1;
    w->block_admission = v1beta1 && w->on;   /* v1beta1 defaults.go: blockAdmission = enable */
    if ((v = ymap_get(m, "blockAdmission")) && y_bool(v, "waitForPodsReady.blockAdmission", &w->block_admission, err))
        return -1;
    bool given;
    int64_t t = 0;
    if (wfpr_duration(m, "timeout", &t, &given, err)) return -1;
    if (given && t > 0) w->timeout_ms = t;
    else if (given && v1beta1 && w->on) {   /* v1beta1 keeps an explicit 0: "must be specified" */
        yerr(err, ymap_get(m, "timeout"), "waitForPodsReady.timeout: must be specified (greater than 0)");
        return -1;
    }   /* v1beta2 defaults a zero timeout to 30 min */
    w->recovery_ms = w->timeout_ms;
    if (wfpr_duration(m, "recoveryTimeout", &t, &given, err)) return -1;
    if (given) w->recovery_ms = t;
    const ynode *rs = ymap_get(m, "requeuingStrategy");
    if (!rs || y_is_null(rs)) return 0;
    static const char *const rkeys[] = {"timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds", NULL};
    if (y_expect(rs, YN_MAP, "waitForPodsReady.requeuingStrategy", err) ||
        ymap_check_keys(rs, rkeys, "waitForPodsReady.requeuingStrategy", err))
        return -1;
    if ((v = ymap_get(rs, "timestamp")) && !y_is_null(v)) {
        if (y_scalar_eq(v, "Creation")) w->creation_timestamp = true;
        else if (!y_scalar_eq(v, "Eviction")) {
            yerr(err, v, "waitForPodsReady.requeuingStrategy.timestamp: supported values: \"Creation\", \"Eviction\"");
            return -1;
        }
    }
    if (nonneg_int(rs, "backoffLimitCount", &w->backoff_limit, err) ||
        nonneg_int(rs, "backoffBaseSeconds", &w->backoff_base_s, err) ||
        nonneg_int(rs, "backoffMaxSeconds", &w->backoff_max_s, err))
        return -1;
    return 0;
}

/* admissionFairSharing (configuration_types.go AdmissionFairSharing,
 * defaults.go: usageSamplingInterval 5 min; on when present, as the feature
 * gate AdmissionFairSharing is beta and on). Weights must not be negative. */
static int decode_afs(kq_objects *o, const ynode *m, strbuf *err) {
    kq_afs_config *a = &o->config.afs;
    static const char *const keys[] = {"usageHalfLifeTime", "usageSamplingInterval", "resourceWeights", NULL};
    if (y_expect(m, YN_MAP, "admissionFairSharing", err) || ymap_check_keys(m, keys, "admissionFairSharing", err)) return -1;
    *a = (kq_afs_config){.on = true, .sampling_ms = 5 * 60 * 1000};
    const ynode *v;
    if ((v = ymap_get(m, "usageHalfLifeTime")) && !y_is_null(v) &&
        scenario_parse_duration(v, "admissionFairSharing.usageHalfLifeTime", &a->half_life_ms, err))
        return -1;
    int64_t t = 0;
    if ((v = ymap_get(m, "usageSamplingInterval")) && !y_is_null(v)) {
        if (scenario_parse_duration(v, "admissionFairSharing.usageSamplingInterval", &t, err)) return -1;
        if (t > 0) a->sampling_ms = t;   /* cmp.Or: 0 takes the default */
    }
    if (!(v = ymap_get(m, "resourceWeights")) || y_is_null(v)) return 0;
    if (y_expect(v, YN_MAP, "admissionFairSharing.resourceWeights", err)) return -1;
    a->weight_names = ARENA_NEW(&o->a, const char *, v->n ? v->n : 1);
    a->weights = ARENA_NEW(&o->a, double, v->n ? v->n : 1);
    for (size_t i = 0; i < v->n; i++) {
        double w;
        if (y_str(v->keys[i], "resourceWeights key", &a->weight_names[i], err) ||
            y_double(v->vals[i], "admissionFairSharing.resourceWeights", &w, err))
            return -1;
        if (!(w >= 0)) {
            yerr(err, v->vals[i], "admissionFairSharing.resourceWeights: must not be negative");
            return -1;
        }
        a->weights[i] = w;
    }
    a->nweights = v->n;
    return 0;
}

int kq_decode_configuration(kq_objects *o, const ynode *root, bool v1beta1, strbuf *err) {
    if (o->config.where) {
        yerr(err, root, "a second Kueue Configuration (the first at line %d)", o->config.where->line);
        return -1;
    }
    o->config.where = root;
    const ynode *fs = ymap_get(root, "fairSharing");
    if (fs && !y_is_null(fs) && kq_decode_fair_sharing(&o->config, fs, !v1beta1, err)) return -1;
    dra_gates gates;
    if (decode_gates(root, &gates, err)) return -1;
    const ynode *res = ymap_get(root, "resources");
    if (res && !y_is_null(res) && decode_dc_mappings(o, res, &gates, err)) return -1;
    if (decode_wait_ready(&o->config.wait_ready, ymap_get(root, "waitForPodsReady"), v1beta1, err)) return -1;
    const ynode *afs = ymap_get(root, "admissionFairSharing");
    if (afs && !y_is_null(afs) && decode_afs(o, afs, err)) return -1;
    if (!gates.afs) o->config.afs.on = false;   /* admissionfairsharing.Enabled: config and feature gate */
    o->config.where = root;
    return 0;
}
