/* usage.c -- a pod group's `usage:` profile (see usage.h). */
#include "model/usage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cel/quantity.h"
#include "util/datadir.h"

/* Load data/usage/NAME.yaml: `quantiles: [[p, busy], ...]`, p from 0 to 1 ascending. */
static int load_profile(const ynode *at, const char *name, arena *a, busy_dist *d, strbuf *err) {
    char rel[300], buf[4096];
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) {
            yerr(err, at, "usage.busy.profile: '%s' is not a profile name (lower case letters, digits, '-')", name);
            return -1;
        }
    snprintf(rel, sizeof rel, "data/usage/%s.yaml", name);
    const char *path = datadir_find(rel, buf, sizeof buf);
    if (!path) {
        yerr(err, at, "usage.busy.profile: unknown profile '%s' (no %s; shipped: pai-2020)", name, rel);
        return -1;
    }
    yfile f;
    strbuf e2 = {0};
    if (yfile_load(path, &f, &e2)) {
        yerr(err, at, "usage.busy.profile '%s': %s", name, sb_str(&e2));
        sb_free(&e2);
        return -1;
    }
    int rc = -1;
    const ynode *root = f.ndocs ? f.docs[0] : NULL;
    const ynode *q = root && root->kind == YN_MAP ? ymap_get(root, "quantiles") : NULL;
    if (!q || q->kind != YN_SEQ || q->n < 2) {
        yerr(err, root ? root : at, "usage profile: expected quantiles: a list of at least 2 [p, busy] pairs");
        goto out;
    }
    double *qs = ARENA_NEW(a, double, q->n), *vs = ARENA_NEW(a, double, q->n);
    for (size_t i = 0; i < q->n; i++) {
        const ynode *e = q->vals[i];
        if (e->kind != YN_SEQ || e->n != 2) {
            yerr(err, e, "usage profile: expected a [p, busy] pair");
            goto out;
        }
        if (y_double(e->vals[0], "p", &qs[i], &e2) || y_double(e->vals[1], "busy", &vs[i], &e2)) {
            sb_append(err, sb_str(&e2), e2.len);
            goto out;
        }
        if (qs[i] < 0 || qs[i] > 1 || vs[i] < 0 || vs[i] > 1 || (i && (qs[i] < qs[i - 1] || vs[i] < vs[i - 1]))) {
            yerr(err, e, "usage profile: p and busy must be within 0..1 and not decrease");
            goto out;
        }
    }
    if (qs[0] != 0 || qs[q->n - 1] != 1) {
        yerr(err, q, "usage profile: quantiles must run from p 0 to p 1");
        goto out;
    }
    d->kind = BUSY_QUANTILES;
    d->q = qs;
    d->v = vs;
    d->n = q->n;
    rc = 0;
out:
    sb_free(&e2);
    yfile_free(&f);
    return rc;
}

static int parse_fraction(const ynode *n, const char *what, double *out, strbuf *err) {
    if (y_double(n, what, out, err)) return -1;
    if (!(*out >= 0 && *out <= 1)) {
        yerr(err, n, "%s: expected a fraction from 0 to 1", what);
        return -1;
    }
    return 0;
}

