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
    " free_gpus_broken INTEGER NOT NULL, stranded_gpus INTEGER NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS topology_racks(run_id INTEGER NOT NULL, rack INTEGER NOT NULL, name TEXT NOT NULL,"
    " nodes INTEGER NOT NULL, gpus INTEGER NOT NULL, PRIMARY KEY(run_id, rack));\n"
    "CREATE TABLE IF NOT EXISTS topology_rack_usage(run_id INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
    " gpus_used TEXT NOT NULL, PRIMARY KEY(run_id, t_ms));\n";

/* At most this many instants of per-rack usage are kept (evenly spaced samples):
 * the report's heat map has no more columns, and 1,000 racks stay small. */
#define RACK_USAGE_MAX_ROWS 480

/* Table topology_racks (the racks in sorted order) and topology_rack_usage
 * (per kept sample: "u0,u1,..." GPUs in use per rack, in that order). */
static int write_racks(sqlite3 *db, int64_t run_id, const sim_topo *T) {
    const topo_domains *d = &T->d;
    sqlite3_stmt *s = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, "INSERT INTO topology_racks VALUES(?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK) return -1;
    for (size_t k = 0; k < d->ndomains && !rc; k++) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, (int64_t)k);
        sqlite3_bind_text(s, 3, d->names[k], -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 4, (int64_t)topo_domain_size(d, k));
        sqlite3_bind_int64(s, 5, T->gpus[k]);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    if (rc || !d->ndomains) return rc;
    if (sqlite3_prepare_v2(db, "INSERT INTO topology_rack_usage VALUES(?,?,?)", -1, &s, NULL) != SQLITE_OK) return -1;
    size_t n = T->samples.len, step = (n + RACK_USAGE_MAX_ROWS - 1) / RACK_USAGE_MAX_ROWS;
    strbuf b = {0};
    for (size_t i = 0; i < n && !rc; i += step ? step : 1) {
        sb_clear(&b);
        const uint16_t *u = T->used.data + i * d->ndomains;
        for (size_t k = 0; k < d->ndomains; k++) sb_printf(&b, k ? ",%u" : "%u", (unsigned)u[k]);
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, T->samples.data[i].t);
        sqlite3_bind_text(s, 3, sb_str(&b), (int)b.len, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sb_free(&b);
    sqlite3_finalize(s);
    return rc;
}

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
    return rc ? rc : write_racks(db, run_id, T);
}
