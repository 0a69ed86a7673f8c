/*
 * store_reasons.c -- table pending_reasons: the pods pending at the end of a
 * run, per group and pending reason (engine/sim_reasons.h). The table exists
 * in every database (no rows when no pod is pending).
 */
#include "store/store_reasons.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "engine/sim_reasons.h"

static const char *const reasons_sql =
    "CREATE TABLE IF NOT EXISTS pending_reasons(run_id INTEGER NOT NULL, grp TEXT NOT NULL, reason TEXT,"
    " pods INTEGER NOT NULL);\n";

int store_write_pending_reasons(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, reasons_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    size_t n;
    sim_reason_row *rows = sim_pending_reasons(run, &n);
    sqlite3_stmt *s = NULL;
    int rc = 0;
    if (n && sqlite3_prepare_v2(db, "INSERT INTO pending_reasons VALUES(?,?,?,?)", -1, &s, NULL) != SQLITE_OK) rc = -1;
    for (size_t i = 0; !rc && i < n; i++) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_text(s, 2, rows[i].grp, -1, SQLITE_STATIC);
        if (rows[i].reason) sqlite3_bind_text(s, 3, rows[i].reason, -1, SQLITE_STATIC);
        else sqlite3_bind_null(s, 3);
        sqlite3_bind_int64(s, 4, rows[i].pods);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    free(rows);
    return rc;
}
