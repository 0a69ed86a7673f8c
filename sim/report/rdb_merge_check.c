/* rdb_merge_check.c -- what `drasim merge` refuses before it writes anything
 * (see rdb.h): the wrong schema version, a file twice, duplicate run ids,
 * tables or columns the merge could not carry, runs in two files (overlapping
 * shards: compare would average a run with itself), mixed scenarios. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/escape.h"
#include "report/rdb.h"
#include "store/store.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct run_ref {
    char *key;      /* "scenario|mode|policy|point|seed": what tells two runs apart in every report */
    size_t file;
    int64_t id;
} run_ref;

static int ref_cmp(const void *a, const void *b) {
    const run_ref *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : x->file < y->file ? -1 : x->file > y->file;
}

static int schema_version(const rdb *r, const char *path, strbuf *err) {
    int ver = rdb_schema_version(r);
    if (ver == STORE_SCHEMA_VERSION) return 0;
    sb_clear(err);
    sb_printf(err, "%s: results schema version %d, this drasim reads and writes version %d%s; re-run its sweep with this drasim",
              path, ver, STORE_SCHEMA_VERSION, ver == 0 ? " (0: written before versions were stored)" : "");
    return -1;
}

/* Every table and column is one rdb_merge_into copies; no run id twice. */
static int check_shape(const rdb *r, const char *path, strbuf *err) {
    sqlite3_stmt *s;
    int rc = 0;
    if (sqlite3_prepare_v2(r->db,
                           "SELECT m.name, p.name FROM sqlite_master m LEFT JOIN pragma_table_info(m.name) p "
                           "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.rowid, p.cid",
                           -1, &s, NULL) != SQLITE_OK) {
        rdb_explain(path, r->db, NULL, err);
        return -1;
    }
    while (!rc && sqlite3_step(s) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0), *c = (const char *)sqlite3_column_text(s, 1);
        bool bad_table = !rdb_merge_plain(t);
        if (bad_table || (c && !rdb_merge_plain(c))) {
            sb_clear(err);
            sb_printf(err, "%s: %s '", path, bad_table ? "table" : "column");
            if (!bad_table) terminal_text(err, t), sb_putc(err, '.');
            terminal_text(err, bad_table ? t : c);
            sb_puts(err, "' has a name no drasim database uses ([A-Za-z_][A-Za-z0-9_]*, at most 64 bytes): drasim merge "
                         "would not carry it; drop or rename it first");
            rc = -1;
        }
    }
    sqlite3_finalize(s);
    if (rc) return rc;
    if (sqlite3_prepare_v2(r->db, "SELECT run_id, count(*) FROM runs GROUP BY run_id HAVING count(*) > 1 ORDER BY run_id LIMIT 1",
                           -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW) {
            sb_clear(err);
            sb_printf(err, "%s: run id %lld appears %d times in table runs (a run id names one run)", path,
                      (long long)sqlite3_column_int64(s, 0), sqlite3_column_int(s, 1));
            rc = -1;
        }
        sqlite3_finalize(s);
    }
    return rc;
}

/* Each plain table of file `file` with its columns, appended to out. */
typedef struct table_cols {
    char *table, *cols;   /* cols: "\1a\1b\1" */
    size_t file;
} table_cols;
typedef VEC(table_cols) table_cols_vec;

static void list_tables(sqlite3 *db, size_t file, table_cols_vec *out) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p "
                           "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, p.cid",
                           -1, &s, NULL) != SQLITE_OK)
        return;
    strbuf cols = {0};
    char *table = NULL;
    for (;;) {
        bool row = sqlite3_step(s) == SQLITE_ROW;
        const char *t = row ? (const char *)sqlite3_column_text(s, 0) : NULL;
        const char *c = row ? (const char *)sqlite3_column_text(s, 1) : NULL;
        if (table && (!row || !t || strcmp(t, table))) {   /* the previous table is complete */
            table_cols tc = {table, xstrdup(sb_str(&cols)), file};
            VEC_PUSH(*out, tc);
            table = NULL;
        }
        if (!row) break;
        if (!t || !rdb_merge_plain(t)) continue;   /* left out of every merge */
        if (!table) {
            table = xstrdup(t);
            sb_clear(&cols);
            sb_putc(&cols, '\1');
        }
        if (c && rdb_merge_plain(c)) sb_printf(&cols, "%s\1", c);
    }
    sqlite3_finalize(s);
    sb_free(&cols);
}

