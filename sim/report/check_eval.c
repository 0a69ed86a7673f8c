/* check_eval.c -- evaluating an expect file on results: the table and the
 * JUnit XML of `drasim check` (see expect.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/expect.h"
#include "report/report.h"
#include "report/stats.h"
#include "util/xalloc.h"

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
    strbuf b = {0};
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&b, f, ap);
    va_end(ap);
    char *s = xstrdup(sb_str(&b));
    sb_free(&b);
    return s;
}

bool expect_compare(double v, expect_op op, double x) {
    switch (op) {
    case OP_GE: return v >= x;
    case OP_LE: return v <= x;
    case OP_GT: return v > x;
    case OP_LT: return v < x;
    case OP_EQ: return v == x;
    case OP_NE: return v != x;
    }
    return false;
}

static check_result *add(check_report *c) {
    c->items = xrealloc(c->items, (c->n + 1) * sizeof *c->items);
    check_result *r = &c->items[c->n++];
    memset(r, 0, sizeof *r);
    return r;
}

void expect_agg_prefix(const expect_threshold *t, strbuf *out) {
    switch (t->agg) {
    case AGG_MEAN: break;
    case AGG_MIN: sb_puts(out, "min("); break;
    case AGG_MAX: sb_puts(out, "max("); break;
    case AGG_QUANTILE: sb_printf(out, "quantile(%g, ", t->q); break;
    case AGG_PASS_FRACTION: sb_puts(out, "pass_fraction("); break;
    }
}

size_t expect_threshold_values(const expect_threshold *t, const rdb *results, double **out) {
    double *v = xmalloc((results->nruns ? results->nruns : 1) * sizeof *v);
    if (t->group) {
        rdb_pod_group_values(results, t->group, t->metric, v);
    } else {
        int m = rdb_metric_index(results, t->metric);
        for (size_t i = 0; i < results->nruns; i++) v[i] = m < 0 ? NAN : rdb_value(results, i, m);
    }
    *out = v;
    return results->nruns;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bool expect_threshold_eval(const expect_threshold *t, const double *v, size_t n, double *value, size_t *used) {
    double *s = xmalloc((n ? n : 1) * sizeof *s), sum = 0;
    size_t m = 0, met = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) continue;
        s[m++] = v[i];
        sum += v[i];
        if (t->agg == AGG_PASS_FRACTION) met += expect_compare(v[i], t->inner_op, t->inner_value);
    }
    *used = m;
    *value = NAN;
    if (m) {
        qsort(s, m, sizeof *s, cmp_double);
        switch (t->agg) {
        case AGG_MEAN: *value = sum / (double)m; break;
        case AGG_MIN: *value = s[0]; break;
        case AGG_MAX: *value = s[m - 1]; break;
        case AGG_QUANTILE: {   /* the smallest value with at least q*m values <= it: index ceil(q*m) - 1 */
            double rank = ceil(t->q * (double)m - 1e-9);
            size_t k = rank < 1 ? 0 : (size_t)rank - 1;
            *value = s[k < m ? k : m - 1];
            break;
        }
        case AGG_PASS_FRACTION: *value = (double)met / (double)m; break;
        }
    }
    free(s);
    return m && expect_compare(*value, t->op, t->value);
}

static void eval_threshold(const expect_threshold *t, const rdb *res, check_report *c) {
    check_result *r = add(c);
    r->name = xstrdup(t->text);
    r->expected = fmt("%s %g", expect_op_text(t->op), t->value);
    double *v;
    size_t n = expect_threshold_values(t, res, &v), used;
    r->pass = expect_threshold_eval(t, v, n, &r->value, &used);
    free(v);
    if (!used) {
        r->value = NAN;
        /* a group's started-only waits are NULL when none of its pods started */
        r->message = t->queue ? fmt("metric '%s' has no value for %s '%s'", t->metric, rdb_queue_kind(res), t->group)
                   : t->group ? fmt("metric '%s' has no value for group '%s' (not in the results, or NULL: e.g. "
                                    "waits of started pods when none started)", t->metric, t->group)
                              : fmt("metric '%s' is not in the results", t->metric);
        return;
    }
    if (!r->pass) {
        strbuf m = {0};
        expect_agg_prefix(t, &m);
        sb_puts(&m, t->metric);
        if (t->group) sb_printf(&m, "{%s=%s}", t->queue ? "queue" : "group", t->group);
        if (t->agg == AGG_PASS_FRACTION) sb_printf(&m, " %s %g", expect_op_text(t->inner_op), t->inner_value);
        if (t->agg != AGG_MEAN) sb_putc(&m, ')');
        sb_printf(&m, " = %g over %zu run%s, expected %s %g", r->value, used, used == 1 ? "" : "s",
                  expect_op_text(t->op), t->value);
        r->message = xstrdup(sb_str(&m));
        sb_free(&m);
    }
}

