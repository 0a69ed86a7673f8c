/* rdb_user.c -- a Lua generator's time series (table user_samples,
 * drasim.sample) as metrics of the runs that compare, check and report read
 * like the summary's: for every series S, `S:mean` (mean of its points),
 * `S:max` and `S:last` (the value of the last point). ':' never occurs in a
 * name drasim.record accepts, so they cannot collide with a recorded metric. */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "report/rdb.h"
#include "util/xalloc.h"

static const char *const AGGS[] = {"mean", "max", "last"};

typedef struct user_row {
    int64_t run;
    int metric[3];
    double v[3];
} user_row;

int rdb_add_user_series(rdb *r, strbuf *err) {
    if (!rdb_has_table(r, "user_samples")) return 0;
    if (rdb_check_numbers(r, "user_samples", "series", err)) return -1;
    /* per run and series: mean, max, and the last point (time, then call order) */
    const char *sql = "SELECT u.run_id, u.series, avg(u.value), max(u.value),"
                      " (SELECT value FROM user_samples l WHERE l.run_id = u.run_id AND l.series = u.series"
                      "  ORDER BY l.time_ms DESC, l.rowid DESC LIMIT 1)"
                      " FROM user_samples u GROUP BY u.run_id, u.series ORDER BY u.series, u.run_id";
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) {
        rdb_explain(r->path ? r->path : "", r->db, sql, err);
        return -1;
    }
    user_row *rows = NULL;
    size_t n = 0, old = r->nmetrics;
    int step;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        const char *series = (const char *)sqlite3_column_text(s, 1);
        if (!series) continue;
        rows = xrealloc(rows, (n + 1) * sizeof *rows);
        user_row *u = &rows[n++];
        u->run = sqlite3_column_int64(s, 0);
        for (int k = 0; k < 3; k++) {
            strbuf name = {0};
            sb_printf(&name, "%s:%s", series, AGGS[k]);
            int m = rdb_metric_index(r, sb_str(&name));
            if (m < 0) {
                r->metrics = xrealloc(r->metrics, (r->nmetrics + 1) * sizeof *r->metrics);
                r->metrics[r->nmetrics] = xstrdup(sb_str(&name));
                m = (int)r->nmetrics++;
            }
            sb_free(&name);
            u->metric[k] = m;
            u->v[k] = sqlite3_column_type(s, 2 + k) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 2 + k);
        }
    }
    sqlite3_finalize(s);
    if (step != SQLITE_DONE) {
        free(rows);
        rdb_explain(r->path ? r->path : "", r->db, NULL, err);
        return -1;
    }
    if (r->nmetrics != old) {   /* widen the [run * nmetrics + metric] table */
        double *v = xmalloc((r->nruns * r->nmetrics + 1) * sizeof *v);
        for (size_t i = 0; i < r->nruns; i++)
            for (size_t m = 0; m < r->nmetrics; m++) v[i * r->nmetrics + m] = m < old ? r->values[i * old + m] : NAN;
        free(r->values);
        r->values = v;
    }
    for (size_t i = 0; i < n; i++) {
        size_t run;
        for (run = 0; run < r->nruns && r->runs[run].id != rows[i].run; run++) {}
        if (run == r->nruns) continue;
        for (int k = 0; k < 3; k++) r->values[run * r->nmetrics + (size_t)rows[i].metric[k]] = rows[i].v[k];
    }
    free(rows);
    return 0;
}
