/* rdb.c -- reading results databases (see rdb.h). */
#include "report/rdb.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "report/escape.h"
#include "store/store.h"
#include "util/xalloc.h"

static char *col_text(sqlite3_stmt *s, int i) {
    const unsigned char *t = sqlite3_column_text(s, i);
    return xstrdup(t ? (const char *)t : "");
}

/* The table `sql` reads after FROM or JOIN whose columns lack `col` (the
 * table a "no such column" error is about), into out; false if none does. */
static bool table_lacking(sqlite3 *db, const char *sql, const char *col, strbuf *out) {
    const char *dot = strrchr(col, '.');   /* "s.time_ms": an alias; any table of the statement */
    if (dot) col = dot + 1;
    for (const char *p = sql; *p; p++) {
        if (strncasecmp(p, "FROM ", 5) && strncasecmp(p, "JOIN ", 5)) continue;
        p += 5;
        while (*p == ' ' || *p == '"') p++;
        size_t n = strcspn(p, " \"(),;");
        if (!n) continue;
        char *t = xstrndup(p, n);
        sqlite3_stmt *s;
        bool lacks = false;
        if (sqlite3_prepare_v2(db, "SELECT count(*), sum(name = ?2) FROM pragma_table_info(?1)", -1, &s, NULL) ==
            SQLITE_OK) {
            sqlite3_bind_text(s, 1, t, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 2, col, -1, SQLITE_STATIC);
            lacks = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > 0 && sqlite3_column_int(s, 1) == 0;
            sqlite3_finalize(s);
        }
        if (lacks) sb_puts(out, t);
        free(t);
        if (lacks) return true;
    }
    return false;
}

void rdb_explain(const char *path, sqlite3 *db, const char *sql, strbuf *err) {
    int code = db ? sqlite3_extended_errcode(db) & 0xff : SQLITE_CANTOPEN;
    const char *msg = db ? sqlite3_errmsg(db) : "";
    sb_clear(err);
    if (code == SQLITE_NOTADB) {
        sb_printf(err, "%s: not an SQLite database, so not a drasim results database", path);
    } else if (code == SQLITE_CORRUPT) {
        sb_printf(err, "%s: the database is corrupt (damaged or truncated)", path);
    } else if (code == SQLITE_CANTOPEN || code == SQLITE_IOERR) {
        sb_printf(err, "%s: cannot read the file", path);
    } else if (code == SQLITE_NOMEM) {
        sb_printf(err, "%s: out of memory reading the database", path);
    } else if (!strncmp(msg, "no such table: ", 15)) {
        const char *t = msg + 15, *dot = strchr(t, '.');
        sb_printf(err, "%s: not a drasim results database (no table %s)", path, dot ? dot + 1 : t);
    } else if (!strncmp(msg, "no such column: ", 16)) {
        strbuf t = {0};
        const char *c = strrchr(msg + 16, '.');
        c = c ? c + 1 : msg + 16;
        if (sql && table_lacking(db, sql, msg + 16, &t))
            sb_printf(err, "%s: not a drasim results database: table %s lacks column %s", path, sb_str(&t), c);
        else
            sb_printf(err, "%s: not a drasim results database: a table lacks column %s", path, c);
        sb_free(&t);
    } else {   /* a table of another shape drasim cannot read (a view over a missing table, ...) */
        sb_printf(err, "%s: not a database drasim can read (SQLite: %s)", path, msg);
    }
    sb_cut_echoes(err, SB_ECHO_MAX);
}

/* The end of a result loop: SQLITE_DONE, else what is wrong with the file. */
static int finished(rdb *r, int step_rc, strbuf *err) {
    if (step_rc == SQLITE_DONE) return 0;
    rdb_explain(r->path, r->db, NULL, err);
    return -1;
}

/* Statement `sql` failed: what is wrong with the file. */
static int fail(rdb *r, strbuf *err, const char *sql) {
    rdb_explain(r->path, r->db, sql, err);
    return -1;
}

int rdb_schema_version(const rdb *r) {
    int ver = -1;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW) ver = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
    }
    return ver;
}

bool rdb_has_table(const rdb *r, const char *table) {
    return store_has_object(r->db, "table", table) || store_has_object(r->db, "view", table);
}

bool rdb_table_has_rows(const rdb *r, const char *table) {
    if (!rdb_has_table(r, table)) return false;
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT 1 FROM \"%s\" LIMIT 1", table);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) return false;
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

