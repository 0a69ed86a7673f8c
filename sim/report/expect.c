/* expect.c -- parsing expectation files (see expect.h). */
#include "report/expect.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/runner.h"
#include "util/xalloc.h"

const char *expect_op_text(expect_op op) {
    static const char *const t[] = {">=", "<=", ">", "<", "==", "!="};
    return t[op];
}

/* ':' for the metrics of a Lua generator's series (user_queue:max, report/rdb_user.c) */
static bool metric_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' || c == ':'; }

/* After a metric name: "{group=NAME}" (NAME: any characters but '}') or
 * "{queue=NAME}" (a ClusterQueue's rows, issue 27: the metric named with or
 * without its `queue_` prefix); p moves past it. Returns 0 (also when there
 * is none) or -1 with err set. */
static int parse_group(const ynode *n, const char *text, const char **p, expect_threshold *t, strbuf *err) {
    if (**p != '{') return 0;
    const char *q = *p + 1;
    while (*q == ' ') q++;
    if (!strncmp(q, "queue", 5)) t->queue = true;
    else if (strncmp(q, "group", 5)) goto bad;
    q += 5;
    while (*q == ' ') q++;
    if (*q++ != '=') goto bad;
    while (*q == ' ') q++;
    const char *g = q, *close = strchr(q, '}');
    if (!close) goto bad;
    const char *e = close;
    while (e > g && e[-1] == ' ') e--;
    if (e == g) goto bad;
    t->group = xstrndup(g, (size_t)(e - g));
    if (t->queue && t->metric && strncmp(t->metric, "queue_", 6)) {
        char *m = xmalloc(strlen(t->metric) + 7);
        memcpy(m, "queue_", 6);
        strcpy(m + 6, t->metric);
        free(t->metric);
        t->metric = m;
    }
    *p = close + 1;
    return 0;
bad:
    yerr(err, n, "threshold '%s': expected {group=NAME} after the metric name (or {queue=NAME}), e.g. "
         "'wait_censored_p99_s{group=train} <= 600'", text);
    return -1;
}

/* A comparison operator at *p (moved past it), or -1. */
static int parse_op(const char **p, expect_op *op) {
    static const struct { const char *s; expect_op op; } ops[] = {
        {">=", OP_GE}, {"<=", OP_LE}, {"==", OP_EQ}, {"!=", OP_NE}, {">", OP_GT}, {"<", OP_LT}};
    for (int k = 0; k < 6; k++)
        if (!strncmp(*p, ops[k].s, strlen(ops[k].s))) {
            *op = ops[k].op;
            *p += strlen(ops[k].s);
            return 0;
        }
    return -1;
}

/* A finite number at *p (moved past it), or -1. */
static int parse_number(const char **p, double *out) {
    char *end;
    errno = 0;
    *out = strtod(*p, &end);
    if (end == *p || errno || !isfinite(*out)) return -1;
    *p = end;
    return 0;
}

static const char agg_names[] = "mean(, min(, max(, p50(, p90(, pNN( (1..99), quantile(Q, ...) with Q in (0, 1), "
                                "pass_fraction(METRIC OP NUMBER)";

/* The aggregator at *p ("max(", "p90(", "quantile(0.75,", "pass_fraction("), moved
 * past it; none: AGG_MEAN without parentheses. 1: one was read, 0: none, -1: error. */