/* The values of one metric (of pod group `grp`, or the whole run: NULL) over
 * the runs of r (NAN skipped), and their seeds. */
static size_t run_values(const rdb *r, const char *metric, const char *grp, double *v, int64_t *seeds) {
    int m = rdb_metric_index(r, metric);
    double *per_run = NULL;
    if (grp) {
        per_run = xmalloc((r->nruns + 1) * sizeof *per_run);
        rdb_pod_group_values(r, grp, metric, per_run);
    }
    size_t n = 0;
    for (size_t i = 0; i < r->nruns && (m >= 0 || grp); i++) {
        double x = grp ? per_run[i] : rdb_value(r, i, m);
        if (isnan(x)) continue;
        v[n] = x;
        seeds[n++] = r->runs[i].seed;
    }
    free(per_run);
    return n;
}

/* The rule (docs/CI.md, "Baselines and noise"): a baseline check fails when
 * the current mean is worse than the baseline mean by more than the
 * tolerance AND, with at least 2 runs on each side, the 95 % confidence
 * interval of the difference (paired by seed when both hold the same seeds,
 * else Welch) lies entirely on the worse side of 0. With one run on a side
 * there is no interval: the means decide. */
static void eval_baseline(const expect_baseline_metric *b, const rdb *res, const rdb *base, check_report *c) {
    check_result *r = add(c);
    /* `metric{group=NAME}`: that group's rows, named as written */
    char *metric = b->group ? fmt("%s{%s=%s}", b->metric, b->queue ? "queue" : "group", b->group) : xstrdup(b->metric);
    r->name = fmt("baseline: %s no worse by %g%s", metric, b->tolerance, b->relative ? "%" : "");
    size_t cap = res->nruns + (base ? base->nruns : 0) + 1;
    double *vn = xmalloc(cap * sizeof *vn), *vt = xmalloc(cap * sizeof *vt);
    int64_t *sn = xmalloc(cap * sizeof *sn), *st = xmalloc(cap * sizeof *st);
    size_t nn = run_values(res, b->metric, b->group, vn, sn);
    size_t nt = base ? run_values(base, b->metric, b->group, vt, st) : 0;
    mean_ci now = mean_ci95(vn, nn), then = mean_ci95(vt, nt);
    r->value = nn ? now.mean : NAN;
    if (!nt) {
        r->expected = xstrdup("(no baseline value)");
        r->message = fmt("metric '%s' is not in the baseline %s", metric, base ? base->path : "");
        goto out;
    }
    double tol = b->relative ? fabs(then.mean) * b->tolerance / 100.0 : b->tolerance;
    double limit = then.mean - b->better * tol;
    if (!nn) {
        r->expected = fmt("%s %g (baseline %g %s %g)", b->better > 0 ? ">=" : "<=", limit, then.mean,
                          b->better > 0 ? "-" : "+", tol);
        r->message = fmt("metric '%s' is not in the results", metric);
        goto out;
    }
    bool paired = stats_pair_by_seed(nn, sn, nt, vt, st);
    mean_ci d = diff_ci95(vn, nn, vt, nt, paired);   /* now - then */
    strbuf e = {0};
    sb_printf(&e, "%s %g (baseline %g %s %g)", b->better > 0 ? ">=" : "<=", limit, then.mean,
              b->better > 0 ? "-" : "+", tol);
    if (!isnan(d.half)) sb_printf(&e, ", diff %+.4g ± %.3g (95%% CI, %s)", d.mean, d.half, paired ? "paired" : "Welch");
    r->expected = xstrdup(sb_str(&e));
    sb_free(&e);
    /* a small epsilon so that equal values computed differently still pass */
    double eps = 1e-9 * fmax(1.0, fabs(limit));
    bool beyond = b->better > 0 ? now.mean < limit - eps : now.mean > limit + eps;
    double worse = -b->better * d.mean;                 /* > 0: worse than the baseline */
    bool significant = isnan(d.half) || worse - d.half > 0;
    r->pass = !(beyond && significant);
    if (!r->pass)
        r->message = isnan(d.half)
                         ? fmt("%s = %g is worse than the baseline %g by more than %g (%s is better)", metric,
                               now.mean, then.mean, tol, b->better > 0 ? "higher" : "lower")
                         : fmt("%s = %g is worse than the baseline %g by more than %g (%s is better), and the 95%% "
                               "confidence interval of the difference (%+g ± %g, %s) excludes 0",
                               metric, now.mean, then.mean, tol, b->better > 0 ? "higher" : "lower", d.mean,
                               d.half, paired ? "paired by seed" : "Welch");
out:
    free(vn), free(vt), free(sn), free(st), free(metric);
}

