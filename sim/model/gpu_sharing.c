/*
 * gpu_sharing.c -- the NVIDIA DRA driver's sharing settings in a claim's
 * opaque config (see usage.h):
 *
 *   config:
 *   - requests: [gpu]
 *     opaque:
 *       driver: gpu.nvidia.com
 *       parameters:
 *         apiVersion: resource.nvidia.com/v1beta1
 *         kind: GpuConfig                      # or MigDeviceConfig
 *         sharing:
 *           strategy: MPS                      # or TimeSlicing
 *           mpsConfig: {defaultActiveThreadPercentage: 50, defaultPinnedDeviceMemoryLimit: 10Gi}
 *           # TimeSlicing: timeSlicingConfig: {interval: Default|Short|Medium|Long}
 *
 * Checked as NVIDIA/k8s-dra-driver-gpu checks them
 * (api/nvidia.com/resource/v1beta1/{sharing,validate,gpuconfig,migconfig}.go
 * @ 22407113785e78c7763b4637689a201eb39c6199): one strategy, TimeSlicing or
 * MPS (the TimeSlicingSettings / MPSSupport feature gates are taken as on);
 * its config only with its strategy; interval one of four names; the
 * active-thread percentage 0..100; a pinned memory limit of at least 1 MiB
 * (limit.Megabyte() must be > 0); a MigDeviceSharing has no
 * timeSlicingConfig (the driver decodes strictly: an unknown field).
 */
#include <string.h>

#include "cel/quantity.h"
#include "model/k8s.h"
#include "model/usage.h"

static int parse_mps(const ynode *m, gpu_sharing *out, strbuf *err) {
    static const char *const keys[] = {"defaultActiveThreadPercentage", "defaultPinnedDeviceMemoryLimit",
                                       "defaultPerDevicePinnedMemoryLimit", NULL};
    const ynode *v;
    if (y_expect(m, YN_MAP, "mpsConfig", err) || ymap_check_keys(m, keys, "mpsConfig", err)) return -1;
    if ((v = ymap_get(m, "defaultActiveThreadPercentage"))) {
        int64_t p;
        if (y_int(v, "defaultActiveThreadPercentage", &p, err)) return -1;
        if (p < 0) {
            yerr(err, v, "mpsConfig: active thread percentage must not be negative");
            return -1;
        }
        if (p > 100) {
            yerr(err, v, "mpsConfig: active thread percentage must not be greater than 100");
            return -1;
        }
        out->thread_pct = p ? (int)p : 0;
        if (p == 0) out->thread_pct = -1;   /* 0 % given: no threads (kept apart from "not set") */
    }
    if ((v = ymap_get(m, "defaultPinnedDeviceMemoryLimit"))) {
        quantity q;
        const char *qerr;
        if (v->kind != YN_SCALAR || quantity_parse(v->str, v->len, &q, &qerr)) {
            yerr(err, v, "mpsConfig: defaultPinnedDeviceMemoryLimit: expected a quantity such as 10Gi");
            return -1;
        }
        if (quantity_value(&q) / 1024 / 1024 <= 0) {
            yerr(err, v, "mpsConfig: invalid limit: default value set too low: %s (at least 1Mi)", v->str);
            return -1;
        }
        out->pinned_bytes = quantity_value(&q);
    }
    if ((v = ymap_get(m, "defaultPerDevicePinnedMemoryLimit")) && y_expect(v, YN_MAP, "defaultPerDevicePinnedMemoryLimit", err))
        return -1;
    return 0;
}

