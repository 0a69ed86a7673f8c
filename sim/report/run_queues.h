/* run_queues.h -- a run's closing table per Kueue ClusterQueue (docs/QUEUES.md). */
#ifndef DRASIM_REPORT_RUN_QUEUES_H
#define DRASIM_REPORT_RUN_QUEUES_H

#include <stdio.h>

#include "engine/sim.h"

/* "  by ClusterQueue (Kueue; censored waits to admission):" and one row per
 * ClusterQueue with queue_* summary rows (none: nothing printed). */
void run_queues_print(const sim_run *run, FILE *out);

#endif