static int parse_agg(const ynode *n, const char *text, const char **p, expect_threshold *t, strbuf *err) {
    static const char *const fixed[] = {"mean(", "min(", "max("};
    for (int k = 0; k < 3; k++)
        if (!strncmp(*p, fixed[k], strlen(fixed[k]))) {
            t->agg = (expect_agg)k;
            *p += strlen(fixed[k]);
            return 1;
        }
    if (!strncmp(*p, "pass_fraction(", 14)) {
        t->agg = AGG_PASS_FRACTION;
        *p += 14;
        return 1;
    }
    const char *q = *p;
    if (q[0] == 'p' && isdigit((unsigned char)q[1])) {   /* pNN( */
        int v = 0, digits = 0;
        for (q++; isdigit((unsigned char)*q); q++, digits++) v = v * 10 + (*q - '0');
        if (*q == '(') {
            if (digits > 2 || v < 1 || v > 99) {
                yerr(err, n, "threshold '%s': quantile p%.*s is outside (0, 1): write p1 .. p99 or quantile(Q, METRIC)",
                     text, digits, *p + 1);
                return -1;
            }
            t->agg = AGG_QUANTILE;
            t->q = v / 100.0;
            *p = q + 1;
            return 1;
        }
        return 0;
    }
    if (!strncmp(q, "quantile(", 9)) {
        q += 9;
        while (*q == ' ') q++;
        double v;
        if (parse_number(&q, &v)) {
            yerr(err, n, "threshold '%s': expected quantile(Q, METRIC) with a number Q in (0, 1)", text);
            return -1;
        }
        if (!(v > 0 && v < 1)) {
            yerr(err, n, "threshold '%s': quantile %g is outside (0, 1)", text, v);
            return -1;
        }
        while (*q == ' ') q++;
        if (*q++ != ',') {
            yerr(err, n, "threshold '%s': expected ',' after the quantile %g: quantile(Q, METRIC)", text, v);
            return -1;
        }
        t->agg = AGG_QUANTILE;
        t->q = v;
        *p = q;
        return 1;
    }
    return 0;
}

/* "[agg(]metric[{group=NAME}][ OP number][)] OP number" (the inner comparison: pass_fraction) */
static int parse_threshold(const ynode *n, expect_threshold *t, strbuf *err) {
    const char *text;
    if (y_str(n, "threshold", &text, err)) return -1;
    t->text = xstrdup(text);
    const char *p = text;
    while (*p == ' ') p++;
    t->agg = AGG_MEAN;
    int paren = parse_agg(n, text, &p, t, err);
    if (paren < 0) return -1;
    while (*p == ' ') p++;
    const char *m = p;
    while (metric_char(*p)) p++;
    if (p == m) {
        yerr(err, n, "threshold '%s': expected a metric name, e.g. 'gpu_alloc_pct >= 90' or 'max(wait_p99_s) <= 300'",
             text);
        return -1;
    }
    t->metric = xstrndup(m, (size_t)(p - m));
    if (!paren && *p == '(') {
        yerr(err, n, "threshold '%s': unknown aggregator '%s' (known: %s)", text, t->metric, agg_names);
        return -1;
    }
    if (parse_group(n, text, &p, t, err)) return -1;
    strbuf w = {0};
    yerr(&w, n, "%s", "");   /* "FILE:LINE:COL: " */
    if (w.len >= 2) w.s[w.len - 2] = '\0';
    t->where = xstrdup(sb_str(&w));
    sb_free(&w);
    while (*p == ' ') p++;
    if (t->agg == AGG_PASS_FRACTION) {   /* the condition of each run */
        if (parse_op(&p, &t->inner_op)) {
            yerr(err, n, "threshold '%s': expected pass_fraction(METRIC OP NUMBER), e.g. 'pass_fraction(wait_p99_s <= 600) >= 0.9'",
                 text);
            return -1;
        }
        while (*p == ' ') p++;
        if (parse_number(&p, &t->inner_value)) {
            yerr(err, n, "threshold '%s': expected a number after '%s' inside pass_fraction(...)", text,
                 expect_op_text(t->inner_op));
            return -1;
        }
        while (*p == ' ') p++;
    }
    if (paren) {
        if (*p != ')') {
            yerr(err, n, "threshold '%s': expected ')' after the metric name", text);
            return -1;
        }
        p++;
        while (*p == ' ') p++;
    }
    if (parse_op(&p, &t->op)) {
        yerr(err, n, "threshold '%s': expected a comparison (>=, <=, >, <, ==, !=) after '%s'", text, t->metric);
        return -1;
    }
    while (*p == ' ') p++;
    if (parse_number(&p, &t->value)) {
        yerr(err, n, "threshold '%s': expected a number after '%s'", text, expect_op_text(t->op));
        return -1;
    }
    while (*p == ' ') p++;
    if (*p) {
        yerr(err, n, "threshold '%s': unexpected '%s' after the number", text, p);
        return -1;
    }
    if (t->agg == AGG_PASS_FRACTION && !(t->value >= 0 && t->value <= 1)) {
        yerr(err, n, "threshold '%s': pass_fraction(...) is a fraction of the seeds: compare it with a number in [0, 1]",
             text);
        return -1;
    }
    return 0;
}

