/* rdb_merge.c -- `drasim report A.db B.db ...`: one database holding the runs
 * of several (see rdb.h). Every input is someone else's file: it is checked
 * by rdb_open first, attached with trusted schemas off, and only its tables
 * with plain names and plain column names are copied, by SQL drasim writes
 * (no CREATE statement of the input is run); run ids are shifted so that they
 * stay unique, and the runs' scenario gets the file name in front. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/rdb.h"
#include "store/store.h"
#include "store/store_dra.h"
#include "store/store_labels.h"
#include "util/xalloc.h"

bool rdb_merge_plain(const char *s) {
    if (!s || !*s || strlen(s) > 64) return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' || (c > s && *c >= '0' && *c <= '9')))
            return false;
    return true;
}

static int run_sql(sqlite3 *db, const char *sql, strbuf *err) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    sb_clear(err);
    sb_printf(err, "cannot merge the databases (SQLite: %s)", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

static bool has_column(sqlite3 *db, const char *schema, const char *table, const char *col) {
    sqlite3_stmt *s;
    bool found = false;
    char *q = sqlite3_mprintf("SELECT 1 FROM pragma_table_info(%Q, %Q) WHERE name = %Q", table, schema, col);
    if (sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK) {
        found = sqlite3_step(s) == SQLITE_ROW;
        sqlite3_finalize(s);
    }
    sqlite3_free(q);
    return found;
}

/* "PATH: table T left out: ..." on o->notes (report A.db B.db says what it does not carry). */
static void note_left_out(const rdb_merge_opts *o, const char *path, const char *table, const char *column) {
    if (!o->notes) return;
    strbuf b = {0};
    sb_printf(&b, "%s: %s '", path, column ? "column" : "table");
    terminal_text(&b, table);
    if (column) sb_putc(&b, '.'), terminal_text(&b, column);
    sb_puts(&b, "' left out: its name is no drasim table's or column's ([A-Za-z_][A-Za-z0-9_]*, at most 64 bytes)");
    sb_cut_echoes(&b, SB_ECHO_MAX);
    fprintf(o->notes, "%s\n", sb_str(&b));
    sb_free(&b);
}

bool rdb_merge_missing_column(const char *have, const char *got, strbuf *missing) {
    for (const char *p = have + 1; *p; ) {
        const char *e = strchr(p, '\1');
        if (!e) break;
        strbuf key = {0};
        sb_putc(&key, '\1');
        sb_append(&key, p, (size_t)(e - p));
        sb_putc(&key, '\1');
        bool found = strstr(got, sb_str(&key)) != NULL;
        sb_free(&key);
        if (!found) {
            sb_append(missing, p, (size_t)(e - p));
            return true;
        }
        p = e + 1;
    }
    return false;
}

/* Copy SRC.table into main.table (created or widened as needed); src is a
 * schema name drasim chose ("src", "src3"), path its file. With
 * o->same_columns, a table main has already must have all of main's columns
 * in src too (databases of one schema version: a missing column would read
 * NULL, or break a NOT NULL rule). */
