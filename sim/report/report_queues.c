/*
 * report_queues.c -- `drasim report` for runs with `queues:` (issue 27,
 * docs/QUEUES.md "The report per ClusterQueue"): a page per Kueue
 * ClusterQueue (queue-NAME.html) linked from index.html's "ClusterQueues"
 * table, with per configuration
 *   - time to admission (censored) and time admitted but not yet placed,
 *   - usage against nominal quota and the borrowed amount (table
 *     queue_usage: mean and peak over the samples, borrowed unit-hours),
 *   - preemptions by Kueue's reason, and its Workloads preempted,
 * and two plots (the first REPORT_QUEUE_PLOTS_MAX ClusterQueues): usage,
 * nominal quota and borrowed over time per flavor and device resource
 * (cpu and memory only when it has no other), and Workloads pending,
 * admitted and admitted-but-unplaced over time (table queue_state).
 * Nothing at all for a database without ClusterQueues.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"
#include "util/xalloc.h"

char **report_queue_names(const rdb *r, size_t *n) {
    *n = 0;
    char **names = NULL;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, "SELECT grp FROM summary WHERE metric = 'queue_admitted' GROUP BY grp ORDER BY "
                                  "min(rowid)", -1, &s, NULL) != SQLITE_OK)
        return NULL;
    while (sqlite3_step(s) == SQLITE_ROW) {
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = xstrdup((const char *)sqlite3_column_text(s, 0));
    }
    sqlite3_finalize(s);
    return names;
}

void report_queue_page_name(const char *name, size_t k, strbuf *out) {
    size_t n = strlen(name);
    bool plain = n > 0 && n <= 64;
    for (size_t i = 0; i < n && plain; i++) {
        char c = name[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }
    if (plain) sb_printf(out, "queue-%s.html", name);
    else sb_printf(out, "queue.%zu.html", k);   /* '.' is not in a plain name: no clash */
}

/* A plot's page for ClusterQueue k (from 1): negative, apart from the pod groups' pages. */
static int queue_page(size_t k) {
    return -(int)k;
}

/* The (flavor, resource) pairs of `cq` in queue_usage worth a plot: every
 * resource but cpu and memory; those only when there is no other. */
static size_t plot_resources(report *rp, const char *cq, char ***flavors, char ***resources, strbuf *err) {
    sqlite3_stmt *s = rp_prep(rp, "SELECT flavor, resource, resource IN ('cpu', 'memory') FROM queue_usage WHERE "
                                  "cluster_queue = ? GROUP BY flavor, resource ORDER BY min(rowid)", err);
    size_t n = 0, devices = 0;
    *flavors = *resources = NULL;
    if (!s) return 0;
    sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
    bool *core = NULL;
    while (sqlite3_step(s) == SQLITE_ROW) {
        *flavors = xrealloc(*flavors, (n + 1) * sizeof **flavors);
        *resources = xrealloc(*resources, (n + 1) * sizeof **resources);
        core = xrealloc(core, (n + 1) * sizeof *core);
        (*flavors)[n] = xstrdup((const char *)sqlite3_column_text(s, 0));
        (*resources)[n] = xstrdup((const char *)sqlite3_column_text(s, 1));
        core[n] = sqlite3_column_int(s, 2);
        devices += !core[n];
        n++;
    }
    sqlite3_finalize(s);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {   /* keep devices (or cpu alone when there is none) */
        bool keep = devices ? !core[i] : !strcmp((*resources)[i], "cpu");
        if (keep) {
            (*flavors)[k] = (*flavors)[i];
            (*resources)[k++] = (*resources)[i];
        } else {
            free((*flavors)[i]);
            free((*resources)[i]);
        }
    }
    free(core);
    return k;
}

/* One block per configuration and series: hour, mean, min, max over the
 * configuration's runs of `column` of `table` at each sample, rows chosen
 * by `where` (bound: cq, then the optional a, b). */
