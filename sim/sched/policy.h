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
 * The functions see one node's device-level state, so the same code can
 * choose among DRA devices once a DRA adapter presents them as a gs_node.
 */
#ifndef DRASIM_SCHED_POLICY_H
#define DRASIM_SCHED_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/frag.h"
#include "sched/gpushare.h"
#include "util/gorand.h"
#include "util/rng.h"

#define POLICY_MAX_SPEC_CPU 128000   /* milli-CPU of the largest node spec (artifact MaxSpecCpu) */
#define POLICY_MAX_SPEC_GPU 8000     /* milli-GPU of the largest node spec (artifact MaxSpecGpu) */

typedef struct policy_ctx {
    const frag_typical *typical;     /* typical pods (fgd) */
    const double *node_frag;         /* current F_n per node (fgd) */
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

/* ---- the scheduling cycle -------------------------------------------------------- */

/* Pods come in SHAPES (equal requests and constraints); scores are cached per
 * (shape, node) and recomputed lazily for nodes that changed since. */
typedef struct policy_sched {
    const policy *pol;
    policy_ctx ctx;
    gs_node *nodes;
    size_t nnodes;
    uint32_t *order;                 /* node indexes by name (tie-break order) */
    const gs_pod *shapes;
    size_t nshapes;
    const frag_typical *typical;
    double *frag;                    /* F_n */
    double frag_total;               /* sum of F_n (recomputed exactly now and then) */
    int64_t idle_milli, used_milli;
    uint32_t *version;               /* per node, bumped on every change */
    uint32_t *cache_ver;             /* [shape * nnodes + node] */
    int16_t *cache_score;            /* -1 = does not fit */
    uint8_t *cache_gpus;
    uint32_t *scratch;
    rng rng;
    gorand *go;                      /* profile openb-artifact: Go's stream for the cycle's draws, else NULL */
    uint64_t cycles, score_calls;
} policy_sched;

/* Set up over `nodes` (copied) whose names are `names` (for tie-breaks).
 * `shapes` and `typical` must outlive the scheduler. */
void policy_sched_init(policy_sched *s, const policy *pol, const gs_node *nodes, const char *const *names,
                       size_t nnodes, const gs_pod *shapes, size_t nshapes, const frag_typical *typical,
                       uint64_t seed);
void policy_sched_free(policy_sched *s);
/* One cycle for a pod of shape `k`: Filter every node, Score the feasible
 * ones, pick the best (ties: name order), Reserve. False if nothing fits. */
bool policy_sched_place(policy_sched *s, size_t k, int32_t *node, uint32_t *gpus);
/* A pod of shape k placed on (node, gpus) leaves. */
void policy_sched_release(policy_sched *s, size_t k, int32_t node, uint32_t gpus);
/* A pod of shape k placed on `node` with GPUs `from` holds GPUs `to` instead
 * (DRA mode: the allocator chose the devices). */
void policy_sched_move(policy_sched *s, size_t k, int32_t node, uint32_t from, uint32_t to);
/* Break ties by rank instead of name: node i sorts as rank[i] (the FGD
 * artifact renames node i "%04d-" + name with rank[i], selectHost keeps the
 * smallest name among equal scores). */
void policy_sched_set_tie_order(policy_sched *s, const uint32_t *rank);
/* Draw from Go's math/rand stream `g` (not owned) as the artifact's scheduler
 * does, in this order per cycle: rand.Intn(100) (plugin-metrics sampling,
 * vendored scheduler.go:464); Random's PreScore rand.Intn(feasible nodes)
 * when more than one node is feasible (one feasible node is taken without
 * scoring, generic_scheduler.go:158), indexing the feasible nodes in the
 * trace's node order (the artifact's list holds them in the order its
 * parallel filter goroutines finish, over nodes in creation order: not
 * reproducible, so Random matches in distribution); its GPU by reservoir sampling with
 * rand.Intn (open_gpu_share.go:316); on failure DefaultPreemption's
 * rand.Int31n(nodes) (default_preemption.go:183). Only Random's placements
 * depend on these draws. */
void policy_sched_use_gorand(policy_sched *s, gorand *g);
/* A random GPU with room for p on n, drawn as the artifact's "random" GPU
 * selection (allocateGpuIdBasedOnRandomFit); whole GPUs: the lowest free. */
uint32_t policy_random_gpus_go(const gs_node *n, const gs_pod *p, gorand *g);
/* Cluster fragmentation (milli-GPU), exact sum of F_n. */
double policy_sched_frag(const policy_sched *s);

#endif
