/* policy_dotprod.c -- DotProduct ("-dimext merge -norm max"): the node's free
 * (CPU, all-GPU) vector and the pod's request, both divided by the largest
 * node spec; score = 100 x (1 - dot / 2), so the node whose free vector is
 * least aligned with the request (the tightest one) wins. */
#include "sched/policies/policy.h"

static int dotprod_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    if (n->cpu_left < p->cpu) return 0;
    double node_cpu = (double)n->cpu_left / ctx->max_cpu, node_gpu = (double)gs_free_total(n) / ctx->max_gpu;
    double pod_cpu = (double)p->cpu / ctx->max_cpu, pod_gpu = (double)p->milli * p->ngpu / ctx->max_gpu;
    double s = 1.0 - (node_cpu * pod_cpu + node_gpu * pod_gpu) / 2.0;
    return (int)(int64_t)(100.0 * s);
}

const policy policy_dotprod = {"dotprod", "02-DotProd", false, dotprod_score, NULL};
