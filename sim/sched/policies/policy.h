/*
 * policy.h -- placement policies as score plugins, and the scheduling cycle
 * that runs them over GPU-sharing nodes (gpushare.h).
 *
 * The six policies of the FGD paper (shared spec openb-fgd.md §2.5,
 * Appendix A), each a Score plugin in kube-scheduler's sense: a score in
 * [0, 100] for a node that passed the filters, plus the GPUs the pod would
 * take on that node (the policy's GPU choice inside the node):
 *   random          one feasible node, chosen uniformly (seeded), gets 100;
 *   dotprod         1 - <free, request>/2 over (CPU, GPU) normalised by the
 *                   largest node (128 CPUs, 8 GPUs): the smallest dot wins;
 *   gpu-clustering  bands: node with only this GPU-request kind > mixed node
 *                   with it > idle node > other kinds; less free GPU first;
 *   gpu-packing     partly used GPUs > free GPUs on a used node > idle node;
 *   bestfit         1 - sum 0.5 (free - request)/max over (CPU, GPU);
 *   fgd             sigmoid((F_before - F_after)/1000) x 100: the placement
 *                   (node and, for sharing pods, GPU) that grows the
 *                   node's fragmentation least.
 * Scores are truncated to integers as the artifact does; the framework
 * adds weight 1000 x score, and equal totals go to the node whose name
 * sorts first. GPU choice: fgd its own; random a uniformly drawn GPU with
 * room; every other policy the "best" rule (least free GPU that fits);
 * whole GPUs: the lowest free indexes.
 *
 * The functions see one node's device-level state (the scheduler's GPU
 * view, gpu_view.h), so the same code scores device-plugin and DRA nodes;
 * plugin_policy.c makes them Score plugins of the one scheduler (sched.h).
 */
#ifndef DRASIM_SCHED_POLICY_H
#define DRASIM_SCHED_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/policies/frag.h"
#include "sched/policies/gpushare.h"
#include "util/gorand.h"
#include "util/rng.h"

#define POLICY_MAX_SPEC_CPU 128000   /* milli-CPU of the largest node spec (artifact MaxSpecCpu) */
#define POLICY_MAX_SPEC_GPU 8000     /* milli-GPU of the largest node spec (artifact MaxSpecGpu) */

typedef struct policy_ctx {
    const frag_typical *typical;     /* typical pods (fgd) */
    const double *node_frag;         /* current F_n per node (fgd) */
    int64_t max_cpu, max_gpu;        /* normalisation (dotprod, bestfit, gpu-clustering): the largest node's
                                        CPU and GPU milli; OpenB traces: the artifact's 128 CPUs, 8 GPUs */
} policy_ctx;

typedef struct policy {
    const char *name;                /* scenario name: "fgd", "bestfit", ... */
    const char *paper_name;          /* the artifact's label: "06-FGD" */
    bool random_pick;                /* PreScore picks one feasible node at random */
    /* Score of placing p on node `idx` (state n, already feasible) and the GPUs (mask) it takes. */
    int (*score)(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus);
    /* Optional: draw the GPUs at Reserve instead of taking the score's choice (random). */
    uint32_t (*reserve_gpus)(const gs_node *n, const gs_pod *p, rng *r);
} policy;

extern const policy policy_random, policy_dotprod, policy_gpu_clustering, policy_gpu_packing, policy_bestfit,
    policy_fgd;

/* By scenario name; NULL if unknown. */
const policy *policy_find(const char *name);
/* "random, dotprod, ..." for messages. */
const char *policy_names(void);
/* By Score-plugin name (FGDScore, BestFitScore, DotProductScore, GpuClusteringScore,
 * GpuPackingScore, RandomScore: the artifact's names); NULL if not a policy. */
const policy *policy_find_plugin(const char *plugin);
const char *policy_plugin_name(const policy *p);

/* A random GPU with room for p on n, drawn as the artifact's "random" GPU
 * selection (allocateGpuIdBasedOnRandomFit); whole GPUs: the lowest free. */
uint32_t policy_random_gpus_go(const gs_node *n, const gs_pod *p, gorand *g);

#endif
