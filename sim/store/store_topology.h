/* store_topology.h -- the topology_samples table of the results database (store_topology.c). */
#ifndef DRASIM_STORE_STORE_TOPOLOGY_H
#define DRASIM_STORE_STORE_TOPOLOGY_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* When run `run_id` measured racks (engine/sim_topology.h): create
 * topology_samples if needed and write its rows; else nothing. 0 or -1. */
int store_write_topology(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
