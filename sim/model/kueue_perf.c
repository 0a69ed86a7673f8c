/* kueue_perf.c -- Kueue's performance generator configs (kueue_perf.h).
 * The fields and their defaults follow generator.go (kueue ff69552e79):
 * LoadConfig requires at least one cohort set and defaults the flavor to
 * "rf"; quotas and requests are cpu quantities. drasim also refuses what
 * the Go code would accept silently (a count below 1, a negative interval,
 * runtime or quota, an unknown policy), since a replay of it would mean
 * nothing. */
#include "model/kueue_perf.h"

#include <stdlib.h>
#include <string.h>

#include "cel/quantity.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define KPERF_MAX_WORKLOADS 10000000

static int need_int(const ynode *m, const char *key, const char *what, int64_t lo, int64_t hi, int64_t *out,
                    strbuf *err) {
    const ynode *v;
    if (ymap_need(m, key, what, &v, err) || y_int(v, key, out, err)) return -1;
    if (*out < lo || *out > hi) {
        yerr(err, v, "%s.%s: expected a whole number %lld..%lld, found %lld", what, key, (long long)lo, (long long)hi,
             (long long)*out);
        return -1;
    }
    return 0;
}

static int opt_int(const ynode *m, const char *key, const char *what, int64_t lo, int64_t hi, int64_t *out,
                   strbuf *err) {
    *out = 0;
    return ymap_get(m, key) ? need_int(m, key, what, lo, hi, out, err) : 0;
}

