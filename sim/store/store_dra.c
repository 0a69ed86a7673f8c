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
#include "store/store_rows.h"
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

enum { CLAIM_COLS = 9 };

/* Cursor over every (record, device result) pair in record order. */
typedef struct claim_cursor {
    const dra_state *d;
    int64_t run_id;
    size_t rec, res;
    const k8s_allocation *al;     /* record rec's allocation, NULL until read */
    const dra_record *r;          /* the current row's record and result */
    const k8s_device_result *x;
    strbuf consumed;
} claim_cursor;

static bool next_row(void *ctx) {
    claim_cursor *c = ctx;
    while (c->rec < c->d->records.len) {
        const dra_record *rec = &c->d->records.data[c->rec];
        if (c->res < rec->nresults) {
            if (!c->res) c->al = dra_record_allocation(c->d, rec);
            c->r = rec;
            c->x = &c->al->results[c->res++];
            return true;
        }
        c->rec++;
        c->res = 0;
    }
    return false;
}

static void text_or_null(sqlite3_context *out, const char *v, void (*keep)(void *)) {
    if (v) sqlite3_result_text(out, v, -1, keep);
    else sqlite3_result_null(out);
}

/* Column `col` of the current row (the interned names outlive the statement). */
static void row_column(void *ctx, sqlite3_context *out, int col) {
    claim_cursor *c = ctx;
    const k8s_device_result *x = c->x;
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, c->r->pod); break;
    case 2: text_or_null(out, c->r->claim, SQLITE_STATIC); break;
    case 3: text_or_null(out, x->request, SQLITE_STATIC); break;
    case 4: text_or_null(out, x->driver, SQLITE_STATIC); break;
    case 5: text_or_null(out, x->pool, SQLITE_STATIC); break;
    case 6: text_or_null(out, x->device, SQLITE_STATIC); break;
    case 7: text_or_null(out, x->share_id, SQLITE_STATIC); break;
    default: text_or_null(out, consumed_text(x, &c->consumed), SQLITE_TRANSIENT); break;
    }
}

/* Every row in one INSERT ... SELECT over the records (store_rows.h);
 * same rows in the same order as one INSERT per row. */
int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, claims_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    if (!run->dra) return 0;
    claim_cursor cur = {.d = run->dra, .run_id = run_id};
    store_rows rows = {.ncols = CLAIM_COLS, .ctx = &cur, .next = next_row, .column = row_column};
    int rc = store_rows_insert(db, "claim_allocations", &rows);
    sb_free(&cur.consumed);
    return rc;
}
