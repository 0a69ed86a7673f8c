/* store_labels.h -- the pod_labels table of the results database (store_labels.c). */
#ifndef DRASIM_STORE_STORE_LABELS_H
#define DRASIM_STORE_STORE_LABELS_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create pod_labels if run `run_id` has labelled pods and write its rows. 0 or -1. */
int store_write_pod_labels(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