static void series_blocks(report *rp, FILE *f, const char *table, const char *column, const char *where,
                          const char *cq, const char *a, const char *b, const char *label, char ***titles,
                          size_t *nt) {
    const rdb *r = rp->r;
    for (size_t g = 0; g < r->ngroups; g++) {
        strbuf ids = {0}, sql = {0}, t = {0};
        rp_group_ids(r, g, &ids);
        sb_printf(&sql, "SELECT t_ms, avg(%s), min(%s), max(%s) FROM %s WHERE run_id IN (%s) AND %s GROUP BY t_ms "
                        "ORDER BY t_ms", column, column, column, table, sb_str(&ids), where);
        sqlite3_stmt *s;
        if (r->ngroups > 1) sb_printf(&t, "%s: ", r->groups[g]);
        sb_puts(&t, label);
        rp_data_comment(f, sb_str(&t), "");
        if (sqlite3_prepare_v2(r->db, sb_str(&sql), -1, &s, NULL) == SQLITE_OK) {
            sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
            if (a) sqlite3_bind_text(s, 2, a, -1, SQLITE_STATIC);
            if (b) sqlite3_bind_text(s, 3, b, -1, SQLITE_STATIC);
            while (sqlite3_step(s) == SQLITE_ROW)
                fprintf(f, "%.6f %.6g %.6g %.6g\n", sqlite3_column_double(s, 0) / 3600000.0,
                        sqlite3_column_double(s, 1), sqlite3_column_double(s, 2), sqlite3_column_double(s, 3));
            sqlite3_finalize(s);
        }
        fputs("\n\n", f);
        *titles = xrealloc(*titles, (*nt + 1) * sizeof **titles);
        (*titles)[(*nt)++] = xstrdup(sb_str(&t));
        sb_free(&ids);
        sb_free(&sql);
        sb_free(&t);
    }
}

/* queueK_usage: usage, nominal and borrowed over time per flavor/resource. */
static int usage_plot(report *rp, const char *cq, size_t k, strbuf *err) {
    char **flavors, **resources;
    size_t nr = plot_resources(rp, cq, &flavors, &resources, err);
    if (!nr) return err->len ? -1 : 0;
    strbuf stem = {0}, title = {0};
    sb_printf(&stem, "queue%zu_usage", k);
    FILE *f = rp_open_data(rp, sb_str(&stem), err);
    int rc = f ? 0 : -1;
    char **titles = NULL;
    size_t nt = 0;
    static const char *const cols[] = {"usage", "nominal", "borrowed"};
    for (size_t i = 0; i < nr && f; i++)
        for (size_t c = 0; c < 3; c++) {
            strbuf l = {0};
            sb_printf(&l, "%s %s/%s", cols[c], resources[i], flavors[i]);
            series_blocks(rp, f, "queue_usage", cols[c], "cluster_queue = ? AND flavor = ? AND resource = ?", cq,
                          flavors[i], resources[i], sb_str(&l), &titles, &nt);
            sb_free(&l);
        }
    if (f) fclose(f);
    if (!rc) {
        sb_printf(&title, "ClusterQueue %s: usage against nominal quota, and borrowed, over time", cq);
        rplot *p = rp_new_plot(rp, sb_str(&stem), "timeseries.gp", sb_str(&title));
        p->page = queue_page(k);
        rp_gp_array(&p->vars, "series", titles, nt);
        rp_gp_var(&p->vars, "xlabel_text", "simulated time (h)");
        rp_gp_var(&p->vars, "ylabel_text", "quota units (devices; cpu in cores)");
    }
    rp_free_strings(titles, nt);
    rp_free_strings(flavors, nr);
    rp_free_strings(resources, nr);
    sb_free(&stem);
    sb_free(&title);
    return rc;
}

/* queueK_state: Workloads pending, admitted, admitted but not placed. */
static int state_plot(report *rp, const char *cq, size_t k, strbuf *err) {
    strbuf stem = {0}, title = {0};
    sb_printf(&stem, "queue%zu_state", k);
    FILE *f = rp_open_data(rp, sb_str(&stem), err);
    if (!f) {
        sb_free(&stem);
        return -1;
    }
    char **titles = NULL;
    size_t nt = 0;
    static const char *const cols[] = {"pending", "admitted", "unscheduled"};
    static const char *const labels[] = {"pending", "admitted (holding quota)", "admitted, not yet placed"};
    for (size_t c = 0; c < 3; c++)
        series_blocks(rp, f, "queue_state", cols[c], "cluster_queue = ?", cq, NULL, NULL, labels[c], &titles, &nt);
    fclose(f);
    sb_printf(&title, "ClusterQueue %s: Workloads over time", cq);
    rplot *p = rp_new_plot(rp, sb_str(&stem), "timeseries.gp", sb_str(&title));
    p->page = queue_page(k);
    rp_gp_array(&p->vars, "series", titles, nt);
    rp_gp_var(&p->vars, "xlabel_text", "simulated time (h)");
    rp_gp_var(&p->vars, "ylabel_text", "Workloads");
    rp_free_strings(titles, nt);
    sb_free(&stem);
    sb_free(&title);
    return 0;
}

