/*
 * scenario_workload.c -- the `workload:` section: pod groups with their
 * count, arrival process, duration distribution, requests, placement
 * constraints and GPU demand for each scheduling mode.
 */
#include "model/kueue.h"
#include "model/scenario.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/scenario_jobs.h"
#include "model/usage.h"
#include "util/intern.h"

/* `arrival: {poisson: {ratePerMinute: 4}}`, `{constant: {interval: 30s}}`,
 * `{times: [0s, 10s]}`, each with an optional `start: DURATION`. */
static int parse_arrival(const ynode *m, arena *a, pod_group_spec *g, strbuf *err) {
    static const char *const keys[] = {"poisson", "constant", "times", "start", NULL};
    const ynode *v, *kind = NULL;
    int nkinds = 0;
    if (ymap_check_keys(m, keys, "arrival", err)) return -1;
    for (size_t i = 0; i < m->n; i++)
        if (!y_scalar_eq(m->keys[i], "start")) { kind = m->keys[i]; nkinds++; }
    if (nkinds != 1) {
        yerr(err, nkinds ? m->keys[1] : m, "arrival: expected exactly one of poisson, constant, times");
        return -1;
    }
    arrival_spec *ar = &g->arrival;
    if ((v = ymap_get(m, "start")) && scenario_parse_duration(v, "arrival.start", &ar->start, err)) return -1;
    if (ar->start < 0) {
        yerr(err, v, "arrival.start: expected a non-negative duration");
        return -1;
    }
    if (y_scalar_eq(kind, "poisson")) {
        static const char *const pk[] = {"ratePerSecond", "ratePerMinute", "ratePerHour", NULL};
        static const double per_ms[] = {1000.0, 60000.0, 3600000.0};
        const ynode *p = ymap_get(m, "poisson");
        if (ymap_check_keys(p, pk, "arrival.poisson", err)) return -1;
        if (p->n != 1) {
            yerr(err, p, "arrival.poisson: expected exactly one of ratePerSecond, ratePerMinute, ratePerHour");
            return -1;
        }
        double rate;
        if (y_double(p->vals[0], "arrival rate", &rate, err)) return -1;
        if (!(rate > 0)) {
            yerr(err, p->vals[0], "arrival rate: expected a positive number");
            return -1;
        }
        for (int i = 0; i < 3; i++)
            if (y_scalar_eq(p->keys[0], pk[i])) ar->mean_gap_ms = per_ms[i] / rate;
        ar->kind = ARRIVAL_POISSON;
    } else if (y_scalar_eq(kind, "constant")) {
        static const char *const ck[] = {"interval", NULL};
        const ynode *c = ymap_get(m, "constant");
        if (ymap_check_keys(c, ck, "arrival.constant", err)) return -1;
        if (ymap_need(c, "interval", "arrival.constant", &v, err)) return -1;
        if (scenario_parse_duration(v, "arrival.constant.interval", &ar->interval, err)) return -1;
        if (ar->interval < 0) {
            yerr(err, v, "arrival.constant.interval: expected a non-negative duration");
            return -1;
        }
        ar->kind = ARRIVAL_CONSTANT;
    } else {
        const ynode *t = ymap_get(m, "times");
        if (y_expect(t, YN_SEQ, "arrival.times", err)) return -1;
        if (t->n == 0) {
            yerr(err, t, "arrival.times: expected at least one time");
            return -1;
        }
        ar->kind = ARRIVAL_TIMES;
        ar->times = ARENA_NEW(a, sim_time, t->n);
        for (size_t i = 0; i < t->n; i++) {
            if (scenario_parse_duration(t->vals[i], "arrival time", &ar->times[i], err)) return -1;
            ar->times[i] += ar->start;   /* the times count from `start`; compare after the shift */
            if (ar->times[i] < ar->start || (i && ar->times[i] < ar->times[i - 1])) {
                yerr(err, t->vals[i], "arrival time: expected non-negative times in ascending order");
                return -1;
            }
        }
        if (g->count == 0) g->count = (int64_t)t->n;
        if ((size_t)g->count != t->n) {
            yerr(err, t, "arrival.times: lists %zu times but the pod group's count is %lld", t->n, (long long)g->count);
            return -1;
        }
    }
    return 0;
}

/* `duration: 30m` (fixed) or one of {fixed: D}, {uniform: {min, max}},
 * {exponential: {mean}}, {lognormal: {median, sigma}}. */
