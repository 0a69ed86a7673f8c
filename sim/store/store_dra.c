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
 * in the order the records meet them.
 * Issue 31: at 10,000 nodes x 1M pods there are ~300,000 sets and 1M
 * lookups, so a lookup must not walk to the records: a table slot holds a
 * 32-bit tag of the hash with the set (or result) it names, and each plain
 * set's claim and words are copied, in set order, into one array (`keys`),
 * so a lookup reads its slot and, on a tag match, one run of words. */
typedef struct result_ref {
    uint32_t rec, k;              /* result k of record rec */
} result_ref;
typedef struct result_key {
    uint32_t claim, word;         /* the result's claim (index into claims) and compact result */
} result_key;
typedef struct claim_index {
    const dra_state *d;
    VEC(uint32_t) first;          /* per set id - 1: the index of its first record */
    VEC(uint32_t) rare_sets;      /* the set indexes (id - 1) of records kept whole, ascending (no key) */
    VEC(uint32_t) keys;           /* per plain set: id, claim (index into claims), n, then its n words */
    uint64_t *tab;                /* sets: hash tag << 32 | (key offset + 1), 0 = empty */
    size_t cap, nplain;
    VEC(result_ref) res;          /* per result id - 1: where it was first met */
    VEC(result_key) rkeys;        /* per result id - 1: its key (plain results; unused for the others) */
    uint64_t *rtab;               /* results: hash tag << 32 | result id, 0 = empty */
    size_t rcap, rplain;
    VEC(const char *) claims;     /* the claim names met, by index */
    uint32_t *ctab;               /* claim names: index + 1, 0 = empty */
    size_t ccap;
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

static uint64_t ptr_mul(const void *p) { return (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL; }

/* The index of claim name `claim` (interned) in ix->claims, added when new. */
static uint32_t claim_of(claim_index *ix, const char *claim) {
    if (2 * (ix->claims.len + 1) > ix->ccap) {
        free(ix->ctab);
        ix->ccap = ix->ccap ? 2 * ix->ccap : 16;
        ix->ctab = xcalloc(ix->ccap, sizeof *ix->ctab);
        for (size_t i = 0; i < ix->claims.len; i++) {
            size_t h = (size_t)(ptr_mul(ix->claims.data[i]) >> 32) & (ix->ccap - 1);
            while (ix->ctab[h]) h = (h + 1) & (ix->ccap - 1);
            ix->ctab[h] = (uint32_t)i + 1;
        }
    }
    size_t h = (size_t)(ptr_mul(claim) >> 32) & (ix->ccap - 1);
    for (; ix->ctab[h]; h = (h + 1) & (ix->ccap - 1))
        if (ix->claims.data[ix->ctab[h] - 1] == claim) return ix->ctab[h] - 1;
    VEC_PUSH(ix->claims, claim);
    ix->ctab[h] = (uint32_t)ix->claims.len;
    return (uint32_t)ix->claims.len - 1;
}

static uint64_t set_hash(const char *claim, const uint32_t *w, size_t n) {
    uint64_t h = ptr_mul(claim);
    for (size_t k = 0; k < n; k++) h = mix(h, w[k]);
    return fmix(h);
}

/* Put key offset `off` (hash h) into the set table (a free slot exists). */
static void set_put(claim_index *ix, uint64_t h, uint32_t off) {
    size_t i = h & (ix->cap - 1);
    while (ix->tab[i]) i = (i + 1) & (ix->cap - 1);
    ix->tab[i] = (h >> 32) << 32 | ((uint64_t)off + 1);
}

/* The set table at twice the size, rebuilt from keys (in set order). */
static void index_grow(claim_index *ix) {
    free(ix->tab);
    ix->cap = ix->cap ? 2 * ix->cap : 1024;
    ix->tab = xcalloc(ix->cap, sizeof *ix->tab);
    for (size_t off = 0; off < ix->keys.len;) {
        const uint32_t *k = &ix->keys.data[off];
        set_put(ix, set_hash(ix->claims.data[k[1]], k + 3, k[2]), (uint32_t)off);
        off += 3 + k[2];
    }
}

/* The set id of record `rec` (which has results), a new set when none matches. */
static uint32_t set_of(claim_index *ix, size_t rec) {
    const dra_record *r = &ix->d->records.data[rec];
    const uint32_t *w;
    size_t n = dra_record_words(ix->d, r, &w);
    uint32_t id = (uint32_t)ix->first.len + 1;
    if (!w) {   /* kept whole: a set of its own, never matched */
        VEC_PUSH(ix->first, (uint32_t)rec);
        VEC_PUSH(ix->rare_sets, id - 1);
        return id;
    }
    if (4 * (ix->nplain + 1) > 3 * ix->cap) index_grow(ix);   /* load factor under 3/4 */
    uint64_t h = set_hash(r->claim, w, n), tag = h >> 32;
    for (size_t i = h & (ix->cap - 1); ix->tab[i]; i = (i + 1) & (ix->cap - 1)) {
        if (ix->tab[i] >> 32 != tag) continue;
        const uint32_t *k = &ix->keys.data[(uint32_t)ix->tab[i] - 1];
        if (ix->claims.data[k[1]] == r->claim && k[2] == n && !memcmp(k + 3, w, n * sizeof *w)) return k[0];
    }
    uint32_t off = (uint32_t)ix->keys.len;
    VEC_RESERVE(ix->keys, ix->keys.len + 3 + n);
    uint32_t *k = &ix->keys.data[off];
    k[0] = id, k[1] = claim_of(ix, r->claim), k[2] = (uint32_t)n;
    memcpy(k + 3, w, n * sizeof *w);
    ix->keys.len += 3 + n;
    VEC_PUSH(ix->first, (uint32_t)rec);
    set_put(ix, h, off);
    ix->nplain++;
    return id;
}

static uint64_t result_hash(uint32_t claim, uint32_t word) { return fmix((uint64_t)claim << 32 ^ word); }

static void result_put(claim_index *ix, uint64_t h, uint32_t id) {
    size_t i = h & (ix->rcap - 1);
    while (ix->rtab[i]) i = (i + 1) & (ix->rcap - 1);
    ix->rtab[i] = (h >> 32) << 32 | id;
}

static void results_grow(claim_index *ix) {
    free(ix->rtab);
    ix->rcap = ix->rcap ? 2 * ix->rcap : 1024;
    ix->rtab = xcalloc(ix->rcap, sizeof *ix->rtab);
    for (size_t i = 0; i < ix->res.len; i++) {
        const result_key *k = &ix->rkeys.data[i];
        if (k->claim != UINT32_MAX) result_put(ix, result_hash(k->claim, k->word), (uint32_t)i + 1);
    }
}

/* The result id of result k of a set whose first record is `rec` and
 * whose key starts at keys offset `off` (UINT32_MAX: kept whole, no key),
 * a new result when none matches. */
static uint32_t result_of(claim_index *ix, uint32_t off, uint32_t rec, uint32_t k) {
    result_key key = {UINT32_MAX, 0};
    if (off != UINT32_MAX) {
        key = (result_key){ix->keys.data[off + 1], ix->keys.data[off + 3 + k]};
        if (4 * (ix->rplain + 1) > 3 * ix->rcap) results_grow(ix);
        uint64_t h = result_hash(key.claim, key.word), tag = h >> 32;
        for (size_t i = h & (ix->rcap - 1); ix->rtab[i]; i = (i + 1) & (ix->rcap - 1)) {
            if (ix->rtab[i] >> 32 != tag) continue;
            const result_key *o = &ix->rkeys.data[(uint32_t)ix->rtab[i] - 1];
            if (o->claim == key.claim && o->word == key.word) return (uint32_t)ix->rtab[i];
        }
        result_put(ix, h, (uint32_t)ix->res.len + 1);
        ix->rplain++;
    }
    VEC_PUSH(ix->res, ((result_ref){rec, k}));
    VEC_PUSH(ix->rkeys, key);
    return (uint32_t)ix->res.len;
}

/* Rows of pod_claim_sets: each record with results, in record order. */
typedef struct pod_rows {
    claim_index *ix;
    int64_t run_id;
    size_t rec;                   /* the current record + 1; 0 before the first */
    uint32_t set;
} pod_rows;

/* A hint for a later set_of(ix, rec): with `key`, the key its slot names
 * now (the slot was hinted before), else its slot. Reads nothing it needs:
 * only the cache is warmed, the answer is set_of's (issue 31: the slot and
 * the key are two cache misses per record at 10,000 nodes). */
static void set_prefetch(const claim_index *ix, size_t rec, bool key) {
    const dra_state *d = ix->d;
    if (rec >= d->records.len || !ix->cap) return;
    const dra_record *r = &d->records.data[rec];
    const uint32_t *w;
    size_t n = dra_record_words(d, r, &w);
    if (!w) return;
    size_t i = set_hash(r->claim, w, n) & (ix->cap - 1);
    if (!key) {
        __builtin_prefetch(&ix->tab[i]);
        return;
    }
    if (ix->tab[i]) __builtin_prefetch(&ix->keys.data[(uint32_t)ix->tab[i] - 1]);
}

static bool pod_rows_next(void *ctx) {
    pod_rows *c = ctx;
    const dra_state *d = c->ix->d;
    for (; c->rec < d->records.len; c->rec++)
        if (d->records.data[c->rec].nresults) {
            set_prefetch(c->ix, c->rec + 16, false);
            set_prefetch(c->ix, c->rec + 8, true);
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
    uint32_t off;                 /* the current set's key in keys, UINT32_MAX: kept whole */
    size_t next_key, rare;        /* the next plain set's key; the next entry of rare_sets */
    struct keys_cursor {          /* read-ahead in keys, 16 and 8 plain results on: set header and result */
        size_t off;
        uint32_t k;
    } ahead[2];
    bool started;
} set_rows;

/* Cursor *at one plain result on in keys (the sets' headers skipped). */
static void keys_advance(const claim_index *ix, struct keys_cursor *at) {
    if (at->off >= ix->keys.len) return;
    if (++at->k >= ix->keys.data[at->off + 2]) at->off += 3 + ix->keys.data[at->off + 2], at->k = 0;
}

/* A hint for a later result_of of the plain result under cursor `at`: its
 * slot, or with `key` the key its slot names now (the slot was hinted
 * before). Only the cache is warmed; the answer is result_of's. */
/* (always inlined: GCC takes a function that only prefetches for one
 * without effect and drops its calls) */
static inline __attribute__((always_inline)) void result_prefetch(const claim_index *ix,
                                                                  const struct keys_cursor *at, bool key) {
    if (!ix->rcap || at->off >= ix->keys.len) return;
    const uint32_t *k = &ix->keys.data[at->off];
    size_t i = result_hash(k[1], k[3 + at->k]) & (ix->rcap - 1);
    if (!key) __builtin_prefetch(&ix->rtab[i]);
    else if (ix->rtab[i]) __builtin_prefetch(&ix->rkeys.data[(uint32_t)ix->rtab[i] - 1]);
}

static bool set_rows_next(void *ctx) {
    set_rows *c = ctx;
    if (c->k >= c->n) {   /* the next set (every set's record has results) */
        if (c->n) c->set++;
        if (c->set >= c->ix->first.len) return false;
        const claim_index *ix = c->ix;
        if (c->rare < ix->rare_sets.len && ix->rare_sets.data[c->rare] == c->set) {
            c->rare++;
            c->off = UINT32_MAX;
            c->n = ix->d->records.data[ix->first.data[c->set]].nresults;
        } else {   /* plain sets' keys are in set order */
            c->off = (uint32_t)c->next_key;
            c->n = ix->keys.data[c->off + 2];
            c->next_key += 3 + c->n;
        }
        c->k = 0;
    }
    if (!c->started) {   /* the cursors start 16 and 8 plain results on */
        c->started = true;
        for (int i = 0; i < 16; i++) {
            keys_advance(c->ix, &c->ahead[0]);
            if (i < 8) keys_advance(c->ix, &c->ahead[1]);
        }
    }
    if (c->off != UINT32_MAX) {
        result_prefetch(c->ix, &c->ahead[0], false);
        result_prefetch(c->ix, &c->ahead[1], true);
        keys_advance(c->ix, &c->ahead[0]);
        keys_advance(c->ix, &c->ahead[1]);
    }
    c->result = result_of(c->ix, c->off, c->ix->first.data[c->set], c->k++);
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
    free(ix.tab);   /* every set is known: claim_sets and claim_results read keys, not the table */
    ix.tab = NULL;
    if (!rc) rc = store_rows_insert(db, "claim_sets", &srows);
    if (!rc) rc = store_rows_insert(db, "claim_results", &rrows);
    sb_free(&rr.consumed);
    free(ix.tab);
    free(ix.rtab);
    free(ix.ctab);
    VEC_FREE(ix.first);
    VEC_FREE(ix.rare_sets);
    VEC_FREE(ix.keys);
    VEC_FREE(ix.res);
    VEC_FREE(ix.rkeys);
    VEC_FREE(ix.claims);
    return rc;
}
