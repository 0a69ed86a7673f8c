/* rdb_groups.c -- per-group summary rows of a results database (see rdb.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

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

/* Every pod group's summary rows in one pass over the table (a query per
 * group and metric scans the whole summary: minutes for a trace's groups). */
rdb_gsum *rdb_group_summaries(const rdb *r, size_t *n) {
    *n = 0;
    sqlite3_stmt *s = prep(r, "SELECT grp, metric, run_id, value FROM summary WHERE grp != '' ORDER BY rowid");
    rdb_gsum *gs = NULL;
    size_t cur = 0;
    while (s && sqlite3_step(s) == SQLITE_ROW) {
        const char *grp = (const char *)sqlite3_column_text(s, 0), *metric = (const char *)sqlite3_column_text(s, 1);
        if (!grp || !metric) continue;
        if (cur >= *n || strcmp(gs[cur].grp, grp))
            for (cur = 0; cur < *n && strcmp(gs[cur].grp, grp); cur++) {}
        if (cur == *n) {
            gs = xrealloc(gs, (*n + 1) * sizeof *gs);
            gs[(*n)++] = (rdb_gsum){xstrdup(grp), 0, NULL, NULL};
        }
        rdb_gsum *g = &gs[cur];
        size_t m = 0;
        while (m < g->nmetrics && strcmp(g->metrics[m], metric)) m++;
        if (m == g->nmetrics) {
            g->metrics = xrealloc(g->metrics, (m + 1) * sizeof *g->metrics);
            g->metrics[m] = xstrdup(metric);
            g->v = xrealloc(g->v, (m + 1) * (r->nruns + 1) * sizeof *g->v);
            for (size_t i = 0; i <= r->nruns; i++) g->v[m * (r->nruns + 1) + i] = NAN;
            g->nmetrics++;
        }
        int64_t id = sqlite3_column_int64(s, 2);
        size_t lo = 0, hi = r->nruns;   /* runs are ordered by id */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->runs[mid].id < id) lo = mid + 1;
            else hi = mid;
        }
        if (lo < r->nruns && r->runs[lo].id == id && sqlite3_column_type(s, 3) != SQLITE_NULL)
            g->v[m * (r->nruns + 1) + lo] = sqlite3_column_double(s, 3);
    }
    if (s) sqlite3_finalize(s);
    return gs;
}

const double *rdb_gsum_values(const rdb *r, const rdb_gsum *g, const char *metric) {
    for (size_t m = 0; m < g->nmetrics; m++)
        if (!strcmp(g->metrics[m], metric)) return &g->v[m * (r->nruns + 1)];
    return NULL;
}

void rdb_group_summaries_free(rdb_gsum *gs, size_t n) {
    for (size_t k = 0; k < n; k++) {
        free(gs[k].grp);
        for (size_t m = 0; m < gs[k].nmetrics; m++) free(gs[k].metrics[m]);
        free(gs[k].metrics);
        free(gs[k].v);
    }
    free(gs);
}

/* A queue of the results: one with admissions, or one only charged (a KAI
 * parent Queue: docs/COST.md "Per queue"). */
bool rdb_has_queue(const rdb *r, const char *cq) {
    sqlite3_stmt *s = prep(r, "SELECT 1 FROM summary WHERE grp = ? AND metric IN ('queue_admitted', 'queue_cost',"
                              " 'queue_energy_kwh') LIMIT 1");
    if (!s) return false;
    sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

const char *rdb_queue_kind(const rdb *r) {
    sqlite3_stmt *s = prep(r, "SELECT 1 FROM summary WHERE metric IN ('queue_preemptions_Reclaim', 'queue_preemptions_Preempt',"
                              " 'queue_missing_queue_pods') LIMIT 1");   /* metrics only KAI runs write */
    bool kai = s && sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return kai ? "Queue" : "ClusterQueue";
}

void rdb_queue_names(const rdb *r, strbuf *out) {
    sqlite3_stmt *s = prep(r, "SELECT grp FROM summary WHERE metric IN ('queue_admitted', 'queue_cost', 'queue_energy_kwh')"
                              " GROUP BY grp ORDER BY min(rowid)");
    if (!s) return;
    for (int k = 0; sqlite3_step(s) == SQLITE_ROW; k++)
        sb_printf(out, "%s%s", k ? ", " : "", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
}