int scenario_parse_duration_dist(const ynode *n, duration_dist *d, strbuf *err) {
    if (n->kind == YN_SCALAR) {
        d->kind = DIST_FIXED;
        return scenario_parse_duration(n, "duration", &d->a, err);
    }
    static const char *const keys[] = {"fixed", "uniform", "exponential", "lognormal", NULL};
    if (ymap_check_keys(n, keys, "duration", err)) return -1;
    if (n->n != 1) {
        yerr(err, n, "duration: expected exactly one of fixed, uniform, exponential, lognormal");
        return -1;
    }
    const ynode *k = n->keys[0], *v = n->vals[0], *x;
    if (y_scalar_eq(k, "fixed")) {
        d->kind = DIST_FIXED;
        return scenario_parse_duration(v, "duration.fixed", &d->a, err);
    }
    if (y_scalar_eq(k, "uniform")) {
        static const char *const uk[] = {"min", "max", NULL};
        d->kind = DIST_UNIFORM;
        if (ymap_check_keys(v, uk, "duration.uniform", err)) return -1;
        if (ymap_need(v, "min", "duration.uniform", &x, err) || scenario_parse_duration(x, "min", &d->a, err)) return -1;
        if (ymap_need(v, "max", "duration.uniform", &x, err) || scenario_parse_duration(x, "max", &d->b, err)) return -1;
        if (d->b < d->a) {
            yerr(err, x, "duration.uniform: max is smaller than min");
            return -1;
        }
        return 0;
    }
    if (y_scalar_eq(k, "exponential")) {
        static const char *const ek[] = {"mean", NULL};
        d->kind = DIST_EXPONENTIAL;
        if (ymap_check_keys(v, ek, "duration.exponential", err)) return -1;
        return ymap_need(v, "mean", "duration.exponential", &x, err) ||
               scenario_parse_duration(x, "mean", &d->a, err);
    }
    static const char *const lk[] = {"median", "sigma", NULL};
    d->kind = DIST_LOGNORMAL;
    if (ymap_check_keys(v, lk, "duration.lognormal", err)) return -1;
    if (ymap_need(v, "median", "duration.lognormal", &x, err) || scenario_parse_duration(x, "median", &d->a, err))
        return -1;
    if (d->a <= 0) {
        yerr(err, x, "median: expected a positive duration");
        return -1;
    }
    if (ymap_need(v, "sigma", "duration.lognormal", &x, err) || y_double(x, "sigma", &d->sigma, err)) return -1;
    if (d->sigma < 0 || d->sigma > 10) {
        yerr(err, x, "sigma: expected a number from 0 to 10");
        return -1;
    }
    return 0;
}

/* A resource map such as {cpu: "8", memory: 64Gi} or {nvidia.com/gpu: 2}. */
int scenario_parse_resources(const ynode *m, const char *what, bool extended_only, arena *a,
                             k8s_resource_amount **out, size_t *nout, strbuf *err) {
    if (y_expect(m, YN_MAP, what, err)) return -1;
    *out = ARENA_NEW(a, k8s_resource_amount, m->n ? m->n : 1);
    *nout = 0;
    for (size_t i = 0; i < m->n; i++) {
        const char *name, *qerr;
        k8s_resource_amount *r = &(*out)[(*nout)++];
        if (y_str(m->keys[i], what, &name, err)) return -1;
        if (extended_only && !strchr(name, '/')) {
            yerr(err, m->keys[i], "%s: '%s' is not an extended resource name (expected DOMAIN/NAME such as "
                 "nvidia.com/gpu)", what, name);
            return -1;
        }
        const ynode *v = m->vals[i];
        if (v->kind != YN_SCALAR || y_is_null(v)) {
            yerr(err, v, "%s: %s: expected a quantity, found %s", what, name, ykind_name(v));
            return -1;
        }
        r->name = name;
        if (quantity_parse(v->str, v->len, &r->value, &qerr)) {
            yerr(err, v, "%s: %s: invalid quantity '%s': %s", what, name, v->str, qerr);
            return -1;
        }
        if (quantity_sign(&r->value) < 0) {
            yerr(err, v, "%s: %s: expected a non-negative quantity", what, name);
            return -1;
        }
        if (strchr(name, '/') && quantity_milli_value(&r->value) % 1000 != 0) {
            yerr(err, v, "%s: %s: extended resources must be whole numbers", what, name);
            return -1;
        }
    }
    return 0;
}

