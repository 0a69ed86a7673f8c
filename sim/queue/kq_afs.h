/*
 * kq_afs.h -- Kueue's admission fair sharing in a run: per LocalQueue, the
 * decayed usage that orders the pending Workloads of a ClusterQueue with
 * admissionScope.admissionMode UsageBasedAdmissionFairSharing.
 *
 * Followed: kubernetes-sigs/kueue ff69552e79
 *   pkg/util/admissionfairsharing/admission_fair_sharing.go  calculateAlphaRate,
 *       CalculateEntryPenalty, CalculateUsage, CalculateDecayedConsumed
 *   pkg/controller/core/localqueue_controller.go  reconcileConsumedUsage (a
 *       sample every usageSamplingInterval since the last update)
 *   pkg/controller/core/workload_controller.go    updateAfsConsumedUsage (on
 *       admission: decay to now, then fold the entry penalty in)
 *   pkg/scheduler/scheduler.go                    updateEntryPenalty
 *   pkg/cache/queue/cluster_queue.go              queueOrderingFunc (lower
 *       LocalQueue usage first, then the usual order)
 * Amounts are Kueue's AsApproximateFloat64 of the quantities: cpu in cores,
 * memory in bytes, devices in units; flavors are summed (FlattenFlavors).
 */
#ifndef DRASIM_QUEUE_KQ_AFS_H
#define DRASIM_QUEUE_KQ_AFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kueue.h"

typedef struct kq_afs_lq {
    bool on;                         /* its ClusterQueue uses admission fair sharing */
    double weight;                   /* LocalQueue fairSharing.weight */
    double *consumed, *admitted;     /* per resource: decayed history, live admitted usage */
    int64_t last_update;             /* ms */
} kq_afs_lq;

typedef struct kq_afs {
    const kq_afs_config *cfg;
    const char **res;                /* resource names (interned), sorted: CalculateUsage's order */
    double *res_weight;
    size_t nres;
    kq_afs_lq *lqs;                  /* per LocalQueue of the objects (o->lqs order) */
    size_t nlq;
} kq_afs;

/* 1 - 0.5^(sampling / halfLife); 0 when halfLife is 0 (calculateAlphaRate). */
double kq_afs_alpha(double sampling_ms, double half_life_ms);
/* Set up for the objects' LocalQueues (resources: the ClusterQueues'
 * coveredResources); on is per LocalQueue whose ClusterQueue uses AFS. */
void kq_afs_init(kq_afs *a, const kq_objects *o);
void kq_afs_free(kq_afs *a);
/* The resource's index, or -1. */
int kq_afs_res(const kq_afs *a, const char *resource);
/* A sample of LocalQueue lq at now (reconcileConsumedUsage). */
void kq_afs_sample(kq_afs *a, size_t lq, int64_t now);
/* A Workload of lq admitted at now with usage amt[nres] (already in
 * `admitted`): its entry penalty, settled at once with the decay to now. */
void kq_afs_admitted(kq_afs *a, size_t lq, const double *amt, int64_t now);
/* CalculateUsage: sum of weight x consumed over lqWeight (+inf for weight <= 0). */
double kq_afs_usage(const kq_afs *a, size_t lq);

#endif
