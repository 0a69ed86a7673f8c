/* store_labels.h -- pods' labels in the results database: tables label_sets
 * and pod_label_sets, view pod_labels (store_labels.c). */
#ifndef DRASIM_STORE_STORE_LABELS_H
#define DRASIM_STORE_STORE_LABELS_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* Create label_sets, pod_label_sets and the view pod_labels if run `run_id`
 * has labelled pods and write its rows. 0 or -1. */
int store_write_pod_labels(sqlite3 *db, int64_t run_id, const sim_run *run);
/* The view pod_labels in main when it has the tables label_sets and
 * pod_label_sets but no pod_labels (a database built by copying tables:
 * `report A.db B.db`, `merge`, `plan`); a table pod_labels of an older
 * database gets their rows instead. 0 or -1. */
int store_label_view(sqlite3 *db);

#endif