/* "0.5" (absolute) or "10%" (relative to the baseline). */
static int parse_tolerance(const ynode *n, expect_baseline_metric *b, strbuf *err) {
    if (!n || n->kind != YN_SCALAR || !n->len) {
        yerr(err, n, "baseline tolerance: expected a number or a percentage such as 5%%, found %s", ykind_name(n));
        return -1;
    }
    char *end;
    errno = 0;
    b->tolerance = strtod(n->str, &end);
    b->relative = *end == '%';
    if (b->relative) end++;
    if (end == n->str || *end || errno || !isfinite(b->tolerance) || b->tolerance < 0) {
        yerr(err, n, "baseline tolerance: expected a non-negative number or a percentage such as 5%%, found '%s'",
             n->str);
        return -1;
    }
    return 0;
}

static int parse_baseline_metric(const ynode *key, const ynode *val, expect_baseline_metric *b, strbuf *err) {
    const char *name;
    if (y_str(key, "baseline metric", &name, err)) return -1;
    b->metric = xstrdup(name);
    char *brace = strchr(b->metric, '{');
    if (brace) {   /* "METRIC{group=NAME}": that group's rows (summary.grp), as in thresholds */
        *brace = '\0';
        expect_threshold t = {.metric = b->metric};
        const char *p = name + (brace - b->metric);
        int bad = parse_group(key, name, &p, &t, err);
        if (!bad && *p) {
            yerr(err, key, "baseline metric '%s': unexpected '%s' after {group=NAME}", name, p);
            bad = -1;
        }
        b->group = t.group;
        b->queue = t.queue;
        b->metric = t.metric;   /* with its queue_ prefix */
        if (bad) return -1;
    }
    b->better = metric_direction(b->metric);
    if (val && val->kind == YN_MAP) {
        static const char *const keys[] = {"tolerance", "better", NULL};
        if (ymap_check_keys(val, keys, "baseline metric", err)) return -1;
        const ynode *tol;
        if (ymap_need(val, "tolerance", "baseline metric", &tol, err) || parse_tolerance(tol, b, err)) return -1;
        const ynode *better = ymap_get(val, "better");
        if (better) {
            if (y_scalar_eq(better, "higher")) b->better = 1;
            else if (y_scalar_eq(better, "lower")) b->better = -1;
            else {
                yerr(err, better, "better: expected higher or lower");
                return -1;
            }
        }
    } else if (parse_tolerance(val, b, err)) {
        return -1;
    }
    if (!b->better) {
        yerr(err, key, "baseline metric '%s' has no known better direction: write {tolerance: N, better: higher|lower}",
             name);
        return -1;
    }
    return 0;
}

static int parse_baseline(const ynode *n, const char *expect_path, expect_spec *e, strbuf *err) {
    static const char *const keys[] = {"file", "metrics", NULL};
    if (ymap_check_keys(n, keys, "baseline", err)) return -1;
    const ynode *file, *metrics;
    const char *fname;
    if (ymap_need(n, "file", "baseline", &file, err) || y_str(file, "baseline.file", &fname, err)) return -1;
    if (ymap_need(n, "metrics", "baseline", &metrics, err) || y_expect(metrics, YN_MAP, "baseline.metrics", err))
        return -1;
    if (!metrics->n) {
        yerr(err, metrics, "baseline.metrics: list at least one metric");
        return -1;
    }
    const char *slash = strrchr(expect_path, '/');
    strbuf path = {0};
    if (fname[0] != '/' && slash) sb_printf(&path, "%.*s/", (int)(slash - expect_path), expect_path);
    sb_puts(&path, fname);
    e->baseline_file = xstrdup(sb_str(&path));
    sb_free(&path);
    e->baseline = xcalloc(metrics->n, sizeof *e->baseline);
    for (size_t i = 0; i < metrics->n; i++) {
        e->nbaseline++;
        if (parse_baseline_metric(metrics->keys[i], metrics->vals[i], &e->baseline[i], err)) return -1;
    }
    return 0;
}