bool rdb_has_column(const rdb *r, const char *table, const char *column) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", -1, &s, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, column, -1, SQLITE_STATIC);
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

int rdb_metric_index(const rdb *r, const char *metric) {
    for (size_t i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i], metric)) return (int)i;
    return -1;
}

double rdb_value(const rdb *r, size_t run, int metric) {
    return metric < 0 ? NAN : r->values[run * r->nmetrics + (size_t)metric];
}

static int find_run(const rdb *r, int64_t id) {
    for (size_t i = 0; i < r->nruns; i++)
        if (r->runs[i].id == id) return (int)i;
    return -1;
}

/* Sweep points: "param=value param2=value2" per run, from the sweep table. */
static int load_sweep(rdb *r, strbuf *err) {
    if (!rdb_has_table(r, "sweep")) return 0;
    sqlite3_stmt *s;
    const char *sql = "SELECT run_id, param, value FROM sweep ORDER BY run_id, rowid";
    if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) return fail(r, err, sql);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int i = find_run(r, sqlite3_column_int64(s, 0));
        if (i < 0) continue;
        strbuf b = {0};
        if (r->runs[i].point) sb_printf(&b, "%s ", r->runs[i].point);
        const char *k = (const char *)sqlite3_column_text(s, 1), *v = (const char *)sqlite3_column_text(s, 2);
        sb_printf(&b, "%s=%s", k ? k : "", v ? v : "");
        free(r->runs[i].point);
        r->runs[i].point = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    sqlite3_finalize(s);
    return finished(r, rc, err);
}

/* Before any table is read: a missing file, a directory, a file that is not
 * SQLite and a damaged database each get their own message. */
static int probe(rdb *r, strbuf *err) {
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(r->db, "SELECT count(*) FROM sqlite_master", -1, &s, NULL);
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {}
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    if (rc == SQLITE_OK) return 0;
    rdb_explain(r->path, r->db, NULL, err);
    return -1;
}

/* Sweep point for a label: a key of two segments is shortened to its last
 * ("scheduling.scoring=X" -> "scoring=X"); a longer key names an item of a
 * list and stays whole, so the legend says which pool or group it is
 * ("cluster.nodePools.h100.count=4", not "count=4"). */
static void short_point(const char *point, strbuf *out) {
    const char *p = point;
    while (*p) {
        size_t n = strcspn(p, " ");
        const char *eq = memchr(p, '=', n);
        const char *k = p;
        int dots = 0;
        for (const char *c = p; eq && c < eq; c++)
            if (*c == '.') dots++;
        for (const char *c = p; eq && dots == 1 && c < eq; c++)
            if (*c == '.') k = c + 1;
        if (out->len) sb_putc(out, ' ');
        sb_append(out, k, n - (size_t)(k - p));
        p += n + (p[n] == ' ');
    }
}

/* Group runs that differ only by seed; label each group by what varies
 * between groups (scenario, mode, policy, sweep point). */
static void make_groups(rdb *r) {
    bool vary_sc = false, vary_mode = false, vary_pol = false;
    for (size_t i = 1; i < r->nruns; i++) {
        vary_sc |= strcmp(r->runs[i].scenario, r->runs[0].scenario) != 0;
        vary_mode |= strcmp(r->runs[i].mode, r->runs[0].mode) != 0;
        vary_pol |= strcmp(r->runs[i].policy, r->runs[0].policy) != 0;
    }
    for (size_t i = 0; i < r->nruns; i++) {
        rdb_run *u = &r->runs[i];
        strbuf key = {0};
        sb_printf(&key, "%s|%s|%s|%s", u->scenario, u->mode, u->policy, u->point ? u->point : "");
        size_t g = 0;
        while (g < r->ngroups && strcmp(r->group_keys[g], sb_str(&key))) g++;
        if (g == r->ngroups) {
            strbuf label = {0};
            if (vary_sc) sb_printf(&label, "%s", u->scenario);
            /* a swept scheduling.mode / scheduling.scoring already shows in the point */
            bool swept_mode = u->point && strstr(u->point, "scheduling.mode=");
            bool swept_pol = u->point && (strstr(u->point, "scheduling.scoring=") || strstr(u->point, "scheduling.policy=") ||
                                          strstr(u->point, "policy="));
            if ((vary_mode && !swept_mode) || (!u->point && !vary_sc && !vary_pol)) sb_printf(&label, "%s%s", label.len ? " " : "", u->mode);
            if ((vary_pol && !swept_pol) || (!u->point && !vary_sc)) sb_printf(&label, "%s%s", label.len ? " " : "", u->policy);
            if (u->point) {
                strbuf sp = {0};
                short_point(u->point, &sp);
                sb_printf(&label, "%s%s", label.len ? " " : "", sb_str(&sp));
                sb_free(&sp);
            }
            r->groups = xrealloc(r->groups, (r->ngroups + 1) * sizeof *r->groups);
            r->group_keys = xrealloc(r->group_keys, (r->ngroups + 1) * sizeof *r->group_keys);
            r->groups[r->ngroups] = xstrdup(sb_str(&label));
            r->group_keys[r->ngroups] = xstrdup(sb_str(&key));
            r->ngroups++;
            sb_free(&label);
        }
        u->group = g;
        sb_free(&key);
    }
}

