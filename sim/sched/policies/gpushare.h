/*
 * gpushare.h -- per-GPU milli-GPU accounting for GPU-sharing pods: the model
 * of the FGD artifact's "Open-Gpu-Share" filter and reserve plugin.
 *
 * A node has up to 8 GPUs of one model; each GPU has 1000 milli free when
 * idle. A pod asks for `ngpu` GPUs with `milli` per GPU: a sharing pod
 * (ngpu 1, milli < 1000) takes part of one GPU, a whole-GPU pod takes
 * fully free GPUs, a CPU-only pod (milli 0) no GPU. A GPU pod may carry a
 * GPU-model constraint (bit mask over the run's model table).
 *
 * GPU choice inside a node (Appendix A of the shared spec):
 *  - gs_best_gpu: the sharing pod's GPU with the least free milli that still
 *    fits, lowest index on equal free amounts ("best", the default);
 *  - gs_exclusive: whole-GPU pods take the fully free GPUs with the lowest
 *    indices.
 */
#ifndef DRASIM_SCHED_GPUSHARE_H
#define DRASIM_SCHED_GPUSHARE_H

#include <stdbool.h>
#include <stdint.h>

#define GS_MAX_GPUS 8
#define GS_MILLI 1000

/* What one pod (or pod shape) asks for. */
typedef struct gs_pod {
    int64_t cpu;            /* milli-CPU (non-zero request: 0 counts as 100m) */
    int64_t mem;            /* MiB */
    int ngpu;               /* 0..8 */
    int milli;              /* per GPU, 0..1000 */
    uint64_t models;        /* allowed GPU models (bit per model id); all ones = any */
} gs_pod;

/* The state of one node. */
typedef struct gs_node {
    int64_t cpu_cap, cpu_left;
    int64_t mem_left;
    int32_t pods_left;
    int ngpu;
    int model;              /* model id, -1 = no GPUs */
    int16_t free[GS_MAX_GPUS];
    /* GPU-clustering "affinity": pods on the node per GPU-request kind
     * (index 0 = sharing, k = k whole GPUs) and the number of kinds present */
    uint16_t aff[GS_MAX_GPUS + 1];
    int naff;
} gs_node;

static inline bool gs_is_share(const gs_pod *p) { return p->ngpu == 1 && p->milli < GS_MILLI; }
/* Affinity kind of a GPU pod (0 sharing, k whole GPUs); -1 for CPU pods. */
static inline int gs_affinity(const gs_pod *p) { return p->milli <= 0 ? -1 : gs_is_share(p) ? 0 : p->ngpu; }

void gs_node_init(gs_node *n, int64_t cpu_milli, int64_t mem_mib, int32_t max_pods, int ngpu, int model);
int64_t gs_free_total(const gs_node *n);     /* idle milli-GPU of the node */
int gs_fully_free(const gs_node *n);         /* GPUs with 1000 milli free */
static inline bool gs_model_ok(const gs_node *n, const gs_pod *p) {
    if (p->models == ~(uint64_t)0) return true;
    return n->model >= 0 && ((p->models >> n->model) & 1);
}
/* Filter: CPU, memory, pod count, GPU model and GPU room (any GPU with room
 * for a sharing pod, enough fully free GPUs for a whole-GPU pod). */
bool gs_fits(const gs_node *n, const gs_pod *p);
/* The GPU part of gs_fits: model and GPU room only. */
bool gs_gpu_room(const gs_node *n, const gs_pod *p);
int gs_best_gpu(const gs_node *n, const gs_pod *p);          /* -1 if none */
uint32_t gs_exclusive(const gs_node *n, int k);              /* mask of k lowest free GPUs, 0 if too few */
/* The GPUs the pod takes with the default ("best") choice: a mask. */
uint32_t gs_default_gpus(const gs_node *n, const gs_pod *p);
/* Reserve / release: the pod's requests on the node and `gpus` (mask). */
void gs_take(gs_node *n, const gs_pod *p, uint32_t gpus);
void gs_give(gs_node *n, const gs_pod *p, uint32_t gpus);
/* A GPU-model constraint as OpenB writes it ("A|B": one of the models, "" or
 * only separators: any) against a node's model (NULL/"" = no GPUs). */
bool gs_spec_allows(const char *spec, const char *model);

#endif
