/*
 * dra_trial.h -- what-if placements in DRA mode (the cluster autoscaler's
 * binpacking estimator and scale-down simulation, autoscale/): between
 * _begin and _end the DynamicResources plugin reserves and unreserves as
 * usual, but _end forgets every record and counter those placements left, so
 * the run's results are as if they never happened. Every what-if placement
 * must be released (sched_release) before _end, and use pod ids no real pod
 * has (the run's pod count and up).
 */
#ifndef DRASIM_SCHED_DRA_TRIAL_H
#define DRASIM_SCHED_DRA_TRIAL_H

#include "sched/dra/dra.h"

typedef struct dra_trial {
    bool active;
    size_t records, pod_first, results, rare;
    uint64_t claims_created, claims_deleted, shared_allocated, shared_freed, allocate_calls, steps;
    double cur_gpu_equiv, peak_gpu_equiv;
    int64_t cur_mig_devices;
    uint64_t mig[2];
    arena keep;                       /* the run's arena while the trial's results go to a scratch one */
    arena scratch;                    /* reused by the next trial */
} dra_trial;

void dra_trial_begin(dra_state *d, dra_trial *t);
void dra_trial_end(dra_state *d, dra_trial *t);
void dra_trial_free(dra_trial *t);

#endif
