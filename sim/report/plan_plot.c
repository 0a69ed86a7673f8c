/* plan_plot.c -- `drasim plan --report DIR`: per threshold of the expect
 * file, its value at every probed point against the varied pools' nodes (or
 * the cost with --cost), passing and failing points apart, and the threshold
 * as a line (reports/plan.gp, drawn by report_draw like `drasim report`). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
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
            double x = 0;
            for (size_t d = 0; d < c->k; d++) x += by_cost ? c->dims[d].price * (double)q->x[d] : (double)q->x[d];
            fprintf(f, "%.17g %.17g %d\n", x, q->values[i], q->pass);
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
        for (size_t d = 0; d < c->k; d++) sb_printf(&t, "%s%s", d ? " + " : "", c->dims[d].pool);
        sb_puts(&t, by_cost ? ": cost per hour" : ": nodes");
        var(&pl.vars, "xlabel_text", sb_str(&t));
        var(&pl.vars, "ylabel_text", th->metric);
        sb_printf(&pl.vars, "threshold = %.17g\n", th->value);
        sb_clear(&t);
        sb_printf(&t, "threshold %s %g", expect_op_text(th->op), th->value);
        var(&pl.vars, "threshold_text", sb_str(&t));
        VEC_PUSH(rp.plots, pl);
    }
    if (!rc) {
        int d = report_draw(&rp, err);
        if (d == 1) fprintf(stderr, "drasim plan: %s: no plots drawn\n", rp.gnuplot_note);
        else if (d < 0) rc = -1;
    }
    report_free(&rp);
    sb_free(&path);
    sb_free(&t);
    return rc;
}