/* `gpu: {devicePlugin: {nvidia.com/gpu: 2, nodeSelector: {...}}, dra: {claims: [...]}}` */
static int parse_gpu(const ynode *m, arena *a, pod_group_spec *g, strbuf *err) {
    static const char *const keys[] = {"devicePlugin", "dra", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "gpu", err)) return -1;
    if ((v = ymap_get(m, "devicePlugin"))) {
        if (y_expect(v, YN_MAP, "gpu.devicePlugin", err)) return -1;
        /* Split the resource names from the optional nodeSelector. */
        ynode res = *v;
        res.keys = ARENA_NEW(a, ynode *, v->n ? v->n : 1);
        res.vals = ARENA_NEW(a, ynode *, v->n ? v->n : 1);
        res.n = 0;
        for (size_t i = 0; i < v->n; i++) {
            if (y_scalar_eq(v->keys[i], "nodeSelector")) {
                if (scenario_parse_string_map(v->vals[i], "gpu.devicePlugin.nodeSelector", a, &g->dp_node_selector,
                                              &g->ndp_node_selector, err))
                    return -1;
                continue;
            }
            res.keys[res.n] = v->keys[i];
            res.vals[res.n++] = v->vals[i];
        }
        if (scenario_parse_resources(&res, "gpu.devicePlugin", true, a, &g->dp_resources, &g->ndp_resources, err)) return -1;
        g->has_dp = true;
    }
    if ((v = ymap_get(m, "dra")) && scenario_parse_dra(v, a, g, err)) return -1;
    return 0;
}

int scenario_check_namespace(const pod_group_spec *g, strbuf *err) {
    if (!g->namespace_ || k8s_is_dns_label(g->namespace_)) return 0;
    yerr(err, ymap_get(g->where, "namespace"), "pod group '%s': namespace '%s' is not a valid namespace name (at most "
         "63 of a-z 0-9 -, starting and ending with a letter or digit)", g->name, g->namespace_);
    return -1;
}

int scenario_parse_pod_group(const ynode *m, arena *a, pod_group_spec *g, strbuf *err) {
    static const char *const keys[] = {"name", "count", "arrival", "duration", "priority", "requests",
                                       "nodeSelector", "affinity", "tolerations", "gpu", "owner", "checkpoint",
                                       "terminationGracePeriodSeconds", "containers", "initContainers", "usage",
                                       "preemptionPolicy", "disruptionBudget", "gang", "namespace", "labels", "annotations", "restartPolicy", NULL};
    const ynode *v;
    memset(g, 0, sizeof *g);
    g->where = m;
    if (ymap_check_keys(m, keys, "pod group", err)) return -1;
    if (ymap_need(m, "name", "pod group", &v, err) || y_str(v, "pod group name", &g->name, err)) return -1;
    if ((v = ymap_get(m, "count"))) {
        if (y_int(v, "count", &g->count, err)) return -1;
        if (g->count < 1 || g->count > 100000000) {
            yerr(err, v, "count: expected an integer from 1 to 100000000, found %lld", (long long)g->count);
            return -1;
        }
    } else {
        const ynode *ar = ymap_get(m, "arrival");
        if (!ar || !ymap_get(ar, "times")) {
            yerr(err, m, "missing field 'count' in pod group '%s'", g->name);
            return -1;
        }
    }
    if (ymap_need(m, "arrival", "pod group", &v, err) || parse_arrival(v, a, g, err)) return -1;
    if (ymap_need(m, "duration", "pod group", &v, err) || scenario_parse_duration_dist(v, &g->duration, err)) return -1;
    if ((v = ymap_get(m, "priority"))) {
        int64_t p;
        if (y_int(v, "priority", &p, err)) return -1;
        if (p < -2147483648LL || p > 1000000000LL) {
            yerr(err, v, "priority: expected an integer from -2147483648 to 1000000000");
            return -1;
        }
        g->priority = (int32_t)p;
    }
    if ((v = ymap_get(m, "requests")) && scenario_parse_resources(v, "requests", false, a, &g->requests, &g->nrequests, err))
        return -1;
    if ((v = ymap_get(m, "nodeSelector")) &&
        scenario_parse_string_map(v, "nodeSelector", a, &g->node_selector, &g->nnode_selector, err))
        return -1;
    if ((v = ymap_get(m, "affinity"))) {
        if (scenario_parse_node_affinity(v, a, &g->required_affinity, err)) return -1;
        g->has_affinity = true;
    }
    if ((v = ymap_get(m, "tolerations")) && scenario_parse_tolerations(v, a, &g->tolerations, &g->ntolerations, err))
        return -1;
    if ((v = ymap_get(m, "gpu")) && parse_gpu(v, a, g, err)) return -1;
    if (scenario_parse_containers(m, a, g, err)) return -1;
    if ((v = ymap_get(m, "usage")) && usage_parse(v, a, &g->usage, err)) return -1;
    if (scenario_parse_lifecycle(m, g, err)) return -1;
    if ((v = ymap_get(m, "namespace")) && y_str(v, "namespace", &g->namespace_, err)) return -1;   /* issue 27 */
    if ((v = ymap_get(m, "labels")) && scenario_parse_string_map(v, "labels", a, &g->labels, &g->nlabels, err))
        return -1;
    if ((v = ymap_get(m, "annotations"))) {   /* issue 28: Kueue TAS requests, checked as Kueue's webhook does */
        kq_topology_request tr = {0};
        strbuf msg = {0};
        if (scenario_parse_string_map(v, "annotations", a, &g->annotations, &g->nannotations, err)) return -1;
        if (kq_tas_request_from_kv(g->annotations, g->nannotations, &tr, &msg)) {
            yerr(err, v, "pod group '%s': %s", g->name, sb_str(&msg));
            sb_free(&msg);
            return -1;
        }
    }
    return scenario_parse_group_dynamics(m, g, err);
}