/* `sharing:` of a GpuConfig (mig false) or MigDeviceConfig (mig true). */
static int parse_sharing(const ynode *s, bool mig, gpu_sharing *out, strbuf *err) {
    static const char *const gpu_keys[] = {"strategy", "timeSlicingConfig", "mpsConfig", NULL};
    static const char *const mig_keys[] = {"strategy", "mpsConfig", NULL};
    const ynode *v, *st;
    if (y_expect(s, YN_MAP, "sharing", err) || ymap_check_keys(s, mig ? mig_keys : gpu_keys, "sharing", err))
        return -1;
    if (ymap_need(s, "strategy", "sharing", &st, err)) return -1;
    out->where = s;
    out->mig = mig;
    if (y_scalar_eq(st, "TimeSlicing")) {
        out->strategy = SHARE_TIME_SLICING;
        if ((v = ymap_get(s, "mpsConfig"))) {
            yerr(err, v, "sharing: cannot use MpsConfig with the 'TimeSlicing' strategy");
            return -1;
        }
        if ((v = ymap_get(s, "timeSlicingConfig"))) {
            static const char *const tk[] = {"interval", NULL};
            static const char *const names[] = {"Default", "Short", "Medium", "Long"};
            if (y_expect(v, YN_MAP, "timeSlicingConfig", err) || ymap_check_keys(v, tk, "timeSlicingConfig", err))
                return -1;
            const ynode *iv = ymap_get(v, "interval");
            if (iv) {
                int k = 0;
                while (k < 4 && !y_scalar_eq(iv, names[k])) k++;
                if (k == 4) {
                    yerr(err, iv, "unknown time-slice interval: %s, supported time-slice intervals: Default, Short, "
                         "Medium, Long", iv->kind == YN_SCALAR ? iv->str : ykind_name(iv));
                    return -1;
                }
                out->interval = (ts_interval)k;
            }
        }
        return 0;
    }
    if (y_scalar_eq(st, "MPS")) {
        out->strategy = SHARE_MPS;
        if ((v = ymap_get(s, "timeSlicingConfig"))) {
            yerr(err, v, "sharing: cannot use TimeSlicingConfig with the 'MPS' strategy");
            return -1;
        }
        return (v = ymap_get(s, "mpsConfig")) ? parse_mps(v, out, err) : 0;
    }
    yerr(err, st, "unknown GPU sharing strategy: %s, supported GPU sharing strategies: TimeSlicing, MPS",
         st->kind == YN_SCALAR ? st->str : ykind_name(st));
    return -1;
}

int gpu_sharing_from_configs(const k8s_device_config *cfg, size_t ncfg, gpu_sharing *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < ncfg; i++) {
        const k8s_opaque_config *o = &cfg[i].opaque;
        if (!o->driver || strcmp(o->driver, "gpu.nvidia.com") || !o->parameters) continue;
        const ynode *p = o->parameters, *v;
        if (y_expect(p, YN_MAP, "opaque parameters", err)) return -1;
        const ynode *api = ymap_get(p, "apiVersion"), *kind = ymap_get(p, "kind");
        if (!api || !y_scalar_eq(api, "resource.nvidia.com/v1beta1")) {
            yerr(err, api ? api : p, "opaque parameters of gpu.nvidia.com: apiVersion: expected "
                 "resource.nvidia.com/v1beta1");
            return -1;
        }
        bool mig = kind && y_scalar_eq(kind, "MigDeviceConfig");
        if (!kind || !(mig || y_scalar_eq(kind, "GpuConfig"))) {
            /* the driver's other kinds (ComputeDomainChannelConfig, ...) carry no sharing */
            if (kind && kind->kind == YN_SCALAR) continue;
            yerr(err, kind ? kind : p, "opaque parameters of gpu.nvidia.com: kind: expected GpuConfig or "
                 "MigDeviceConfig");
            return -1;
        }
        static const char *const keys[] = {"apiVersion", "kind", "sharing", NULL};
        if (ymap_check_keys(p, keys, mig ? "MigDeviceConfig" : "GpuConfig", err)) return -1;
        if (!(v = ymap_get(p, "sharing"))) continue;
        if (out->strategy != SHARE_NONE) {
            yerr(err, v, "a claim may set GPU sharing once (another config already sets it)");
            return -1;
        }
        if (parse_sharing(v, mig, out, err)) return -1;
    }
    return 0;
}
