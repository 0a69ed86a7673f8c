/* plan_plot.c -- `drasim plan --report DIR`: per threshold of the expect
 * file, its value at every probed point against the varied pools' nodes (or
 * the cost with --cost), passing and failing points apart, and the threshold
 * as a line (reports/plan.gp, drawn by report_draw like `drasim report`);
 * when a varied pool is a node group, also plan_cost: the measured cost. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/plan.h"
#include "report/report.h"
#include "util/xalloc.h"

static void var(strbuf *b, const char *name, const char *value) {
    sb_printf(b, "%s = ", name);
    gp_label(b, value);
    sb_putc(b, '\n');
}

/* The varied pools, "a + b: nodes" (or ": cost per hour"), for the x axis. */
static void xlabel(const plan_ctx *c, bool by_cost, strbuf *t) {
    for (size_t d = 0; d < c->k; d++) sb_printf(t, "%s%s", d ? " + " : "", c->dims[d].pool);
    sb_puts(t, !by_cost ? ": nodes" : plan_autoscaled(c) ? ": price x nodes per hour (a bound of the cost)" : ": cost per hour");
}

/* The varied pools' nodes at a probe, or its cost with by_cost (the x of a plot). */
static double fleet_x(const plan_ctx *c, const plan_probe *q, bool by_cost) {
    double x = 0;
    for (size_t d = 0; d < c->k; d++) x += (double)q->x[d];
    return by_cost ? q->cost : x;
}

/* plan_cost.png: the measured ca_cost and ca_node_hours of every probe (reports/plan_cost.gp). */
static int cost_plot(const plan_ctx *c, const char *dir, bool by_cost, report *rp, strbuf *err) {
    strbuf path = {0}, t = {0};
    sb_printf(&path, "%s/data/plan_cost.dat", dir);
    FILE *f = report_file_create(sb_str(&path));
    if (!f) {
        sb_clear(err);
        sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
        sb_free(&path);
        return -1;
    }
    for (size_t p = 0; p < c->nprobes; p++) {
        const plan_probe *q = &c->probes[p];
        if (!isnan(q->ca_cost))
            fprintf(f, "%.17g %.17g %d %.17g\n", fleet_x(c, q, by_cost), q->ca_cost, q->pass, q->ca_node_hours);
    }
    int rc = fclose(f) ? -1 : 0;
    if (rc) {
        sb_clear(err);
        sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
    }
    rplot pl = {0};
    pl.name = xstrdup("plan_cost");
    pl.title = xstrdup("measured cost (autoscaler)");
    pl.tmpl = xstrdup("plan_cost.gp");
    var(&pl.vars, "datafile", "data/plan_cost.dat");
    var(&pl.vars, "plot_title", "measured cost at every probe (mean over the seeds)");
    xlabel(c, by_cost, &t);
    var(&pl.vars, "xlabel_text", sb_str(&t));
    VEC_PUSH(rp->plots, pl);
    sb_free(&path);
    sb_free(&t);
    return rc;
}

/* The y of a probe in plan_probes: with one varied pool the number of its
 * combination of listed values (1 without), else the other pools' nodes. */
static double probe_y(const plan_ctx *c, const plan_probe *q) {
    double y = 0;
    if (c->k > 1) {
        for (size_t d = 1; d < c->k; d++) y += (double)q->x[d];
        return y;
    }
    for (size_t j = 0; j < c->nchoices; j++) y = y * (double)c->choices[j].n + (double)q->pick[j];
    return y + 1;
}