int scenario_parse_workload(const ynode *w, scenario *s, strbuf *err) {
    static const char *const keys[] = {"podGroups", "resourceClaims", "trace", "lua", "contention", "computeDomains",
                                       "jobs", NULL};
    const ynode *groups, *claims, *trace, *lua, *cont, *cds, *jobs;
    if (ymap_check_keys(w, keys, "workload", err)) return -1;
    if ((cont = ymap_get(w, "contention"))) {
        s->contention = ARENA_NEW(&s->a, contention_params, 1);
        if (contention_parse(cont, s->contention, err)) return -1;
    }
    if ((trace = ymap_get(w, "trace"))) {
        if (ymap_get(w, "podGroups") || ymap_get(w, "lua") || ymap_get(w, "jobs")) {
            yerr(err, trace, "workload: expected either trace or podGroups/lua/jobs, not both");
            return -1;
        }
        return scenario_parse_trace(trace, s, err);
    }
    if ((lua = ymap_get(w, "lua")) && scenario_parse_lua_source(lua, s, err)) return -1;
    if ((claims = ymap_get(w, "resourceClaims")) && scenario_parse_shared_claims(claims, s, err)) return -1;
    if ((cds = ymap_get(w, "computeDomains")) && scenario_parse_compute_domains(cds, s, err)) return -1;
    if ((jobs = ymap_get(w, "jobs")) && scenario_parse_jobs(jobs, s, err)) return -1;   /* model/scenario_jobs.c */
    if ((lua || jobs) && !ymap_get(w, "podGroups")) return 0;   /* the script or the traces are the whole workload */
    if (ymap_need(w, "podGroups", "workload", &groups, err) || y_expect(groups, YN_SEQ, "workload.podGroups", err))
        return -1;
    if (groups->n == 0) {
        yerr(err, groups, "workload.podGroups: expected at least one pod group");
        return -1;
    }
    s->groups = ARENA_NEW(&s->a, pod_group_spec, groups->n);
    s->ngroups = groups->n;
    for (size_t i = 0; i < groups->n; i++) {
        if (scenario_parse_pod_group(groups->vals[i], &s->a, &s->groups[i], err) ||
            scenario_check_namespace(&s->groups[i], err))
            return -1;
        for (size_t j = 0; j < i; j++)
            if (s->groups[j].name == s->groups[i].name) {
                yerr(err, ymap_get(groups->vals[i], "name"), "duplicate pod group name '%s'", s->groups[i].name);
                return -1;
            }
    }
    return scenario_check_claim_refs(s, err) || scenario_resolve_cd_claims(s, err) ? -1 : 0;
}
