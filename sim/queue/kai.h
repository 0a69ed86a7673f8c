/*
 * kai.h -- KAI-Scheduler's queueing semantics over the objects of model/kai.h:
 * the queue tree with quota (deserved), limit and overQuotaWeight per
 * resource, the fair-share division recomputed each cycle, queue and job
 * order, and the allocate / reclaim / preempt actions in KAI's order
 * (consolidation is not modelled).
 *
 * Followed release: NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74):
 *   pkg/scheduler/plugins/proportion/proportion.go      request/allocated up the tree, setFairShareForQueues
 *   .../proportion/resource_division/resource_division.go  setResourceShare (deserved, then over quota
 *                                                      by priority and overQuotaWeight, remainders)
 *   .../proportion/resource_share/ (the .go files)                 GetAllocatableShare, GetDominantResourceShare
 *   .../proportion/queue_order/queue_order.go          GetQueueOrderResult
 *   .../proportion/capacity_policy/ (the .go files)                over limit, non-preemptible over quota
 *   .../proportion/reclaimable/{reclaimable.go,strategies/strategies.go}
 *   pkg/scheduler/actions/{allocate,reclaim,preempt}/ (the .go files), plugins/priority/priority.go
 * Resources in KAI's order (gpu, cpu, memory); cpu in millicores, memory in
 * bytes, gpu in devices (fractions allowed); -1 = unlimited.
 */
#ifndef DRASIM_QUEUE_KAI_H
#define DRASIM_QUEUE_KAI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kai.h"
#include "util/strbuf.h"

typedef struct kai_q {               /* rs.QueueAttributes */
    const char *name, *uid, *created;
    int priority;
    int parent;                      /* index, -1 = top queue */
    int *children;
    size_t nchildren;
    double deserved[KAI_NRES], max_allowed[KAI_NRES], weight[KAI_NRES];
    double fair[KAI_NRES], allocated[KAI_NRES], alloc_np[KAI_NRES], request[KAI_NRES];
    double rem_amount;               /* division scratch (remainingRequestedResource) */
    bool rem_present;
} kai_q;

typedef struct kai_job {             /* a PodGroup */
    const char *name, *ns;
    int queue;                       /* leaf queue index, -1 = missing */
    const char *queue_name;
    int32_t priority;
    bool preemptible;
    const char *created;             /* RFC 3339 or NULL */
    int64_t created_ms;              /* engine time when created is NULL */
    uint64_t seq;                    /* input order, the uid tie-break */
    double req[KAI_NRES];            /* pending pods, total */
    double alloc[KAI_NRES];          /* allocated pods, total */
    double (*pod_req)[KAI_NRES];     /* per pending pod (node fit, admit; NULL in runs) */
    const double *pod_one;           /* runs: every pending pod's request (node fit; NULL: aggregate) */
    size_t npods;                    /* pending pods */
    struct kai_slot *slots;          /* allocated pods on nodes (admit) */
    size_t nslots;
    bool running;                    /* holds allocated pods */
    /* decisions of the last cycle */
    bool allocated_now, evicted, pipelined;   /* pipelined: waits for its victims */
    int action;                      /* KAI_ACT_* that placed it */
    bool over_quota;                 /* its queue went above its quota (deserved) when it was placed */
    size_t idx;                      /* its index in kai_state.jobs during a cycle */
    const void *topo;                /* its topology constraint (queue/kai_topology.h); NULL = none */
    void *ud;                        /* the engine's handle */
} kai_job;

enum { KAI_ACT_NONE, KAI_ACT_ALLOCATE, KAI_ACT_RECLAIM, KAI_ACT_PREEMPT };

typedef struct kai_slot {           /* an allocated pod on node `node` */
    int node;
    double v[KAI_NRES];
} kai_slot;

typedef struct kai_node {            /* what is free on one node (admit: the snapshot's; runs: the scheduler's live node) */
    const char *name;
    double free[KAI_NRES];
} kai_node;

typedef struct kai_victim {
    kai_job *job;
    kai_job *for_job;
    const char *reason;              /* static text: KAI's eviction message kind */
} kai_victim;

typedef struct kai_state {
    kai_q *q;
    size_t nq;
    double total[KAI_NRES];          /* proportion.go setTotalResources */
    kai_job **jobs;
    size_t njobs, cap_jobs;
    kai_node *nodes;                 /* NULL: no physical fit check */
    size_t nnodes;
    /* A job with a topology constraint also needs a domain: topo_place(ctx,
     * j, vic, nv, commit) after the aggregate fit, the victims' pods
     * releasing their resources (queue/kai_topology.h); NULL = none. */
    bool (*topo_place)(void *ctx, kai_job *j, kai_job *const *vic, size_t nv, bool commit);
    void *topo_ctx;
    double saturation_multiplier;    /* relcaimerSaturationMultiplier, 1 */
    /* cycle scratch (kai_cycle.c): jobs per leaf Queue in job order with the
     * cursors of the current action / solve, the aggregate free resources */
    struct kai_leaf_jobs *leaf;
    double free_agg[KAI_NRES];
    bool have_free;
    /* cycle output */
    kai_victim *victims;
    size_t nvictims, cap_victims;
} kai_state;

extern const char *const kai_res_name[KAI_NRES];   /* "gpu", "cpu", "memory" */

/* Queues from checked objects (indices in input order). */
void kai_state_init(kai_state *s, const kai_objects *o);
void kai_state_free(kai_state *s);   /* jobs are owned by the caller */
int kai_queue_index(const kai_state *s, const char *name);
bool kai_is_leaf(const kai_state *s, int qi);

/* Fair share: allocated and requested up the tree from every job, then the
 * division from the top queues (with s->total) down (proportion.go). */
void kai_compute_shares(kai_state *s);
/* The division of `total` of resource r over queues idx[0..n) (resource_division.go
 * setResourceShare); returns what is left. */
double kai_divide(kai_state *s, const int *idx, size_t n, int r, double total);

/* One scheduling cycle over s->jobs: allocate, reclaim, preempt (KAI's order;
 * consolidation skipped). Jobs allocated get allocated_now (their request
 * moves to alloc); victims are listed in s->victims (job->evicted). */
void kai_cycle(kai_state *s);

/* The node KAI's allocate would put a pod requesting `req` on among
 * nodes[0..n) (those it fits, binpack order); -1 when it fits none. */
int kai_pick_node(const kai_node *nodes, size_t nnodes, const double *req);

/* Why `j` was not allocated in the last cycle (KAI's reason in its words
 * where KAI has one). */
void kai_why(const kai_state *s, const kai_job *j, strbuf *out);

/* Capacity checks (capacity_policy): index of the resource over the limit
 * of the job's queue or an ancestor (-1 none; *at = that queue). */
int kai_over_limit(const kai_state *s, const kai_job *j, int *at);
int kai_np_over_quota(const kai_state *s, const kai_job *j, int *at);

/* Queue qi's dominant resource share (resource_share GetDominantResourceShare:
 * allocated over its allocatable share, the largest over resources); *res =
 * that resource's index (-1 when nothing is allocated). */
double kai_dominant_share(const kai_state *s, int qi, int *res);

#endif