int rp_queue_plots(report *rp, strbuf *err) {
    size_t n;
    char **names = report_queue_names(rp->r, &n);
    bool usage = rdb_table_has_rows(rp->r, "queue_usage"), state = rdb_table_has_rows(rp->r, "queue_state");
    int rc = 0;
    for (size_t k = 0; k < n && k < REPORT_QUEUE_PLOTS_MAX && !rc; k++) {
        if (usage) rc = usage_plot(rp, names[k], k + 1, err);
        if (!rc && state) rc = state_plot(rp, names[k], k + 1, err);
    }
    rp_free_strings(names, n);
    return rc;
}

static void num_cell(strbuf *b, double v) {
    sb_puts(b, "<td class=\"num\">");
    if (isnan(v)) sb_puts(b, "–");
    else if (v == floor(v) && fabs(v) < 1e15) sb_printf(b, "%.0f", v);
    else sb_printf(b, "%.2f", v);
    sb_puts(b, "</td>");
}

/* Mean of a queue metric over configuration g's runs (NAN: none). */
static double queue_mean(const rdb *r, size_t g, const char *cq, const char *metric) {
    strbuf ids = {0}, sql = {0};
    rp_group_ids(r, g, &ids);
    sb_printf(&sql, "SELECT avg(value) FROM summary WHERE run_id IN (%s) AND grp = ? AND metric = ?", sb_str(&ids));
    double v = NAN;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, sb_str(&sql), -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) v = sqlite3_column_double(s, 0);
        sqlite3_finalize(s);
    }
    sb_free(&ids);
    sb_free(&sql);
    return v;
}

