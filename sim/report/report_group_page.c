/*
 * report_group_page.c -- one HTML page per pod group (issue 26), linked from
 * index.html's answer table: the group's SLO numbers per configuration (mean,
 * and min – max over seeds; waits censored), why its pods wait at the end
 * (pending_reasons), its plots (rplot.page), and every summary metric of the
 * group.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/xalloc.h"

void report_group_page_name(const char *name, size_t k, strbuf *out) {
    size_t n = strlen(name);
    bool plain = n > 0 && n <= 64;
    for (size_t i = 0; i < n && plain; i++) {
        char c = name[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
    if (plain) sb_printf(out, "group-%s.html", name);
    else sb_printf(out, "group.%zu.html", k);   /* '.' is not in a plain name: no clash */
}

static void cell(strbuf *b, double v) {
    if (isnan(v)) sb_puts(b, "–");
    else if (v == floor(v) && fabs(v) < 1e15) sb_printf(b, "%.0f", v);
    else if (fabs(v) < 0.1) sb_printf(b, "%.4f", v);
    else sb_printf(b, "%.2f", v);
}

/* Mean (min – max) of v over the runs of configuration g; n = how many. */
static size_t config_stats(const rdb *r, size_t g, const double *v, rdb_stats *st) {
    *st = (rdb_stats){0, INFINITY, -INFINITY, 0};
    for (size_t i = 0; i < r->nruns; i++) {
        if (r->runs[i].group != g || isnan(v[i])) continue;
        st->mean += v[i];
        st->min = fmin(st->min, v[i]);
        st->max = fmax(st->max, v[i]);
        st->n++;
    }
    if (st->n) st->mean /= (double)st->n;
    else st->mean = st->min = st->max = NAN;
    return st->n;
}

static void stats_cell(strbuf *b, const rdb_stats *st) {
    sb_puts(b, "<td class=\"num\">");
    cell(b, st->mean);
    if (st->n > 1 && st->min != st->max) {
        sb_puts(b, " (");
        cell(b, st->min);
        sb_puts(b, " – ");
        cell(b, st->max);
        sb_puts(b, ")");
    }
    sb_puts(b, "</td>");
}

/* The values of a metric of the group per run (all NAN when it has none). */
static const double *values_of(const rdb *r, const rdb_gsum *gs, const char *metric, const double *none) {
    const double *v = rdb_gsum_values(r, gs, metric);
    return v ? v : none;
}

