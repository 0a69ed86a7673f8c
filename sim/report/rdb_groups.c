/* rdb_groups.c -- per-group summary rows of a results database (see rdb.h). */
#include <math.h>
#include <sqlite3.h>

#include "report/rdb.h"
#include "util/xalloc.h"

/* A statement over the summary, or NULL when the database has no groups (no grp column). */
static sqlite3_stmt *prep(const rdb *r, const char *sql) {
    sqlite3_stmt *s;
    if (!rdb_has_column(r, "summary", "grp") || sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) return NULL;
    return s;
}

bool rdb_has_pod_group(const rdb *r, const char *grp) {
    sqlite3_stmt *s = prep(r, "SELECT 1 FROM summary WHERE grp = ? AND grp != '' LIMIT 1");
    if (!s) return false;
    sqlite3_bind_text(s, 1, grp, -1, SQLITE_STATIC);
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

rdb_stats rdb_pod_group_stats(const rdb *r, const char *grp, const char *metric) {
    rdb_stats st = {0, INFINITY, -INFINITY, 0};
    sqlite3_stmt *s = prep(r, "SELECT value FROM summary WHERE grp = ? AND metric = ? AND value IS NOT NULL ORDER BY run_id");
    if (s) {
        sqlite3_bind_text(s, 1, grp, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
        while (sqlite3_step(s) == SQLITE_ROW) {
            double v = sqlite3_column_double(s, 0);
            st.mean += v;
            if (v < st.min) st.min = v;
            if (v > st.max) st.max = v;
            st.n++;
        }
        sqlite3_finalize(s);
    }
    if (st.n) st.mean /= (double)st.n;
    else st.min = st.max = NAN;
    return st;
}

void rdb_pod_group_names(const rdb *r, strbuf *out) {
    sqlite3_stmt *s = prep(r, "SELECT grp FROM summary WHERE grp != '' GROUP BY grp ORDER BY min(rowid)");
    if (!s) return;
    for (int k = 0; sqlite3_step(s) == SQLITE_ROW; k++)
        sb_printf(out, "%s%s", k ? ", " : "", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
}

char **rdb_pod_groups(const rdb *r, size_t *n) {
    *n = 0;
    sqlite3_stmt *s = prep(r, "SELECT grp FROM summary WHERE grp != '' GROUP BY grp ORDER BY min(rowid)");
    char **names = NULL;
    while (s && sqlite3_step(s) == SQLITE_ROW) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = xstrdup((const char *)sqlite3_column_text(s, 0));
    }
    if (s) sqlite3_finalize(s);
    return names;
}

void rdb_pod_group_values(const rdb *r, const char *grp, const char *metric, double *out) {
    for (size_t i = 0; i < r->nruns; i++) out[i] = NAN;
    sqlite3_stmt *s = prep(r, "SELECT run_id, value FROM summary WHERE grp = ? AND metric = ? AND value IS NOT NULL");
    if (!s) return;
    sqlite3_bind_text(s, 1, grp, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
    while (sqlite3_step(s) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(s, 0);
        size_t lo = 0, hi = r->nruns;   /* runs are ordered by id */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->runs[mid].id < id) lo = mid + 1;
            else hi = mid;
        }
        if (lo < r->nruns && r->runs[lo].id == id) out[lo] = sqlite3_column_double(s, 1);
    }
    sqlite3_finalize(s);
}

bool rdb_has_queue(const rdb *r, const char *cq) {
    sqlite3_stmt *s = prep(r, "SELECT 1 FROM summary WHERE grp = ? AND metric = 'queue_admitted' LIMIT 1");
    if (!s) return false;
    sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

void rdb_queue_names(const rdb *r, strbuf *out) {
    sqlite3_stmt *s = prep(r, "SELECT grp FROM summary WHERE metric = 'queue_admitted' GROUP BY grp ORDER BY min(rowid)");
    if (!s) return;
    for (int k = 0; sqlite3_step(s) == SQLITE_ROW; k++)
        sb_printf(out, "%s%s", k ? ", " : "", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
}
