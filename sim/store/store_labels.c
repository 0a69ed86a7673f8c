/* store_labels.c -- pod_labels(run_id, pod_id, key, value): the labels a Lua
 * generator or a job trace gave its pods (docs/SCHEMA.md), one row per label
 * of each labelled pod, from the pods' shared label sets (engine/sim_labels.h).
 * Like user_samples, the table is created by the first run that has any, so
 * databases of runs without labels are unchanged byte for byte. */
#include <sqlite3.h>
#include <string.h>

#include "engine/sim_labels.h"
#include "store/store_labels.h"

int store_write_pod_labels(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (!run->labels || !run->labels->npods) return 0;
    /* The index is made before the rows: made after them it would sort every row in memory (peak RSS
     * grows with the rows) for ~1/3 less CPU. */
    if (sqlite3_exec(db,
                     "CREATE TABLE IF NOT EXISTS pod_labels(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL,"
                     " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, pod_id, key)) WITHOUT ROWID;"
                     "CREATE INDEX IF NOT EXISTS pod_labels_key ON pod_labels(key, value);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT INTO pod_labels VALUES(?,?,?,?)", -1, &s, NULL) != SQLITE_OK) return -1;
    int rc = 0;
    sqlite3_bind_int64(s, 1, run_id);   /* bindings stay across sqlite3_reset */
    for (size_t pod = 0; pod < run->labels->pod_set.len && !rc; pod++) {
        const k8s_kv *kv;
        size_t n = sim_pod_labels(run, (uint32_t)pod, &kv);
        for (size_t i = 0; i < n && !rc; i++) {
            sqlite3_bind_int64(s, 2, (int64_t)pod);
            sqlite3_bind_text(s, 3, kv[i].key, (int)strlen(kv[i].key), SQLITE_STATIC);
            sqlite3_bind_text(s, 4, kv[i].value, (int)strlen(kv[i].value), SQLITE_STATIC);
            rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
            sqlite3_reset(s);
        }
    }
    sqlite3_finalize(s);
    return rc;
}
