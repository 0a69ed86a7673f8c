/*
 * report_html.c -- DIR/index.html: one self-contained page (CSS inlined from
 * reports/style.css, images referenced relatively so the folder opens from
 * disk): every plot, a summary by configuration and a metrics table per run.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/datadir.h"
#include "util/xalloc.h"

static void num(strbuf *b, double v) {
    if (isnan(v)) sb_puts(b, "–");
    else if (v == floor(v) && fabs(v) < 1e15) sb_printf(b, "%.0f", v);
    else sb_printf(b, "%.2f", v);
}

static void inline_css(strbuf *b) {
    char buf[4096];
    const char *path = datadir_find("reports/style.css", buf, sizeof buf);
    FILE *f = path ? fopen(path, "r") : NULL;
    sb_puts(b, "<style>\n");
    if (f) {
        char chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sb_append(b, chunk, n);
        fclose(f);
    } else {
        sb_puts(b, "body { font-family: sans-serif; } table { border-collapse: collapse; } td, th { border: 1px solid #ccc; }\n");
    }
    sb_puts(b, "</style>\n");
}

/* Rows: metrics; columns: configurations (mean, and min–max over seeds). */
static void summary_table(const rdb *r, strbuf *b) {
    sb_puts(b, "<table>\n<tr><th>metric</th>");
    for (size_t g = 0; g < r->ngroups; g++) {
        sb_puts(b, "<th>");
        html_escape(b, r->groups[g]);
        size_t n = 0;
        for (size_t i = 0; i < r->nruns; i++) n += r->runs[i].group == g;
        sb_printf(b, "<br>%zu run%s</th>", n, n == 1 ? "" : "s");
    }
    sb_puts(b, "</tr>\n");
    for (size_t m = 0; m < r->nmetrics; m++) {
        sb_puts(b, "<tr><th>");
        html_escape(b, r->metrics[m]);
        sb_puts(b, "</th>");
        for (size_t g = 0; g < r->ngroups; g++) {
            rdb_stats st = rdb_group_stats(r, g, (int)m);
            sb_puts(b, "<td class=\"num\">");
            num(b, st.mean);
            if (st.n > 1) {
                sb_puts(b, " (");
                num(b, st.min);
                sb_puts(b, " – ");
                num(b, st.max);
                sb_puts(b, ")");
            }
            sb_puts(b, "</td>");
        }
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
}

/* The answer first (issue 26): per configuration, one row per pod group with
 * its SLO numbers (waits censored: a pod that never started waits until the
 * end of the run), means over the configuration's runs (the warnings follow:
 * report_warnings.c). */
static void answer_tables(const rdb *r, strbuf *b) {
    size_t ng;
    char **groups = rdb_pod_groups(r, &ng);
    if (!ng) {
        free(groups);
        return;
    }
    static const char *const metric[] = {"pods_arrived", "pods_scheduled", "wait_censored_p50_s", "wait_censored_p99_s",
                                         "gpu_hours_allocated"};
    enum { NM = sizeof metric / sizeof *metric };
    double *v = xmalloc(ng * NM * (r->nruns + 1) * sizeof *v);
    strbuf page = {0};
    for (size_t k = 0; k < ng; k++)
        for (size_t m = 0; m < NM; m++) rdb_pod_group_values(r, groups[k], metric[m], &v[(k * NM + m) * (r->nruns + 1)]);
    sb_puts(b, "<h2 id=\"answer\">Answer by group</h2>\n<p class=\"meta\">Per configuration and pod group, the mean "
               "over its runs. Waits are censored: a pod that never started waits until the end of the run.</p>\n");
    for (size_t g = 0; g < r->ngroups; g++) {
        sb_puts(b, "<h3>");
        html_escape(b, r->groups[g]);
        sb_puts(b, "</h3>\n<table class=\"answer\">\n<tr><th>group</th><th>arrived</th><th>started</th><th>never "
                   "started</th><th>wait p50 (s)</th><th>wait p99 (s)</th><th>GPU-hours</th></tr>\n");
        for (size_t k = 0; k < ng; k++) {
            double mean[NM];
            size_t n = 0;
            for (size_t m = 0; m < NM; m++) {
                double sum = 0;
                n = 0;
                for (size_t i = 0; i < r->nruns; i++) {
                    double x = v[(k * NM + m) * (r->nruns + 1) + i];
                    if (r->runs[i].group != g || isnan(x)) continue;
                    sum += x;
                    n++;
                }
                mean[m] = n ? sum / (double)n : NAN;
            }
            if (isnan(mean[0])) continue;   /* the group is not in this configuration */
            sb_puts(b, "<tr><th><a href=\"");
            sb_clear(&page);
            report_group_page_name(groups[k], k + 1, &page);
            html_escape(b, sb_str(&page));
            sb_puts(b, "\">");
            html_escape(b, groups[k]);
            sb_puts(b, "</a></th>");
            double cells[] = {mean[0], mean[1], mean[0] - mean[1], mean[2], mean[3], mean[4]};
            for (size_t c = 0; c < 6; c++) {
                sb_puts(b, "<td class=\"num\">");
                num(b, cells[c]);
                sb_puts(b, "</td>");
            }
            sb_puts(b, "</tr>\n");
        }
        sb_puts(b, "</table>\n");
    }
    free(v);
    sb_free(&page);
    for (size_t k = 0; k < ng; k++) free(groups[k]);
    free(groups);
}

static void run_table(const rdb *r, size_t i, strbuf *b) {
    const rdb_run *u = &r->runs[i];
    sb_printf(b, "<div><h3>run %lld: ", (long long)u->id);
    html_escape(b, u->scenario);
    sb_puts(b, ", ");
    html_escape(b, r->groups[u->group]);
    sb_printf(b, ", seed %lld</h3>\n<table>\n", (long long)u->seed);
    for (size_t m = 0; m < r->nmetrics; m++) {
        sb_puts(b, "<tr><th>");
        html_escape(b, r->metrics[m]);
        sb_puts(b, "</th><td class=\"num\">");
        num(b, rdb_value(r, i, (int)m));
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table></div>\n");
}

/* One plot as a figure: its PNG linking to its SVG, the title, the data. */
static void figure_html(strbuf *b, const rplot *p) {
    sb_printf(b, "<figure id=\"%s\"><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"", p->name, p->name, p->name);
    html_escape(b, p->title);
    sb_puts(b, "\"></a><figcaption>");
    html_escape(b, p->title);
    sb_printf(b, " (<a href=\"%s.svg\">SVG</a>, <a href=\"data/%s.dat\">data</a>)</figcaption></figure>\n", p->name,
              p->name);
}

void report_figures_html(const report *rp, int page, strbuf *b) {
    if (rp->data_note.len && !page) {
        sb_puts(b, "<div class=\"note\">");
        html_escape(b, sb_str(&rp->data_note));
        sb_puts(b, "</div>\n");
    }
    size_t n = 0;
    for (size_t i = 0; i < rp->plots.len; i++) n += rp->plots.data[i].page == page;
    if (!n && !page && !rp->empty_note.len) {
        sb_puts(b, "<div class=\"note\">The database holds nothing to plot.</div>\n");
    } else if (n && !rp->plotted) {
        sb_puts(b, "<div class=\"note\">No plots were drawn: ");
        html_escape(b, rp->gnuplot_note ? rp->gnuplot_note : "gnuplot did not run");
        sb_puts(b, ". Install gnuplot and run <code>drasim report</code> again (or run <code>gnuplot plots.gp</code>"
                   " in this folder).</div>\n");
    } else {
        for (size_t i = 0; i < rp->plots.len; i++)
            if (rp->plots.data[i].page == page) figure_html(b, &rp->plots.data[i]);
    }
    if (rp->empty_note.len && !page) {   /* plots left out: every value 0 (report_prune.c) */
        sb_puts(b, "<p class=\"empty\">Not drawn, nothing to show: ");
        html_escape(b, sb_str(&rp->empty_note));
        sb_puts(b, "</p>\n");
    }
}

int report_write_page(const report *rp, const char *file, const strbuf *b, strbuf *err) {
    strbuf path = {0};
    sb_printf(&path, "%s/%s", rp->dir, file);
    FILE *f = report_file_create(sb_str(&path));
    int rc = 0;
    if (!f || fwrite(b->s, 1, b->len, f) != b->len || fclose(f)) {
        sb_clear(err);
        sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
        rc = -1;
    }
    sb_free(&path);
    return rc;
}

int report_html(const report *rp, strbuf *err) {
    const rdb *r = rp->r;
    strbuf b = {0}, t = {0};
    const char *base = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
    sb_printf(&t, "drasim report: %s", base);
    report_html_begin(&b, sb_str(&t));
    sb_free(&t);
    sb_puts(&b, "<h1>drasim report</h1>\n<p class=\"meta\">results database <code>");
    html_escape(&b, base);
    sb_printf(&b, "</code>: %zu run%s in %zu configuration%s.</p>\n", r->nruns, r->nruns == 1 ? "" : "s", r->ngroups,
              r->ngroups == 1 ? "" : "s");
    sb_puts(&b, "<nav><a href=\"#answer\">answer</a><a href=\"#warnings\">warnings</a><a href=\"#plots\">plots</a>"
                "<a href=\"#summary\">summary</a><a href=\"#runs\">runs</a></nav>\n");
    answer_tables(r, &b);
    report_queues_index(r, &b);
    report_warnings_html(r, &b);
    sb_puts(&b, "<h2 id=\"plots\">Plots</h2>\n");
    report_figures_html(rp, 0, &b);
    sb_puts(&b, "<h2 id=\"summary\">Summary by configuration</h2>\n<p class=\"meta\">mean over the runs of each "
                "configuration; (min – max) when there are several seeds.</p>\n");
    summary_table(r, &b);
    sb_puts(&b, "<h2 id=\"runs\">Runs</h2>\n<div class=\"runs\">\n");
    for (size_t i = 0; i < r->nruns; i++) run_table(r, i, &b);
    sb_puts(&b, "</div>\n</body>\n</html>\n");
    int rc = report_write_page(rp, "index.html", &b, err);
    sb_free(&b);
    if (!rc) rc = report_group_pages(rp, err);
    if (!rc) rc = report_queue_pages(rp, err);
    return rc;
}

FILE *report_file_create(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) close(fd);
    return f;
}

void report_free(report *rp) {
    for (size_t i = 0; i < rp->plots.len; i++) {
        free(rp->plots.data[i].name);
        free(rp->plots.data[i].title);
        free(rp->plots.data[i].tmpl);
        sb_free(&rp->plots.data[i].vars);
    }
    VEC_FREE(rp->plots);
    for (size_t i = 0; i < rp->staged.len; i++) free(rp->staged.data[i]);
    VEC_FREE(rp->staged);
    free(rp->gnuplot_note);
    rp->gnuplot_note = NULL;
    sb_free(&rp->data_note);
    sb_free(&rp->empty_note);
}

void report_html_begin(strbuf *b, const char *title) {
    sb_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    html_escape(b, title);
    sb_puts(b, "</title>\n");
    inline_css(b);
    sb_puts(b, "</head>\n<body>\n");
}

void report_html_figures(const report *rp, strbuf *b) {
    if (!rp->plotted) {
        sb_puts(b, "<div class=\"note\">No plots were drawn: ");
        html_escape(b, rp->gnuplot_note ? rp->gnuplot_note : "gnuplot did not run");
        sb_puts(b, ". Install gnuplot and run again (or run <code>gnuplot plots.gp</code> in this folder).</div>\n");
        return;
    }
    for (size_t i = 0; i < rp->plots.len; i++) figure_html(b, &rp->plots.data[i]);
}