static void seed_list(const rdb *r, strbuf *out) {
    for (size_t i = 0; i < r->nruns; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++) seen = r->runs[k].seed == r->runs[i].seed;
        if (!seen) sb_printf(out, "%s%lld", out->len && out->s[out->len - 1] != ' ' ? "," : "", (long long)r->runs[i].seed);
    }
}

static void scenario_list(const rdb *r, strbuf *out) {
    size_t len = out->len;
    for (size_t i = 0; i < r->nruns; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++) seen = !strcmp(r->runs[k].scenario, r->runs[i].scenario);
        if (!seen) {
            if (out->len > len) sb_putc(out, ',');
            terminal_text(out, r->runs[i].scenario);
        }
    }
}

static bool same_set(const rdb *a, const rdb *b, bool seeds) {
    for (int pass = 0; pass < 2; pass++) {
        const rdb *x = pass ? b : a, *y = pass ? a : b;
        for (size_t i = 0; i < x->nruns; i++) {
            bool found = false;
            for (size_t j = 0; j < y->nruns && !found; j++)
                found = seeds ? x->runs[i].seed == y->runs[j].seed : !strcmp(x->runs[i].scenario, y->runs[j].scenario);
            if (!found) return false;
        }
    }
    return true;
}

int expect_check_baseline(const expect_spec *e, const rdb *results, const rdb *baseline, strbuf *err) {
    if (same_set(results, baseline, false) && same_set(results, baseline, true)) return 0;
    sb_clear(err);
    sb_printf(err, "%s: baseline ", e->file ? e->file : "expect");
    terminal_text(err, baseline->path);
    sb_puts(err, " holds scenario ");
    scenario_list(baseline, err);
    sb_puts(err, " seeds ");
    seed_list(baseline, err);
    sb_puts(err, ", the results scenario ");
    scenario_list(results, err);
    sb_puts(err, " seeds ");
    seed_list(results, err);
    sb_puts(err, ": a baseline must come from the same scenario and seeds (--allow-other-baseline compares anyway)");
    return -1;
}

void expect_evaluate(const expect_spec *e, const rdb *results, const rdb *baseline, check_report *out) {
    memset(out, 0, sizeof *out);
    out->runs = results->nruns;
    for (size_t i = 0; i < e->nthresholds; i++) eval_threshold(&e->thresholds[i], results, out);
    for (size_t i = 0; i < e->nbaseline; i++) eval_baseline(&e->baseline[i], results, baseline, out);
    for (size_t i = 0; i < out->n; i++) out->failures += !out->items[i].pass;
}

void check_report_free(check_report *c) {
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].name);
        free(c->items[i].expected);
        free(c->items[i].message);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}

