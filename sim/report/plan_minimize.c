/* plan_minimize.c -- `drasim plan --minimize cost|energy` (plan.h, docs/CI.md
 * "By cost or energy"): the answer by a measured summary metric, and the
 * Pareto front of that metric against the SLO's first threshold. */
#include "report/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

int plan_minimize_answer(plan_ctx *c, strbuf *err) {
    const plan_probe *best = NULL;
    bool any = false;
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        if (!p->candidate || !p->pass) continue;
        any = true;
        if (isnan(p->objective)) continue;
        /* ties (within rounding) go to the earlier probe: the cheaper by list price, the earlier combination */
        if (!best || p->objective < best->objective - 1e-9 * fmax(1.0, fabs(best->objective))) best = p;
    }
    if (!any) return 0;   /* nothing passes: c->found is already false */
    if (!best) {
        sb_printf(err, "--minimize: the runs have no %s (%s; docs/COST.md)", c->objective,
                  !strcmp(c->objective, "cost_total") ? "give the node pools a price or spot.price"
                                                       : "give the cluster power: {gpuIdle, ...}");
        return -1;
    }
    c->found = true;
    memcpy(c->best, best->x, c->k * sizeof *c->best);
    if (c->nchoices) memcpy(c->best_pick, best->pick, c->nchoices * sizeof *c->best_pick);
    c->best_cost = best->cost;
    return 0;
}

bool plan_pareto_lower_better(const plan_ctx *c) {
    const expect_threshold *t = c->expect->nthresholds ? &c->expect->thresholds[0] : NULL;
    return !t || t->op == OP_LE || t->op == OP_LT;
}

/* Does p dominate q: at least as good on both, better on one? */
static bool dominates(const plan_ctx *c, const plan_probe *p, const plan_probe *q) {
    bool low = plan_pareto_lower_better(c);
    double a = low ? p->values[0] : -p->values[0], b = low ? q->values[0] : -q->values[0];
    return p->objective <= q->objective && a <= b && (p->objective < q->objective || a < b);
}

bool plan_pareto_measured(const plan_ctx *c, const plan_probe *p) {
    return p->nruns && !p->no_nodes && !isnan(p->objective) && c->expect->nthresholds && p->values &&
           !isnan(p->values[0]);
}

size_t plan_pareto(const plan_ctx *c, bool *on_front) {
    size_t n = 0;
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        on_front[i] = plan_pareto_measured(c, p);
        for (size_t j = 0; j < c->nprobes && on_front[i]; j++) {
            const plan_probe *q = &c->probes[j];
            /* of equal probes (the same objective and value), the earlier one stands for them */
            if (j != i && plan_pareto_measured(c, q) &&
                (dominates(c, q, p) ||
                 (j < i && q->objective == p->objective && q->values[0] == p->values[0])))
                on_front[i] = false;
        }
        n += on_front[i];
    }
    return n;
}

static int by_objective(const void *a, const void *b, void *ud) {
    const plan_ctx *c = ud;
    const plan_probe *p = &c->probes[*(const size_t *)a], *q = &c->probes[*(const size_t *)b];
    if (p->objective != q->objective) return p->objective < q->objective ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* insertion sort with a context (qsort_r is not portable) */
static void sort_idx(size_t *idx, size_t n, const plan_ctx *c) {
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && by_objective(&idx[j - 1], &idx[j], (void *)c) > 0; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

void plan_pareto_text(const plan_ctx *c, bool by_cost, strbuf *out) {
    bool *on = xcalloc(c->nprobes + 1, sizeof *on);
    size_t n = plan_pareto(c, on), m = 0;
    size_t *idx = xcalloc(n + 1, sizeof *idx);
    for (size_t i = 0; i < c->nprobes; i++)
        if (on[i]) idx[m++] = i;
    sort_idx(idx, m, c);
    const char *slo = c->expect->nthresholds ? c->expect->thresholds[0].text : "?";
    sb_printf(out, "Pareto front: %s against %s (%s is better), %zu of %zu probes\n", c->objective, slo,
              plan_pareto_lower_better(c) ? "lower" : "higher", n, c->nprobes);
    for (size_t r = 0; r < m; r++) {
        const plan_probe *p = &c->probes[idx[r]];
        sb_printf(out, "  probe %3zu  %s %-10.6g  %s %-10.6g  %-4s  ", idx[r] + 1, c->objective, p->objective,
                  "slo", p->values[0], p->pass ? "pass" : "FAIL");
        plan_point_text(c, p->x, p->pick, p->cost, by_cost, out);
        sb_putc(out, '\n');
    }
    free(idx);
    free(on);
}
