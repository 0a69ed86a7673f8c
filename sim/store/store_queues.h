/* store_queues.h -- the queue_usage and queue_state tables of the results
 * database (store_queues.c; queue/gate.h). */
#ifndef DRASIM_STORE_STORE_QUEUES_H
#define DRASIM_STORE_STORE_QUEUES_H

#include <stdint.h>

#include "engine/sim.h"

typedef struct sqlite3 sqlite3;

/* When run `run_id` had a queue manager (`queues:`): create queue_usage and
 * queue_state if needed and write the ClusterQueues' samples; else nothing,
 * so databases of other runs are unchanged. 0 or -1. */
int store_write_queues(sqlite3 *db, int64_t run_id, const sim_run *run);

#endif
