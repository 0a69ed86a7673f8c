/*
 * gpu_metrics.h -- placement-quality measures of the cluster's GPU state at
 * one instant, in every run and both modes (issue 11): the FGD
 * fragmentation against the workload's typical pods (frag.h), the stranded
 * GPUs, and how many nodes could take a pod of 1, 2, 4 or 8 whole GPUs now.
 * The engine samples them (engine/sim.h sample_gpu) from the scheduler's
 * per-node GPU view (gs_node, gpushare.h).
 */
#ifndef DRASIM_SCHED_GPU_METRICS_H
#define DRASIM_SCHED_GPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "sched/frag.h"
#include "sched/gpushare.h"

#define GPU_METRICS_NFIT 4   /* pod sizes 1, 2, 4, 8 GPUs */

typedef struct gpu_metrics {
    double gpus;                         /* GPUs in the view (whole GPUs; static-MIG GPUs count too) */
    double idle_gpus;                    /* idle GPU capacity, GPUs (milli / 1000) */
    double frag_gpus;                    /* FGD fragmentation: sum of F_n, GPUs */
    double stranded_gpus;                /* idle GPU capacity on nodes no GPU pod of the workload fits for CPU, memory or pod slots */
    int64_t nodes_fit[GPU_METRICS_NFIT]; /* nodes that could take a pod of 1, 2, 4, 8 whole GPUs now */
    double mig_frag_pct;                 /* MIG fragmentation, % of free MIG slices; -1 = no MIG in the run */
} gpu_metrics;

#endif
