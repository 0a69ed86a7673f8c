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
#include "util/xalloc.h"

static bool plain(const char *s) {
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
    sb_printf(err, "cannot merge the databases: %s", msg ? msg : sqlite3_errmsg(db));
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

/* Copy src.table into main.table (created or widened as needed). */
static int copy_table(sqlite3 *db, const char *table, int64_t offset, strbuf *err) {
    sqlite3_stmt *s;
    char *q = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q, 'src') ORDER BY cid", table);
    int rc = sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_free(q);
    if (rc) return run_sql(db, "SELECT 0 FROM src.no_such_table", err);
    strbuf cols = {0}, sel = {0}, ddl = {0};
    bool exists = false;
    sqlite3_stmt *e;
    q = sqlite3_mprintf("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = %Q", table);
    if (sqlite3_prepare_v2(db, q, -1, &e, NULL) == SQLITE_OK) {
        exists = sqlite3_step(e) == SQLITE_ROW;
        sqlite3_finalize(e);
    }
    sqlite3_free(q);
    while (!rc && sqlite3_step(s) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(s, 0);
        if (!plain(c)) continue;   /* a column no drasim database has: left out */
        if (cols.len) sb_puts(&cols, ", "), sb_puts(&sel, ", "), sb_puts(&ddl, ", ");
        sb_printf(&cols, "\"%s\"", c);
        sb_printf(&ddl, "\"%s\"", c);
        if (!strcmp(c, "run_id")) sb_printf(&sel, "\"run_id\" + %lld", (long long)offset);
        else sb_printf(&sel, "\"%s\"", c);
        if (exists && !has_column(db, "main", table, c)) {
            q = sqlite3_mprintf("ALTER TABLE main.\"%w\" ADD COLUMN \"%w\"", table, c);
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
    }
    sqlite3_finalize(s);
    if (!rc && cols.len) {
        if (!exists) {
            q = sqlite3_mprintf("CREATE TABLE main.\"%w\"(%s)", table, sb_str(&ddl));
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
        if (!rc) {
            q = sqlite3_mprintf("INSERT INTO main.\"%w\"(%s) SELECT %s FROM src.\"%w\"", table, sb_str(&cols),
                                sb_str(&sel), table);
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
    }
    sb_free(&cols);
    sb_free(&sel);
    sb_free(&ddl);
    return rc;
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int rdb_merge(const char *const *paths, size_t n, const char *out, strbuf *err) {
    for (size_t i = 0; i < n; i++) {   /* each a readable results database: its own message otherwise */
        rdb r;
        if (rdb_open(paths[i], &r, err)) return -1;
        rdb_close(&r);
    }
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
    int64_t offset = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        sqlite3_stmt *s;
        rc = sqlite3_prepare_v2(db, "ATTACH ?1 AS src", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
        if (!rc) {
            sqlite3_bind_text(s, 1, paths[i], -1, SQLITE_STATIC);
            rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
            sqlite3_finalize(s);
        }
        if (rc) {
            sb_clear(err);
            sb_printf(err, "%s: cannot attach: %s", paths[i], sqlite3_errmsg(db));
            break;
        }
        rc = run_sql(db, "BEGIN", err);
        if (!rc && sqlite3_prepare_v2(db, "SELECT name FROM src.sqlite_master WHERE type = 'table' ORDER BY rowid", -1,
                                      &s, NULL) == SQLITE_OK) {
            char **names = NULL;
            size_t nn = 0;
            while (sqlite3_step(s) == SQLITE_ROW) {
                const char *t = (const char *)sqlite3_column_text(s, 0);
                if (!plain(t) || !strncmp(t, "sqlite_", 7)) continue;
                names = xrealloc(names, (nn + 1) * sizeof *names);
                names[nn++] = xstrdup(t);
            }
            sqlite3_finalize(s);
            for (size_t k = 0; k < nn; k++) {
                if (!rc) rc = copy_table(db, names[k], offset, err);
                free(names[k]);
            }
            free(names);
        } else if (!rc) {
            rc = run_sql(db, "SELECT 0 FROM src.sqlite_master WHERE 0 = 1 AND", err);
        }
        if (!rc && n > 1) {   /* the file name in every label of its runs */
            char *q = sqlite3_mprintf("UPDATE main.runs SET scenario = %Q || ': ' || scenario WHERE run_id > %lld",
                                      base_name(paths[i]), (long long)offset);
            rc = run_sql(db, q, err);
            sqlite3_free(q);
        }
        if (!rc) {
            sqlite3_stmt *m;
            if (sqlite3_prepare_v2(db, "SELECT max(run_id) FROM main.runs", -1, &m, NULL) == SQLITE_OK) {
                if (sqlite3_step(m) == SQLITE_ROW) offset = sqlite3_column_int64(m, 0);
                sqlite3_finalize(m);
            }
        }
        if (!rc) rc = run_sql(db, "COMMIT", err);
        else sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        if (sqlite3_exec(db, "DETACH src", NULL, NULL, NULL) != SQLITE_OK && !rc) rc = run_sql(db, "DETACH src", err);
    }
    /* a database without summary groups next to one with them: its rows are whole-run rows */
    if (!rc && has_column(db, "main", "summary", "grp")) rc = run_sql(db, "UPDATE summary SET grp = '' WHERE grp IS NULL", err);
    sqlite3_close(db);
    return rc;
}
