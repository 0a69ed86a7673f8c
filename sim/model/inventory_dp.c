/*
 * inventory_dp.c -- a GPU node as the NVIDIA device plugin and GPU Feature
 * Discovery present it: extended resources (nvidia.com/gpu,
 * nvidia.com/mig-<profile>, their time-sliced replicas) and nvidia.com/...  labels.
 *
 * Modelling choices:
 *  - dynamic MIG is a DRA-driver concept; the device plugin sees such GPUs as
 *    full GPUs (MIG mode off);
 *  - `single` on a node without MIG-enabled GPUs behaves like `none`; on a
 *    static-MIG node whose layout mixes profiles (or is empty) it is invalid:
 *    product <model>-MIG-INVALID, gpu.count 0, nvidia.com/gpu 0;
 *  - time-slicing applies to every resource the node advertises; with
 *    renameByDefault the names get a ".shared" suffix, otherwise the product
 *    label gets "-SHARED".
 */
#include <stdio.h>
#include <string.h>

#include "model/inventory_parts.h"

/* Profile name in resource/label form: '+' becomes '.' (1g.10gb+me -> 1g.10gb.me). */
static void resource_profile(const char *profile, char *buf, size_t n) {
    snprintf(buf, n, "%s", profile);
    for (char *c = buf; *c; c++)
        if (*c == '+') *c = '.';
}

static const char *family(const gpu_model *m) {
    switch (m->cc_major) {
    case 7: return m->cc_minor >= 5 ? "turing" : "volta";
    case 8: return m->cc_minor >= 9 ? "ada-lovelace" : "ampere";
    case 9: return "hopper";
    case 10: case 12: return "blackwell";
    default: return "undefined";
    }
}

/* Driver and CUDA version labels from "570.172.8" and "12.8.0". */
static void version_labels(const node_gpus *g, kv_vec *l) {
    unsigned a = 0, b = 0, c = 0;
    if (sscanf(g->driver_version, "%u.%u.%u", &a, &b, &c) >= 2) {
        kv_setf(l, "nvidia.com/cuda.driver-version.major", "%u", a);
        kv_setf(l, "nvidia.com/cuda.driver-version.minor", "%u", b);
        kv_setf(l, "nvidia.com/cuda.driver-version.revision", "%u", c);
        kv_set(l, "nvidia.com/cuda.driver-version.full", g->driver_version);
    }
    if (sscanf(g->cuda_version, "%u.%u", &a, &b) == 2) {
        kv_setf(l, "nvidia.com/cuda.runtime-version.major", "%u", a);
        kv_setf(l, "nvidia.com/cuda.runtime-version.minor", "%u", b);
        kv_setf(l, "nvidia.com/cuda.runtime-version.full", "%u.%u", a, b);
    }
}

/* Labels describing one MIG profile, under prefix "nvidia.com/gpu" (single)
 * or "nvidia.com/mig-<profile>" (mixed). */
static void profile_labels(kv_vec *l, const char *prefix, const mig_profile *p) {
    char k[160];
#define L(suffix, ...) (snprintf(k, sizeof k, "%s.%s", prefix, suffix), kv_setf(l, k, __VA_ARGS__))
    L("memory", "%lld", (long long)p->memory_mib);
    L("multiprocessors", "%d", p->multiprocessors);
    L("slices.gi", "%d", p->mem_slices);
    L("slices.ci", "%d", p->compute_slices);
    L("engines.copy", "%d", p->copy_engines);
    L("engines.decoder", "%d", p->decoders);
    L("engines.encoder", "%d", p->encoders);
    L("engines.jpeg", "%d", p->jpeg);
    L("engines.ofa", "%d", p->ofa);
#undef L
}

/* How many instances of each distinct profile a static layout has; returns the count of distinct profiles. */
static int distinct_profiles(const node_gpus *g, const mig_profile **prof, int *cnt) {
    int n = 0;
    for (int i = 0; i < g->layout->nprofiles; i++) {
        const mig_profile *p = g->placements[i].profile;
        int j = 0;
        while (j < n && prof[j] != p) j++;
        if (j == n) { prof[n] = p; cnt[n++] = 0; }
        cnt[j]++;
    }
    return n;
}

