/* queue_waits.h -- the wait summaries both queue gates write (Kueue, KAI). */
#ifndef DRASIM_QUEUE_WAITS_H
#define DRASIM_QUEUE_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "queue/gate.h"

/* Sorts w[0..n) (ms, n > 0) and adds PREFIX_{mean,p50,p90,p99,max}_s for grp:
 * nearest-rank percentiles, as engine/sim_groups.c computes waits. */
void queue_add_waits(const char *prefix, int64_t *w, size_t n, queue_metric_fn add, void *ud, const char *grp);

#endif
