/*
 * report_wait_groups.c -- the wait of every arrived pod of each pod group
 * (pods + pod_groups), per configuration, all seeds pooled. A pod that never
 * started is censored (it waited at least until the end of its run): it adds
 * no step, so a curve ends at the fraction of the group's pods that started,
 * and its title says how many never did.
 *
 * Up to 8 curves (configurations x groups): one plot, wait_cdf_by_group.
 * Beyond: small multiples (cdf_multi.gp), a panel per group with a curve per
 * configuration, so legends stay short and colours never repeat within a
 * panel; at most MAX_PANELS panels, the groups with most pods that never
 * started first. Each group's page (report_group_page.c) gets its own plot,
 * groupK_wait_cdf, for the first REPORT_GROUP_PLOTS_MAX groups.
 * One query per configuration reads every pod once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"
#include "util/xalloc.h"

enum { MAX_CURVES = 8, MAX_PANELS = 24, PANEL_COLS = 4, PANEL_W = 275, PANEL_H = 280 };

typedef struct cdf_curve {
    size_t g;              /* configuration */
    size_t k;              /* index in rdb_pod_groups order, SIZE_MAX: none */
    char *name;            /* the pod group */
    char *points;          /* "0 0\nx y\n..." without the closing point */
    double last;           /* fraction started: the curve's end */
    size_t total, started;
} cdf_curve;

typedef VEC(cdf_curve) cdf_curves;

/* "NAME (N of M never started)" (the configuration in front when asked). */
static void curve_title(const rdb *r, const cdf_curve *c, bool config, bool name, strbuf *t) {
    if (config) sb_puts(t, r->groups[c->g]);
    if (config && name) sb_puts(t, " / ");
    if (name) sb_puts(t, c->name);
    if (c->total > c->started)
        sb_printf(t, "%s(%zu of %zu never started)", t->len ? " " : "", c->total - c->started, c->total);
}

/* A curve's block: "# title: S of T pods started", its points, the last
 * fraction held to xmax, two blank lines. */
static void write_block(FILE *f, const rdb *r, const cdf_curve *c, double xmax) {
    strbuf t = {0}, n = {0};
    curve_title(r, c, r->ngroups > 1, true, &t);
    sb_printf(&n, ": %zu of %zu pods started", c->started, c->total);
    rp_data_comment(f, sb_str(&t), sb_str(&n));
    fprintf(f, "%s%.6g %.6f\n\n\n", c->points, xmax, c->last);
    sb_free(&t);
    sb_free(&n);
}

/* Read the curves of every configuration; xmax: the longest wait (min). */
static int read_curves(report *rp, char **groups, size_t ng, cdf_curves *out, double *xmax, strbuf *err) {
    const rdb *r = rp->r;
    VEC(int64_t) w = {0};
    int rc = 0;
    for (size_t g = 0; g < r->ngroups && !rc; g++) {
        strbuf ids = {0}, sql = {0};
        rp_group_ids(r, g, &ids);
        sb_printf(&sql, "SELECT pg.name, p.wait_ms FROM pods p JOIN pod_groups pg ON pg.run_id = p.run_id AND "
                        "pg.group_id = p.group_id WHERE p.run_id IN (%s) ORDER BY pg.name, p.wait_ms IS NULL, p.wait_ms",
                  sb_str(&ids));
        sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
        sb_free(&ids);
        sb_free(&sql);
        if (!s) return -1;
        char *name = NULL;
        size_t total = 0;
        int step;
        do {
            step = sqlite3_step(s);
            const char *nm = step == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
            if (step == SQLITE_ROW && !nm) nm = "";
            if (name && (!nm || strcmp(nm, name))) {   /* the group `name` is complete */
                strbuf b = {0};
                sb_puts(&b, "0 0\n");   /* one point per distinct wait */
                for (size_t k = 0; k < w.len; k++)
                    if (k + 1 == w.len || w.data[k + 1] != w.data[k]) {
                        double x = (double)w.data[k] / 60000.0;
                        if (x > *xmax) *xmax = x;
                        sb_printf(&b, "%.6g %.6f\n", x, (double)(k + 1) / (double)total);
                    }
                size_t k = 0;
                while (k < ng && strcmp(groups[k], name)) k++;
                cdf_curve c = {g, k < ng ? k : SIZE_MAX, name, xstrdup(sb_str(&b)),
                               total ? (double)w.len / (double)total : 0.0, total, w.len};
                VEC_PUSH(*out, c);
                sb_free(&b);
                name = NULL;
                w.len = 0;
                total = 0;
            }
            if (step != SQLITE_ROW) break;
            if (!name) name = xstrdup(nm);
            total++;
            if (sqlite3_column_type(s, 1) != SQLITE_NULL) VEC_PUSH(w, sqlite3_column_int64(s, 1));
        } while (step == SQLITE_ROW);
        free(name);
        if (step != SQLITE_DONE) {
            rdb_explain(r->path, r->db, NULL, err);
            rc = -1;
        }
        sqlite3_finalize(s);
    }
    VEC_FREE(w);
    return rc;
}

