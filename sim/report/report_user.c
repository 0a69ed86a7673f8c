/*
 * report_user.c -- what a Lua generator measured itself (docs/LUA.md):
 * every series of table user_samples (drasim.sample) over simulated time,
 * one plot per series with a curve per configuration (mean and 95% CI over
 * its runs at equal times), and the user_* metrics of the summary
 * (drasim.record, whole run) as bars per configuration.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"
#include "util/xalloc.h"

/* "user_" + the series name with every character outside [A-Za-z0-9_] as
 * '_' (a series may hold '.' and '-'), and "_N" when an earlier series took
 * that stem. */
static void series_stem(const char *series, size_t n, strbuf *out, char **taken, size_t ntaken) {
    sb_clear(out);
    if (strncmp(series, "user_", 5)) sb_puts(out, "user_");
    for (const char *p = series; *p && out->len < 80; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        sb_putc(out, ok ? c : '_');
    }
    for (size_t i = 0; i < ntaken; i++)
        if (!strcmp(taken[i], sb_str(out))) {
            sb_printf(out, "_%zu", n);
            break;
        }
}

int rp_user_plots(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    int rc = 0;
    if (rdb_table_has_rows(r, "user_samples")) {
        sqlite3_stmt *s = rp_prep(rp, "SELECT series FROM user_samples GROUP BY series ORDER BY min(rowid)", err);
        if (!s) return -1;
        VEC(char *) names = {0};
        while (sqlite3_step(s) == SQLITE_ROW)
            if (sqlite3_column_text(s, 0)) VEC_PUSH(names, xstrdup((const char *)sqlite3_column_text(s, 0)));
        sqlite3_finalize(s);
        VEC(char *) stems = {0};
        static const xaxis axis = {"user_samples", "time_ms", 3600000.0, "simulated time (h)"};
        strbuf stem = {0}, title = {0};
        for (size_t k = 0; k < names.len && !rc; k++) {
            series_stem(names.data[k], k + 1, &stem, stems.data, stems.len);
            VEC_PUSH(stems, xstrdup(sb_str(&stem)));
            sb_clear(&title);
            sb_printf(&title, "%s over time (drasim.sample in the Lua generator)", names.data[k]);
            char *expr = sqlite3_mprintf("CASE WHEN series = %Q THEN value END", names.data[k]);
            size_t before = rp->plots.len;
            rc = rp_curve(rp, sb_str(&stem), sb_str(&title), &axis, expr, names.data[k], err);
            if (rp->plots.len > before) sb_puts(&rp->plots.data[before].vars, "y_free = 1\n");
            sqlite3_free(expr);
        }
        sb_free(&stem);
        sb_free(&title);
        rp_free_strings(names.data, names.len);
        rp_free_strings(stems.data, stems.len);
    }
    bool recorded = false;   /* a user_* metric of the whole run (rdb_user.c's S:mean etc. hold a ':') */
    for (size_t m = 0; m < r->nmetrics && !recorded; m++)
        recorded = !strncmp(r->metrics[m], "user_", 5) && !strchr(r->metrics[m], ':');
    size_t before = rp->plots.len;
    if (!rc && recorded && rdb_has_column(r, "summary", "grp"))
        rc = rp_sql_bars(rp, "user_metrics", "Metrics the Lua generator recorded (drasim.record, whole run)",
                         "value (each metric's own unit)",
                         "SELECT metric, value FROM summary WHERE run_id = ? AND grp = '' AND metric LIKE 'user!_%'"
                         " ESCAPE '!' ORDER BY rowid", err);
    if (rp->plots.len > before) sb_puts(&rp->plots.data[before].vars, "y_free = 1\n");
    return rc;
}