/* A cpu quantity (number or string) as millicores >= 0. */
static int cpu_milli(const ynode *v, const char *what, int64_t *out, strbuf *err) {
    quantity q;
    const char *why = NULL;
    if (!v || v->kind != YN_SCALAR || quantity_parse(v->str, v->len, &q, &why) || quantity_sign(&q) < 0) {
        yerr(err, v, "%s: expected a cpu quantity >= 0 (e.g. 20, 500m), found %s", what,
             v && v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    *out = quantity_milli_value(&q);
    if (*out < 0 || *out > (int64_t)1 << 50) {
        yerr(err, v, "%s: %s is too large", what, v->str);
        return -1;
    }
    return 0;
}

static int class_name(const ynode *m, const char *what, const char **out, strbuf *err) {
    const ynode *v;
    if (ymap_need(m, "className", what, &v, err) || y_str(v, "className", out, err)) return -1;
    size_t n = strlen(*out);
    bool ok = n > 0 && n <= 40;
    for (size_t i = 0; i < n && ok; i++) {
        char c = (*out)[i];
        ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && i > 0 && i + 1 < n);
    }
    if (!ok) {
        yerr(err, v, "%s.className: expected a lower-case DNS label of at most 40 characters, found '%s'", what, *out);
        return -1;
    }
    return 0;
}

static int seq_of(const ynode *m, const char *key, const char *what, const ynode **out, strbuf *err) {
    if (ymap_need(m, key, what, out, err) || y_expect(*out, YN_SEQ, key, err)) return -1;
    if (!(*out)->n) {
        yerr(err, *out, "%s.%s: expected at least one entry", what, key);
        return -1;
    }
    return 0;
}

static int policy(const ynode *m, const char *key, const char *const *allowed, const char **out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    *out = NULL;
    if (!v) return 0;
    if (y_str(v, key, out, err)) return -1;
    for (size_t i = 0; allowed[i]; i++)
        if (!strcmp(*out, allowed[i])) return 0;
    yerr(err, v, "%s: expected %s, %s or %s (Kueue's PreemptionPolicy), found '%s'", key, allowed[0], allowed[1],
         allowed[2], *out);
    return -1;
}

static int parse_wl(const ynode *m, kperf_wl *w, strbuf *err) {
    static const char *const keys[] = {"className", "runtimeMs", "priority", "request", "podCount", "tasConstraint",
                                       "tasLevel", "sliceSize", NULL};
    if (y_expect(m, YN_MAP, "workload", err) || ymap_check_keys(m, keys, "workload", err)) return -1;
    for (size_t i = 4; keys[i]; i++) {
        const ynode *v = ymap_get(m, keys[i]);
        if (v) {
            yerr(err, v, "workload.%s: a TAS performance config (configs/tas): not replayed by drasim", keys[i]);
            return -1;
        }
    }
    int64_t prio;
    if (class_name(m, "workload", &w->cls, err) ||
        need_int(m, "runtimeMs", "workload", 0, (int64_t)1 << 40, &w->runtime_ms, err) ||
        opt_int(m, "priority", "workload", -2147483648LL, 2147483647LL, &prio, err))
        return -1;
    w->priority = (int32_t)prio;
    const ynode *v;
    if (ymap_need(m, "request", "workload", &v, err) || cpu_milli(v, "workload.request", &w->request_milli, err))
        return -1;
    return 0;
}

static int parse_wlset(const ynode *m, kperf_wlset *s, int64_t *total, int64_t mult, strbuf *err) {
    static const char *const keys[] = {"count", "creationIntervalMs", "workloads", NULL};
    const ynode *wls;
    if (y_expect(m, YN_MAP, "workloadsSet", err) || ymap_check_keys(m, keys, "workloadsSet", err) ||
        need_int(m, "count", "workloadsSet", 1, KPERF_MAX_WORKLOADS, &s->count, err) ||
        opt_int(m, "creationIntervalMs", "workloadsSet", 0, (int64_t)1 << 40, &s->interval_ms, err) ||
        seq_of(m, "workloads", "workloadsSet", &wls, err))
        return -1;
    s->wls = xcalloc(wls->n, sizeof *s->wls);
    s->n = wls->n;
    for (size_t i = 0; i < wls->n; i++)
        if (parse_wl(wls->vals[i], &s->wls[i], err)) return -1;
    *total += mult * s->count * (int64_t)s->n;
    if (*total > KPERF_MAX_WORKLOADS) {
        yerr(err, m, "workloadsSet: more than %d workloads in all", KPERF_MAX_WORKLOADS);
        return -1;
    }
    return 0;
}

static int parse_qset(const ynode *m, kperf_qset *q, int64_t *total, int64_t mult, strbuf *err) {
    static const char *const keys[] = {"className", "count", "nominalQuota", "borrowingLimit", "reclaimWithinCohort",
                                       "withinClusterQueue", "workloadsSets", NULL};
    static const char *const reclaim[] = {"Never", "LowerPriority", "Any", NULL};
    static const char *const within[] = {"Never", "LowerPriority", "LowerOrNewerEqualPriority", NULL};
    const ynode *v, *sets;
    if (y_expect(m, YN_MAP, "queuesSet", err) || ymap_check_keys(m, keys, "queuesSet", err) ||
        class_name(m, "queuesSet", &q->cls, err) || need_int(m, "count", "queuesSet", 1, 100000, &q->count, err) ||
        ymap_need(m, "nominalQuota", "queuesSet", &v, err) || cpu_milli(v, "queuesSet.nominalQuota", &q->nominal_milli, err))
        return -1;
    q->borrowing_milli = -1;
    if ((v = ymap_get(m, "borrowingLimit")) && cpu_milli(v, "queuesSet.borrowingLimit", &q->borrowing_milli, err))
        return -1;
    if (policy(m, "reclaimWithinCohort", reclaim, &q->reclaim, err) ||
        policy(m, "withinClusterQueue", within, &q->within, err) || seq_of(m, "workloadsSets", "queuesSet", &sets, err))
        return -1;
    q->sets = xcalloc(sets->n, sizeof *q->sets);
    q->n = sets->n;
    for (size_t i = 0; i < sets->n; i++)
        if (parse_wlset(sets->vals[i], &q->sets[i], total, mult * q->count, err)) return -1;
    return 0;
}

static int parse_root(const ynode *root, kperf_config *c, strbuf *err) {
    static const char *const keys[] = {"cohorts", "resourceFlavor", "topology", NULL};
    const ynode *v, *cohorts;
    if (y_expect(root, YN_MAP, "generator config", err) || ymap_check_keys(root, keys, "generator config", err))
        return -1;
    if ((v = ymap_get(root, "topology"))) {
        yerr(err, v, "topology: a TAS performance config (configs/tas): not replayed by drasim");
        return -1;
    }
    c->flavor = intern("rf");
    if ((v = ymap_get(root, "resourceFlavor"))) {
        static const char *const fkeys[] = {"name", "nodeLabel", NULL};
        const ynode *nm;
        if (y_expect(v, YN_MAP, "resourceFlavor", err) || ymap_check_keys(v, fkeys, "resourceFlavor", err)) return -1;
        if ((nm = ymap_get(v, "name")) && y_str(nm, "resourceFlavor.name", &c->flavor, err)) return -1;
    }
    if (seq_of(root, "cohorts", "generator config", &cohorts, err)) return -1;
    c->cohorts = xcalloc(cohorts->n, sizeof *c->cohorts);
    c->n = cohorts->n;
    for (size_t i = 0; i < cohorts->n; i++) {
        static const char *const ckeys[] = {"className", "count", "queuesSets", NULL};
        const ynode *m = cohorts->vals[i], *qs;
        kperf_cohort *co = &c->cohorts[i];
        if (y_expect(m, YN_MAP, "cohort set", err) || ymap_check_keys(m, ckeys, "cohort set", err) ||
            class_name(m, "cohort set", &co->cls, err) || need_int(m, "count", "cohort set", 1, 100000, &co->count, err) ||
            seq_of(m, "queuesSets", "cohort set", &qs, err))
            return -1;
        for (size_t j = 0; j < i; j++)
            if (c->cohorts[j].cls == co->cls) {
                yerr(err, m, "cohort set: className '%s' is used twice (the cohorts' names would collide)", co->cls);
                return -1;
            }
        co->qs = xcalloc(qs->n, sizeof *co->qs);
        co->n = qs->n;
        for (size_t j = 0; j < qs->n; j++)
            if (parse_qset(qs->vals[j], &co->qs[j], &c->workloads, co->count, err)) return -1;
    }
    return 0;
}

static int load(yfile *f, kperf_config *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    int rc = -1;
    if (f->ndocs != 1) {
        sb_clear(err);
        sb_printf(err, "%s: expected one YAML document (a generator config), found %zu", f->name, f->ndocs);
    } else {
        rc = parse_root(f->docs[0], out, err);
    }
    if (rc) kperf_free(out);
    yfile_free(f);
    return rc;
}

int kperf_load(const char *path, kperf_config *out, strbuf *err) {
    yfile f;
    memset(out, 0, sizeof *out);
    if (yfile_load(path, &f, err)) return -1;
    return load(&f, out, err);
}

int kperf_load_mem(const char *name, const char *data, size_t len, kperf_config *out, strbuf *err) {
    yfile f;
    memset(out, 0, sizeof *out);
    if (yfile_load_mem(name, data, len, &f, err)) return -1;
    return load(&f, out, err);
}

void kperf_free(kperf_config *c) {
    for (size_t i = 0; i < c->n; i++) {
        for (size_t j = 0; j < c->cohorts[i].n; j++) {
            for (size_t k = 0; k < c->cohorts[i].qs[j].n; k++) free(c->cohorts[i].qs[j].sets[k].wls);
            free(c->cohorts[i].qs[j].sets);
        }
        free(c->cohorts[i].qs);
    }
    free(c->cohorts);
    memset(c, 0, sizeof *c);
}
