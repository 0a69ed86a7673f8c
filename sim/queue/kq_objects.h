/*
 * kq_objects.h -- a snapshot of Kueue objects (model/kueue.h) as the quota tree
 * with every admitted Workload charged, and pending Workloads resolved to
 * their ClusterQueue (`drasim admit`).
 */
#ifndef DRASIM_QUEUE_KQ_OBJECTS_H
#define DRASIM_QUEUE_KQ_OBJECTS_H

#include "queue/kq.h"

typedef struct kq_loaded {
    kq_snapshot s;
    kq_wl *wls;                      /* the admitted workloads */
    size_t nwls;
} kq_loaded;

/* Build the tree of checked objects and charge every admitted Workload. */
void kq_load_admitted(kq_loaded *l, const kq_objects *o);
void kq_loaded_free(kq_loaded *l);

/* A pending Workload's request. Returns 0, or 1 when Kueue would keep it
 * pending before any quota check (no queue name, LocalQueue missing), with
 * Kueue's message in `why`. */
int kq_pending_from(kq_loaded *l, const kq_objects *o, const kq_workload *w, kq_pending *p, strbuf *why);
void kq_pending_free(kq_pending *p);

#endif
