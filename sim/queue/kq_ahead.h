/*
 * kq_ahead.h -- `drasim admit`: the snapshot's other pending Workloads of the
 * asked Workload's ClusterQueue that Kueue would take as heads before it.
 *
 * Kueue's scheduler takes one head per ClusterQueue per cycle, in the
 * ClusterQueue's queue order (kubernetes-sigs/kueue ff69552e79
 * pkg/cache/queue/cluster_queue.go queueOrderingFunc, baseCompareFunc:
 * higher priority, earlier queue-order timestamp, then uid; with admission
 * fair sharing first the lower usage of the Workload's LocalQueue,
 * pkg/util/admissionfairsharing CalculateUsage over its consumed resources
 * and the entry penalties of admissions since, scheduler.go
 * updateEntryPenalty). Cycles run back to back: each head that fits is
 * admitted (with AFS its LocalQueue gets the entry penalty, which re-orders
 * the rest); one that does not fit stays the head under StrictFIFO (the
 * asked Workload is then queued behind it) or is set aside under
 * BestEffortFIFO. A head that needs preemption is treated as not fitting
 * (its preemptions are not simulated). Pending Workloads of other
 * ClusterQueues are not considered.
 */
#ifndef DRASIM_QUEUE_KQ_AHEAD_H
#define DRASIM_QUEUE_KQ_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "queue/kq_objects.h"

typedef struct kq_ahead {
    size_t admitted;                 /* Workloads admitted before the asked one */
    const char *blocker;             /* StrictFIFO: the head the asked one is queued behind; NULL = none */
    bool afs;                        /* admission fair sharing ordered the queue */
    kq_wl **wls;                     /* the admitted ones' snapshot entries (owned) */
} kq_ahead;

/* Admit into l->s, in Kueue's order, the pending Workloads of o ahead of
 * `asked` (whose request is `ap`). */
void kq_admit_ahead(kq_loaded *l, const kq_objects *o, const kq_workload *asked, const kq_pending *ap, kq_ahead *out);
void kq_ahead_free(kq_ahead *a);

#endif
