/* plan_store.c -- `drasim plan`'s results database: every probe's runs copied
 * from its temporary database (run ids renumbered in probe order), the point
 * of each run in `sweep(run_id, param, value)` as `drasim sweep` writes it
 * (param cluster.nodePools.POOL.count, or .autoscaling.max for a node
 * group), and one row per probe in `plan` (with the measured ca_cost and
 * ca_node_hours when a varied pool is autoscaled). */
#include "report/plan.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "store/store_dra.h"
#include "store/store_labels.h"
#include "util/xalloc.h"

static int exec(sqlite3 *db, const char *sql, strbuf *err) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    sb_clear(err);
    sb_printf(err, "cannot write the plan database: %s", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

/* INSERT INTO main.T(cols) SELECT cols (run_id + offset) FROM probe.T */
static int copy_table(sqlite3 *db, const char *table, const char *create, int64_t offset, strbuf *err) {
    strbuf q = {0}, cols = {0}, sel = {0};
    int rc = 0;
    sqlite3_stmt *s;
    if (!store_has_object(db, "table", table) && create) rc = exec(db, create, err);
    sb_printf(&q, "PRAGMA probe.table_info(\"%s\")", table);
    if (!rc && sqlite3_prepare_v2(db, sb_str(&q), -1, &s, NULL) == SQLITE_OK) {
        while (sqlite3_step(s) == SQLITE_ROW) {
            const char *c = (const char *)sqlite3_column_text(s, 1);
            if (cols.len) sb_puts(&cols, ", "), sb_puts(&sel, ", ");
            sb_printf(&cols, "\"%s\"", c);
            if (!strcmp(c, "run_id")) sb_printf(&sel, "run_id + %lld", (long long)offset);
            else sb_printf(&sel, "\"%s\"", c);
        }
        sqlite3_finalize(s);
        sb_clear(&q);
        sb_printf(&q, "INSERT INTO main.\"%s\"(%s) SELECT %s FROM probe.\"%s\"", table, sb_str(&cols), sb_str(&sel),
                  table);
        rc = exec(db, sb_str(&q), err);
    } else if (!rc) {
        rc = -1;
    }
    if (rc && !err->len) sb_printf(err, "cannot copy the table %s of a probe", table);
    sb_free(&q);
    sb_free(&cols);
    sb_free(&sel);
    return rc;
}

static int copy_probe(sqlite3 *db, const char *path, int64_t offset, strbuf *err) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "ATTACH ?1 AS probe", -1, &s, NULL) != SQLITE_OK) return exec(db, "ATTACH", err);
    sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
    int ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (!ok) return exec(db, "ATTACH", err);
    int rc = 0;
    if (sqlite3_prepare_v2(db, "SELECT name, sql FROM probe.sqlite_master WHERE type = 'table' ORDER BY rowid", -1, &s,
                           NULL) != SQLITE_OK)
        rc = -1;
    while (!rc && sqlite3_step(s) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        const char *create = (const char *)sqlite3_column_text(s, 1);
        rc = copy_table(db, name, create, offset, err);
    }
    sqlite3_finalize(s);
    /* a database cannot be detached inside the store's transaction */
    if (!rc && (exec(db, "COMMIT", err) || exec(db, "DETACH probe", err) || exec(db, "BEGIN", err))) rc = -1;
    return rc;
}

/* Runs in the main database so far. */
static int64_t count_runs(sqlite3 *db) {
    sqlite3_stmt *s;
    int64_t n = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM main.runs", -1, &s, NULL) != SQLITE_OK) return 0;
    if (sqlite3_step(s) == SQLITE_ROW) n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return n;
}

static void point_text(const plan_ctx *c, const plan_probe *p, strbuf *out) {
    for (size_t d = 0; d < c->k; d++) sb_printf(out, "%s%s=%lld", d ? " " : "", c->dims[d].pool, (long long)p->x[d]);
    if (c->nchoices) sb_putc(out, ' ');
    plan_choices_text(c, p->pick, out);
}

