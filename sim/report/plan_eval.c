/* plan_eval.c -- a probe's verdict from the runs of all its batches (see
 * plan.h): every threshold of the expect file evaluated on its per-run
 * values as `drasim check` evaluates it (expect_threshold_eval), then the
 * baseline checks the child evaluated. */
#include "report/plan.h"

#include <math.h>
#include <stdlib.h>

#include "util/xalloc.h"

void plan_evaluate(const plan_ctx *c, plan_probe *p) {
    size_t nt = c->expect->nthresholds;
    free(p->values);
    free(p->failing);
    p->failing = NULL;
    p->values = xcalloc(nt ? nt : 1, sizeof *p->values);
    for (size_t t = 0; t < nt; t++) p->values[t] = NAN;
    if (p->no_nodes) {
        p->pass = false;
        p->failing = xstrdup("the fleet has no nodes");
        return;
    }
    double *v = xmalloc((p->nruns ? p->nruns : 1) * sizeof *v);
    p->pass = true;
    for (size_t t = 0; t < nt; t++) {
        for (size_t r = 0; r < p->nruns; r++) v[r] = p->runv[r * nt + t];
        size_t used;
        bool ok = expect_threshold_eval(&c->expect->thresholds[t], v, p->nruns, &p->values[t], &used);
        if (!used) p->values[t] = NAN;
        if (!ok && !p->failing) p->failing = xstrdup(c->expect->thresholds[t].text);
        p->pass &= ok;
    }
    free(v);
    if (p->baseline_failing) {
        p->pass = false;
        if (!p->failing) p->failing = xstrdup(p->baseline_failing);
    }
}
