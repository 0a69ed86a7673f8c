/*
 * store_dra.c -- the DRA part of the results database (docs/SCHEMA.md): the
 * devices every claim a pod held got (template claims, extended-resource
 * claims, and shared claims it reserved), stored as the run's claim sets:
 *   claim_sets(run_id, set_id, n, claim, request, driver, pool, device,
 *              share_id, consumed)          one row per device result of each set;
 *   pod_claim_sets(run_id, pod_id, set_id)  one row per claim a pod held, in
 *                                           scheduling order;
 *   claim_allocations                       a VIEW joining the two, with the
 *                                           columns and rows the table had
 *                                           before schema version 3.
 * Pods of a fleet mostly get the same few device sets on a node, so a claim
 * costs one row of three integers instead of a text row per device (issue
 * 31: ~3,600 instructions per claim_allocations row). The tables and the
 * view exist in every database (empty outside DRA mode).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra.h"
#include "store/store.h"
#include "store/store_dra.h"
#include "store/store_rows.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "util/xalloc.h"

static const char *const claims_sql =
    "CREATE TABLE IF NOT EXISTS claim_results(run_id INTEGER NOT NULL, result_id INTEGER NOT NULL,"
    " claim TEXT NOT NULL, request TEXT NOT NULL, driver TEXT NOT NULL, pool TEXT NOT NULL, device TEXT NOT NULL,"
    " share_id TEXT, consumed TEXT, PRIMARY KEY(run_id, result_id)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS claim_sets(run_id INTEGER NOT NULL, set_id INTEGER NOT NULL, n INTEGER NOT NULL,"
    " result_id INTEGER NOT NULL, PRIMARY KEY(run_id, set_id, n)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS pod_claim_sets(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL,"
    " set_id INTEGER NOT NULL);\n";

/* The view's rows: each pod_claim_sets row (in its rowid order: scheduling
 * order) expanded to its set's results (in n order), as the table's rows were. */
#define CLAIMS_SELECT                                                                                                 \
    " SELECT p.run_id, p.pod_id, r.claim, r.request, r.driver, r.pool, r.device, r.share_id, r.consumed"           \
    " FROM pod_claim_sets p JOIN claim_sets s ON s.run_id = p.run_id AND s.set_id = p.set_id"                      \
    " JOIN claim_results r ON r.run_id = s.run_id AND r.result_id = s.result_id"
#define CLAIMS_VIEW                                                                                                   \
    "CREATE VIEW claim_allocations(run_id, pod_id, claim, request, driver, pool, device, share_id, consumed) AS"    \
    CLAIMS_SELECT " ORDER BY p.rowid, s.n"

int store_claim_view(sqlite3 *db) {
    if (!store_has_object(db, "table", "claim_results") || !store_has_object(db, "table", "claim_sets") ||
        !store_has_object(db, "table", "pod_claim_sets"))
        return 0;
    if (!store_has_object(db, "table", "claim_allocations") && !store_has_object(db, "view", "claim_allocations"))
        return sqlite3_exec(db, CLAIMS_VIEW, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    if (!store_has_object(db, "table", "claim_allocations")) return 0;
    /* a table claim_allocations from a database of schema version 2 or older (merged by `report A.db B.db`):
     * it gets the claim-set runs' rows too, so it holds every run's claims */
    return sqlite3_exec(db, "INSERT INTO claim_allocations" CLAIMS_SELECT " ORDER BY p.rowid, s.n", NULL, NULL, NULL) ==
                   SQLITE_OK
               ? 0
               : -1;
}

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

/* The run's claim sets and results. Records with equal claim names and
 * equal compact results (dra_record_words) share a set, and results with
 * equal claim name, request and device share a result; a record with a
 * result kept whole gets a set, and results, of its own. Ids are 1, 2, ...
 * in the order the records meet them. */
typedef struct result_ref {
    uint32_t rec, k;              /* result k of record rec */
} result_ref;
typedef struct claim_index {
    const dra_state *d;
    VEC(uint32_t) first;          /* per set id - 1: the index of its first record */
    uint32_t *tab;                /* sets, open addressing: set id, 0 = empty */
    size_t cap;
    VEC(result_ref) res;          /* per result id - 1: where it was first met */
    uint32_t *rtab;               /* results, open addressing: result id, 0 = empty */
    size_t rcap;
} claim_index;

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001B3ULL; }

/* MurmurHash3's 64-bit finalizer: every input bit reaches the low bits that
 * pick a table slot. A result word's low 8 bits are its request (the same
 * for most results) and its device uid sits above them, which the FNV step
 * alone carries only upwards. */