/* A table: a row per configuration, a column per metric (mean over its runs). */
static void metric_table(const rdb *r, const char *cq, const char *const *metric, const char *const *head, size_t nm,
                         strbuf *b) {
    sb_puts(b, "<table class=\"answer\">\n<tr><th>configuration</th><th>runs</th>");
    for (size_t m = 0; m < nm; m++) sb_printf(b, "<th>%s</th>", head[m]);
    sb_puts(b, "</tr>\n");
    for (size_t g = 0; g < r->ngroups; g++) {
        if (isnan(queue_mean(r, g, cq, "queue_admitted"))) continue;   /* not in this configuration */
        sb_puts(b, "<tr><th>");
        html_escape(b, r->groups[g]);
        sb_printf(b, "</th><td class=\"num\">%zu</td>", rp_group_size(r, g));
        for (size_t m = 0; m < nm; m++) num_cell(b, queue_mean(r, g, cq, metric[m]));
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

/* Usage against nominal quota per configuration and flavor/resource, from
 * queue_usage: means over the configuration's runs of each run's mean and
 * peak over the samples; borrowed unit-hours = mean borrowed x the span of
 * the samples. */
static void usage_table(const rdb *r, const char *cq, strbuf *b) {
    sb_puts(b, "<table>\n<tr><th>configuration</th><th>flavor</th><th>resource</th><th>nominal</th><th>usage mean"
               "</th><th>usage peak</th><th>usage / nominal (mean)</th><th>borrowed mean</th><th>borrowed peak</th>"
               "<th>borrowed unit-hours</th></tr>\n");
    for (size_t g = 0; g < r->ngroups; g++) {
        strbuf ids = {0}, sql = {0};
        rp_group_ids(r, g, &ids);
        sb_printf(&sql, "SELECT flavor, resource, avg(nom), avg(um), avg(up), avg(bm), avg(bp), avg(bh) FROM (SELECT "
                        "run_id, flavor, resource, min(rowid) AS o, avg(nominal) AS nom, avg(usage) AS um, max(usage) "
                        "AS up, avg(borrowed) AS bm, max(borrowed) AS bp, avg(borrowed) * (max(t_ms) - min(t_ms)) / "
                        "3600000.0 AS bh FROM queue_usage WHERE run_id IN (%s) AND cluster_queue = ? GROUP BY run_id, "
                        "flavor, resource) GROUP BY flavor, resource ORDER BY min(o)",
                  sb_str(&ids));
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(r->db, sb_str(&sql), -1, &s, NULL) == SQLITE_OK) {
            sqlite3_bind_text(s, 1, cq, -1, SQLITE_STATIC);
            while (sqlite3_step(s) == SQLITE_ROW) {
                sb_puts(b, "<tr><th>");
                html_escape(b, r->groups[g]);
                sb_puts(b, "</th><td>");
                html_escape(b, (const char *)sqlite3_column_text(s, 0));
                sb_puts(b, "</td><td>");
                html_escape(b, (const char *)sqlite3_column_text(s, 1));
                sb_puts(b, "</td>");
                double nom = sqlite3_column_double(s, 2), um = sqlite3_column_double(s, 3);
                num_cell(b, nom);
                num_cell(b, um);
                num_cell(b, sqlite3_column_double(s, 4));
                num_cell(b, nom > 0 ? um / nom : NAN);
                for (int c = 5; c <= 7; c++) num_cell(b, sqlite3_column_double(s, c));
                sb_puts(b, "</tr>\n");
            }
            sqlite3_finalize(s);
        }
        sb_free(&ids);
        sb_free(&sql);
    }
    sb_puts(b, "</table>\n");
}

static const char *const ADMISSION_METRIC[] = {
    "queue_admitted", "queue_admitted_borrowing", "queue_pending_at_end", "queue_wait_censored_mean_s",
    "queue_wait_censored_p50_s", "queue_wait_censored_p90_s", "queue_wait_censored_p99_s", "queue_wait_censored_max_s",
    "queue_unscheduled_censored_p50_s", "queue_unscheduled_censored_p99_s"};
static const char *const ADMISSION_HEAD[] = {
    "admitted", "admitted borrowing", "pending at end", "to admission mean (s)", "p50 (s)", "p90 (s)", "p99 (s)",
    "max (s)", "admitted, not placed p50 (s)", "p99 (s)"};
static const char *const PREEMPT_METRIC[] = {
    "queue_preemptions_InClusterQueue", "queue_preemptions_InCohortReclamation",
    "queue_preemptions_InCohortReclaimWhileBorrowing", "queue_preemptions_InCohortFairSharing", "queue_preemptions",
    "queue_preempted"};
static const char *const PREEMPT_HEAD[] = {"InClusterQueue", "InCohortReclamation", "InCohortReclaimWhileBorrowing",
                                           "InCohortFairSharing", "preemptions (all)", "its Workloads preempted"};

void report_queues_index(const rdb *r, strbuf *b) {
    size_t n;
    char **names = report_queue_names(r, &n);
    if (!n) {
        free(names);
        return;
    }
    strbuf page = {0};
    sb_puts(b, "<h2 id=\"queues\">ClusterQueues</h2>\n<p class=\"meta\">Kueue ClusterQueues (docs/QUEUES.md): per "
               "configuration, means over its runs; time to admission censored (a Workload still pending waits until "
               "the end). Each ClusterQueue's page has its usage against quota, borrowing and preemptions.</p>\n");
    for (size_t g = 0; g < r->ngroups; g++) {
        sb_puts(b, "<h3>");
        html_escape(b, r->groups[g]);
        sb_puts(b, "</h3>\n<table class=\"answer\">\n<tr><th>ClusterQueue</th><th>admitted</th><th>borrowing</th>"
                   "<th>pending at end</th><th>to admission p50 (s)</th><th>p99 (s)</th><th>preempted</th>"
                   "<th>preemptions</th></tr>\n");
        for (size_t k = 0; k < n; k++) {
            if (isnan(queue_mean(r, g, names[k], "queue_admitted"))) continue;
            sb_puts(b, "<tr><th><a href=\"");
            sb_clear(&page);
            report_queue_page_name(names[k], k + 1, &page);
            html_escape(b, sb_str(&page));
            sb_puts(b, "\">");
            html_escape(b, names[k]);
            sb_puts(b, "</a></th>");
            static const char *const m[] = {"queue_admitted", "queue_admitted_borrowing", "queue_pending_at_end",
                                            "queue_wait_censored_p50_s", "queue_wait_censored_p99_s",
                                            "queue_preempted", "queue_preemptions"};
            for (size_t j = 0; j < sizeof m / sizeof *m; j++) num_cell(b, queue_mean(r, g, names[k], m[j]));
            sb_puts(b, "</tr>\n");
        }
        sb_puts(b, "</table>\n");
    }
    sb_free(&page);
    rp_free_strings(names, n);
}

int report_queue_pages(const report *rp, strbuf *err) {
    const rdb *r = rp->r;
    size_t n;
    char **names = report_queue_names(r, &n);
    bool usage = rdb_table_has_rows(r, "queue_usage");
    strbuf b = {0}, file = {0}, t = {0};
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const char *cq = names[k];
        sb_clear(&b);
        sb_clear(&t);
        sb_printf(&t, "drasim report: ClusterQueue %s", cq);
        report_html_begin(&b, sb_str(&t));
        sb_puts(&b, "<p class=\"meta\"><a href=\"index.html#queues\">← the report</a></p>\n<h1>ClusterQueue ");
        html_escape(&b, cq);
        sb_puts(&b, "</h1>\n<nav><a href=\"#admission\">time to admission</a><a href=\"#usage\">usage and borrowing"
                    "</a><a href=\"#preemptions\">preemptions</a><a href=\"#plots\">plots</a></nav>\n");
        sb_puts(&b, "<h2 id=\"admission\">Time to admission</h2>\n<p class=\"meta\">Mean over the configuration's "
                    "runs. From arrival to admission by quota, censored: a Workload still pending waits until the end "
                    "of its run; then admitted by quota but not yet placed by kube-scheduler (quota admits what may "
                    "not fit physically).</p>\n");
        metric_table(r, cq, ADMISSION_METRIC, ADMISSION_HEAD, sizeof ADMISSION_METRIC / sizeof *ADMISSION_METRIC, &b);
        sb_puts(&b, "<h2 id=\"usage\">Usage against nominal quota, and borrowing</h2>\n");
        if (usage) {
            sb_puts(&b, "<p class=\"meta\">Table queue_usage, per flavor and resource, over the samples of each run "
                        "(mean over the configuration's runs): usage of the Workloads holding quota, the amount "
                        "beyond nominal borrowed from the cohort; borrowed unit-hours = mean borrowed x the span of "
                        "the samples (cpu in cores, memory in bytes, devices in units).</p>\n");
            usage_table(r, cq, &b);
        } else {
            sb_puts(&b, "<p class=\"meta\">The database has no queue_usage rows.</p>\n");
        }
        sb_puts(&b, "<h2 id=\"preemptions\">Preemptions by reason</h2>\n<p class=\"meta\">Workloads this "
                    "ClusterQueue's heads preempted, by Kueue's reason, and its own Workloads preempted by any "
                    "ClusterQueue (mean over the configuration's runs).</p>\n");
        metric_table(r, cq, PREEMPT_METRIC, PREEMPT_HEAD, sizeof PREEMPT_METRIC / sizeof *PREEMPT_METRIC, &b);
        sb_puts(&b, "<h2 id=\"plots\">Plots</h2>\n");
        size_t np = 0;
        for (size_t i = 0; i < rp->plots.len; i++) np += rp->plots.data[i].page == queue_page(k + 1);
        if (np) report_figures_html(rp, queue_page(k + 1), &b);
        else
            sb_printf(&b, "<p class=\"meta\">No plots for this ClusterQueue: %s.</p>\n",
                      k >= REPORT_QUEUE_PLOTS_MAX ? "plots are drawn for the first 8 ClusterQueues only"
                                                  : "the database has no samples of it (queue_usage, queue_state)");
        sb_puts(&b, "</body>\n</html>\n");
        sb_clear(&file);
        report_queue_page_name(cq, k + 1, &file);
        rc = report_write_page(rp, sb_str(&file), &b, err);
    }
    sb_free(&b);
    sb_free(&file);
    sb_free(&t);
    rp_free_strings(names, n);
    return rc;
}
