/*
 * store_topology.c -- table topology_samples: per sample, the racks whole
 * free, broken and full, the free GPUs in broken racks and the stranded ones
 * (engine/sim_topology.h, docs/TOPOLOGY.md). Only runs whose nodes carry a
 * rack label write it, so databases of other runs are unchanged.
 */
#include "store/store_topology.h"

#include <sqlite3.h>

#include "engine/sim_topology.h"

static const char *const topology_sql =
    "CREATE TABLE IF NOT EXISTS topology_samples(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " domains INTEGER NOT NULL, whole_free INTEGER NOT NULL, broken INTEGER NOT NULL, full INTEGER NOT NULL,"
    " free_gpus_broken INTEGER NOT NULL, stranded_gpus INTEGER NOT NULL);\n";

int store_write_topology(sqlite3 *db, int64_t run_id, const sim_run *run) {
    const sim_topo *T = run->topo;
    if (!T) return 0;
    if (sqlite3_exec(db, topology_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "INSERT INTO topology_samples VALUES(?,?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < T->samples.len && !rc; i++) {
        const sim_topo_sample *x = &T->samples.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, x->t);
        sqlite3_bind_int64(s, 3, (int64_t)T->d.ndomains);
        sqlite3_bind_int64(s, 4, x->whole_free);
        sqlite3_bind_int64(s, 5, x->broken);
        sqlite3_bind_int64(s, 6, x->full);
        sqlite3_bind_int64(s, 7, x->free_gpus_broken);
        sqlite3_bind_int64(s, 8, x->stranded_gpus);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    return rc;
}
