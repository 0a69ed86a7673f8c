/* store_cost.h -- the cost_pools and power_samples tables of the results database (store_cost.c). */
#ifndef DRASIM_STORE_STORE_COST_H
#define DRASIM_STORE_STORE_COST_H

#include <sqlite3.h>
#include <stdint.h>

#include "engine/sim.h"

/* Write run_id's rows; nothing (not even the tables) for runs without prices or power. */
int store_write_cost(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
