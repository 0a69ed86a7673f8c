/*
 * store_rows.c -- store_rows_insert (store_rows.h): an eponymous-only
 * virtual table module (https://sqlite.org/vtab.html), registered on the
 * connection for one INSERT ... SELECT and removed after it. Its cursor
 * walks the writer's rows once, in order; xColumn hands each value to
 * SQLite directly, which then builds and appends the records as for bound
 * parameters (same values, types, affinities and rowids), without the
 * binds, the VALUES co-routine and the per-batch steps.
 */
#include "store/store_rows.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

typedef struct rows_vtab {
    sqlite3_vtab base;
    store_rows *rows;
} rows_vtab;

typedef struct rows_cursor {
    sqlite3_vtab_cursor base;
    store_rows *rows;
    bool eof;
    sqlite3_int64 rowid;
} rows_cursor;

static int rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err) {
    (void)argc, (void)argv, (void)err;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(c0,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15)");
    if (rc != SQLITE_OK) return rc;
    rows_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->rows = aux;
    *out = &v->base;
    return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *v) {
    sqlite3_free(v);
    return SQLITE_OK;
}

/* One plan: a full scan in the writer's order (no constraint, no order used). */
static int rows_best_index(sqlite3_vtab *v, sqlite3_index_info *info) {
    (void)v;
    info->estimatedCost = 1e9;
    return SQLITE_OK;
}

static int rows_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out) {
    rows_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->rows = ((rows_vtab *)v)->rows;
    *out = &c->base;
    return SQLITE_OK;
}

static int rows_close(sqlite3_vtab_cursor *c) {
    sqlite3_free(c);
    return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc, sqlite3_value **argv) {
    (void)idx, (void)idx_str, (void)argc, (void)argv;
    rows_cursor *c = (rows_cursor *)cur;
    c->rowid = 1;
    c->eof = !c->rows->next(c->rows->ctx);
    return SQLITE_OK;
}

static int rows_next(sqlite3_vtab_cursor *cur) {
    rows_cursor *c = (rows_cursor *)cur;
    c->rowid++;
    c->eof = !c->rows->next(c->rows->ctx);
    return SQLITE_OK;
}

static int rows_eof(sqlite3_vtab_cursor *cur) { return ((rows_cursor *)cur)->eof; }

static int rows_column(sqlite3_vtab_cursor *cur, sqlite3_context *out, int col) {
    rows_cursor *c = (rows_cursor *)cur;
    if (col < c->rows->ncols) c->rows->column(c->rows->ctx, out, col);
    else sqlite3_result_null(out);
    return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
    *rowid = ((rows_cursor *)cur)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module rows_module = {
    .iVersion = 0,
    .xCreate = NULL,   /* eponymous only: no CREATE VIRTUAL TABLE, nothing in the database's schema */
    .xConnect = rows_connect,
    .xBestIndex = rows_best_index,
    .xDisconnect = rows_disconnect,
    .xDestroy = rows_disconnect,
    .xOpen = rows_open,
    .xClose = rows_close,
    .xFilter = rows_filter,
    .xNext = rows_next,
    .xEof = rows_eof,
    .xColumn = rows_column,
    .xRowid = rows_rowid,
};

int store_rows_insert(sqlite3 *db, const char *table, store_rows *rows) {
    if (rows->ncols < 1 || rows->ncols > STORE_ROWS_MAX_COLS) return -1;
    if (sqlite3_create_module_v2(db, "drasim_rows", &rows_module, rows, NULL) != SQLITE_OK) return -1;
    strbuf sql = {0};
    sb_printf(&sql, "INSERT INTO %s SELECT ", table);
    if (rows->select) sb_puts(&sql, rows->select);
    else
        for (int k = 0; k < rows->ncols; k++) sb_printf(&sql, "%sc%d", k ? "," : "", k);
    sb_puts(&sql, " FROM drasim_rows");
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, sb_str(&sql), -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(s);
    sb_free(&sql);
    sqlite3_create_module_v2(db, "drasim_rows", NULL, NULL, NULL);   /* unregistered: no pointer to `rows` kept */
    return rc;
}
