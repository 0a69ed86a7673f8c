/*
 * gpu_view.h -- the scheduler's per-GPU view of every node, in both modes:
 * what the placement policies score (policy.h), what the GPU-choice step
 * decides on, and what the placement-quality metrics measure
 * (gpu_metrics.h). One gs_node per node (gpushare.h: CPU, memory, pod slots
 * left and the free milli-GPU of each of up to 8 GPUs).
 *
 * Where the GPUs come from:
 *  - device-plugin mode: `nvidia.com/gpu` (or `.shared`) units, one GPU per
 *    `replicas` units (time-slicing: unit u is replica u % R of GPU u / R,
 *    so one unit is 1000/R milli of that GPU); `alibabacloud.com/gpu-milli`
 *    (OpenB traces), 1000 per GPU. Nodes whose GPUs are statically
 *    partitioned (MIG) have no whole GPUs in the view;
 *  - DRA mode: the node's devices whose attribute `type` is "gpu", in slice
 *    order; an allocation takes the GPUs of its results (whole, or the
 *    consumed fraction of a shared device's capacity), gpu_view_take_dra.
 * The view follows the scheduler: Reserve takes, the pod's end gives back.
 * F_n (frag.h) is kept per node against the typical pods, recomputed lazily
 * for the nodes that changed (gpu_view_sync) when somebody reads it: FGD's
 * score, a sample, a trace's curve. Runs that read it rarely pay little.
 */
#ifndef DRASIM_SCHED_GPU_VIEW_H
#define DRASIM_SCHED_GPU_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/policies/frag.h"
#include "sched/policies/gpu_metrics.h"
#include "sched/policies/gpushare.h"

#define GV_MAX_MODELS 64

typedef struct gpu_view {
    gs_node *nodes;
    size_t nnodes;
    const char *models[GV_MAX_MODELS];   /* GPU model names (interned), ids in first-seen node order */
    int nmodels;
    int replicas;                        /* time-slicing replicas per GPU (device-plugin mode) */
    int64_t max_cpu, max_gpu_milli;      /* largest node: CPU milli, GPU milli (policy normalisation) */
    const frag_typical *typical;         /* not owned; NULL = no fragmentation measured */
    double *frag;                        /* F_n per node, milli (valid after gpu_view_sync) */
    double frag_total;
    frag_fixed_sum frag_fixed;                 /* the exact sum of frag[] (frag.h: frag_fixed_round2), */
    bool frag_fixed_on;                        /* kept only once gpu_view_keep_frag_sum asked for it */
    int64_t *strand;                     /* per node: its stranded idle milli (gpu_metrics.h), valid after sync */
    uint8_t *fit;                        /* per node: how many of the sizes 1, 2, 4, 8 GPUs fit it now */
    int64_t strand_total, fit_total[GPU_METRICS_NFIT];
    struct gv_memo *memo;                /* measured node states (many nodes pass through equal states) */
    uint64_t memo_hits, memo_misses;
    uint8_t *dirty;                      /* per node: F_n not recomputed since the node changed */
    uint32_t *dirty_list;                /* nodes flagged dirty, in the order they changed */
    size_t ndirty;
    int64_t idle_milli, used_milli, total_milli;
    uint64_t changes;                    /* node changes so far */
} gpu_view;

/* Per node: GPUs and model name (NULL = none), from the inventory. */
typedef struct gpu_view_node {
    int ngpu;
    const char *model;
} gpu_view_node;

void gpu_view_init(gpu_view *v, size_t nnodes);
void gpu_view_free(gpu_view *v);
/* Node i: CPU milli, memory MiB, pod slots, GPUs and model. */
void gpu_view_set_node(gpu_view *v, size_t i, int64_t cpu_milli, int64_t mem_mib, int32_t pods, int ngpu,
                       const char *model);
/* Model id of `model` (interned), -1 if no node has it. */
int gpu_view_model_id(const gpu_view *v, const char *model);
/* Use `t` (must outlive the view or be replaced) as the typical pods: F_n recomputed on every node. */
void gpu_view_set_typical(gpu_view *v, const frag_typical *t);
/* Reserve / release pod shape p on node i taking GPUs `gpus` (mask). */
void gpu_view_take(gpu_view *v, size_t i, const gs_pod *p, uint32_t gpus);
void gpu_view_give(gpu_view *v, size_t i, const gs_pod *p, uint32_t gpus);
/* The same with an explicit milli per GPU (DRA: each result's consumed share). */
void gpu_view_take_milli(gpu_view *v, size_t i, const gs_pod *p, const int16_t milli[GS_MAX_GPUS], int sign);
/* Only the GPUs: add (sign +1) or give back (-1) milli per GPU of node i (DRA allocations). */
void gpu_view_add_gpus(gpu_view *v, size_t i, const int16_t milli[GS_MAX_GPUS], int sign);
/* Bring F_n and frag_total up to date: every changed node, or node i only. */
void gpu_view_sync(gpu_view *v);
/* Keep frag_fixed, the exact sum of frag[], from now on (the OpenB artifact's
 * logged fragmentation reads it); runs that never read it do not pay for it. */
void gpu_view_keep_frag_sum(gpu_view *v);
void gpu_view_sync_node(gpu_view *v, size_t i);
/* Cluster-wide measures now (syncs first). */
void gpu_view_metrics(gpu_view *v, gpu_metrics *out);

#endif