/* The SLO table: a row per configuration that has the group. */
static void slo_table(const rdb *r, const rdb_gsum *gs, strbuf *b) {
    static const char *const metric[] = {"pods_arrived", "pods_scheduled", "pods_pending_at_end", "wait_censored_p50_s",
                                         "wait_censored_p90_s", "wait_censored_p99_s", "wait_censored_max_s",
                                         "gpu_hours_requested", "gpu_hours_allocated"};
    static const char *const head[] = {"arrived", "started", "never started", "wait p50 (s)", "wait p90 (s)",
                                       "wait p99 (s)", "wait max (s)", "GPU-hours requested", "GPU-hours allocated"};
    enum { NM = sizeof metric / sizeof *metric };
    double *none = xmalloc((r->nruns + 1) * sizeof *none), *never = xmalloc((r->nruns + 1) * sizeof *never);
    for (size_t i = 0; i <= r->nruns; i++) none[i] = NAN;
    const double *arrived = values_of(r, gs, metric[0], none), *started = values_of(r, gs, metric[1], none);
    for (size_t i = 0; i < r->nruns; i++)   /* never started = arrived − started, run by run */
        never[i] = arrived[i] - (isnan(started[i]) ? 0 : started[i]);
    sb_puts(b, "<table class=\"answer\">\n<tr><th>configuration</th><th>runs</th>");
    for (size_t m = 0; m < NM; m++) sb_printf(b, "<th>%s</th>", head[m]);
    sb_puts(b, "</tr>\n");
    for (size_t g = 0; g < r->ngroups; g++) {
        rdb_stats st[NM];
        for (size_t m = 0; m < NM; m++) config_stats(r, g, m == 2 ? never : values_of(r, gs, metric[m], none), &st[m]);
        if (!st[0].n) continue;   /* the group is not in this configuration */
        sb_puts(b, "<tr><th>");
        html_escape(b, r->groups[g]);
        sb_printf(b, "</th><td class=\"num\">%zu</td>", st[0].n);
        for (size_t m = 0; m < NM; m++) stats_cell(b, &st[m]);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
    free(none);
    free(never);
}

/* Why its pods wait at the end: pending_reasons of the group, per
 * configuration, pods summed over its runs. */
static void reasons_table(const report *rp, const char *grp, strbuf *b) {
    const rdb *r = rp->r;
    sqlite3_stmt *s;
    if (!rdb_has_table(r, "pending_reasons") ||
        sqlite3_prepare_v2(r->db, "SELECT run_id, reason, pods FROM pending_reasons WHERE grp = ? ORDER BY run_id, rowid",
                           -1, &s, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(s, 1, grp, -1, SQLITE_STATIC);
    typedef struct row { size_t g; char *reason; double pods; } row;
    VEC(row) rows = {0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(s, 0);
        size_t i = 0;
        while (i < r->nruns && r->runs[i].id != id) i++;
        if (i == r->nruns) continue;
        const char *reason = (const char *)sqlite3_column_text(s, 1);
        if (!reason) reason = "none recorded (no scheduling attempt finished)";
        size_t k = 0;
        while (k < rows.len && !(rows.data[k].g == r->runs[i].group && !strcmp(rows.data[k].reason, reason))) k++;
        if (k == rows.len) {
            row x = {r->runs[i].group, xstrdup(reason), 0};
            VEC_PUSH(rows, x);
        }
        rows.data[k].pods += sqlite3_column_double(s, 2);
    }
    sqlite3_finalize(s);
    sb_puts(b, "<h2 id=\"reasons\">Why its pods wait</h2>\n");
    if (!rows.len) sb_puts(b, "<p class=\"meta\">No pod of this group was pending at the end of any run.</p>\n");
    else {
        sb_puts(b, "<p class=\"meta\">Pods pending (never started) at the end of the runs, by reason (table "
                   "pending_reasons); pods summed over the configuration's runs.</p>\n<table>\n<tr><th>configuration"
                   "</th><th>pods</th><th>reason</th></tr>\n");
        for (size_t k = 0; k < rows.len; k++) {
            sb_puts(b, "<tr><td>");
            html_escape(b, r->groups[rows.data[k].g]);
            sb_puts(b, "</td><td class=\"num\">");
            cell(b, rows.data[k].pods);
            sb_puts(b, "</td><td>");
            html_escape(b, rows.data[k].reason);
            sb_puts(b, "</td></tr>\n");
        }
        sb_puts(b, "</table>\n");
    }
    for (size_t k = 0; k < rows.len; k++) free(rows.data[k].reason);
    VEC_FREE(rows);
}

/* Every summary metric of the group: rows metrics, columns configurations. */
static void metrics_table(const rdb *r, const rdb_gsum *gs, strbuf *b) {
    sb_puts(b, "<table>\n<tr><th>metric</th>");
    for (size_t g = 0; g < r->ngroups; g++) {
        sb_puts(b, "<th>");
        html_escape(b, r->groups[g]);
        sb_puts(b, "</th>");
    }
    sb_puts(b, "</tr>\n");
    for (size_t m = 0; m < gs->nmetrics; m++) {
        sb_puts(b, "<tr><th>");
        html_escape(b, gs->metrics[m]);
        sb_puts(b, "</th>");
        for (size_t g = 0; g < r->ngroups; g++) {
            rdb_stats st;
            config_stats(r, g, &gs->v[m * (r->nruns + 1)], &st);
            stats_cell(b, &st);
        }
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

int report_group_pages(const report *rp, strbuf *err) {
    const rdb *r = rp->r;
    size_t ng;
    rdb_gsum *gs = rdb_group_summaries(r, &ng);
    strbuf b = {0}, file = {0}, t = {0};
    int rc = 0;
    for (size_t k = 0; k < ng && !rc; k++) {
        const char *grp = gs[k].grp;
        size_t own = 0;   /* a ClusterQueue's rows only (queue_*): its page is report_queues.c's */
        for (size_t m = 0; m < gs[k].nmetrics; m++) own += strncmp(gs[k].metrics[m], "queue_", 6) != 0;
        if (!own) continue;
        sb_clear(&b);
        sb_clear(&t);
        sb_printf(&t, "drasim report: group %s", grp);
        report_html_begin(&b, sb_str(&t));
        sb_puts(&b, "<p class=\"meta\"><a href=\"index.html\">← the report</a></p>\n<h1>group ");
        html_escape(&b, grp);
        sb_puts(&b, "</h1>\n<nav><a href=\"#slo\">SLO</a><a href=\"#reasons\">why pods wait</a>"
                    "<a href=\"#plots\">plots</a><a href=\"#metrics\">metrics</a></nav>\n");
        sb_puts(&b, "<h2 id=\"slo\">SLO by configuration</h2>\n<p class=\"meta\">Mean over the configuration's runs, "
                    "(min – max) over its seeds when they differ. Waits are censored: a pod that never started waits "
                    "until the end of its run.</p>\n");
        slo_table(r, &gs[k], &b);
        reasons_table(rp, grp, &b);
        sb_puts(&b, "<h2 id=\"plots\">Plots</h2>\n");
        size_t np = 0;
        for (size_t i = 0; i < rp->plots.len; i++) np += rp->plots.data[i].page == (int)(k + 1);
        if (np) report_figures_html(rp, (int)(k + 1), &b);
        else
            sb_printf(&b, "<p class=\"meta\">No plots for this group: %s.</p>\n",
                      k >= REPORT_GROUP_PLOTS_MAX ? "plots are drawn for the first 8 groups only (the small multiples of index.html show every group)"
                                                  : "the database has no pods of it");
        sb_puts(&b, "<h2 id=\"metrics\">Every metric of the group</h2>\n<p class=\"meta\">The summary's rows of this "
                    "group (column grp), mean (min – max) over each configuration's runs.</p>\n");
        metrics_table(r, &gs[k], &b);
        sb_puts(&b, "</body>\n</html>\n");
        sb_clear(&file);
        report_group_page_name(grp, k + 1, &file);
        rc = report_write_page(rp, sb_str(&file), &b, err);
    }
    sb_free(&b);
    sb_free(&file);
    sb_free(&t);
    rdb_group_summaries_free(gs, ng);
    return rc;
}
