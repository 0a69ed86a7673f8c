/* store_autoscaler.h -- the cluster autoscaler's tables (docs/SCHEMA.md):
 * autoscaler_groups, autoscaler_nodes, autoscaler_events. Created by the
 * first run that has an autoscaler; runs without one write nothing. */
#ifndef DRASIM_STORE_STORE_AUTOSCALER_H
#define DRASIM_STORE_STORE_AUTOSCALER_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Write run `run_id`'s rows when it ran an autoscaler. 0 or -1. */
int store_write_autoscaler(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
