/*
 * kq.h -- Kueue's admission semantics over the objects of model/kueue.h:
 * the quota tree (ClusterQueues and hierarchical Cohorts with nominal quota,
 * borrowing and lending limits), flavor assignment with flavorFungibility,
 * classic preemption and Dominant Resource Share.
 *
 * Followed release: kubernetes-sigs/kueue ff69552e79 (the v0.19 line):
 *   pkg/cache/scheduler/resource_node.go      available, potentialAvailable, usage up the tree
 *   pkg/cache/scheduler/fair_sharing.go       dominantResourceShare, calculateLendable
 *   pkg/scheduler/flavorassigner/flavorassigner.go  findFlavorForPodSets, fitsResourceQuota,
 *                                             isPreferred, shouldTryNextFlavor
 *   pkg/scheduler/preemption/preemption.go, preemption/classical/ (candidates), common/ordering.go
 * Every name here is interned (pointer equality).
 *
 * The layer sits between the workload sources and the scheduler: the engine
 * calls it (queue/kq_engine.h); it never calls workload/ or report/.
 */
#ifndef DRASIM_QUEUE_KQ_H
#define DRASIM_QUEUE_KQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kueue.h"
#include "util/strbuf.h"

#define KQ_UNLIMITED INT64_MAX
#define KQ_NO_LIMIT (-1)

typedef struct kq_node kq_node;

/* A ClusterQueue or a Cohort in the quota tree; arrays are per (flavor,
 * resource) index of the snapshot (kq_snapshot.frs). */
struct kq_node {
    const char *name;
    bool is_cq;
    kq_node *parent;
    kq_node **child_cohorts, **child_cqs;
    size_t nchild_cohorts, nchild_cqs, cap_cohorts, cap_cqs;
    int64_t *nominal, *borrowing_limit, *lending_limit;   /* limits KQ_NO_LIMIT when unset */
    bool *declared;                                       /* fr in this node's own quotas */
    bool *present;                                        /* fr in the subtree's quotas (SubtreeQuota's keys) */
    int64_t *subtree, *usage;
    double weight;                                        /* fairSharing.weight */
    const kq_cluster_queue *cq;                           /* is_cq */
    const kq_cohort *cohort;                              /* !is_cq */
    size_t index;                                         /* in kq_snapshot.nodes */
    struct kq_wl **adm;                                   /* is_cq: its admitted workloads (owned by the caller), in
                                                           * admission order; NULL: one that left (compacted when half are) */
    size_t nadm, cap_adm, holes_adm;
    /* is_cq: what lets kq_preempt.c read `adm` backwards as candidates in
     * CandidatesOrdering instead of collecting and ordering all of them */
    struct kq_wl **evl;                                   /* its admitted workloads marked evicted (any order) */
    size_t nevl, cap_evl;
    int32_t adm_prio;                                     /* the priority of the first workload listed since it was empty */
    size_t adm_odd;                                       /* listed workloads with another priority or a reservation text */
    int64_t adm_last;                                     /* the latest reserved_ms listed */
    bool adm_unsorted;                                    /* some reserved_ms listed after a later one */
};

typedef struct kq_fr {
    const char *flavor, *resource;
} kq_fr;

typedef struct kq_usage {            /* one (flavor, resource) amount */
    uint32_t fr;
    int64_t amount;
} kq_usage;

/* A workload as the semantics see it. */
typedef struct kq_wl {
    const kq_workload *obj;          /* NULL for workloads made by the engine */
    const char *name;
    int32_t priority;
    const char *queue_order_time;    /* creationTimestamp, compared as text (RFC 3339 UTC) */
    int64_t order_ms;                /* the engine's times (used when queue_order_time is NULL) */
    int64_t reserved_ms;             /* quota reservation time (engine); -1 = use obj */
    const char *reserved_at;
    bool evicted;
    kq_node *cq;                     /* admitted: its ClusterQueue */
    kq_usage *usage;                 /* admitted: total usage per fr */
    size_t nusage;
    uint64_t seq;                    /* uid order */
    size_t cq_slot;                  /* admitted: its index in cq->adm */
} kq_wl;

