/*
 * store_dra.c -- the DRA part of the results database: table
 * claim_allocations, one row per device result of every claim a pod held
 * (template claims, extended-resource claims, and shared claims it reserved).
 * The table exists in every database (empty outside DRA mode).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "sched/dra/dra.h"
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

enum { CLAIM_COLS = 9, CLAIM_BATCH = 64 };

/* Cursor over every (record, device result) pair in record order. */
typedef struct claim_cursor {
    const dra_state *d;
    size_t rec, res;
    const k8s_allocation *al;     /* record rec's allocation, NULL until read */
} claim_cursor;

static bool next_row(claim_cursor *c, const dra_record **r, const k8s_device_result **x) {
    while (c->rec < c->d->records.len) {
        const dra_record *rec = &c->d->records.data[c->rec];
        if (c->res < rec->nresults) {
            if (!c->res) c->al = dra_record_allocation(c->d, rec);
            *r = rec;
            *x = &c->al->results[c->res++];
            return true;
        }
        c->rec++;
        c->res = 0;
    }
    return false;
}

/* Bind one row's columns at parameter offset `base`. */
static void bind_row(sqlite3_stmt *s, int base, int64_t run_id, const dra_record *r, const k8s_device_result *x,
                     strbuf *b) {
    sqlite3_bind_int64(s, base + 1, run_id);
    sqlite3_bind_int64(s, base + 2, r->pod);
    sqlite3_bind_text(s, base + 3, r->claim, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, base + 4, x->request, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, base + 5, x->driver, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, base + 6, x->pool, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, base + 7, x->device, -1, SQLITE_STATIC);
    if (x->share_id) sqlite3_bind_text(s, base + 8, x->share_id, -1, SQLITE_STATIC);
    else sqlite3_bind_null(s, base + 8);
    const char *c = consumed_text(x, b);
    if (c) sqlite3_bind_text(s, base + 9, c, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(s, base + 9);
}

static int step_reset(sqlite3_stmt *s) {
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(s);
    return rc;
}

/* Rows go in CLAIM_BATCH rows per INSERT (as the pods: far fewer statement
 * steps for millions of rows), the rest one by one; same rows, same order. */
int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, claims_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    if (!run->dra) return 0;
    const dra_state *d = run->dra;
    size_t total = 0;
    for (size_t i = 0; i < d->records.len; i++) total += d->records.data[i].nresults;
    strbuf sql = {0};
    sb_puts(&sql, "INSERT INTO claim_allocations VALUES");
    for (int k = 0; k < CLAIM_BATCH; k++) sb_puts(&sql, k ? ",(?,?,?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?,?,?)");
    sqlite3_stmt *batch = NULL, *one = NULL;
    int rc = sqlite3_prepare_v2(db, sb_str(&sql), -1, &batch, NULL) == SQLITE_OK &&
                     sqlite3_prepare_v2(db, "INSERT INTO claim_allocations VALUES(?,?,?,?,?,?,?,?,?)", -1, &one, NULL) ==
                         SQLITE_OK
                 ? 0
                 : -1;
    sb_free(&sql);
    strbuf b = {0};
    claim_cursor cur = {.d = d};
    const dra_record *r;
    const k8s_device_result *x;
    for (size_t done = 0; done < total && !rc;) {
        if (total - done >= CLAIM_BATCH) {
            for (int k = 0; k < CLAIM_BATCH && next_row(&cur, &r, &x); k++) bind_row(batch, k * CLAIM_COLS, run_id, r, x, &b);
            rc = step_reset(batch);
            done += CLAIM_BATCH;
        } else {
            if (!next_row(&cur, &r, &x)) break;
            bind_row(one, 0, run_id, r, x, &b);
            rc = step_reset(one);
            done++;
        }
    }
    sqlite3_finalize(batch);
    sqlite3_finalize(one);
    sb_free(&b);
    return rc;
}
