/* plan_confidence.c -- `drasim plan --confidence C` (docs/CI.md,
 * "Confidence"): a sequential test of each probe's pass/fail.
 *
 * Each threshold with a population behind it is a test:
 *   - quantile(q, m) OP X and pass_fraction(m OP X) >= f are statements
 *     about a proportion pi (the chance that one seed's run meets a
 *     condition): quantile(q, m) <= X holds iff pi = P(m <= X) >= q, < X iff
 *     P(m < X) >= q, >= X iff P(m < X) < q, > X iff P(m <= X) < q. With k of
 *     the n runs meeting the condition, the one-sided Clopper-Pearson bounds
 *     at level alpha decide: pass when the bound on the passing side clears
 *     the threshold, fail when the other bound does;
 *   - a mean (plain metric) OP X: the one-sided Student t bound of the mean
 *     (n >= 2) on either side of X;
 *   - min, max, == and != rules and baselines are evaluated on the runs so
 *     far, as without --confidence (a failing max is certain; no finite
 *     number of seeds shows that every seed passes).
 * A probe fails when a threshold is decided failing, passes when every one
 * is decided passing, else gets more seeds: as many again (2, 4, 8, ... x
 * the first batch) up to max_seeds. The test looks at the data up to `looks`
 * times, so each look uses alpha = (1 - C) / looks (Bonferroni over the
 * looks): the chance that a decision is wrong stays below 1 - C per
 * threshold, however early it stops. A probe still undecided at the cap
 * takes its point estimate (the thresholds on all its runs) and is reported
 * as undecided.
 */
#include "report/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/stats.h"
#include "util/xalloc.h"

enum { UNDECIDED = -1, DECIDED_FAIL = 0, DECIDED_PASS = 1 };

/* A proportion test: pass iff pi >= p0 (dir > 0) or pi < p0 (dir < 0). */
static int proportion(size_t k, size_t n, double p0, int dir, double alpha) {
    if (!n) return UNDECIDED;
    double lo = clopper_pearson_lower(k, n, alpha), hi = clopper_pearson_upper(k, n, alpha);
    bool above = lo >= p0, below = hi < p0;   /* pi >= p0, pi < p0 at level alpha */
    if (dir > 0) return above ? DECIDED_PASS : below ? DECIDED_FAIL : UNDECIDED;
    return below ? DECIDED_PASS : above ? DECIDED_FAIL : UNDECIDED;
}

/* One threshold on values v[0..n) at level alpha: DECIDED_* or UNDECIDED;
 * `plain` is its evaluation on the runs (rules that are not tested). */
static int decide_threshold(const expect_threshold *t, const double *v, size_t n, double alpha, bool plain) {
    size_t m = 0, k = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) continue;
        m++;
        sum += v[i];
    }
    bool ordering = t->op != OP_EQ && t->op != OP_NE;
    if (t->agg == AGG_PASS_FRACTION && ordering) {
        for (size_t i = 0; i < n; i++) k += !isnan(v[i]) && expect_compare(v[i], t->inner_op, t->inner_value);
        return proportion(k, m, t->value, t->op == OP_GE || t->op == OP_GT ? 1 : -1, alpha);
    }
    if (t->agg == AGG_QUANTILE && ordering) {
        /* the condition whose proportion the quantile rule is about */
        expect_op cond = t->op == OP_LE ? OP_LE : t->op == OP_LT ? OP_LT : t->op == OP_GE ? OP_LT : OP_LE;
        for (size_t i = 0; i < n; i++) k += !isnan(v[i]) && expect_compare(v[i], cond, t->value);
        return proportion(k, m, t->q, t->op == OP_LE || t->op == OP_LT ? 1 : -1, alpha);
    }
    if (t->agg == AGG_MEAN && ordering) {
        if (m < 2) return UNDECIDED;
        double mean = sum / (double)m, ss = 0;
        for (size_t i = 0; i < n; i++)
            if (!isnan(v[i])) ss += (v[i] - mean) * (v[i] - mean);
        double half = student_t_quantile((double)(m - 1), 1 - alpha) * sqrt(ss / (double)(m - 1) / (double)m);
        bool lo_ok = expect_compare(mean - half, t->op, t->value), hi_ok = expect_compare(mean + half, t->op, t->value);
        if (lo_ok && hi_ok) return DECIDED_PASS;
        if (!lo_ok && !hi_ok) return DECIDED_FAIL;
        return UNDECIDED;
    }
    return plain ? DECIDED_PASS : DECIDED_FAIL;
}

void plan_decide(const plan_ctx *c, plan_probe *p) {
    free(p->undecided_by);
    p->undecided_by = NULL;
    p->undecided = false;
    if (p->no_nodes || !c->confidence) return;
    size_t nt = c->expect->nthresholds;
    double alpha = (1 - c->confidence) / (double)(c->looks ? c->looks : 1);
    double *v = xmalloc((p->nruns ? p->nruns : 1) * sizeof *v);
    bool any_fail = p->baseline_failing != NULL, all_pass = !any_fail;
    for (size_t t = 0; t < nt; t++) {
        const expect_threshold *th = &c->expect->thresholds[t];
        for (size_t r = 0; r < p->nruns; r++) v[r] = p->runv[r * nt + t];
        size_t used;
        double value;
        bool plain = expect_threshold_eval(th, v, p->nruns, &value, &used);
        int d = decide_threshold(th, v, p->nruns, alpha, plain);
        if (d == DECIDED_FAIL) any_fail = true;
        if (d != DECIDED_PASS) all_pass = false;
        if (d == UNDECIDED && !p->undecided_by) p->undecided_by = xstrdup(th->text);
    }
    free(v);
    if (any_fail) {   /* a decided failure settles the probe */
        p->pass = false;
        free(p->undecided_by);
        p->undecided_by = NULL;
    } else if (all_pass) {
        p->pass = true;
    } else {
        p->undecided = true;   /* pass: plan_evaluate's point estimate */
    }
}

int plan_probe_confident(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    c->batch_seeds = NULL;
    int rc = plan_probe_run(c, points, n, out, code, err);
    int64_t **sub = xcalloc(n ? n : 1, sizeof *sub);
    plan_probe *tmp = xcalloc(n ? n : 1, sizeof *tmp);
    size_t *idx = xcalloc(n ? n : 1, sizeof *idx);
    while (!rc) {
        size_t m = 0, runs = 0;
        for (size_t i = 0; i < n; i++) {
            plan_decide(c, &out[i]);
            if (!out[i].undecided || out[i].nruns >= c->max_seeds) continue;
            if (m && out[i].nruns != runs) continue;   /* a batch: probes with as many runs */
            runs = out[i].nruns;
            idx[m++] = i;
        }
        if (!m) break;
        size_t more = runs < c->max_seeds - runs ? runs : c->max_seeds - runs;   /* double the runs, up to the cap */
        if (!more) more = 1;
        c->batch_seeds = c->more_seeds + runs;
        c->nbatch = more;
        for (size_t j = 0; j < m; j++) {
            sub[j] = points[idx[j]];
            tmp[j] = out[idx[j]];
        }
        rc = plan_probe_run(c, sub, m, tmp, code, err);
        for (size_t j = 0; j < m; j++) out[idx[j]] = tmp[j];
    }
    c->batch_seeds = NULL;
    free(sub);
    free(tmp);
    free(idx);
    return rc;
}