/* plan_probes.png: every probe over the searched axes, pass or fail, the answer starred (reports/plan_probes.gp). */
static int probes_plot(const plan_ctx *c, const char *dir, report *rp, strbuf *err) {
    strbuf path = {0}, t = {0};
    sb_printf(&path, "%s/data/plan_probes.dat", dir);
    FILE *f = report_file_create(sb_str(&path));
    int rc = 0;
    const plan_probe *at = plan_answer_probe(c);
    for (size_t p = 0; f && p < c->nprobes; p++) {
        const plan_probe *q = &c->probes[p];
        fprintf(f, "%lld %.17g %d %d %zu\n", (long long)q->x[0], probe_y(c, q), q->pass, q == at, p + 1);
    }
    if (!f || fclose(f)) {
        sb_clear(err);
        sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
        rc = -1;
    }
    rplot pl = {0};
    pl.name = xstrdup("plan_probes");
    pl.title = xstrdup("every probe of the search: passes, fails, the answer");
    pl.tmpl = xstrdup("plan_probes.gp");
    var(&pl.vars, "datafile", "data/plan_probes.dat");
    var(&pl.vars, "plot_title", pl.title);
    sb_printf(&t, "%s: nodes (labels: the probe's number)", c->dims[0].pool);
    var(&pl.vars, "xlabel_text", sb_str(&t));
    sb_clear(&t);
    for (size_t d = 1; d < c->k; d++) sb_printf(&t, "%s%s", d > 1 ? " + " : "", c->dims[d].pool);
    if (c->k > 1) sb_puts(&t, ": nodes");
    else sb_puts(&t, c->nchoices ? "combination of the listed values (the probes table)" : "");
    var(&pl.vars, "ylabel_text", sb_str(&t));
    size_t ncombo = 1;
    for (size_t j = 0; j < c->nchoices; j++) ncombo *= c->choices[j].n;
    if (c->k == 1 && c->nchoices && ncombo <= 24) {   /* the combinations name the y axis */
        size_t *pick = xcalloc(c->nchoices, sizeof *pick);
        sb_printf(&pl.vars, "undefine combo\narray combo[%zu]\n", ncombo);
        for (size_t i = 0; i < ncombo; i++) {
            size_t r = i;
            for (size_t j = c->nchoices; j-- > 0;) pick[j] = r % c->choices[j].n, r /= c->choices[j].n;
            sb_clear(&t);
            plan_choices_text(c, pick, &t);
            sb_printf(&pl.vars, "combo[%zu] = ", i + 1);
            gp_label(&pl.vars, sb_str(&t));
            sb_putc(&pl.vars, '\n');
        }
        free(pick);
    }
    VEC_PUSH(rp->plots, pl);
    sb_free(&path);
    sb_free(&t);
    return rc;
}

int plan_plot(const plan_ctx *c, const char *dir, bool by_cost, strbuf *err) {
    report rp = {.dir = dir};
    strbuf path = {0}, t = {0};
    sb_printf(&path, "%s/data", dir);
    int rc = 0;
    if (mkdir(dir, 0755) && errno != EEXIST) rc = -1;
    if (!rc && mkdir(sb_str(&path), 0755) && errno != EEXIST) rc = -1;
    if (rc) {
        sb_clear(err);
        sb_printf(err, "%s: cannot create: %s", sb_str(&path), strerror(errno));
    }
    const expect_spec *e = c->expect;
    if (!rc) rc = probes_plot(c, dir, &rp, err);
    for (size_t i = 0; i < e->nthresholds && !rc; i++) {
        const expect_threshold *th = &e->thresholds[i];
        sb_clear(&path);
        sb_printf(&path, "%s/data/plan_%zu.dat", dir, i + 1);
        FILE *f = report_file_create(sb_str(&path));
        if (!f) {
            sb_clear(err);
            sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
            rc = -1;
            break;
        }
        for (size_t p = 0; p < c->nprobes; p++) {
            const plan_probe *q = &c->probes[p];
            if (!q->values || isnan(q->values[i])) continue;
            fprintf(f, "%.17g %.17g %d\n", fleet_x(c, q, by_cost), q->values[i], q->pass);
        }
        if (fclose(f)) rc = -1;
        rplot pl = {0};
        sb_clear(&t);
        sb_printf(&t, "plan_%zu", i + 1);
        pl.name = xstrdup(sb_str(&t));
        pl.title = xstrdup(th->text);
        pl.tmpl = xstrdup("plan.gp");
        sb_clear(&t);
        sb_printf(&t, "data/plan_%zu.dat", i + 1);
        var(&pl.vars, "datafile", sb_str(&t));
        var(&pl.vars, "plot_title", th->text);
        sb_clear(&t);
        xlabel(c, by_cost, &t);
        var(&pl.vars, "xlabel_text", sb_str(&t));
        var(&pl.vars, "ylabel_text", th->metric);
        sb_printf(&pl.vars, "threshold = %.17g\n", th->value);
        sb_clear(&t);
        sb_printf(&t, "threshold %s %g", expect_op_text(th->op), th->value);
        var(&pl.vars, "threshold_text", sb_str(&t));
        VEC_PUSH(rp.plots, pl);
    }
    if (!rc && plan_autoscaled(c)) rc = cost_plot(c, dir, by_cost, &rp, err);
    if (!rc) rc = plan_pareto_plot(c, dir, &rp, err);   /* --minimize only */
    if (!rc) {
        int d = report_draw(&rp, err);
        if (d == 1) fprintf(stderr, "drasim plan: %s: no plots drawn\n", rp.gnuplot_note);
        else if (d < 0) rc = -1;
    }
    if (!rc) rc = plan_html(c, &rp, by_cost, err);
    report_free(&rp);
    sb_free(&path);
    sb_free(&t);
    return rc;
}
