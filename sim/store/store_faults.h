/* store_faults.h -- the fault_timeline table of the results database (store_faults.c). */
#ifndef DRASIM_STORE_STORE_FAULTS_H
#define DRASIM_STORE_STORE_FAULTS_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create fault_timeline if needed and write run `run_id`'s rows; nothing
 * (not even the table) for a run without faults. 0 or -1. */
int store_write_faults(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