/* `busy:` a number, {uniform: {min, max}}, {lognormal: {median, sigma}} or {profile: NAME}. */
static int parse_busy(const ynode *n, arena *a, busy_dist *d, const char **profile, strbuf *err) {
    if (n->kind == YN_SCALAR) {
        d->kind = BUSY_FIXED;
        return parse_fraction(n, "usage.busy", &d->a, err);
    }
    static const char *const keys[] = {"uniform", "lognormal", "profile", NULL};
    if (ymap_check_keys(n, keys, "usage.busy", err)) return -1;
    if (n->n != 1) {
        yerr(err, n, "usage.busy: expected a fraction or exactly one of uniform, lognormal, profile");
        return -1;
    }
    const ynode *k = n->keys[0], *v = n->vals[0], *x;
    if (y_scalar_eq(k, "profile")) {
        if (y_str(v, "usage.busy.profile", profile, err)) return -1;
        return load_profile(v, *profile, a, d, err);
    }
    if (y_scalar_eq(k, "uniform")) {
        static const char *const uk[] = {"min", "max", NULL};
        d->kind = BUSY_UNIFORM;
        if (ymap_check_keys(v, uk, "usage.busy.uniform", err)) return -1;
        if (ymap_need(v, "min", "usage.busy.uniform", &x, err) || parse_fraction(x, "min", &d->a, err)) return -1;
        if (ymap_need(v, "max", "usage.busy.uniform", &x, err) || parse_fraction(x, "max", &d->b, err)) return -1;
        if (d->b < d->a) {
            yerr(err, x, "usage.busy.uniform: max is smaller than min");
            return -1;
        }
        return 0;
    }
    static const char *const lk[] = {"median", "sigma", NULL};
    d->kind = BUSY_LOGNORMAL;
    if (ymap_check_keys(v, lk, "usage.busy.lognormal", err)) return -1;
    if (ymap_need(v, "median", "usage.busy.lognormal", &x, err) || parse_fraction(x, "median", &d->a, err)) return -1;
    if (d->a <= 0) {
        yerr(err, x, "median: expected a fraction above 0");
        return -1;
    }
    if (ymap_need(v, "sigma", "usage.busy.lognormal", &x, err) || y_double(x, "sigma", &d->b, err)) return -1;
    if (d->b < 0 || d->b > 10) {
        yerr(err, x, "sigma: expected a number from 0 to 10");
        return -1;
    }
    return 0;
}

int usage_parse(const ynode *n, arena *a, const gpu_usage **out, strbuf *err) {
    static const char *const keys[] = {"busy", "memory", "phases", NULL};
    const ynode *v, *ph;
    if (y_expect(n, YN_MAP, "usage", err) || ymap_check_keys(n, keys, "usage", err)) return -1;
    gpu_usage *u = ARENA_NEW(a, gpu_usage, 1);
    memset(u, 0, sizeof *u);
    u->where = n;
    if ((v = ymap_get(n, "memory"))) {
        quantity q;
        const char *qerr;
        if (v->kind != YN_SCALAR || quantity_parse(v->str, v->len, &q, &qerr) || quantity_sign(&q) < 0) {
            yerr(err, v, "usage.memory: expected a non-negative quantity such as 4Gi");
            return -1;
        }
        u->memory_bytes = quantity_value(&q);
    }
    const ynode *busy = ymap_get(n, "busy");
    if ((ph = ymap_get(n, "phases"))) {
        if (busy) {
            yerr(err, busy, "usage: give busy either once or per phase, not both");
            return -1;
        }
        if (y_expect(ph, YN_SEQ, "usage.phases", err)) return -1;
        if (ph->n == 0 || ph->n > 16) {
            yerr(err, ph, "usage.phases: expected 1 to 16 phases");
            return -1;
        }
        u->phases = ARENA_NEW(a, usage_phase, ph->n);
        u->nphases = ph->n;
        double sum = 0;
        for (size_t i = 0; i < ph->n; i++) {
            static const char *const pk[] = {"work", "busy", NULL};
            const ynode *p = ph->vals[i];
            if (y_expect(p, YN_MAP, "usage phase", err) || ymap_check_keys(p, pk, "usage phase", err)) return -1;
            if (ymap_need(p, "work", "usage phase", &v, err) || parse_fraction(v, "work", &u->phases[i].work, err))
                return -1;
            if (u->phases[i].work <= 0) {
                yerr(err, v, "work: expected a share above 0");
                return -1;
            }
            sum += u->phases[i].work;
            if (ymap_need(p, "busy", "usage phase", &v, err) || parse_busy(v, a, &u->phases[i].busy, &u->profile, err))
                return -1;
        }
        if (fabs(sum - 1) > 1e-9) {
            yerr(err, ph, "usage.phases: the phases' work shares add up to %g, expected 1", sum);
            return -1;
        }
    } else {
        if (!busy) {
            yerr(err, n, "usage: expected busy (a fraction or a distribution) or phases");
            return -1;
        }
        u->phases = ARENA_NEW(a, usage_phase, 1);
        u->nphases = 1;
        u->phases[0].work = 1;
        if (parse_busy(busy, a, &u->phases[0].busy, &u->profile, err)) return -1;
    }
    *out = u;
    return 0;
}

