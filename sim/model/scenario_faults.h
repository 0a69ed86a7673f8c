/*
 * scenario_faults.h -- the `faults:` section of a scenario (docs/DYNAMICS.md):
 * what goes wrong in the cluster while a run goes, and when.
 *
 *   faults:
 *     gpuFailures:           # GPU failure processes (Poisson per GPU)
 *     - pool: train          # or gpuModel: H100-80GB; neither: every GPU
 *       ratePerGpuDay: 0.02  # or mtbf: 50d
 *       kind: fatal-xid      # fatal-xid | gpu-lost | nonfatal-xid
 *       xid: 79              # the taint's value (fatal 79, non-fatal 13 by default)
 *       repair: 24h          # a duration or distribution (as a pod's); none: never repaired
 *       evictAfter: 5m       # DRA: an administrator's NoExecute DeviceTaintRule on the device, this long after
 *     nodeFailures:          # NotReady nodes (taint node.kubernetes.io/unreachable NoExecute)
 *     - {pool: train, ratePerNodeDay: 0.01, repair: 4h}
 *     maintenance:           # planned: drain N nodes of a pool at T for D
 *     - {pool: train, nodes: 2, at: 6h, duration: 2h}
 *     deviceTaintRules:      # administrator DeviceTaintRules (resource.k8s.io/v1beta2, KEP-5055)
 *     - name: r1
 *       at: 1h
 *       until: 3h            # removal; none: kept to the end
 *       selector: {driver: gpu.nvidia.com, pool: train-0, device: gpu-3}
 *       taint: {key: example.com/maintenance, value: "x", effect: NoExecute}
 *     events: incidents.csv  # explicit events: time,target,event
 *
 * Faults draw from their own random stream (rng_fork of the seed's stream
 * with tag "faults"), so adding faults leaves the workload's draws unchanged.
 */
#ifndef DRASIM_MODEL_SCENARIO_FAULTS_H
#define DRASIM_MODEL_SCENARIO_FAULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/scenario.h"

/* What happened to a GPU (the NVIDIA DRA driver's health taints, spec/dynamics.md §1.5). */
typedef enum { GPU_FAULT_FATAL_XID, GPU_FAULT_GPU_LOST, GPU_FAULT_NONFATAL_XID } gpu_fault_kind;

typedef struct gpu_failure_spec {
    const char *pool;                /* node pool, or NULL */
    const char *gpu_model;           /* GPU catalog key (or GFD product), or NULL */
    double rate_per_gpu_ms;          /* failures per GPU per millisecond */
    gpu_fault_kind kind;
    int xid;                         /* the xid taint's value */
    bool has_repair;
    duration_dist repair;
    bool evict;                      /* an admin NoExecute DeviceTaintRule follows (DRA) */
    sim_time evict_after;
    const ynode *where;
} gpu_failure_spec;

typedef struct node_failure_spec {
    const char *pool;
    double rate_per_node_ms;
    bool has_repair;
    duration_dist repair;
    const ynode *where;
} node_failure_spec;

typedef struct maintenance_spec {
    const char *pool;
    int64_t nodes;
    sim_time at, duration;
    const ynode *where;
} maintenance_spec;

typedef struct taint_rule_spec {
    const char *name;
    sim_time at, until;            /* until: INT64_MAX = never removed */
    const char *driver, *pool, *device;   /* NULL: any */
    k8s_taint taint;                 /* effect None / NoSchedule / NoExecute */
    const ynode *where;
} taint_rule_spec;

/* An explicit event of the events file. */
typedef enum {
    FEV_GPU_FAIL,                    /* gpu/NODE/INDEX fatal-xid | gpu-lost | nonfatal-xid */
    FEV_GPU_REPAIR,                  /* gpu/NODE/INDEX repair */
    FEV_NODE_FAIL,                   /* node/NAME fail */
    FEV_NODE_REPAIR,                 /* node/NAME repair */
    FEV_NODE_DRAIN,                  /* node/NAME drain (cordon + evict) */
    FEV_NODE_UNCORDON                /* node/NAME uncordon */
} fault_event_kind;

typedef struct fault_event_spec {
    sim_time t;
    fault_event_kind kind;
    gpu_fault_kind gpu_kind;
    const char *node;                /* interned */
    int gpu;                         /* GPU index on the node, -1 for node events */
    const char *file;                /* for errors at run start: FILE:LINE:COL */
    int line, col;
} fault_event_spec;

typedef struct fault_spec {
    gpu_failure_spec *gpu;
    size_t ngpu;
    node_failure_spec *node;
    size_t nnode;
    maintenance_spec *maint;
    size_t nmaint;
    taint_rule_spec *rules;
    size_t nrules;
    fault_event_spec *events;        /* sorted by time (stable) */
    size_t nevents;
    const ynode *where;
} fault_spec;

/* Interpret `faults:` into s->faults (allocated in s->a). Pools are checked
 * against the cluster's node pools when it has some. 0, or -1 with err set
 * ("FILE:LINE:COL: ..."). */
int scenario_parse_faults(const ynode *n, scenario *s, strbuf *err);

#endif