int rdb_merge_same_columns(const char *const *paths, size_t n, strbuf *err) {
    table_cols_vec all = {0};
    for (size_t i = 0; i < n; i++) {
        rdb r;
        if (rdb_open(paths[i], &r, err)) {
            for (size_t k = 0; k < all.len; k++) free(all.data[k].table), free(all.data[k].cols);
            VEC_FREE(all);
            return -1;
        }
        list_tables(r.db, i, &all);
        rdb_close(&r);
    }
    int rc = 0;
    for (size_t k = 0; k < all.len && !rc; k++)   /* each table against the first file that has it */
        for (size_t j = 0; j < k && !rc; j++) {
            const table_cols *ref = &all.data[j], *t = &all.data[k];
            if (strcmp(ref->table, t->table)) continue;
            strbuf col = {0};
            bool lacks = rdb_merge_missing_column(ref->cols, t->cols, &col);
            bool extra = !lacks && rdb_merge_missing_column(t->cols, ref->cols, &col);
            if (lacks || extra) {
                sb_clear(err);
                sb_printf(err, "%s: table %s lacks column %s, which %s's has (the same results schema version): not a "
                               "database drasim wrote, or one changed by hand",
                          paths[lacks ? t->file : ref->file], t->table, sb_str(&col), paths[lacks ? ref->file : t->file]);
                rc = -1;
            }
            sb_free(&col);
            break;
        }
    for (size_t k = 0; k < all.len; k++) free(all.data[k].table), free(all.data[k].cols);
    VEC_FREE(all);
    return rc;
}

/* The same file under two names (a copy is caught as overlapping runs). */
static int same_file(const char *const *paths, size_t n, strbuf *err) {
    struct stat *st = xcalloc(n ? n : 1, sizeof *st);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (stat(paths[i], &st[i])) continue;   /* rdb_open reports it */
        for (size_t k = 0; k < i && !rc; k++)
            if (st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino) {
                sb_clear(err);
                sb_printf(err, "%s and %s are the same database: its runs would be counted twice; give each file once",
                          paths[k], paths[i]);
                rc = -1;
            }
    }
    free(st);
    return rc;
}

int rdb_merge_check(const char *const *paths, size_t n, bool allow_mixed, strbuf *err) {
    char *first_scn = NULL;
    size_t first_file = 0, nrefs = 0;
    run_ref *refs = NULL;
    int rc = same_file(paths, n, err);
    for (size_t i = 0; i < n && !rc; i++) {
        rdb r;
        if (rdb_open(paths[i], &r, err)) {
            rc = -1;
            break;
        }
        rc = schema_version(&r, paths[i], err);
        if (!rc) rc = check_shape(&r, paths[i], err);
        for (size_t k = 0; k < r.nruns && !rc && !allow_mixed; k++) {
            if (!first_scn) {
                first_scn = xstrdup(r.runs[k].scenario);
                first_file = i;
            } else if (strcmp(first_scn, r.runs[k].scenario)) {
                sb_clear(err);
                sb_printf(err, "%s (scenario '%s') and %s (scenario '%s') come from different scenarios; "
                               "--allow-mixed merges them",
                          paths[first_file], first_scn, paths[i], r.runs[k].scenario);
                rc = -1;
            }
        }
        for (size_t k = 0; k < r.nruns && !rc; k++) {
            strbuf key = {0};
            sb_printf(&key, "%s|%lld", r.group_keys[r.runs[k].group], (long long)r.runs[k].seed);
            refs = xrealloc(refs, (nrefs + 1) * sizeof *refs);
            refs[nrefs++] = (run_ref){xstrdup(sb_str(&key)), i, r.runs[k].id};
            sb_free(&key);
        }
        rdb_close(&r);
    }
    if (!rc) rc = rdb_merge_same_columns(paths, n, err);   /* one version (checked): one shape */
    if (!rc && nrefs > 1) {   /* overlapping shards: the same run in two files */
        qsort(refs, nrefs, sizeof *refs, ref_cmp);
        for (size_t k = 1; k < nrefs && !rc; k++) {
            const run_ref *a = &refs[k - 1], *b = &refs[k];
            if (strcmp(a->key, b->key)) continue;
            const char *seed = strrchr(a->key, '|') + 1;
            sb_clear(err);
            sb_printf(err, "%s run %lld and %s run %lld are the same run (scenario|mode|policy|sweep point '%.*s', seed %s): "
                           "the databases overlap (a shard given twice, or two sweeps sharing points); merge each run once",
                      paths[a->file], (long long)a->id, paths[b->file], (long long)b->id, (int)(seed - 1 - a->key), a->key,
                      seed);
            rc = -1;
        }
    }
    for (size_t k = 0; k < nrefs; k++) free(refs[k].key);
    free(refs);
    free(first_scn);
    return rc;
}