static int copy_table(sqlite3 *db, const char *src, const char *path, const char *table, int64_t offset,
                      const rdb_merge_opts *o, strbuf *err) {
    sqlite3_stmt *s;
    char *q = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q, %Q) ORDER BY cid", table, src);
    int rc = sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_free(q);
    if (rc) return run_sql(db, "SELECT 0 FROM src.no_such_table", err);
    strbuf cols = {0}, sel = {0}, ddl = {0};
    /* main's columns, once: "\1a\1b\1" (no row: no such table yet) */
    bool exists = false;
    strbuf have = {0};
    sqlite3_stmt *e;
    q = sqlite3_mprintf("SELECT char(1) || group_concat(name, char(1)) || char(1) FROM pragma_table_info(%Q, 'main')",
                        table);
    if (sqlite3_prepare_v2(db, q, -1, &e, NULL) == SQLITE_OK) {
        if (sqlite3_step(e) == SQLITE_ROW && sqlite3_column_type(e, 0) != SQLITE_NULL) {
            exists = true;
            sb_puts(&have, (const char *)sqlite3_column_text(e, 0));
        }
        sqlite3_finalize(e);
    }
    sqlite3_free(q);
    strbuf got = {0};
    sb_putc(&got, '\1');
    while (!rc && sqlite3_step(s) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(s, 0);
        if (!rdb_merge_plain(c)) {   /* a column no drasim database has: left out, said */
            note_left_out(o, path, table, c);
            continue;
        }
        sb_printf(&got, "%s\1", c);
        if (cols.len) sb_puts(&cols, ", "), sb_puts(&sel, ", "), sb_puts(&ddl, ", ");
        sb_printf(&cols, "\"%s\"", c);
        sb_printf(&ddl, "\"%s\"", c);
        if (!strcmp(c, "run_id")) sb_printf(&sel, "\"run_id\" + %lld", (long long)offset);
        else sb_printf(&sel, "\"%s\"", c);
        char key[80];
        snprintf(key, sizeof key, "\1%s\1", c);
        if (exists && !strstr(sb_str(&have), key)) {
            q = sqlite3_mprintf("ALTER TABLE main.\"%w\" ADD COLUMN \"%w\"", table, c);
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
    }
    sqlite3_finalize(s);
    strbuf missing = {0};
    if (!rc && exists && o->same_columns && rdb_merge_missing_column(sb_str(&have), sb_str(&got), &missing)) {
        sb_clear(err);
        sb_printf(err, "not a drasim results database of this schema version: table %s lacks column %s", table,
                  sb_str(&missing));
        rc = -2;
    }
    sb_free(&missing);
    sb_free(&got);
    if (!rc && cols.len) {
        if (!exists) {
            q = sqlite3_mprintf("CREATE TABLE main.\"%w\"(%s)", table, sb_str(&ddl));
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
        if (!rc) {
            q = sqlite3_mprintf("INSERT INTO main.\"%w\"(%s) SELECT %s FROM \"%w\".\"%w\"", table, sb_str(&cols),
                                sb_str(&sel), src, table);
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
    }
    sb_free(&cols);
    sb_free(&sel);
    sb_free(&ddl);
    sb_free(&have);
    return rc;
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Does schema `src` hold table `t` with a run_id column? */
static bool has_run_id(sqlite3 *db, const char *src, const char *t) { return has_column(db, src, t, "run_id"); }

/* Copy every plain table of the attached schema `src` (file `path`) into
 * main, run ids shifted by *offset, which then becomes main's largest run id. */
static int copy_source(sqlite3 *db, const char *src, const char *path, const rdb_merge_opts *o, int64_t *offset,
                       strbuf *err) {
    sqlite3_stmt *s;
    char *q = sqlite3_mprintf("SELECT name FROM \"%w\".sqlite_master WHERE type = 'table' ORDER BY rowid", src);
    int rc = sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_free(q);
    if (rc) return run_sql(db, "SELECT 0 FROM src.sqlite_master WHERE 0 = 1 AND", err);
    char **names = NULL;
    size_t nn = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0);
        if (!strncmp(t, "sqlite_", 7)) continue;
        if (!rdb_merge_plain(t)) {
            note_left_out(o, path, t, NULL);
            continue;
        }
        names = xrealloc(names, (nn + 1) * sizeof *names);
        names[nn++] = xstrdup(t);
    }
    sqlite3_finalize(s);
    for (size_t k = 0; k < nn; k++) {
        if (!rc && o->runs_only && !has_run_id(db, src, names[k])) {
            if (o->notes) fprintf(o->notes, "drasim merge: %s: table %s has no run_id column: left out\n", path, names[k]);
        } else if (!rc) {
            rc = copy_table(db, src, path, names[k], *offset, o, err);
        }
        free(names[k]);
    }
    free(names);
    if (!rc && o->label_files) {   /* the file name in every label of its runs */
        q = sqlite3_mprintf("UPDATE main.runs SET scenario = %Q || ': ' || scenario WHERE run_id > %lld",
                            base_name(path), (long long)*offset);
        rc = run_sql(db, q, err);
        sqlite3_free(q);
    }
    if (!rc) {
        sqlite3_stmt *m;
        if (sqlite3_prepare_v2(db, "SELECT max(run_id) FROM main.runs", -1, &m, NULL) == SQLITE_OK) {
            if (sqlite3_step(m) == SQLITE_ROW && sqlite3_column_type(m, 0) != SQLITE_NULL)
                *offset = sqlite3_column_int64(m, 0);
            sqlite3_finalize(m);
        }
    }
    return rc;
}

int rdb_merge_into(sqlite3 *db, const char *const *paths, size_t n, const rdb_merge_opts *o, strbuf *err) {
    /* as many files at a time as SQLite lets one connection attach (10 by
     * default, at most 125), one transaction per batch */
    int lim = sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1);
    size_t batch = lim > 0 ? (size_t)lim : 1;
    int64_t offset = 0;
    int rc = 0;
    char name[32];
    for (size_t b = 0; b < n && !rc; b += batch) {
        size_t k = n - b < batch ? n - b : batch, attached = 0;
        for (; attached < k && !rc; attached++) {
            sqlite3_stmt *s;
            snprintf(name, sizeof name, "src%zu", attached);
            rc = sqlite3_prepare_v2(db, "ATTACH ?1 AS ?2", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
            if (!rc) {
                sqlite3_bind_text(s, 1, paths[b + attached], -1, SQLITE_STATIC);
                sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
                rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
                sqlite3_finalize(s);
            }
            if (rc) {
                sb_clear(err);
                sb_printf(err, "%s: cannot attach: %s", paths[b + attached], sqlite3_errmsg(db));
                break;
            }
        }
        if (!rc) rc = run_sql(db, "BEGIN", err);
        for (size_t i = 0; i < k && !rc; i++) {
            snprintf(name, sizeof name, "src%zu", i);
            rc = copy_source(db, name, paths[b + i], o, &offset, err);
            if (rc) {   /* name the file the failure came from */
                strbuf m = {0};
                sb_printf(&m, "%s: %s", paths[b + i], sb_str(err));
                sb_clear(err);
                sb_puts(err, sb_str(&m));
                sb_free(&m);
            }
        }
        if (!rc) rc = run_sql(db, "COMMIT", err);
        else sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        for (size_t i = 0; i < attached; i++) {
            snprintf(name, sizeof name, "DETACH src%zu", i);
            if (sqlite3_exec(db, name, NULL, NULL, NULL) != SQLITE_OK && !rc) rc = run_sql(db, name, err);
        }
    }
    /* the views over the label sets and the claim sets (views are not copied) */
    if (!rc && store_label_view(db)) {
        sb_clear(err);
        sb_printf(err, "cannot merge the databases (view pod_labels, SQLite: %s)", sqlite3_errmsg(db));
        rc = -1;
    }
    if (!rc && store_claim_view(db)) {   /* and over the claim sets */
        sb_clear(err);
        sb_printf(err, "cannot merge the databases (view claim_allocations, SQLite: %s)", sqlite3_errmsg(db));
        rc = -1;
    }
    /* a database without summary groups next to one with them: its rows are whole-run rows */
    if (!rc && has_column(db, "main", "summary", "grp")) rc = run_sql(db, "UPDATE summary SET grp = '' WHERE grp IS NULL", err);
    return rc;
}

int rdb_merge(const char *const *paths, size_t n, const char *out, FILE *notes, strbuf *err) {
    int version = -1;
    bool one_version = true;
    for (size_t i = 0; i < n; i++) {   /* each a readable results database: its own message otherwise */
        rdb r;
        if (rdb_open(paths[i], &r, err)) return -1;
        int v = rdb_schema_version(&r);
        one_version &= i == 0 || v == version;
        version = v;
        rdb_close(&r);
    }
    if (one_version && rdb_merge_same_columns(paths, n, err)) return -1;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        sb_clear(err);
        sb_printf(err, "cannot create a temporary database %s", out);
        sqlite3_close(db);
        return -1;
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    int rc = run_sql(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", err);
    rdb_merge_opts o = {.label_files = n > 1, .same_columns = one_version, .notes = notes};
    if (!rc) rc = rdb_merge_into(db, paths, n, &o, err);
    sqlite3_close(db);
    return rc;
}