void check_report_table(const check_report *c, strbuf *out) {
    size_t wn = strlen("check"), we = strlen("expected");
    strbuf v = {0};
    for (size_t i = 0; i < c->n; i++) {
        if (strlen(c->items[i].name) > wn) wn = strlen(c->items[i].name);
        if (strlen(c->items[i].expected) > we) we = strlen(c->items[i].expected);
    }
    sb_printf(out, "%-*s  %12s  %-*s  %s\n", (int)wn, "check", "value", (int)we, "expected", "result");
    for (size_t i = 0; i < c->n; i++) {
        const check_result *r = &c->items[i];
        sb_clear(&v);
        if (isnan(r->value)) sb_puts(&v, "missing");
        else sb_printf(&v, "%.4g", r->value);
        sb_printf(out, "%-*s  %12s  %-*s  %s\n", (int)wn, r->name, sb_str(&v), (int)we, r->expected,
                  r->pass ? "pass" : "FAIL");
    }
    sb_printf(out, "%zu check%s, %zu failed (%zu run%s)\n", c->n, c->n == 1 ? "" : "s", c->failures, c->runs,
              c->runs == 1 ? "" : "s");
    sb_free(&v);
}

/* XML attribute/text: well-formed whatever the names and messages hold. */
static void x(strbuf *b, const char *s) { xml_escape(b, s); }

void check_report_junit(const check_report *c, const char *suite, double seconds, strbuf *out) {
    sb_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb_printf(out, "<testsuites name=\"drasim check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"%.3f\">\n",
              c->n, c->failures, seconds);
    sb_puts(out, "  <testsuite name=\"");
    x(out, suite);
    sb_printf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"%.3f\">\n", c->n, c->failures,
              seconds);
    for (size_t i = 0; i < c->n; i++) {
        const check_result *r = &c->items[i];
        sb_puts(out, "    <testcase name=\"");
        x(out, r->name);
        sb_puts(out, "\" classname=\"drasim.check.");
        x(out, suite);
        sb_puts(out, "\" time=\"0\"");
        if (r->pass) {
            sb_puts(out, "/>\n");
            continue;
        }
        sb_puts(out, ">\n      <failure message=\"");
        x(out, r->message ? r->message : "failed");
        sb_puts(out, "\" type=\"");
        sb_puts(out, !strncmp(r->name, "baseline:", 9) ? "baseline" : "threshold");
        sb_puts(out, "\">");
        x(out, r->name);
        sb_puts(out, ": expected ");
        x(out, r->expected);
        sb_puts(out, "</failure>\n    </testcase>\n");
    }
    sb_puts(out, "  </testsuite>\n</testsuites>\n");
}

int expect_check_groups(const expect_spec *e, const rdb *results, strbuf *err) {
    for (size_t i = 0; i < e->nthresholds; i++) {
        const expect_threshold *t = &e->thresholds[i];
        if (!t->group || (t->queue ? rdb_has_queue(results, t->group) : rdb_has_pod_group(results, t->group))) continue;
        sb_clear(err);
        const char *kind = t->queue ? rdb_queue_kind(results) : "group";
        const char *kinds = !t->queue ? "groups" : !strcmp(kind, "Queue") ? "Queues" : "ClusterQueues";
        sb_printf(err, "%s%sthreshold '%s': no %s '%s' in the results (%s: ", t->where ? t->where : "",
                  t->where && *t->where ? ": " : "", t->text, kind, t->group, kinds);
        size_t len = err->len;
        if (t->queue) rdb_queue_names(results, err);
        else rdb_pod_group_names(results, err);
        sb_puts(err, err->len == len ? "none)" : ")");
        return -1;
    }
    for (size_t i = 0; i < e->nbaseline; i++) {
        const expect_baseline_metric *b = &e->baseline[i];
        if (!b->group || (b->queue ? rdb_has_queue(results, b->group) : rdb_has_pod_group(results, b->group))) continue;
        sb_clear(err);
        const char *kind = b->queue ? "queue" : "group";
        sb_printf(err, "%s: baseline metric '%s{%s=%s}': no %s '%s' in the results (%ss: ",
                  e->file ? e->file : "expect", b->metric, kind, b->group, kind, b->group, kind);
        size_t len = err->len;
        if (b->queue) rdb_queue_names(results, err);
        else rdb_pod_group_names(results, err);
        sb_puts(err, err->len == len ? "none)" : ")");
        return -1;
    }
    return 0;
}