static uint64_t fmix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static uint64_t record_hash(const dra_record *r, const uint32_t *w, size_t n) {
    uint64_t h = (uint64_t)(uintptr_t)r->claim * 0x9E3779B97F4A7C15ULL;
    for (size_t k = 0; k < n; k++) h = mix(h, w[k]);
    return fmix(h);
}

static void index_grow(claim_index *ix) {
    free(ix->tab);
    ix->cap = ix->cap ? 2 * ix->cap : 1024;
    ix->tab = xcalloc(ix->cap, sizeof *ix->tab);
    for (size_t i = 0; i < ix->first.len; i++) {
        const dra_record *r = &ix->d->records.data[ix->first.data[i]];
        const uint32_t *w;
        size_t n = dra_record_words(ix->d, r, &w);
        if (!w) continue;   /* never matched: not in the table */
        size_t h = record_hash(r, w, n) & (ix->cap - 1);
        while (ix->tab[h]) h = (h + 1) & (ix->cap - 1);
        ix->tab[h] = (uint32_t)i + 1;
    }
}

/* The set id of record `rec` (which has results), a new set when none matches. */
static uint32_t set_of(claim_index *ix, size_t rec) {
    const dra_record *r = &ix->d->records.data[rec];
    const uint32_t *w;
    size_t n = dra_record_words(ix->d, r, &w);
    if (w) {
        if (2 * (ix->first.len + 1) > ix->cap) index_grow(ix);   /* load factor under 1/2 */
        size_t h = record_hash(r, w, n) & (ix->cap - 1);
        for (; ix->tab[h]; h = (h + 1) & (ix->cap - 1)) {
            const dra_record *o = &ix->d->records.data[ix->first.data[ix->tab[h] - 1]];
            const uint32_t *ow;
            if (o->claim == r->claim && o->nresults == r->nresults && dra_record_words(ix->d, o, &ow) == n &&
                !memcmp(ow, w, n * sizeof *w))
                return ix->tab[h];
        }
        ix->tab[h] = (uint32_t)ix->first.len + 1;
    }
    VEC_PUSH(ix->first, (uint32_t)rec);
    return (uint32_t)ix->first.len;
}

/* Result k of a plain record: its claim name and its word (uid, request). */
static uint64_t result_hash(const dra_record *r, const uint32_t *w) {
    return fmix((uint64_t)(uintptr_t)r->claim * 0x9E3779B97F4A7C15ULL ^ w[0]);
}

static void results_grow(claim_index *ix) {
    free(ix->rtab);
    ix->rcap = ix->rcap ? 2 * ix->rcap : 1024;
    ix->rtab = xcalloc(ix->rcap, sizeof *ix->rtab);
    for (size_t i = 0; i < ix->res.len; i++) {
        const dra_record *r = &ix->d->records.data[ix->res.data[i].rec];
        const uint32_t *w;
        dra_record_words(ix->d, r, &w);
        if (!w) continue;
        size_t h = result_hash(r, w + ix->res.data[i].k) & (ix->rcap - 1);
        while (ix->rtab[h]) h = (h + 1) & (ix->rcap - 1);
        ix->rtab[h] = (uint32_t)i + 1;
    }
}

/* The result id of result k of record `rec`, a new result when none matches. */
static uint32_t result_of(claim_index *ix, uint32_t rec, uint32_t k) {
    const dra_record *r = &ix->d->records.data[rec];
    const uint32_t *w;
    dra_record_words(ix->d, r, &w);
    if (w) {
        if (2 * (ix->res.len + 1) > ix->rcap) results_grow(ix);
        w += k;
        size_t h = result_hash(r, w) & (ix->rcap - 1);
        for (; ix->rtab[h]; h = (h + 1) & (ix->rcap - 1)) {
            const result_ref *o = &ix->res.data[ix->rtab[h] - 1];
            const dra_record *orec = &ix->d->records.data[o->rec];
            const uint32_t *ow;
            dra_record_words(ix->d, orec, &ow);
            if (orec->claim == r->claim && ow && ow[o->k] == w[0]) return ix->rtab[h];
        }
        ix->rtab[h] = (uint32_t)ix->res.len + 1;
    }
    VEC_PUSH(ix->res, ((result_ref){rec, k}));
    return (uint32_t)ix->res.len;
}

/* Rows of pod_claim_sets: each record with results, in record order. */
typedef struct pod_rows {
    claim_index *ix;
    int64_t run_id;
    size_t rec;                   /* the current record + 1; 0 before the first */
    uint32_t set;
} pod_rows;