int rdb_check_numbers(rdb *r, const char *table, const char *name_col, strbuf *err) {
    bool grp = rdb_has_column(r, table, "grp");
    char *sql = sqlite3_mprintf("SELECT run_id, \"%w\", typeof(value), %s FROM \"%w\" WHERE typeof(value) NOT IN "
                                "('integer', 'real', 'null') ORDER BY run_id, \"%w\" LIMIT 1",
                                name_col, grp ? "grp" : "''", table, name_col);
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK ? fail(r, err, sql) : 0;
    sqlite3_free(sql);
    if (rc) return rc;
    int step = sqlite3_step(s);
    if (step == SQLITE_ROW) {
        const char *m = (const char *)sqlite3_column_text(s, 1), *g = (const char *)sqlite3_column_text(s, 3);
        sb_clear(err);
        sb_printf(err, "%s: not a valid drasim results database: %s value of %s '", r->path, table, name_col);
        terminal_text(err, m ? m : "");
        sb_printf(err, "' (run %lld", (long long)sqlite3_column_int64(s, 0));
        if (g && *g) sb_puts(err, ", group '"), terminal_text(err, g), sb_putc(err, '\'');
        sb_printf(err, ") is %s, not a number", (const char *)sqlite3_column_text(s, 2));
        sb_cut_echoes(err, SB_ECHO_MAX);
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    return finished(r, step, err);
}

int rdb_open(const char *path, rdb *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->path = xstrdup(path);
    struct stat st;
    int bad = stat(path, &st) ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (bad) {
        sb_clear(err);
        if (bad == EISDIR) sb_printf(err, "%s: is a directory, not a results database", path);
        else sb_printf(err, "%s: cannot open: %s", path, strerror(bad));
        rdb_close(out);
        return -1;
    }
    if (sqlite3_open_v2(path, &out->db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        /* someone else's file: no schema-defined functions or virtual tables
         * with side effects, no writes to the schema (sqlite.org/security.html) */
        sqlite3_db_config(out->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
        sqlite3_db_config(out->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    }
    if (!out->db || sqlite3_errcode(out->db) != SQLITE_OK || probe(out, err)) {
        if (!err->len) fail(out, err, NULL);
        rdb_close(out);
        return -1;
    }
    if (!rdb_has_table(out, "runs") || !rdb_has_table(out, "summary")) {
        sb_clear(err);
        sb_printf(err, "%s: not a drasim results database (no table %s)", path,
                  rdb_has_table(out, "runs") ? "summary" : "runs");
        rdb_close(out);
        return -1;
    }
    if (rdb_check_numbers(out, "summary", "metric", err)) {
        rdb_close(out);
        return -1;
    }
    sqlite3_stmt *s;
    const char *runs_sql = "SELECT run_id, scenario, mode, policy, seed, end_ms FROM runs ORDER BY run_id";
    if (sqlite3_prepare_v2(out->db, runs_sql, -1, &s, NULL) != SQLITE_OK) {
        fail(out, err, runs_sql);
        rdb_close(out);
        return -1;
    }
    int step;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        out->runs = xrealloc(out->runs, (out->nruns + 1) * sizeof *out->runs);
        rdb_run *u = &out->runs[out->nruns++];
        memset(u, 0, sizeof *u);
        u->id = sqlite3_column_int64(s, 0);
        u->scenario = col_text(s, 1);
        u->mode = col_text(s, 2);
        u->policy = col_text(s, 3);
        u->seed = sqlite3_column_int64(s, 4);
        u->end_ms = sqlite3_column_int64(s, 5);
    }
    sqlite3_finalize(s);
    if (finished(out, step, err) || load_sweep(out, err)) {
        rdb_close(out);
        return -1;
    }
    make_groups(out);
    /* the whole run's metrics (grp '': databases before per-group rows have no grp column);
     * metric names first (first-seen order), then values */
    const char *sql = rdb_has_column(out, "summary", "grp") ? "SELECT run_id, metric, value FROM summary WHERE grp = '' ORDER BY run_id, rowid"
                                           : "SELECT run_id, metric, value FROM summary ORDER BY run_id, rowid";
    if (sqlite3_prepare_v2(out->db, sql, -1, &s, NULL) != SQLITE_OK) {
        fail(out, err, sql);
        rdb_close(out);
        return -1;
    }
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        const char *m = (const char *)sqlite3_column_text(s, 1);
        if (m && rdb_metric_index(out, m) < 0) {
            out->metrics = xrealloc(out->metrics, (out->nmetrics + 1) * sizeof *out->metrics);
            out->metrics[out->nmetrics++] = xstrdup(m);
        }
    }
    if (finished(out, step, err)) {
        sqlite3_finalize(s);
        rdb_close(out);
        return -1;
    }
    sqlite3_reset(s);
    out->values = xmalloc((out->nruns * out->nmetrics + 1) * sizeof *out->values);
    for (size_t i = 0; i < out->nruns * out->nmetrics; i++) out->values[i] = NAN;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        int run = find_run(out, sqlite3_column_int64(s, 0));
        const char *m = (const char *)sqlite3_column_text(s, 1);
        if (run < 0 || !m || sqlite3_column_type(s, 2) == SQLITE_NULL) continue;
        out->values[(size_t)run * out->nmetrics + (size_t)rdb_metric_index(out, m)] = sqlite3_column_double(s, 2);
    }
    sqlite3_finalize(s);
    if (finished(out, step, err) || rdb_add_user_series(out, err)) {
        rdb_close(out);
        return -1;
    }
    return 0;
}

void rdb_close(rdb *r) {
    if (r->db) sqlite3_close(r->db);
    for (size_t i = 0; i < r->nruns; i++) {
        free(r->runs[i].scenario);
        free(r->runs[i].mode);
        free(r->runs[i].policy);
        free(r->runs[i].point);
    }
    for (size_t i = 0; i < r->nmetrics; i++) free(r->metrics[i]);
    for (size_t i = 0; i < r->ngroups; i++) {
        free(r->groups[i]);
        free(r->group_keys[i]);
    }
    free(r->runs);
    free(r->metrics);
    free(r->values);
    free(r->groups);
    free(r->group_keys);
    free(r->path);
    memset(r, 0, sizeof *r);
}

rdb_stats rdb_group_stats(const rdb *r, size_t g, int metric) {
    rdb_stats st = {NAN, NAN, NAN, 0};
    double sum = 0;
    for (size_t i = 0; i < r->nruns; i++) {
        if (g != SIZE_MAX && r->runs[i].group != g) continue;
        double v = rdb_value(r, i, metric);
        if (isnan(v)) continue;
        if (!st.n || v < st.min) st.min = v;
        if (!st.n || v > st.max) st.max = v;
        sum += v;
        st.n++;
    }
    if (st.n) st.mean = sum / (double)st.n;
    return st;
}

int metric_direction(const char *m) {
    static const char *const higher[] = {"pods_scheduled", "pods_succeeded", "gpu_alloc_pct", "gpu_alloc_peak_pct",
                                         "cpu_alloc_pct", "memory_alloc_pct", NULL};
    static const char *const lower[] = {"pods_pending_at_end", "unschedulable", "wait_mean_s", "wait_p50_s",
                                        "wait_p90_s", "wait_p95_s", "wait_p99_s", "wait_max_s", NULL};
    for (int i = 0; higher[i]; i++)
        if (!strcmp(m, higher[i])) return 1;
    for (int i = 0; lower[i]; i++)
        if (!strcmp(m, lower[i])) return -1;
    /* metrics added later follow naming conventions */
    if (!strncmp(m, "frag", 4) || !strncmp(m, "wait_", 5) || strstr(m, "pending") || strstr(m, "unschedulable") ||
        strstr(m, "preempt") || strstr(m, "stranded"))
        return -1;
    if (strstr(m, "alloc") && strstr(m, "_pct")) return 1;
    if (!strncmp(m, "nodes_fit_", 10)) return 1;   /* nodes that could take an N-GPU pod */
    return 0;
}