static void cdf_labels(rplot *p) {
    rp_gp_var(&p->vars, "xlabel_text", "wait (min)");
    rp_gp_var(&p->vars, "ylabel_text", "fraction of the group's pods started within x");
    sb_puts(&p->vars, "y_min = 0\n");
}

/* Up to MAX_CURVES curves: one plot, a curve per configuration and group. */
static int one_plot(report *rp, const cdf_curves *cs, double xmax, strbuf *err) {
    FILE *f = rp_open_data(rp, "wait_cdf_by_group", err);
    if (!f) return -1;
    char **titles = xcalloc(cs->len + 1, sizeof *titles);
    for (size_t i = 0; i < cs->len; i++) {
        strbuf t = {0};
        curve_title(rp->r, &cs->data[i], rp->r->ngroups > 1, true, &t);
        titles[i] = xstrdup(sb_str(&t));
        sb_free(&t);
        write_block(f, rp->r, &cs->data[i], xmax);
    }
    fclose(f);
    rplot *p = rp_new_plot(rp, "wait_cdf_by_group", "cdf.gp",
                           "Wait per pod group (arrival to bind), cumulative over every arrived pod");
    rp_gp_array(&p->vars, "series", titles, cs->len);
    cdf_labels(p);
    rp_free_strings(titles, cs->len);
    return 0;
}

/* Pods of group `name` in configuration g that never started (*total: its pods). */
static size_t never_of(const cdf_curves *cs, const char *name, size_t g, size_t *total) {
    for (size_t i = 0; i < cs->len; i++)
        if (cs->data[i].g == g && !strcmp(cs->data[i].name, name)) {
            if (total) *total = cs->data[i].total;
            return cs->data[i].total - cs->data[i].started;
        }
    if (total) *total = 0;
    return 0;
}