static bool pod_rows_next(void *ctx) {
    pod_rows *c = ctx;
    const dra_state *d = c->ix->d;
    for (; c->rec < d->records.len; c->rec++)
        if (d->records.data[c->rec].nresults) {
            c->set = set_of(c->ix, c->rec++);
            return true;
        }
    return false;
}

static void pod_rows_column(void *ctx, sqlite3_context *out, int col) {
    pod_rows *c = ctx;
    sqlite3_result_int64(out, col == 0 ? c->run_id : col == 1 ? (int64_t)c->ix->d->records.data[c->rec - 1].pod
                                                               : (int64_t)c->set);
}

/* Rows of claim_sets: each set's results, by set id and result. */
typedef struct set_rows {
    claim_index *ix;
    int64_t run_id;
    size_t set;                   /* the current row: result k - 1 of set index `set`; k 0 before the first */
    uint32_t k, n, result;
} set_rows;

static bool set_rows_next(void *ctx) {
    set_rows *c = ctx;
    if (c->k >= c->n) {   /* the next set (every set's record has results) */
        if (c->n) c->set++;
        if (c->set >= c->ix->first.len) return false;
        c->n = c->ix->d->records.data[c->ix->first.data[c->set]].nresults;
        c->k = 0;
    }
    c->result = result_of(c->ix, c->ix->first.data[c->set], c->k++);
    return true;
}

static void set_rows_column(void *ctx, sqlite3_context *out, int col) {
    set_rows *c = ctx;
    sqlite3_result_int64(out, col == 0   ? c->run_id
                              : col == 1 ? (int64_t)c->set + 1
                              : col == 2 ? (int64_t)c->k - 1
                                         : (int64_t)c->result);
}

/* Rows of claim_results: each result, by result id. */
typedef struct result_rows {
    claim_index *ix;
    int64_t run_id;
    size_t i;                     /* the current result id; 0 before the first */
    const dra_record *r;
    const k8s_device_result *x;
    strbuf consumed;
} result_rows;

static bool result_rows_next(void *ctx) {
    result_rows *c = ctx;
    if (c->i >= c->ix->res.len) return false;
    const result_ref *ref = &c->ix->res.data[c->i++];
    c->r = &c->ix->d->records.data[ref->rec];
    c->x = &dra_record_allocation(c->ix->d, c->r)->results[ref->k];
    return true;
}

static void text_or_null(sqlite3_context *out, const char *v, void (*keep)(void *)) {
    if (v) sqlite3_result_text(out, v, -1, keep);
    else sqlite3_result_null(out);
}

/* Column `col` of the current row (the interned names outlive the statement). */
static void result_rows_column(void *ctx, sqlite3_context *out, int col) {
    result_rows *c = ctx;
    const k8s_device_result *x = c->x;
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, (int64_t)c->i); break;
    case 2: text_or_null(out, c->r->claim, SQLITE_STATIC); break;
    case 3: text_or_null(out, x->request, SQLITE_STATIC); break;
    case 4: text_or_null(out, x->driver, SQLITE_STATIC); break;
    case 5: text_or_null(out, x->pool, SQLITE_STATIC); break;
    case 6: text_or_null(out, x->device, SQLITE_STATIC); break;
    case 7: text_or_null(out, x->share_id, SQLITE_STATIC); break;
    default: text_or_null(out, consumed_text(x, &c->consumed), SQLITE_TRANSIENT); break;
    }
}

/* pod_claim_sets first (it finds the sets), then claim_sets (it finds the
 * results), then claim_results, each in one INSERT ... SELECT (store_rows.h). */
int store_write_claims(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (sqlite3_exec(db, claims_sql, NULL, NULL, NULL) != SQLITE_OK || store_claim_view(db)) return -1;
    if (!run->dra) return 0;
    claim_index ix = {.d = run->dra};
    pod_rows pr = {.ix = &ix, .run_id = run_id};
    store_rows prows = {.ncols = 3, .ctx = &pr, .next = pod_rows_next, .column = pod_rows_column};
    set_rows sr = {.ix = &ix, .run_id = run_id};
    store_rows srows = {.ncols = 4, .ctx = &sr, .next = set_rows_next, .column = set_rows_column};
    result_rows rr = {.ix = &ix, .run_id = run_id};
    store_rows rrows = {.ncols = 9, .ctx = &rr, .next = result_rows_next, .column = result_rows_column};
    int rc = store_rows_insert(db, "pod_claim_sets", &prows);
    if (!rc) rc = store_rows_insert(db, "claim_sets", &srows);
    if (!rc) rc = store_rows_insert(db, "claim_results", &rrows);
    sb_free(&rr.consumed);
    free(ix.tab);
    free(ix.rtab);
    VEC_FREE(ix.first);
    VEC_FREE(ix.res);
    return rc;
}
