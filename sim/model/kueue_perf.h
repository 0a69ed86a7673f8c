/*
 * kueue_perf.h -- Kueue's scheduler performance generator configs
 * (kubernetes-sigs/kueue ff69552e79, test/performance/scheduler/runner/
 * generator/generator.go Config; configs/baseline and large-scale), read
 * so that `drasim kueue-perf` replays them (docs/QUEUES.md, "Kueue's
 * performance scenarios"). Cohort sets x queue sets x workload sets:
 *   cohorts: [{className, count, queuesSets: [{className, count, nominalQuota,
 *     borrowingLimit, reclaimWithinCohort, withinClusterQueue, workloadsSets:
 *     [{count, creationIntervalMs, workloads: [{className, runtimeMs,
 *     priority, request}]}]}]}]
 * and resourceFlavor: {name}. TAS configs (topology, podCount, tas*) are
 * refused: drasim replays the quota configs only.
 */
#ifndef DRASIM_MODEL_KUEUE_PERF_H
#define DRASIM_MODEL_KUEUE_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "model/yaml_tree.h"
#include "util/strbuf.h"

typedef struct kperf_wl {
    const char *cls;              /* className (interned) */
    int64_t runtime_ms;
    int32_t priority;
    int64_t request_milli;        /* cpu request, millicores */
} kperf_wl;

typedef struct kperf_wlset {
    int64_t count, interval_ms;
    kperf_wl *wls;
    size_t n;
} kperf_wlset;

typedef struct kperf_qset {
    const char *cls;
    int64_t count;
    int64_t nominal_milli, borrowing_milli;   /* borrowing_milli -1: no limit */
    const char *reclaim, *within;             /* preemption policies (NULL: Kueue's default Never) */
    kperf_wlset *sets;
    size_t n;
} kperf_qset;

typedef struct kperf_cohort {
    const char *cls;
    int64_t count;
    kperf_qset *qs;
    size_t n;
} kperf_cohort;

typedef struct kperf_config {
    const char *flavor;           /* resourceFlavor.name, default "rf" as generator.go */
    kperf_cohort *cohorts;
    size_t n;
    int64_t workloads;            /* in all */
} kperf_config;

/* Parse a generator file (0, or -1 with err: FILE:LINE:COL). */
int kperf_load(const char *path, kperf_config *out, strbuf *err);
int kperf_load_mem(const char *name, const char *data, size_t len, kperf_config *out, strbuf *err);
void kperf_free(kperf_config *c);

#endif
