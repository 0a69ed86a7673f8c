/*
 * scenario_fields.c -- small field readers shared by the scenario parser:
 * Go-style durations, string maps (labels, nodeSelector), tolerations and
 * required node affinity, written as in a Kubernetes Pod spec.
 */
#include "model/scenario.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"

/* A field naming a file: a non-empty string, relative paths resolved against
 * the directory of the YAML file that holds it. An empty name is an error at
 * the field (FILE:LINE:COL), not an attempt to open the directory. */
int scenario_parse_path(const ynode *n, const char *what, const char **out, strbuf *err) {
    const char *s;
    if (y_str(n, what, &s, err)) return -1;
    if (!*s) {
        yerr(err, n, "%s: expected a file name, found an empty string", what);
        return -1;
    }
    *out = y_resolve_path(n, s);
    return 0;
}

/* Go's time.ParseDuration restricted to non-negative values and the units
 * ms, s, m, h, plus d (days) for long capacity-planning runs. */
int parse_duration_text(const char *s, sim_time *out) {
    if (!strcmp(s, "0")) { *out = 0; return 0; }
    const char *p = s;
    double total = 0;
    if (!*p) return -1;
    while (*p) {
        if (!isdigit((unsigned char)*p) && *p != '.') return -1;
        char *end;
        double v = strtod(p, &end);
        if (end == p) return -1;
        p = end;
        double unit;
        if (!strncmp(p, "ms", 2)) { unit = 1; p += 2; }
        else if (*p == 's') { unit = 1000; p++; }
        else if (*p == 'm') { unit = 60000; p++; }
        else if (*p == 'h') { unit = 3600000; p++; }
        else if (*p == 'd') { unit = 86400000; p++; }
        else return -1;
        total += v * unit;
    }
    if (!(total < 9.0e15)) return -1;   /* ~285 years: keeps sums far from overflow */
    *out = (sim_time)llround(total);
    return 0;
}

int scenario_parse_duration(const ynode *n, const char *what, sim_time *out, strbuf *err) {
    if (!n || n->kind != YN_SCALAR || y_is_null(n) || parse_duration_text(n->str, out)) {
        yerr(err, n, "%s: expected a duration such as 90s, 5m, 2h or 1h30m, found %s%s%s", what,
             n && n->kind == YN_SCALAR ? "'" : "", n && n->kind == YN_SCALAR ? n->str : ykind_name(n),
             n && n->kind == YN_SCALAR ? "'" : "");
        return -1;
    }
    return 0;
}

int scenario_parse_string_map(const ynode *n, const char *what, arena *a, k8s_kv **out, size_t *nout, strbuf *err) {
    if (y_expect(n, YN_MAP, what, err)) return -1;
    *out = ARENA_NEW(a, k8s_kv, n->n ? n->n : 1);
    *nout = n->n;
    for (size_t i = 0; i < n->n; i++)
        if (y_str(n->keys[i], what, &(*out)[i].key, err) || y_str(n->vals[i], what, &(*out)[i].value, err)) return -1;
    return 0;
}

static int parse_effect(const ynode *n, const char *what, k8s_taint_effect *out, strbuf *err) {
    if (y_scalar_eq(n, "NoSchedule")) *out = TAINT_NO_SCHEDULE;
    else if (y_scalar_eq(n, "PreferNoSchedule")) *out = TAINT_PREFER_NO_SCHEDULE;
    else if (y_scalar_eq(n, "NoExecute")) *out = TAINT_NO_EXECUTE;
    else if (y_is_null(n) || y_scalar_eq(n, "")) *out = TAINT_NONE;
    else {
        yerr(err, n, "%s: expected NoSchedule, PreferNoSchedule or NoExecute", what);
        return -1;
    }
    return 0;
}

int scenario_parse_tolerations(const ynode *n, arena *a, k8s_toleration **out, size_t *nout, strbuf *err) {
    static const char *const keys[] = {"key", "operator", "value", "effect", "tolerationSeconds", NULL};
    if (y_expect(n, YN_SEQ, "tolerations", err)) return -1;
    *out = ARENA_NEW(a, k8s_toleration, n->n ? n->n : 1);
    *nout = n->n;
    for (size_t i = 0; i < n->n; i++) {
        const ynode *t = n->vals[i], *v;
        k8s_toleration *tol = &(*out)[i];
        if (ymap_check_keys(t, keys, "toleration", err)) return -1;
        if ((v = ymap_get(t, "key")) && y_str(v, "toleration key", &tol->key, err)) return -1;
        if ((v = ymap_get(t, "operator"))) {
            tol->has_op = true;
            if (y_scalar_eq(v, "Equal")) tol->op = TOL_OP_EQUAL;
            else if (y_scalar_eq(v, "Exists")) tol->op = TOL_OP_EXISTS;
            else {
                yerr(err, v, "toleration operator: expected Equal or Exists");
                return -1;
            }
        }
        if ((v = ymap_get(t, "value")) && y_str(v, "toleration value", &tol->value, err)) return -1;
        if (tol->op == TOL_OP_EXISTS && tol->value && *tol->value) {
            yerr(err, v, "toleration value must be empty when operator is Exists");
            return -1;
        }
        if (tol->op == TOL_OP_EQUAL && (!tol->key || !*tol->key)) {
            yerr(err, t, "toleration: operator Equal needs a key (use operator: Exists to tolerate everything)");
            return -1;
        }
        if ((v = ymap_get(t, "effect"))) {
            if (parse_effect(v, "toleration effect", &tol->effect, err)) return -1;
            tol->has_effect = tol->effect != TAINT_NONE;
        }
        if ((v = ymap_get(t, "tolerationSeconds"))) {
            if (y_int(v, "tolerationSeconds", &tol->seconds, err)) return -1;
            tol->has_seconds = true;
        }
    }
    return 0;
}

