/*
 * store_faults.c -- fault_timeline (docs/SCHEMA.md): the GPUs by health
 * after every instant at which a fault changed something (workload/faults.h).
 * Created by the first run that has faults, so databases of runs without
 * faults are unchanged.
 */
#include "store/store_faults.h"

#include <sqlite3.h>

#include "workload/faults.h"

int store_write_faults(sqlite3 *db, int64_t id, const sim_run *run) {
    size_t n;
    const fault_point *p = faults_timeline(run, &n);
    if (!n) return 0;
    if (sqlite3_exec(db,
                     "CREATE TABLE IF NOT EXISTS fault_timeline(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL,"
                     " gpus_healthy INTEGER NOT NULL, gpus_tainted INTEGER NOT NULL, gpus_failed INTEGER NOT NULL,"
                     " nodes_down INTEGER NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT INTO fault_timeline VALUES(?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK) return -1;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        sqlite3_bind_int64(s, 1, id);
        sqlite3_bind_int64(s, 2, p[i].t);
        sqlite3_bind_int64(s, 3, p[i].healthy);
        sqlite3_bind_int64(s, 4, p[i].tainted);
        sqlite3_bind_int64(s, 5, p[i].failed);
        sqlite3_bind_int64(s, 6, p[i].nodes_down);
        rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return rc;
}
