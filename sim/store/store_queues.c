/*
 * store_queues.c -- tables queue_usage (per ClusterQueue and flavor/resource:
 * nominal quota, usage, borrowed) and queue_state (per ClusterQueue: pending,
 * admitted, admitted but not yet placed, Dominant Resource Share) at each
 * sample of a run with `queues:` (queue/gate.h, docs/SCHEMA.md).
 */
#include "store/store_queues.h"

#include <sqlite3.h>

#include "queue/gate.h"

static const char *const queues_sql =
    "CREATE TABLE IF NOT EXISTS queue_usage(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL, resource TEXT NOT NULL, nominal REAL NOT NULL,"
    " usage REAL NOT NULL, borrowed REAL NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS queue_state(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " cluster_queue TEXT NOT NULL, pending INTEGER NOT NULL, admitted INTEGER NOT NULL,"
    " unscheduled INTEGER NOT NULL, share INTEGER NOT NULL, dominant_resource TEXT);\n";

/* KAI runs: table queue_fair_share (per Queue and resource: quota, limit,
 * fair share, allocated, requested at each sample). */
static int write_shares(sqlite3 *db, int64_t run_id, const queue_samples *qs) {
    if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS queue_fair_share(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
                         " queue TEXT NOT NULL, resource TEXT NOT NULL, deserved REAL NOT NULL, max_allowed REAL NOT NULL,"
                         " fair_share REAL NOT NULL, allocated REAL NOT NULL, requested REAL NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO queue_fair_share VALUES(?,?,?,?,?,?,?,?,?)", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    for (size_t i = 0; i < qs->share.len && !rc; i++) {
        const queue_share_row *q = &qs->share.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, q->t);
        sqlite3_bind_text(s, 3, q->queue, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, q->resource, -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 5, q->deserved);
        sqlite3_bind_double(s, 6, q->limit);
        sqlite3_bind_double(s, 7, q->fair_share);
        sqlite3_bind_double(s, 8, q->allocated);
        sqlite3_bind_double(s, 9, q->requested);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    return rc;
}

int store_write_queues(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (!run->gate) return 0;
    if (sqlite3_exec(db, queues_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    const queue_samples *qs = run->gate->samples(run->gate->ctx);
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO queue_usage VALUES(?,?,?,?,?,?,?,?)", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    for (size_t i = 0; i < qs->usage.len && !rc; i++) {
        const queue_usage_row *u = &qs->usage.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, u->t);
        sqlite3_bind_text(s, 3, u->cq, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, u->flavor, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 5, u->resource, -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 6, u->nominal);
        sqlite3_bind_double(s, 7, u->usage);
        sqlite3_bind_double(s, 8, u->borrowed);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    s = NULL;
    if (!rc && sqlite3_prepare_v2(db, "INSERT INTO queue_state VALUES(?,?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK) rc = -1;
    for (size_t i = 0; i < qs->state.len && !rc; i++) {
        const queue_state_row *q = &qs->state.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, q->t);
        sqlite3_bind_text(s, 3, q->cq, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 4, q->pending);
        sqlite3_bind_int64(s, 5, q->admitted);
        sqlite3_bind_int64(s, 6, q->unscheduled);
        sqlite3_bind_int64(s, 7, q->share);
        if (q->dominant) sqlite3_bind_text(s, 8, q->dominant, -1, SQLITE_STATIC);
        else sqlite3_bind_null(s, 8);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    if (!rc && qs->share.len) rc = write_shares(db, run_id, qs);
    return rc;
}
