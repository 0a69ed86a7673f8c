/*
 * store_warnings.c -- table run_warnings: what a run warns about its outcome
 * (engine/sim_hints.c: a group starved by spreading, with the remedies).
 * The table exists in every database (no rows when there is no warning).
 */
#include "store/store_reasons.h"

#include <sqlite3.h>

static const char *const warnings_sql =
    "CREATE TABLE IF NOT EXISTS run_warnings(run_id INTEGER NOT NULL, grp TEXT NOT NULL DEFAULT '',"
    " kind TEXT NOT NULL, message TEXT NOT NULL);\n";

int store_write_warnings(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, warnings_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    sqlite3_stmt *s = NULL;
    int rc = 0;
    if (run->warnings.len && sqlite3_prepare_v2(db, "INSERT INTO run_warnings VALUES(?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        rc = -1;
    for (size_t i = 0; !rc && i < run->warnings.len; i++) {
        const sim_warning *w = &run->warnings.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_text(s, 2, w->group ? w->group : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, w->kind, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, w->message, -1, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    return rc;
}