void dp_node_view(const gpu_catalog *cat, const node_gpus *g, const device_plugin_opts *dp, kv_vec *labels,
                  amount_vec *res) {
    static const device_plugin_opts defaults = {MIG_STRATEGY_NONE, 1, false, false, false};
    (void)cat;   /* versions come with g (the pool's or the catalog's) */
    const bool advertise = dp != NULL;
    if (!dp) dp = &defaults;
    const gpu_model *m = g->model;
    const int R = dp->time_slicing_replicas > 0 ? dp->time_slicing_replicas : 1;
    const bool shared = R > 1, renamed = shared && dp->rename_by_default;
    const char *sfx = renamed ? ".shared" : "";
    const char *product_sfx = shared && !renamed ? "-SHARED" : "";
    const bool static_mig = g->mig == MIG_STATIC;
    static const char *strategy_names[] = {"none", "single", "mixed"};
    char name[160], rp[64];

    kv_set(labels, "nvidia.com/gpu.present", "true");
    kv_set(labels, "nvidia.com/gpu.family", family(m));
    kv_setf(labels, "nvidia.com/gpu.compute.major", "%d", m->cc_major);
    kv_setf(labels, "nvidia.com/gpu.compute.minor", "%d", m->cc_minor);
    kv_set(labels, "nvidia.com/gpu.mode", "compute");
    kv_set(labels, "nvidia.com/mig.capable", m->nprofiles ? "true" : "false");
    kv_set(labels, "nvidia.com/mps.capable", shared && dp->mps ? "true" : "false");
    kv_set(labels, "nvidia.com/vgpu.present", "false");
    kv_set(labels, "nvidia.com/mig.strategy", strategy_names[dp->mig_strategy]);
    kv_set(labels, "nvidia.com/gpu.sharing-strategy", !shared ? "none" : dp->mps ? "mps" : "time-slicing");
    version_labels(g, labels);
    if (static_mig) {
        kv_set(labels, "nvidia.com/mig.config", g->layout->name);
        kv_set(labels, "nvidia.com/mig.config.state", "success");
    }

    /* defaults: full GPUs (no MIG, dynamic MIG, or strategy none) */
    kv_setf(labels, "nvidia.com/gpu.product", "%s%s", m->gfd_product, product_sfx);
    kv_setf(labels, "nvidia.com/gpu.count", "%d", g->count);
    kv_setf(labels, "nvidia.com/gpu.memory", "%lld", (long long)m->memory_mib);
    kv_setf(labels, "nvidia.com/gpu.replicas", "%d", R);
    if (shared && dp->fail_requests_gt_one)   /* drasim's own: sched/plugins/plugin_sharing.c */
        kv_set(labels, "drasim.io/device-plugin.fail-requests-greater-than-one", "true");
    int64_t full_gpus = g->count;

    if (static_mig && dp->mig_strategy == MIG_STRATEGY_SINGLE) {
        const mig_profile *prof[32];   /* a placed layout has at most 32 instances (memory slices) */
        int cnt[32];
        int n = distinct_profiles(g, prof, cnt);
        if (n == 1) {
            int64_t devices = (int64_t)g->count * cnt[0];
            kv_setf(labels, "nvidia.com/gpu.product", "%s-MIG-%s%s", m->gfd_product, prof[0]->name, product_sfx);
            kv_setf(labels, "nvidia.com/gpu.count", "%lld", (long long)devices);
            profile_labels(labels, "nvidia.com/gpu", prof[0]);
            full_gpus = devices;
        } else {
            kv_setf(labels, "nvidia.com/gpu.product", "%s-MIG-INVALID", m->gfd_product);
            kv_set(labels, "nvidia.com/gpu.count", "0");
            full_gpus = 0;
        }
    } else if (static_mig && dp->mig_strategy == MIG_STRATEGY_MIXED) {
        const mig_profile *prof[32];   /* a placed layout has at most 32 instances (memory slices) */
        int cnt[32];
        int n = distinct_profiles(g, prof, cnt);
        kv_set(labels, "nvidia.com/gpu.replicas", "0");
        for (int i = 0; i < n; i++) {
            resource_profile(prof[i]->name, rp, sizeof rp);
            int64_t devices = (int64_t)g->count * cnt[i];
            snprintf(name, sizeof name, "nvidia.com/mig-%s", rp);
            profile_labels(labels, name, prof[i]);
            snprintf(name, sizeof name, "nvidia.com/mig-%s.count", rp);
            kv_setf(labels, name, "%lld", (long long)devices);
            snprintf(name, sizeof name, "nvidia.com/mig-%s.replicas", rp);
            kv_setf(labels, name, "%d", R);
            snprintf(name, sizeof name, "nvidia.com/mig-%s.product", rp);
            kv_setf(labels, name, "%s-MIG-%s%s", m->gfd_product, rp, product_sfx);
            if (advertise) {
                snprintf(name, sizeof name, "nvidia.com/mig-%s%s", rp, sfx);
                amount_set(res, name, quantity_from_int64(devices * R, QF_DECIMAL_SI));
            }
        }
        return;   /* every GPU is MIG-enabled: no nvidia.com/gpu */
    }
    if (advertise) {
        snprintf(name, sizeof name, "nvidia.com/gpu%s", sfx);
        amount_set(res, name, quantity_from_int64(full_gpus * R, QF_DECIMAL_SI));
    }
}
