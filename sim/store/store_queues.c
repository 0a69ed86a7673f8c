/*
 * store_queues.c -- tables queue_usage (per ClusterQueue and flavor/resource:
 * nominal quota, usage, borrowed) and queue_state (per ClusterQueue: pending,
 * admitted, admitted but not yet placed, Dominant Resource Share) at each
 * sample of a run with `queues:` (queue/gate.h, docs/SCHEMA.md).
 */
#include "store/store_queues.h"

#include <sqlite3.h>

#include "queue/gate.h"
#include "store/store_rows.h"

static const char *const queues_sql =
    "CREATE TABLE IF NOT EXISTS queue_usage(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL, resource TEXT NOT NULL, nominal REAL NOT NULL,"
    " usage REAL NOT NULL, borrowed REAL NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS queue_state(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " cluster_queue TEXT NOT NULL, pending INTEGER NOT NULL, admitted INTEGER NOT NULL,"
    " unscheduled INTEGER NOT NULL, share INTEGER NOT NULL, dominant_resource TEXT);\n";

/* A cursor over one of the sample vectors for store_rows_insert: every row
 * in one INSERT ... SELECT (store_rows.h), the same rows, values and order
 * as one bound INSERT per row (a tenth of a 1,000-node run's instructions
 * with queues went to those binds and steps: tools/bench/bench_queues.sh). */
typedef struct sample_cursor {
    int64_t run_id;
    size_t i, n;                     /* the current row is i - 1 */
    const void *rows;
} sample_cursor;

static bool next_sample(void *ctx) {
    sample_cursor *c = ctx;
    if (c->i >= c->n) return false;
    c->i++;
    return true;
}

static void text_or_null(sqlite3_context *out, const char *v) {
    if (v) sqlite3_result_text(out, v, -1, SQLITE_STATIC);   /* interned or the objects': outlive the statement */
    else sqlite3_result_null(out);
}

static void usage_column(void *ctx, sqlite3_context *out, int col) {
    const sample_cursor *c = ctx;
    const queue_usage_row *u = (const queue_usage_row *)c->rows + (c->i - 1);
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, u->t); break;
    case 2: text_or_null(out, u->cq); break;
    case 3: text_or_null(out, u->flavor); break;
    case 4: text_or_null(out, u->resource); break;
    case 5: sqlite3_result_double(out, u->nominal); break;
    case 6: sqlite3_result_double(out, u->usage); break;
    default: sqlite3_result_double(out, u->borrowed); break;
    }
}

static void state_column(void *ctx, sqlite3_context *out, int col) {
    const sample_cursor *c = ctx;
    const queue_state_row *q = (const queue_state_row *)c->rows + (c->i - 1);
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, q->t); break;
    case 2: text_or_null(out, q->cq); break;
    case 3: sqlite3_result_int64(out, q->pending); break;
    case 4: sqlite3_result_int64(out, q->admitted); break;
    case 5: sqlite3_result_int64(out, q->unscheduled); break;
    case 6: sqlite3_result_int64(out, q->share); break;
    default: text_or_null(out, q->dominant); break;
    }
}

static void share_column(void *ctx, sqlite3_context *out, int col) {
    const sample_cursor *c = ctx;
    const queue_share_row *q = (const queue_share_row *)c->rows + (c->i - 1);
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, q->t); break;
    case 2: text_or_null(out, q->queue); break;
    case 3: text_or_null(out, q->resource); break;
    case 4: sqlite3_result_double(out, q->deserved); break;
    case 5: sqlite3_result_double(out, q->limit); break;
    case 6: sqlite3_result_double(out, q->fair_share); break;
    case 7: sqlite3_result_double(out, q->allocated); break;
    default: sqlite3_result_double(out, q->requested); break;
    }
}

/* INSERT the n rows at `rows` into `table` through `column`. */
static int insert_rows(sqlite3 *db, const char *table, int ncols, int64_t run_id, const void *rows, size_t n,
                       void (*column)(void *, sqlite3_context *, int)) {
    if (!n) return 0;
    sample_cursor c = {.run_id = run_id, .n = n, .rows = rows};
    store_rows r = {.ncols = ncols, .ctx = &c, .next = next_sample, .column = column};
    return store_rows_insert(db, table, &r);
}

int store_write_queues(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (!run->gate) return 0;
    if (sqlite3_exec(db, queues_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    const queue_samples *qs = run->gate->samples(run->gate->ctx);
    if (insert_rows(db, "queue_usage", 8, run_id, qs->usage.data, qs->usage.len, usage_column) ||
        insert_rows(db, "queue_state", 8, run_id, qs->state.data, qs->state.len, state_column))
        return -1;
    if (!qs->share.len) return 0;
    /* KAI runs: table queue_fair_share (per Queue and resource: quota, limit,
     * fair share, allocated, requested at each sample) */
    if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS queue_fair_share(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
                         " queue TEXT NOT NULL, resource TEXT NOT NULL, deserved REAL NOT NULL, max_allowed REAL NOT NULL,"
                         " fair_share REAL NOT NULL, allocated REAL NOT NULL, requested REAL NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    return insert_rows(db, "queue_fair_share", 9, run_id, qs->share.data, qs->share.len, share_column);
}
