/* policy_gpu_clustering.c -- GPU Clustering: keep pods of the same GPU-request
 * kind (sharing, 1 GPU, 2 GPUs, ...) together. Bands (integer arithmetic as
 * the artifact): (75,100] node hosting only this kind, (50,75] node hosting
 * this kind among others, (25,50] node without GPU pods, [0,25] node with
 * other kinds only; inside a band, less free GPU scores higher. CPU pods: 0. */
#include "sched/policies/policy.h"

static int clustering_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    int a = gs_affinity(p);
    if (a < 0) return 0;
    int64_t base = 25 * (ctx->max_gpu - gs_free_total(n)) / ctx->max_gpu;
    if (n->aff[a] > 0) return (int)(base + (n->naff == 1 ? 75 : 50));
    return (int)(base + (n->naff == 0 ? 25 : 0));
}

const policy policy_gpu_clustering = {"gpu-clustering", "03-GpuClustering", false, clustering_score, NULL};