double usage_draw(const busy_dist *d, rng *r) {
    double x;
    switch (d->kind) {
    case BUSY_FIXED: return d->a;
    case BUSY_UNIFORM: x = d->a + (d->b - d->a) * rng_uniform(r); break;
    case BUSY_LOGNORMAL: x = rng_lognormal(r, log(d->a), d->b); break;
    default: {
        double u = rng_uniform(r);
        size_t i = 1;
        while (i < d->n - 1 && d->q[i] < u) i++;
        double w = d->q[i] - d->q[i - 1];
        x = w > 0 ? d->v[i - 1] + (d->v[i] - d->v[i - 1]) * (u - d->q[i - 1]) / w : d->v[i];
    }
    }
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

void contention_defaults(contention_params *p) {
    /* a synthesis (../shared/spec/dynamics.md 5.2), not a measurement: a shorter
     * slice switches more often; Default is taken as Medium's slice */
    p->switch_cost[TS_DEFAULT] = 0.02;
    p->switch_cost[TS_SHORT] = 0.04;
    p->switch_cost[TS_MEDIUM] = 0.02;
    p->switch_cost[TS_LONG] = 0.01;
    /* arXiv 2604.22430: MPS about 30 % worse under memory contention */
    p->mps_bandwidth_penalty = 0.3;
}

static int parse_cost(const ynode *v, const char *what, double *out, strbuf *err) {
    if (y_double(v, what, out, err)) return -1;
    if (!(*out >= 0 && *out <= 10)) {
        yerr(err, v, "%s: expected a number from 0 to 10", what);
        return -1;
    }
    return 0;
}

int contention_parse(const ynode *n, contention_params *p, strbuf *err) {
    static const char *const keys[] = {"timeSlicing", "mps", NULL};
    static const char *const tk[] = {"switchCost", NULL};
    static const char *const ik[] = {"Default", "Short", "Medium", "Long", NULL};
    static const char *const mk[] = {"bandwidthPenalty", NULL};
    const ynode *v, *x;
    contention_defaults(p);
    if (y_expect(n, YN_MAP, "contention", err) || ymap_check_keys(n, keys, "contention", err)) return -1;
    if ((v = ymap_get(n, "timeSlicing"))) {
        if (y_expect(v, YN_MAP, "contention.timeSlicing", err) || ymap_check_keys(v, tk, "contention.timeSlicing", err))
            return -1;
        if ((x = ymap_get(v, "switchCost"))) {
            if (x->kind == YN_SCALAR) {
                double c;
                if (parse_cost(x, "switchCost", &c, err)) return -1;
                for (int i = 0; i < 4; i++) p->switch_cost[i] = c;
            } else {
                if (ymap_check_keys(x, ik, "contention.timeSlicing.switchCost", err)) return -1;
                for (int i = 0; i < 4; i++) {
                    const ynode *c = ymap_get(x, ik[i]);
                    if (c && parse_cost(c, ik[i], &p->switch_cost[i], err)) return -1;
                }
            }
        }
    }
    if ((v = ymap_get(n, "mps"))) {
        if (y_expect(v, YN_MAP, "contention.mps", err) || ymap_check_keys(v, mk, "contention.mps", err)) return -1;
        if ((x = ymap_get(v, "bandwidthPenalty")) && parse_cost(x, "bandwidthPenalty", &p->mps_bandwidth_penalty, err))
            return -1;
    }
    return 0;
}