/* Kueue's TAS check inside preemption (kq_tas_admit.c; preemption.go
 * workloadFits: FindTopologyAssignmentsForWorkload on the snapshot with the
 * candidates' TAS usage removed). Set only while the targets of a TAS
 * Workload are chosen; NULL otherwise. */
typedef struct kq_tas_hook {
    bool (*fits)(void *ctx);                             /* the preemptor's TAS requests fit now */
    void (*wl_usage)(void *ctx, const struct kq_wl *w, bool add);   /* a candidate's TAS usage leaves or returns */
    void *ctx;
} kq_tas_hook;

typedef struct kq_snapshot {
    const kq_objects *o;
    const kq_tas_hook *tas_hook;     /* TAS-aware preemption in progress (kq_tas_admit.c), else NULL */
    kq_fr *frs;
    size_t nfr, cap_fr;
    kq_node **nodes;                 /* ClusterQueues (in input order), then cohorts */
    size_t nnodes, ncq;
    const char *pods_name;           /* intern("pods"), looked up once */
    bool fair_sharing;               /* Configuration fairSharing: DRS ordering and fair preemption */
    kq_fs_strategy fs_strategies[2]; /* preemptionStrategies */
    size_t nfs_strategies;
} kq_snapshot;

/* Build the tree from checked objects (kq_objects_check done). */
void kq_snapshot_build(kq_snapshot *s, const kq_objects *o);
void kq_snapshot_free(kq_snapshot *s);
kq_node *kq_snapshot_cq(const kq_snapshot *s, const char *name);
kq_node *kq_snapshot_cohort(const kq_snapshot *s, const char *name);
/* Index of (flavor, resource), added when absent (never shrinks). */
uint32_t kq_fr_index(kq_snapshot *s, const char *flavor, const char *resource);
/* Index or -1 without adding. */
int kq_fr_find(const kq_snapshot *s, const char *flavor, const char *resource);

/* Usage up the tree (resource_node.go addUsage / removeUsage). */
void kq_add_usage(kq_node *n, uint32_t fr, int64_t v);
void kq_remove_usage(kq_node *n, uint32_t fr, int64_t v);
void kq_admit_wl(kq_snapshot *s, kq_wl *w);      /* adds w's usage and lists it */
void kq_unadmit_wl(kq_snapshot *s, kq_wl *w);    /* removes both */
/* Mark an admitted (or about to be admitted) workload evicted: its Kueue
 * Evicted condition, which puts it first among preemption candidates. Use
 * this, not the field, once it is listed (its ClusterQueue keeps a list). */
void kq_wl_mark_evicted(kq_wl *w);
/* True when cq's listed workloads all have its first one's priority, no
 * reservation text and reserved_ms in listing order: then `adm` read
 * backwards is CandidatesOrdering up to ties of reserved_ms (kq_preempt.c). */
bool kq_adm_ordered(const kq_node *cq);
/* Add or remove only the usage (preemption simulation). */
void kq_wl_usage(kq_wl *w, bool add);
/* The same for a preemption candidate: its quota usage and, during a TAS
 * Workload's preemption (s->tas_hook), its TAS usage. */
void kq_victim_usage(const kq_snapshot *s, kq_wl *w, bool add);
/* workloadFits' TAS part: true without a TAS preemption in progress. */
bool kq_tas_hook_fits(const kq_snapshot *s);

int64_t kq_local_quota(const kq_node *n, uint32_t fr);
int64_t kq_local_available(const kq_node *n, uint32_t fr);
int64_t kq_available(const kq_node *n, uint32_t fr);            /* >= 0 (ClusterQueueSnapshot.Available) */
int64_t kq_potential_available(const kq_node *n, uint32_t fr);
bool kq_borrowing_with(const kq_node *n, uint32_t fr, int64_t v);
bool kq_within_nominal(const kq_node *n, const uint32_t *frs, size_t nfrs);
int64_t kq_sat_add(int64_t a, int64_t b);

/* ---- admission of one workload ----------------------------------------------- */

typedef enum { KQ_NOFIT, KQ_PREEMPT, KQ_FIT } kq_mode;

typedef struct kq_request {          /* one pod set's total request of one resource */
    size_t pod_set;
    const char *resource;
    int64_t per_pod, total;
} kq_request;

