/* store_dra.h -- the claim_allocations table of the results database (store_dra.c). */
#ifndef DRASIM_STORE_STORE_DRA_H
#define DRASIM_STORE_STORE_DRA_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create claim_allocations if needed and write run `run_id`'s rows. 0 or -1. */
int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
