/* store_cd.h -- the compute_domain_daemons table of the results database (store_cd.c). */
#ifndef DRASIM_STORE_STORE_CD_H
#define DRASIM_STORE_STORE_CD_H

#include <sqlite3.h>
#include <stdint.h>

#include "engine/sim.h"

/* When run `run_id` kept ComputeDomains (engine/sim_cd.h): create
 * compute_domain_daemons if needed and write its rows; else nothing. 0 or -1. */
int store_write_cd(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
