/*
 * kq_dra.h -- what Kueue charges a pod's DRA claims against quota
 * (kubernetes-sigs/kueue ff69552e79 pkg/dra/): devices per DeviceClass under
 * the resource its deviceClassMappings entry names (claims.go), or, for a
 * DeviceClass whose mapping has counter sources, the counter its matching
 * devices consume (counters.go: partitionable devices such as MIG).
 */
#ifndef DRASIM_QUEUE_KQ_DRA_H
#define DRASIM_QUEUE_KQ_DRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/cel.h"
#include "model/kueue.h"
#include "model/scenario.h"

/* The cluster's DRA objects as Kueue lists them (its ResourceSlice cache
 * and DeviceClasses); NULL arrays when the run has none (device plugin). */
typedef struct kq_dra_cluster {
    const k8s_resource_slice *const *slices;
    size_t nslices;
    const k8s_device_class *const *classes;
    size_t nclasses;
    cel_options cel;                 /* the scheduler's CEL options (features) */
} kq_dra_cluster;

/* One pool of a driver (counters.go groupSlicesByPool): the slices of its
 * highest generation; complete when there are resourceSliceCount of them. */
typedef struct kq_dra_pool {
    const char *name;
    int64_t generation, slice_count;
    const k8s_resource_slice **slices;   /* malloc'd */
    size_t nslices;
} kq_dra_pool;

/* The pools of `driver` among slices[0..n), in pool-name order (malloc'd
 * array, *out; free with kq_dra_pools_free). Returns the count. */
size_t kq_dra_pools(const k8s_resource_slice *const *slices, size_t n, const char *driver, kq_dra_pool **out);
void kq_dra_pools_free(kq_dra_pool *p, size_t n);
static inline bool kq_dra_pool_complete(const kq_dra_pool *p) { return (int64_t)p->nslices == p->slice_count; }

/* counters.go computeCounterCharges: the largest value of counter `name`
 * over the matched devices' consumesCounters (every counter set), clamped to
 * int64 (negative: 0), times `count` saturating. *found false (and 0) when no
 * device consumes that counter. */
int64_t kq_dra_counter_charge(const k8s_device *const *matched, size_t n, const char *name, int64_t count, bool *found);

/* The quota a pod of `ps` is charged for its template claims, appended to
 * *rq (k entries used; an amount the pod also requests directly adds up).
 * Returns the entries appended. A claim Kueue cannot charge (FirstAvailable,
 * allocationMode All, an unmapped DeviceClass, too few matching devices,
 * no consumesCounters) sets *why (malloc'd, Kueue's message) and returns 0:
 * the Workload is inadmissible. */
size_t kq_dra_charge(const kq_config *cfg, const kq_dra_cluster *cl, const pod_group_spec *ps,
                     k8s_resource_amount **rq, size_t k, char **why);

#endif
