/*
 * store_dra.c -- the DRA part of the results database: table
 * claim_allocations, one row per device result of every claim a pod held
 * (template claims, extended-resource claims, and shared claims it reserved).
 * The table exists in every database (empty outside DRA mode).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "sched/dra.h"
#include "store/store_dra.h"
#include "util/strbuf.h"

static const char *const claims_sql =
    "CREATE TABLE IF NOT EXISTS claim_allocations(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL,"
    " claim TEXT NOT NULL, request TEXT NOT NULL, driver TEXT NOT NULL, pool TEXT NOT NULL, device TEXT NOT NULL,"
    " share_id TEXT, consumed TEXT);\n";

/* "memory=10Gi,multiprocessors=16": the capacity a share consumes, or NULL. */
static const char *consumed_text(const k8s_device_result *r, strbuf *b) {
    if (!r->nconsumed) return NULL;
    sb_clear(b);
    for (size_t k = 0; k < r->nconsumed; k++) {
        char q[64];
        quantity_format_str(&r->consumed[k].value, q, sizeof q);
        sb_printf(b, "%s%s=%s", k ? "," : "", r->consumed[k].qname ? r->consumed[k].qname : r->consumed[k].id, q);
    }
    return sb_str(b);
}

int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, claims_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    if (!run->dra) return 0;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "INSERT INTO claim_allocations VALUES(?,?,?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        return -1;
    strbuf b = {0};
    int rc = 0;
    const dra_state *d = run->dra;
    for (size_t i = 0; i < d->records.len && !rc; i++) {
        const dra_record *r = &d->records.data[i];
        for (size_t k = 0; k < r->al.nresults && !rc; k++) {
            const k8s_device_result *x = &r->al.results[k];
            sqlite3_bind_int64(s, 1, run_id);
            sqlite3_bind_int64(s, 2, r->pod);
            sqlite3_bind_text(s, 3, r->claim, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 4, x->request, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 5, x->driver, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 6, x->pool, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 7, x->device, -1, SQLITE_STATIC);
            if (x->share_id) sqlite3_bind_text(s, 8, x->share_id, -1, SQLITE_STATIC);
            else sqlite3_bind_null(s, 8);
            const char *c = consumed_text(x, &b);
            if (c) sqlite3_bind_text(s, 9, c, -1, SQLITE_TRANSIENT);
            else sqlite3_bind_null(s, 9);
            rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
            sqlite3_reset(s);
        }
    }
    sqlite3_finalize(s);
    sb_free(&b);
    return rc;
}
