/* check_eval.c -- evaluating an expect file on results: the table and the
 * JUnit XML of `drasim check` (see expect.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/expect.h"
#include "report/report.h"
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

static bool compare(double v, expect_op op, double x) {
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

static void eval_threshold(const expect_threshold *t, const rdb *res, check_report *c) {
    check_result *r = add(c);
    r->name = xstrdup(t->text);
    r->expected = fmt("%s %g", expect_op_text(t->op), t->value);
    rdb_stats st = t->group ? rdb_pod_group_stats(res, t->group, t->metric)
                            : rdb_group_stats(res, SIZE_MAX, rdb_metric_index(res, t->metric));
    if (!st.n) {
        r->value = NAN;
        /* a group's started-only waits are NULL when none of its pods started */
        r->message = t->group ? fmt("metric '%s' has no value for group '%s' (not in the results, or NULL: e.g. "
                                    "waits of started pods when none started)", t->metric, t->group)
                              : fmt("metric '%s' is not in the results", t->metric);
        return;
    }
    r->value = t->agg == AGG_MIN ? st.min : t->agg == AGG_MAX ? st.max : st.mean;
    r->pass = compare(r->value, t->op, t->value);
    if (!r->pass)
        r->message = fmt("%s%s%s%s%s%s = %g over %zu run%s, expected %s %g", t->agg == AGG_MIN ? "min(" : t->agg == AGG_MAX ? "max(" : "",
                         t->metric, t->group ? "{group=" : "", t->group ? t->group : "", t->group ? "}" : "",
                         t->agg == AGG_MEAN ? "" : ")", r->value, st.n, st.n == 1 ? "" : "s",
                         expect_op_text(t->op), t->value);
}

static void eval_baseline(const expect_baseline_metric *b, const rdb *res, const rdb *base, check_report *c) {
    check_result *r = add(c);
    r->name = fmt("baseline: %s no worse by %g%s", b->metric, b->tolerance, b->relative ? "%" : "");
    rdb_stats now = rdb_group_stats(res, SIZE_MAX, rdb_metric_index(res, b->metric));
    rdb_stats then = base ? rdb_group_stats(base, SIZE_MAX, rdb_metric_index(base, b->metric)) : (rdb_stats){0};
    r->value = now.n ? now.mean : NAN;
    if (!then.n) {
        r->expected = xstrdup("(no baseline value)");
        r->message = fmt("metric '%s' is not in the baseline %s", b->metric, base ? base->path : "");
        return;
    }
    double tol = b->relative ? fabs(then.mean) * b->tolerance / 100.0 : b->tolerance;
    double limit = then.mean - b->better * tol;
    r->expected = fmt("%s %g (baseline %g %s %g)", b->better > 0 ? ">=" : "<=", limit, then.mean,
                      b->better > 0 ? "-" : "+", tol);
    if (!now.n) {
        r->message = fmt("metric '%s' is not in the results", b->metric);
        return;
    }
    /* a small epsilon so that equal values computed differently still pass */
    double eps = 1e-9 * fmax(1.0, fabs(limit));
    r->pass = b->better > 0 ? now.mean >= limit - eps : now.mean <= limit + eps;
    if (!r->pass)
        r->message = fmt("%s = %g is worse than the baseline %g by more than %g (%s is better)", b->metric, now.mean,
                         then.mean, tol, b->better > 0 ? "higher" : "lower");
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
        if (!t->group || rdb_has_pod_group(results, t->group)) continue;
        sb_clear(err);
        sb_printf(err, "%s%sthreshold '%s': no group '%s' in the results (groups: ", t->where ? t->where : "",
                  t->where && *t->where ? ": " : "", t->text, t->group);
        size_t len = err->len;
        rdb_pod_group_names(results, err);
        sb_puts(err, err->len == len ? "none)" : ")");
        return -1;
    }
    return 0;
}
