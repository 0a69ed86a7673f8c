/* store_labels.c -- pod_labels(run_id, pod_id, key, value): the labels a Lua
 * generator gave its pods (docs/SCHEMA.md). Like user_samples, the table is
 * created by the first run that has any, so databases of runs without labels
 * are unchanged byte for byte. */
#include <sqlite3.h>

#include "store/store_labels.h"

int store_write_pod_labels(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (!run->pod_labels.len) return 0;
    if (sqlite3_exec(db,
                     "CREATE TABLE IF NOT EXISTS pod_labels(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL,"
                     " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, pod_id, key)) WITHOUT ROWID;"
                     "CREATE INDEX IF NOT EXISTS pod_labels_key ON pod_labels(key, value);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT INTO pod_labels VALUES(?,?,?,?)", -1, &s, NULL) != SQLITE_OK) return -1;
    int rc = 0;
    for (size_t i = 0; i < run->pod_labels.len && !rc; i++) {
        const sim_pod_label *l = &run->pod_labels.data[i];
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, (int64_t)l->pod);
        sqlite3_bind_text(s, 3, l->key, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, l->value, -1, SQLITE_STATIC);
        rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return rc;
}