typedef struct kq_choice {           /* the flavor chosen for one pod set's resource */
    size_t pod_set;
    const char *resource;
    const char *flavor;
    kq_mode mode;
    int borrow;                      /* borrowing level (0 = within the ClusterQueue's nominal) */
} kq_choice;

typedef struct kq_victim {
    kq_wl *wl;
    const char *reason;              /* InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing */
} kq_victim;

typedef struct kq_result {
    bool admitted;
    bool borrowing;
    kq_mode mode;
    kq_choice *choices;
    size_t nchoices;
    kq_victim *victims;
    size_t nvictims;
    strbuf reason;                   /* Kueue's message when not admitted */
    size_t reason_base;              /* Preempt: reason's length before ". Pending the preemption of N workload(s)" */
    kq_usage *usage;                 /* the assignment's total usage (TotalRequestsFor; owned) */
    size_t nusage;
    strbuf why;                      /* drasim's queue-level why-pending line */
} kq_result;

void kq_result_free(kq_result *r);

/* The pending workload's pod sets in request form. */
typedef struct kq_pending {
    kq_wl wl;
    kq_node *cq;
    const char **ps_names;
    int32_t *ps_counts;
    const k8s_pod **ps_specs;        /* per pod set: requests per pod, selector, tolerations */
    const kq_topology_request **ps_tas;  /* per pod set: TAS request (NULL: none; kq_tas_admit.c) */
    const int64_t *const *ps_amounts;    /* per pod set: kq_resource_value of each of ps_specs' requests,
                                          * worked out once by the caller; NULL: worked out here */
    size_t npod_sets;
} kq_pending;

/* Kueue's TAS check of a flavor for a pod set in flavor assignment
 * (tas_flavorassigner.go checkPodSetAndFlavorMatchForTAS): NULL when the
 * flavor may be used, else the message (static until the next call). */
const char *kq_tas_flavor_mismatch(const kq_objects *o, const kq_cluster_queue *cq, const kq_topology_request *r,
                                   const kq_flavor *fl);

/* Flavor assignment, then (when a flavor needs it) preemption: Kueue's
 * scheduler cycle for one head workload. */
void kq_try_admit(kq_snapshot *s, const kq_pending *p, kq_result *r);

/* Classic preemption targets for `usage` (frs needing preemption in `need`);
 * returns the number of targets written to *out (malloc'd; NULL when none). */
size_t kq_preempt_targets(kq_snapshot *s, const kq_wl *in, kq_node *cq, const uint32_t *need, size_t nneed,
                          const kq_usage *usage, size_t nusage, kq_victim **out);

/* Policy and candidate order shared by classic and fair preemption
 * (common/preemption_policy.go SatisfiesPreemptionPolicy, common/ordering.go
 * CandidatesOrdering without admission fair sharing). */
bool kq_satisfies_policy(const kq_wl *preemptor, const kq_wl *cand, kq_policy p);
int kq_candidate_cmp(const kq_wl *a, const kq_wl *b, const kq_node *preemptor_cq);
bool kq_wl_uses(const kq_wl *w, const uint32_t *frs, size_t nfrs);

/* Fair-sharing preemption (kq_fair.c; preemption.go fairPreemptions). */
size_t kq_fair_targets(kq_snapshot *s, const kq_wl *in, kq_node *cq, const uint32_t *need, size_t nneed,
                       const kq_usage *usage, size_t nusage, kq_victim **out);

/* ---- Dominant Resource Share ------------------------------------------------- */

typedef struct kq_drs {
    double ratio;                    /* unweighted, borrowed * 1000 / lendable of the dominant resource */
    double weight;
    const char *dominant;
    bool borrowing;
} kq_drs;

kq_drs kq_dominant_share(const kq_snapshot *s, const kq_node *n, const kq_usage *req, size_t nreq);
/* The weighted share as Kueue reports it (ceil; INT64_MAX for weight 0 while borrowing). */
int64_t kq_drs_value(const kq_drs *d);
int kq_drs_cmp(const kq_drs *a, const kq_drs *b);
/* DRS.IsBorrowingOn: n's usage is above its subtree quota on a fr of `req` (amount > 0). */
bool kq_borrowing_on(const kq_node *n, const kq_usage *req, size_t nreq);

#endif