static int parse_selector_reqs(const ynode *n, bool fields, arena *a, k8s_selector_req **out, size_t *nout,
                               strbuf *err) {
    static const char *const keys[] = {"key", "operator", "values", NULL};
    static const char *const ops[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
    if (y_expect(n, YN_SEQ, "node selector requirements", err)) return -1;
    *out = ARENA_NEW(a, k8s_selector_req, n->n ? n->n : 1);
    *nout = n->n;
    for (size_t i = 0; i < n->n; i++) {
        const ynode *r = n->vals[i], *v;
        k8s_selector_req *req = &(*out)[i];
        if (ymap_check_keys(r, keys, "node selector requirement", err)) return -1;
        if (ymap_need(r, "key", "node selector requirement", &v, err) || y_str(v, "key", &req->key, err)) return -1;
        if (fields && strcmp(req->key, "metadata.name") != 0) {
            yerr(err, v, "matchFields: only the key metadata.name is supported");
            return -1;
        }
        if (ymap_need(r, "operator", "node selector requirement", &v, err)) return -1;
        int op = -1;
        for (int k = 0; k < 6; k++)
            if (y_scalar_eq(v, ops[k])) op = k;
        if (op < 0 || (fields && op > 1)) {
            yerr(err, v, "operator: expected %s", fields ? "In or NotIn" : "In, NotIn, Exists, DoesNotExist, Gt or Lt");
            return -1;
        }
        req->op = (k8s_selector_op)op;
        if ((v = ymap_get(r, "values"))) {
            if (y_expect(v, YN_SEQ, "values", err)) return -1;
            req->values = ARENA_NEW(a, const char *, v->n ? v->n : 1);
            req->nvalues = v->n;
            for (size_t k = 0; k < v->n; k++)
                if (y_str(v->vals[k], "value", &req->values[k], err)) return -1;
        }
        bool want_values = req->op == SEL_OP_IN || req->op == SEL_OP_NOT_IN;
        bool one_int = req->op == SEL_OP_GT || req->op == SEL_OP_LT;
        if ((want_values && req->nvalues == 0) || (one_int && req->nvalues != 1) ||
            (!want_values && !one_int && req->nvalues != 0)) {
            yerr(err, r, "node selector requirement '%s': %s", req->key,
                 want_values ? "In and NotIn need at least one value"
                 : one_int   ? "Gt and Lt need exactly one integer value"
                             : "Exists and DoesNotExist take no values");
            return -1;
        }
        if (one_int) {
            char *end;
            strtoll(req->values[0], &end, 10);
            if (*end || end == req->values[0]) {
                yerr(err, v, "node selector requirement '%s': Gt and Lt need an integer value", req->key);
                return -1;
            }
        }
    }
    return 0;
}

/* `affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
 * {nodeSelectorTerms: [...]}}}`: only the required part matters to Filter. */
int scenario_parse_node_affinity(const ynode *n, arena *a, k8s_node_selector *out, strbuf *err) {
    static const char *const ak[] = {"nodeAffinity", NULL};
    static const char *const nk[] = {"requiredDuringSchedulingIgnoredDuringExecution", NULL};
    static const char *const rk[] = {"nodeSelectorTerms", NULL};
    static const char *const tk[] = {"matchExpressions", "matchFields", NULL};
    const ynode *na, *req, *terms, *v;
    if (ymap_check_keys(n, ak, "affinity", err)) return -1;
    if (ymap_need(n, "nodeAffinity", "affinity", &na, err) || ymap_check_keys(na, nk, "affinity.nodeAffinity", err))
        return -1;
    if (ymap_need(na, "requiredDuringSchedulingIgnoredDuringExecution", "affinity.nodeAffinity", &req, err) ||
        ymap_check_keys(req, rk, "requiredDuringSchedulingIgnoredDuringExecution", err))
        return -1;
    if (ymap_need(req, "nodeSelectorTerms", "requiredDuringSchedulingIgnoredDuringExecution", &terms, err) ||
        y_expect(terms, YN_SEQ, "nodeSelectorTerms", err))
        return -1;
    if (terms->n == 0) {
        yerr(err, terms, "nodeSelectorTerms: expected at least one term");
        return -1;
    }
    out->terms = ARENA_NEW(a, k8s_selector_term, terms->n);
    out->nterms = terms->n;
    for (size_t i = 0; i < terms->n; i++) {
        const ynode *t = terms->vals[i];
        k8s_selector_term *term = &out->terms[i];
        if (ymap_check_keys(t, tk, "node selector term", err)) return -1;
        if ((v = ymap_get(t, "matchExpressions")) &&
            parse_selector_reqs(v, false, a, &term->match_expressions, &term->nmatch_expressions, err))
            return -1;
        if ((v = ymap_get(t, "matchFields")) &&
            parse_selector_reqs(v, true, a, &term->match_fields, &term->nmatch_fields, err))
            return -1;
    }
    return 0;
}
