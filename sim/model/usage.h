/*
 * usage.h -- how busy a pod keeps its GPUs (issue 17, docs/SHARING.md): a pod
 * group's `usage:` profile, and the sharing settings that decide how pods on
 * one GPU contend (the NVIDIA DRA driver's GpuConfig / MigDeviceConfig
 * sharing, the device plugin's time-slicing and MPS).
 *
 *   usage:
 *     busy: 0.05                                  # SM busy fraction, constant
 *     busy: {uniform: {min: 0.01, max: 0.2}}      # or drawn per pod
 *     busy: {lognormal: {median: 0.015, sigma: 1.5}}
 *     busy: {profile: pai-2020}                   # shipped data (data/usage/)
 *     memory: 4Gi                                 # GPU memory used
 *     phases: [{work: 0.2, busy: 0.9}, {work: 0.8, busy: 0.05}]   # or per phase
 *
 * A pod draws its busy fractions when it starts, from its own random stream
 * (the scenario seed, the group and the pod's ordinal), so the draw does not
 * depend on the order pods start in.
 */
#ifndef DRASIM_MODEL_USAGE_H
#define DRASIM_MODEL_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/rng.h"
#include "util/strbuf.h"

typedef enum { BUSY_FIXED, BUSY_UNIFORM, BUSY_LOGNORMAL, BUSY_QUANTILES } busy_kind;

/* A busy-fraction distribution; every draw is clamped to [0, 1]. */
typedef struct busy_dist {
    busy_kind kind;
    double a, b;                  /* FIXED value; UNIFORM min, max; LOGNORMAL median, sigma */
    const double *q, *v;          /* QUANTILES: piecewise-linear inverse CDF, n points, q ascending 0..1 */
    size_t n;
} busy_dist;

typedef struct usage_phase {
    double work;                  /* share of the pod's work (dedicated run time), phases sum to 1 */
    busy_dist busy;
} usage_phase;

typedef struct gpu_usage {
    usage_phase *phases;          /* at least one (a constant profile is one phase of work 1) */
    size_t nphases;
    int64_t memory_bytes;         /* GPU memory used, 0 = not given */
    const char *profile;          /* `busy: {profile: NAME}`: its name, for the docs and the report */
    const ynode *where;
} gpu_usage;

/* Parse a `usage:` map. Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
int usage_parse(const ynode *n, arena *a, const gpu_usage **out, strbuf *err);
/* One draw of d from r. */
double usage_draw(const busy_dist *d, rng *r);

/* ---- the contention model's parameters (`workload.contention`, docs/SHARING.md) ---- */

typedef struct contention_params {
    double switch_cost[4];        /* time-slicing: tax per extra co-tenant, per interval Default, Short, Medium, Long */
    double mps_bandwidth_penalty; /* MPS: slowdown per unit of combined busy demand above 1 */
} contention_params;

/* The defaults (docs/SHARING.md says where they come from). */
void contention_defaults(contention_params *p);
/* `contention: {timeSlicing: {switchCost: {Default: 0.02, ...}}, mps: {bandwidthPenalty: 0.3}}`
 * over the defaults. Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
int contention_parse(const ynode *n, contention_params *p, strbuf *err);

/* ---- sharing settings ---------------------------------------------------- */

typedef enum { SHARE_NONE, SHARE_TIME_SLICING, SHARE_MPS } share_strategy;
typedef enum { TS_DEFAULT, TS_SHORT, TS_MEDIUM, TS_LONG } ts_interval;

typedef struct gpu_sharing {
    share_strategy strategy;
    ts_interval interval;         /* TimeSlicing (GPUs only; MIG devices have no interval) */
    int thread_pct;               /* MPS defaultActiveThreadPercentage, 0 = not set (100) */
    int64_t pinned_bytes;         /* MPS defaultPinnedDeviceMemoryLimit, 0 = not set */
    bool mig;                     /* from a MigDeviceConfig */
    const ynode *where;
} gpu_sharing;

/* The sharing settings of a claim's opaque configs (spec.devices.config[]):
 * parameters of driver gpu.nvidia.com with apiVersion resource.nvidia.com/v1beta1
 * (kind GpuConfig or MigDeviceConfig) are checked as the driver checks them
 * (api/nvidia.com/resource/v1beta1/{sharing,validate}.go); other drivers'
 * parameters are left alone. *out stays zeroed (SHARE_NONE: the driver's
 * default, time-slicing) when no config names a sharing. Returns 0 or -1
 * with err = "FILE:LINE:COL: ...". */
struct k8s_device_config;
int gpu_sharing_from_configs(const struct k8s_device_config *cfg, size_t ncfg, gpu_sharing *out, strbuf *err);

#endif
