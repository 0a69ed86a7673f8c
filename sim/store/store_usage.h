/* store_usage.h -- the usage_pools table of the results database (store_usage.c). */
#ifndef DRASIM_STORE_STORE_USAGE_H
#define DRASIM_STORE_STORE_USAGE_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* When run `run_id` had the usage model on (engine/sim_usage.h): create
 * usage_pools if needed and write its rows; else nothing. 0 or -1. */
int store_write_usage(sqlite3 *db, int64_t run_id, const sim_run *run, const inv_node *info);

#endif
