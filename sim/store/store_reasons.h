/* store_reasons.h -- the pending_reasons table of the results database (store_reasons.c). */
#ifndef DRASIM_STORE_STORE_REASONS_H
#define DRASIM_STORE_STORE_REASONS_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create pending_reasons if needed and write run `run_id`'s rows. 0 or -1. */
int store_write_pending_reasons(sqlite3 *db, int64_t run_id, const sim_run *run);
/* store_warnings.c: create run_warnings if needed and write run `run_id`'s warnings. 0 or -1. */
int store_write_warnings(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
