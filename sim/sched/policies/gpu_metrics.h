/*
 * gpu_metrics.h -- placement-quality measures of the cluster's GPU state at
 * one instant, in every run and both modes (issue 11): the FGD
 * fragmentation against the workload's typical pods (frag.h), the stranded
 * GPUs, and how many nodes could take a pod of 1, 2, 4 or 8 whole GPUs now.
 * The engine samples them (engine/sim.h sample_gpu) from the scheduler's
 * per-node GPU view (gs_node, gpushare.h).
 *
 * Definitions (docs/SCHEMA.md, samples), over the nodes of the view and the
 * typical pods t (frag.h; for pod groups and Lua: typical_seen.h):
 *  - gpus: sum of the nodes' GPUs; idle_gpus: their free milli / 1000.
 *  - frag_gpus: sum of F_n / 1000 (frag_node, or the caller's F_n).
 *  - A "GPU shape" is a typical pod with ngpu > 0 and milli > 0. A shape
 *    HAS ROOM on a node when cpu_left >= max(cpu, 1), mem_left >= max(mem, 1)
 *    and pods_left > 0: a request of 0 (frag_typical leaves `mem` 0) still
 *    needs something left, so an exhausted node never has room. GPU room and
 *    GPU-model constraints are not part of it (they are fragmentation, not
 *    stranding).
 *  - stranded_gpus: the idle GPU capacity (milli / 1000, partly used GPUs
 *    included) of nodes where no GPU shape has room; with no GPU shape in t
 *    (or t NULL), of nodes with cpu_left <= 0, mem_left <= 0 or
 *    pods_left <= 0.
 *  - nodes_fit[i], size k = 1, 2, 4, 8: nodes with at least k fully free
 *    GPUs (free == 1000) where the SMALLEST GPU shape (least CPU, then least
 *    memory, then first in t) has room; with no GPU shape: where some of
 *    each is left (cpu_left > 0, mem_left > 0, pods_left > 0). Any GPU model
 *    counts: it is the number a planner watches for large training jobs, an
 *    upper bound for a pod of the workload's smallest CPU size. A node that
 *    counts is never stranded.
 *  - mig_frag_pct: % of the MIG GPUs' slices; gpu_metrics_compute leaves -1
 *    (dynamic MIG: place_mig_frag_pct; static MIG: gpu_metrics_mig_static_pct).
 */
#ifndef DRASIM_SCHED_GPU_METRICS_H
#define DRASIM_SCHED_GPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "sched/policies/frag.h"
#include "sched/policies/gpushare.h"

#define GPU_METRICS_NFIT 4   /* pod sizes 1, 2, 4, 8 GPUs */

typedef struct gpu_metrics {
    double gpus;                         /* GPUs in the view (whole GPUs; static-MIG GPUs count too) */
    double idle_gpus;                    /* idle GPU capacity, GPUs (milli / 1000) */
    double frag_gpus;                    /* FGD fragmentation: sum of F_n, GPUs */
    double stranded_gpus;                /* idle GPU capacity on nodes no GPU pod of the workload fits for CPU, memory or pod slots */
    int64_t nodes_fit[GPU_METRICS_NFIT]; /* nodes that could take a pod of 1, 2, 4, 8 whole GPUs now */
    double mig_frag_pct;                 /* MIG fragmentation, % of the MIG GPUs' slices; -1 = no MIG in the run */
    /* Where the idle capacity goes (engine/sim_capacity.c; the engine fills
     * these, gpu_metrics_compute leaves 0): idle_total = gpu_total - GPUs
     * allocated = idle_usable + stranded_gpus + idle_mig_layout +
     * idle_fragmented + idle_unavailable, in GPU-equivalents. */
    double idle_total, idle_usable, idle_mig_layout, idle_fragmented, idle_unavailable;
} gpu_metrics;

/* The pod size (GPUs) of nodes_fit[i]: 1, 2, 4, 8. */
static inline int gpu_metrics_fit_size(int i) { return 1 << i; }

/* FGD fragmentation in % of all GPUs, and in % of the idle GPUs (0 when
 * there are none): the samples' frag_gpu_pct and frag_ratio_pct. */
static inline double gpu_metrics_frag_pct(const gpu_metrics *g) {
    return g->gpus > 0 ? 100.0 * g->frag_gpus / g->gpus : 0;
}
static inline double gpu_metrics_frag_ratio_pct(const gpu_metrics *g) {
    return g->idle_gpus > 0 ? 100.0 * g->frag_gpus / g->idle_gpus : 0;
}

/* Fill *out from the view nodes[0..n) (see the definitions above).
 * node_frag: F_n of each node in milli-GPU, or NULL to compute it with
 * frag_node(&nodes[i], t); t may be NULL (no typical pods: no fragmentation).
 * mig_frag_pct is set to -1. */
void gpu_metrics_compute(const gs_node *nodes, size_t n, const double *node_frag, const frag_typical *t,
                         gpu_metrics *out);

/* Static-MIG fragmentation (device-plugin mode: `nvidia.com/mig-<N>g.<M>gb`
 * extended resources in a fixed per-GPU layout), drasim's extension: FGD
 * defines none, and a fixed layout cannot be re-cut, so what fragments is
 * the free instances of profiles the workload does not ask for. For a typical
 * MIG request of profile m (popularity p_m) the free slices of instances of
 * other profiles are fragment, as FGD counts the GPUs a typical pod cannot
 * use:
 *     F = sum_m p_m * (free slices - free slices of profile m)
 * in compute slices (1/7 GPU), returned in % of `total_slices` (the MIG
 * GPUs' slices, 7 per GPU: the same denominator as the dynamic-MIG measure,
 * place_mig_frag_pct). nprof profiles; slices[k] = compute slices of one
 * instance of profile k (the N of <N>g); demand[k] >= 0 = how many pods (or
 * any weight) of the workload ask for profile k, normalised here; free =
 * [node * nprof + k] free instances of profile k on each of nnodes nodes.
 * With no demand at all every free slice is fragment. Returns -1 when
 * total_slices <= 0 (no MIG GPUs). Node CPU and memory are not considered. */
double gpu_metrics_mig_static_pct(size_t nprof, const int *slices, const double *demand, const int64_t *free,
                                  size_t nnodes, int64_t total_slices);

#endif