/* The configurations' labels, "(N seeds pooled)" when N > 1. */
static char **series_titles(const rdb *r) {
    char **t = xcalloc(r->ngroups + 1, sizeof *t);
    for (size_t g = 0; g < r->ngroups; g++) {
        strbuf b = {0};
        size_t n = rp_group_size(r, g);
        sb_puts(&b, r->groups[g]);
        if (n > 1) sb_printf(&b, " (%zu seeds pooled)", n);
        t[g] = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    return t;
}

/* Panels for `panel` groups (their names), a curve per configuration in each:
 * block (p-1) * nconf + (i-1) is panel p's configuration i (an empty curve
 * where the configuration has no such group). */
static int panels_plot(report *rp, const char *stem, const char *title, char **panel, size_t np, const cdf_curves *cs,
                       double xmax, int page, strbuf *err) {
    const rdb *r = rp->r;
    FILE *f = rp_open_data(rp, stem, err);
    if (!f) return -1;
    size_t nc = r->ngroups;
    char **titles = xcalloc(np * nc + 1, sizeof *titles);
    for (size_t p = 0; p < np; p++)
        for (size_t g = 0; g < nc; g++) {
            const cdf_curve *c = NULL;
            for (size_t i = 0; i < cs->len && !c; i++)
                if (cs->data[i].g == g && !strcmp(cs->data[i].name, panel[p])) c = &cs->data[i];
            strbuf t = {0};
            if (c) {
                curve_title(r, c, true, false, &t);
                write_block(f, r, c, xmax);
            } else {
                sb_printf(&t, "%s (no such group)", r->groups[g]);
                rp_data_comment(f, sb_str(&t), "");
                fputs("0 0\n\n\n", f);
            }
            titles[p * nc + g] = xstrdup(sb_str(&t));
            sb_free(&t);
        }
    fclose(f);
    /* panel titles: the group, and how many of its pods never started (one
     * configuration: "(N of M never started)"; several: "never started: N/M, ..."
     * in the legend's order) */
    char **labels = xcalloc(np + 1, sizeof *labels);
    for (size_t p = 0; p < np; p++) {
        strbuf t = {0};
        sb_puts(&t, panel[p]);
        bool any = false;
        for (size_t g = 0; g < nc; g++) any |= never_of(cs, panel[p], g, NULL) > 0;
        for (size_t g = 0; g < nc && any; g++) {
            size_t total, n = never_of(cs, panel[p], g, &total);
            if (nc == 1) sb_printf(&t, " (%zu of %zu never started)", n, total);
            else sb_printf(&t, "%s%zu/%zu", g ? ", " : " (never started: ", n, total);
        }
        if (any && nc > 1) sb_putc(&t, ')');
        labels[p] = xstrdup(sb_str(&t));
        sb_free(&t);
    }
    rplot *pl = rp_new_plot(rp, stem, page ? "cdf.gp" : "cdf_multi.gp", title);
    pl->page = page;
    if (page) rp_gp_array(&pl->vars, "series", titles, nc);
    else {
        size_t rows = (np + (nc > 1) + PANEL_COLS - 1) / PANEL_COLS;   /* + the legend's cell */
        rp_gp_array(&pl->vars, "panels", labels, np);
        char **st = series_titles(r);
        rp_gp_array(&pl->vars, "series", st, nc);
        rp_free_strings(st, nc);
        sb_printf(&pl->vars, "nconf = %zu\nncols = %d\nnrows = %zu\n", nc, PANEL_COLS, rows);
        pl->width = PANEL_COLS * PANEL_W + 60;
        pl->height = (int)rows * PANEL_H + 90;
        /* in pixels: 75 above (the plot's and the first panels' titles), 50 below, 100 between rows (a
         * panel's tics and x label, the next one's title) */
        sb_printf(&pl->vars, "m_top = %.4f\nm_bottom = %.4f\ny_space = %.4f\n", 1.0 - 75.0 / pl->height,
                  50.0 / pl->height, 100.0 / pl->height);
    }
    cdf_labels(pl);
    rp_free_strings(titles, np * nc);
    rp_free_strings(labels, np);
    return 0;
}

int rp_wait_cdf_by_group(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    size_t ng;
    char **groups = rdb_pod_groups(r, &ng);
    cdf_curves cs = {0};
    double xmax = 0;
    int rc = read_curves(rp, groups, ng, &cs, &xmax, err);
    if (xmax <= 0) xmax = 1;
    if (!rc && cs.len && cs.len <= MAX_CURVES) rc = one_plot(rp, &cs, xmax, err);
    else if (!rc && cs.len) {   /* small multiples: the groups in first-seen order, then any other */
        VEC(char *) panel = {0};
        VEC(size_t) never = {0};   /* pods never started, over every configuration */
        for (size_t k = 0; k < ng; k++) {
            VEC_PUSH(panel, groups[k]);
            VEC_PUSH(never, 0);
        }
        for (size_t i = 0; i < cs.len; i++) {
            size_t p = 0;
            while (p < panel.len && strcmp(panel.data[p], cs.data[i].name)) p++;
            if (p == panel.len) {
                VEC_PUSH(panel, cs.data[i].name);
                VEC_PUSH(never, 0);
            }
            never.data[p] += cs.data[i].total - cs.data[i].started;
        }
        for (size_t i = 1; i < panel.len; i++)   /* stable: the groups with most pods never started first */
            for (size_t j = i; j > 0 && never.data[j] > never.data[j - 1]; j--) {
                char *t = panel.data[j];
                panel.data[j] = panel.data[j - 1], panel.data[j - 1] = t;
                size_t u = never.data[j];
                never.data[j] = never.data[j - 1], never.data[j - 1] = u;
            }
        VEC_FREE(never);
        size_t np = panel.len < MAX_PANELS ? panel.len : MAX_PANELS;
        strbuf t = {0};
        sb_puts(&t, "Wait per pod group (arrival to bind), cumulative over every arrived pod");
        if (panel.len > np) sb_printf(&t, ": %zu of %zu groups, most pods never started first", np, panel.len);
        rc = panels_plot(rp, "wait_cdf_by_group", sb_str(&t), panel.data, np, &cs, xmax, 0, err);
        sb_free(&t);
        VEC_FREE(panel);
    }
    for (size_t k = 0; k < ng && k < REPORT_GROUP_PLOTS_MAX && !rc; k++) {   /* the groups' pages */
        bool any = false;
        for (size_t i = 0; i < cs.len; i++) any |= cs.data[i].k == k;
        if (!any) continue;
        strbuf stem = {0}, t = {0};
        sb_printf(&stem, "group%zu_wait_cdf", k + 1);
        sb_printf(&t, "Wait of group %s (arrival to bind), cumulative over every arrived pod", groups[k]);
        rc = panels_plot(rp, sb_str(&stem), sb_str(&t), &groups[k], 1, &cs, xmax, (int)(k + 1), err);
        sb_free(&stem);
        sb_free(&t);
    }
    for (size_t i = 0; i < cs.len; i++) {
        free(cs.data[i].name);
        free(cs.data[i].points);
    }
    VEC_FREE(cs);
    rp_free_strings(groups, ng);
    return rc;
}