static int parse_root(const ynode *root, const char *path, expect_spec *e, strbuf *err) {
    static const char *const keys[] = {"apiVersion", "kind", "seeds", "set", "thresholds", "baseline", NULL};
    if (ymap_check_keys(root, keys, "expect file", err)) return -1;
    const ynode *api, *kind;
    if (ymap_need(root, "apiVersion", "expect file", &api, err)) return -1;
    if (!y_scalar_eq(api, "drasim/v1")) {
        yerr(err, api, "apiVersion: expected drasim/v1");
        return -1;
    }
    if (ymap_need(root, "kind", "expect file", &kind, err)) return -1;
    if (!y_scalar_eq(kind, "Expect")) {
        yerr(err, kind, "kind: expected Expect");
        return -1;
    }
    const ynode *seeds = ymap_get(root, "seeds");
    if (seeds) {
        const char *text;
        if (y_str(seeds, "seeds", &text, err)) return -1;
        if (parse_seed_list(text, &e->seeds, &e->nseeds, err)) {
            yerr(err, seeds, "seeds: expected N, A..B or A,B,C, found '%s'", text);
            return -1;
        }
    }
    const ynode *set = ymap_get(root, "set");
    if (set) {
        if (y_expect(set, YN_SEQ, "set", err)) return -1;
        e->sets = xcalloc(set->n + 1, sizeof *e->sets);
        e->set_origins = xcalloc(set->n + 1, sizeof *e->set_origins);
        for (size_t i = 0; i < set->n; i++) {
            const char *s;
            if (y_str(set->vals[i], "set", &s, err)) return -1;
            if (!strchr(s, '=') || s[0] == '=') {
                yerr(err, set->vals[i], "set: expected KEY=VALUE, found '%s'", s);
                return -1;
            }
            strbuf o = {0};
            sb_printf(&o, "%s:%d:%d: set", set->vals[i]->file, set->vals[i]->line, set->vals[i]->col);
            e->set_origins[e->nsets] = xstrdup(sb_str(&o));
            sb_free(&o);
            e->sets[e->nsets++] = xstrdup(s);
        }
    }
    const ynode *th = ymap_get(root, "thresholds");
    if (th) {
        if (y_expect(th, YN_SEQ, "thresholds", err)) return -1;
        e->thresholds = xcalloc(th->n + 1, sizeof *e->thresholds);
        for (size_t i = 0; i < th->n; i++) {
            e->nthresholds++;
            if (parse_threshold(th->vals[i], &e->thresholds[i], err)) return -1;
        }
    }
    const ynode *base = ymap_get(root, "baseline");
    if (base && parse_baseline(base, path, e, err)) return -1;
    if (!e->nthresholds && !e->nbaseline) {
        yerr(err, root, "expect file: nothing to check (give thresholds and/or a baseline)");
        return -1;
    }
    return 0;
}

static int parse_file(yfile *f, const char *name, expect_spec *out, strbuf *err) {
    int rc;
    if (f->ndocs != 1) {
        sb_clear(err);
        sb_printf(err, "%s: expected exactly one YAML document, found %zu", name, f->ndocs);
        rc = -1;
    } else {
        rc = parse_root(f->docs[0], name, out, err);
    }
    yfile_free(f);
    if (rc) expect_free(out);
    return rc;
}

int expect_parse_mem(const char *name, const char *data, size_t len, expect_spec *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->file = xstrdup(name);
    yfile f;
    if (yfile_load_mem(name, data, len, &f, err)) {
        expect_free(out);
        return -1;
    }
    return parse_file(&f, name, out, err);
}

int expect_load(const char *path, expect_spec *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->file = xstrdup(path);
    yfile f;
    if (yfile_load(path, &f, err)) {
        expect_free(out);
        return -1;
    }
    return parse_file(&f, path, out, err);
}

void expect_free(expect_spec *e) {
    for (size_t i = 0; i < e->nthresholds; i++) {
        free(e->thresholds[i].text);
        free(e->thresholds[i].metric);
        free(e->thresholds[i].group);
        free(e->thresholds[i].where);
    }
    for (size_t i = 0; i < e->nbaseline; i++) {
        free(e->baseline[i].metric);
        free(e->baseline[i].group);
    }
    for (size_t i = 0; i < e->nsets; i++) {
        free(e->sets[i]);
        free(e->set_origins[i]);
    }
    free(e->set_origins);
    free(e->thresholds);
    free(e->baseline);
    free(e->sets);
    free(e->seeds);
    free(e->baseline_file);
    free(e->file);
    memset(e, 0, sizeof *e);
}
