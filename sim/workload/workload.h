/*
 * workload.h -- turns a pod group's arrival process and duration
 * distribution into a deterministic stream of (arrival time, duration)
 * pairs. Each group draws from its own RNG stream, derived from the run's
 * seed and the group's NAME, so adding or reordering groups does not change
 * the pods of the others.
 */
#ifndef DRASIM_WORKLOAD_WORKLOAD_H
#define DRASIM_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/scenario.h"
#include "util/rng.h"

typedef struct workload_group {
    const pod_group_spec *spec;
    rng rng;
    int64_t emitted;          /* pods produced so far */
    double last;              /* previous arrival (unrounded, for Poisson gaps) */
} workload_group;

void workload_group_init(workload_group *g, const pod_group_spec *spec, uint64_t seed);
/* The next pod: arrival time and run time. False when `count` pods were produced. */
bool workload_next(workload_group *g, sim_time *arrival, sim_time *duration);
/* One draw from a duration distribution (milliseconds, >= 0). */
sim_time workload_sample_duration(const duration_dist *d, rng *r);

#endif
