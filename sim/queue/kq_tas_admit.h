/*
 * kq_tas_admit.h -- Kueue TAS in an admission cycle: after the quota check,
 * the TopologyAssignment of every pod set on a TAS flavor (kq_tas_admit.c).
 */
#ifndef DRASIM_QUEUE_KQ_TAS_ADMIT_H
#define DRASIM_QUEUE_KQ_TAS_ADMIT_H

#include "queue/kq.h"
#include "queue/kq_tas.h"

/* `out` has one entry per pod set (nlevels 0: no TAS for it). A workload the
 * quota admits but the topology does not hold becomes not admitted (mode
 * Preempt, or NoFit when empty nodes would not hold it either) with Kueue's
 * reason. In Preempt mode the victims are chosen again with the TAS check
 * (preemption.go workloadFits: the candidates' TAS usage removed). No effect
 * when the snapshot has no Topology. s->o: the objects. */
void kq_tas_admit(kq_snapshot *s, const kq_pending *p, kq_result *r, kq_tas_assignment *out);

/* Where the TAS step finds a flavor's snapshot: get(ctx, flavor, empty)
 * returns it (not owned by the caller) with the nodes' capacity minus the
 * usage it knows of, or none at all when `empty`; NULL: no room for it.
 * For TAS-aware preemption: pass(ctx) starts a fit check (the snapshots get
 * returns next start from their usage less the removed candidates'), and
 * wl_usage(ctx, w, add) removes (add false) or restores admitted Workload
 * w's TAS usage. */
typedef struct kq_tas_source {
    kq_tas_snapshot *(*get)(void *ctx, const kq_flavor *fl, bool empty);
    void (*pass)(void *ctx);
    void (*wl_usage)(void *ctx, const kq_wl *w, bool add);
    void *ctx;
} kq_tas_source;

/* kq_tas_admit over the snapshots of `src` (a run's live nodes,
 * queue/kq_tas_run.h); src NULL: the snapshot's Nodes and Workloads. */
void kq_tas_admit_with(kq_snapshot *s, const kq_pending *p, kq_result *r, kq_tas_assignment *out,
                       const kq_tas_source *src);

#endif