int plan_merge(const plan_ctx *c, void *dst_db, int64_t *first_run, strbuf *err) {
    sqlite3 *db = dst_db;
    bool ca = plan_autoscaled(c);   /* measured cost columns only then: other plans' databases are unchanged */
    if (exec(db, "CREATE TABLE sweep(run_id INTEGER NOT NULL, param TEXT NOT NULL, value TEXT NOT NULL,"
                 " PRIMARY KEY(run_id, param));",
             err) ||
        exec(db,
             ca ? "CREATE TABLE plan(probe INTEGER PRIMARY KEY, point TEXT NOT NULL, nodes INTEGER NOT NULL,"
                  " cost REAL NOT NULL, pass INTEGER NOT NULL, failing TEXT, answer INTEGER NOT NULL,"
                  " first_run_id INTEGER NOT NULL, runs INTEGER NOT NULL, ca_cost REAL, ca_node_hours REAL);"
                : "CREATE TABLE plan(probe INTEGER PRIMARY KEY, point TEXT NOT NULL, nodes INTEGER NOT NULL,"
                  " cost REAL NOT NULL, pass INTEGER NOT NULL, failing TEXT, answer INTEGER NOT NULL,"
                  " first_run_id INTEGER NOT NULL, runs INTEGER NOT NULL);",
             err))
        return -1;
    int64_t next = 1;
    strbuf q = {0}, pt = {0};
    int rc = 0;
    for (size_t i = 0; i < c->nprobes && !rc; i++) {
        const plan_probe *p = &c->probes[i];
        first_run[i] = next;
        size_t runs = p->nruns;
        for (size_t j = 0, done = 0; j < p->ndbs && !rc && !p->no_nodes; j++) {   /* batches in order */
            rc = copy_probe(db, p->dbs[j], next - 1 + (int64_t)done, err);
            done = (size_t)count_runs(db) - (size_t)(next - 1);
        }
        int64_t nodes = 0;
        for (size_t d = 0; d < c->k; d++) nodes += p->x[d];
        bool answer = p == plan_answer_probe(c);
        sb_clear(&pt);
        point_text(c, p, &pt);
        char *s = sqlite3_mprintf("INSERT INTO plan VALUES(%lld, %Q, %lld, %.17g, %d, %Q, %d, %lld, %lld", (long long)i + 1,
                                  sb_str(&pt), (long long)nodes, p->cost, p->pass, p->failing, answer,
                                  (long long)next, (long long)runs);
        sb_clear(&q);
        sb_puts(&q, s);
        sqlite3_free(s);
        if (ca) {   /* NULL when the probe has no such metric */
            if (isnan(p->ca_cost)) sb_puts(&q, ", NULL");
            else sb_printf(&q, ", %.17g", p->ca_cost);
            if (isnan(p->ca_node_hours)) sb_puts(&q, ", NULL");
            else sb_printf(&q, ", %.17g", p->ca_node_hours);
        }
        sb_puts(&q, ")");
        if (!rc) rc = exec(db, sb_str(&q), err);
        for (size_t r = 0; r < runs && !rc; r++)
            for (size_t d = 0; d < c->k && !rc; d++) {
                s = sqlite3_mprintf("INSERT INTO sweep VALUES(%lld, 'cluster.nodePools.%q.%s', '%lld')",
                                    (long long)(next + (int64_t)r), c->dims[d].pool, plan_dim_field(&c->dims[d]),
                                    (long long)p->x[d]);
                rc = exec(db, s, err);
                sqlite3_free(s);
            }
        for (size_t r = 0; r < runs && !rc; r++)   /* the choices, as `drasim sweep` would name them */
            for (size_t j = 0; j < c->nchoices && !rc; j++) {
                strbuf key = {0};
                plan_choice_key(&c->choices[j], &key);
                s = sqlite3_mprintf("INSERT INTO sweep VALUES(%lld, %Q, %Q)", (long long)(next + (int64_t)r),
                                    sb_str(&key), c->choices[j].values[p->pick[j]]);
                sb_free(&key);
                rc = exec(db, s, err);
                sqlite3_free(s);
            }
        next += (int64_t)runs;
    }
    if (!rc && store_label_view(db)) {   /* the view over the label sets: views are not copied */
        sb_clear(err);
        sb_printf(err, "cannot write the plan database: view pod_labels: %s", sqlite3_errmsg(db));
        rc = -1;
    }
    if (!rc && store_claim_view(db)) {   /* the view over the claim sets */
        sb_clear(err);
        sb_printf(err, "cannot write the plan database: view claim_allocations: %s", sqlite3_errmsg(db));
        rc = -1;
    }
    if (!rc) rc = plan_pareto_store(c, db, err);   /* --minimize only */
    sb_free(&q);
    sb_free(&pt);
    return rc;
}
