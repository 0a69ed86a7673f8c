/* store_dra.h -- the devices pods' claims got in the results database:
 * tables claim_sets and pod_claim_sets, view claim_allocations (store_dra.c). */
#ifndef DRASIM_STORE_STORE_DRA_H
#define DRASIM_STORE_STORE_DRA_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create claim_sets, pod_claim_sets and the view claim_allocations if
 * needed and write run `run_id`'s rows. 0 or -1. */
int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run);
/* The view claim_allocations in main when it has the tables claim_sets and
 * pod_claim_sets but no claim_allocations (a database built by copying
 * tables: `report A.db B.db`, `merge`, `plan`); a table claim_allocations of
 * an older database gets their rows instead. 0 or -1. */
int store_claim_view(sqlite3 *db);

#endif
