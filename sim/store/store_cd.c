/*
 * store_cd.c -- table compute_domain_daemons: every IMEX daemon's time on a
 * node, with the daemon of another ComputeDomain it waited for
 * (engine/sim_cd.h, docs/TOPOLOGY.md). Only runs whose pods use a
 * ComputeDomain write it, so databases of other runs are unchanged.
 */
#include "store/store_cd.h"

#include "engine/sim_cd.h"
#include "model/compute_domain.h"

static const char *const cd_sql =
    "CREATE TABLE IF NOT EXISTS compute_domain_daemons(run_id INTEGER NOT NULL, compute_domain TEXT NOT NULL,"
    " node_id INTEGER NOT NULL, prev_compute_domain TEXT, bound_ms INTEGER NOT NULL, ready_ms INTEGER NOT NULL,"
    " released_ms INTEGER);\n";

int store_write_cd(sqlite3 *db, int64_t run_id, const sim_run *run) {
    const sim_cd *C = run->cd;
    if (!C) return 0;
    if (sqlite3_exec(db, cd_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "INSERT INTO compute_domain_daemons VALUES(?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    const compute_domain_spec *cds = run->sc->cds;
    for (size_t i = 0; i < C->daemons.len && !rc; i++) {
        const sim_cd_daemon *d = &C->daemons.data[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_text(s, 2, cds[d->cd].name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 3, d->node);
        if (d->prev_cd >= 0) sqlite3_bind_text(s, 4, cds[d->prev_cd].name, -1, SQLITE_STATIC);
        else sqlite3_bind_null(s, 4);
        sqlite3_bind_int64(s, 5, d->bound);
        sqlite3_bind_int64(s, 6, d->ready);
        if (d->released >= 0) sqlite3_bind_int64(s, 7, d->released);
        else sqlite3_bind_null(s, 7);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    return rc;
}
