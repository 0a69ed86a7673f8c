/*
 * autoscaler_spec.c -- parse `autoscaling:` on node pools and the top-level
 * `autoscaler:` map (see autoscaler_spec.h). Flag names and defaults are
 * cluster-autoscaler 1.36's (FAQ.md, flag table; config/flags/flags.go).
 */
#include "model/autoscaler_spec.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"

void autoscaler_spec_defaults(autoscaler_spec *a) {
    memset(a, 0, sizeof *a);
    a->scan_interval = SIM_SECONDS(10);
    a->max_node_provision_time = SIM_SECONDS(15 * 60);
    a->scale_down_unneeded_time = SIM_SECONDS(10 * 60);
    a->scale_down_delay_after_add = SIM_SECONDS(10 * 60);
    a->scale_down_delay_after_delete = 0;
    a->scale_down_delay_after_failure = SIM_SECONDS(3 * 60);
    a->initial_backoff = SIM_SECONDS(5 * 60);
    a->max_backoff = SIM_SECONDS(30 * 60);
    a->backoff_reset = SIM_SECONDS(3 * 3600);
    a->max_graceful_termination = SIM_SECONDS(600);
    a->utilization_threshold = 0.5;
    a->gpu_utilization_threshold = 0.5;
    a->scale_down_enabled = true;
    a->max_nodes_per_scaleup = 1000;
    a->max_scale_down_parallelism = 10;
    a->max_drain_parallelism = 1;
    a->non_empty_candidates = 30;
    a->expendable_priority_cutoff = -10;
    a->cores_max = 320000;
    a->memory_max_gib = 6400000;
    a->gpu_max = INT64_MAX;
    a->expanders[0] = EXP_LEAST_WASTE;
    a->nexpanders = 1;
}

static const char *const expander_names[] = {"random", "most-pods", "least-waste", "price", "priority", "least-nodes"};

const char *ca_expander_name(ca_expander e) { return expander_names[e]; }

int pool_autoscaling_parse(const ynode *n, arena *a, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"min", "max", "price", "provisioningTime", "driverReadyDelay", NULL};
    const ynode *v;
    int64_t i64;
    if (y_expect(n, YN_MAP, "autoscaling", err) || ymap_check_keys(n, keys, "autoscaling", err)) return -1;
    pool_autoscaling *as = ARENA_NEW(a, pool_autoscaling, 1);
    as->where = n;
    as->provisioning.kind = DIST_FIXED;
    if (ymap_need(n, "max", "autoscaling", &v, err) || y_int(v, "autoscaling.max", &i64, err)) return -1;
    if (i64 < 1 || i64 > 1000000) {
        yerr(err, v, "autoscaling.max: expected 1 to 1000000 nodes, found %lld", (long long)i64);
        return -1;
    }
    as->max = (int)i64;
    as->min = 0;
    if ((v = ymap_get(n, "min"))) {
        if (y_int(v, "autoscaling.min", &i64, err)) return -1;
        if (i64 < 0 || i64 > as->max) {
            yerr(err, v, "autoscaling.min: expected 0 to max (%d) nodes, found %lld", as->max, (long long)i64);
            return -1;
        }
        as->min = (int)i64;
    }
    if (p->count < as->min || p->count > as->max) {
        yerr(err, ymap_get(p->where, "count"), "count: a node group starts with min to max nodes (%d to %d), found %d",
             as->min, as->max, p->count);
        return -1;
    }
    if ((v = ymap_get(n, "price"))) {
        if (y_double(v, "autoscaling.price", &as->price, err)) return -1;
        /* bounded as plan's --cost, so price x node-hours (ca_cost, the price expander) stays finite */
        if (!(as->price >= 0 && as->price < 1e12)) {
            yerr(err, v, "autoscaling.price: expected a price per node-hour from 0 to below 1e12");
            return -1;
        }
    }
    if ((v = ymap_get(n, "provisioningTime")) && scenario_parse_duration_dist(v, &as->provisioning, err)) return -1;
    if ((v = ymap_get(n, "driverReadyDelay")) &&
        scenario_parse_duration(v, "autoscaling.driverReadyDelay", &as->driver_ready_delay, err))
        return -1;
    p->autoscaling = as;
    return 0;
}

/* "min:max" (integers), or with gpu "[type:]min:max". */
static int parse_range(const ynode *v, const char *what, bool typed, int64_t *lo, int64_t *hi, strbuf *err) {
    if (!v || v->kind != YN_SCALAR) {
        yerr(err, v, "%s: expected MIN:MAX, found %s", what, ykind_name(v));
        return -1;
    }
    const char *s = v->str, *last = strrchr(s, ':');
    if (typed && last && last != strchr(s, ':')) {   /* type:min:max -- the type is not checked */
        s = strchr(s, ':') + 1;
    }
    char *end;
    errno = 0;
    long long a = strtoll(s, &end, 10);
    if (end == s || *end != ':' || errno) goto bad;
    const char *t = end + 1;
    long long b = strtoll(t, &end, 10);
    if (end == t || *end || errno || a < 0 || b < a) goto bad;
    *lo = a;
    *hi = b;
    return 0;
bad:
    yerr(err, v, "%s: expected %sMIN:MAX with 0 <= MIN <= MAX, found '%s'", what, typed ? "[TYPE:]" : "", v->str);
    return -1;
}

static int parse_expanders(const ynode *v, autoscaler_spec *o, strbuf *err) {
    const char *list;
    if (y_str(v, "expander", &list, err)) return -1;
    o->nexpanders = 0;
    const char *p = list;
    while (*p) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        size_t k = 0;
        while (k < sizeof expander_names / sizeof *expander_names &&
               (strlen(expander_names[k]) != len || strncmp(expander_names[k], p, len)))
            k++;
        if (k == sizeof expander_names / sizeof *expander_names) {
            yerr(err, v, "expander: unknown expander '%.*s' (random, most-pods, least-waste, price, priority, "
                 "least-nodes; grpc is not modelled)", (int)len, p);
            return -1;
        }
        if (o->nexpanders == sizeof o->expanders / sizeof *o->expanders) {
            yerr(err, v, "expander: at most 8 expanders in a chain");
            return -1;
        }
        o->expanders[o->nexpanders++] = (ca_expander)k;
        if (!q) break;
        p = q + 1;
    }
    if (!o->nexpanders) {
        yerr(err, v, "expander: expected one or more of random, most-pods, least-waste, price, priority");
        return -1;
    }
    return 0;
}

/* Bounds on an expander-priorities regex, checked before regcomp (glibc's
 * regcomp recurses per nesting level and expands counted repeats, so 20,000
 * nested parentheses overflow the stack). cluster-autoscaler compiles the
 * patterns with Go's regexp (RE2 syntax; expander/priority/priority.go), whose
 * parser refuses nesting deeper than 1000 (regexp/syntax parse.go maxHeight,
 * "expression nests too deeply") and repeat counts above 1000 ("invalid repeat
 * count"). drasim's own bounds: 4096 bytes, 100,000 positions once counted
 * repeats are expanded (Go refuses large programs too: "expression too large"). */
#define RE_MAX_DEPTH 1000
#define RE_MAX_REPEAT 1000
#define RE_MAX_BYTES 4096
#define RE_MAX_SIZE 100000.0

typedef struct re_scan {
    const char *p;
    int depth;
    const char *why;   /* set on the first bound exceeded */
} re_scan;

static double re_seq(re_scan *s);

/* One atom: a group, an escape, a bracket expression or a character; its size. */
static double re_atom(re_scan *s) {
    if (*s->p == '(') {
        if (++s->depth > RE_MAX_DEPTH) {
            s->why = "parentheses nest more than 1000 deep (Go's regexp limit: expression nests too deeply)";
            return 0;
        }
        s->p++;
        double a = re_seq(s);
        if (*s->p == ')') s->p++;
        s->depth--;
        return a + 1;
    }
    if (*s->p == '\\') s->p += s->p[1] ? 2 : 1;
    else if (*s->p == '[') {   /* to the closing ']': "[]a]" and "[^]a]" hold a ']', "[:alpha:]" classes */
        s->p++;
        if (*s->p == '^') s->p++;
        if (*s->p == ']') s->p++;
        while (*s->p && *s->p != ']') s->p += (s->p[0] == '[' && s->p[1] == ':' && strstr(s->p + 2, ":]")) ?
                                                  (size_t)(strstr(s->p + 2, ":]") - s->p) + 2 : 1;
        if (*s->p) s->p++;
    } else s->p++;
    return 1;
}

/* "{n}", "{n,}", "{n,m}" at s->p: the largest count (0: not a counted repeat). */
static long re_count(re_scan *s) {
    const char *q = s->p + 1;
    long n = 0, m = -1;
    if (*q < '0' || *q > '9') return 0;
    while (*q >= '0' && *q <= '9' && n <= RE_MAX_REPEAT) n = n * 10 + (*q++ - '0');
    if (*q == ',') {
        q++;
        if (*q >= '0' && *q <= '9') {
            m = 0;
            while (*q >= '0' && *q <= '9' && m <= RE_MAX_REPEAT) m = m * 10 + (*q++ - '0');
        }
    }
    if (*q != '}') return 0;
    s->p = q + 1;
    long c = m > n ? m : n;
    if (c > RE_MAX_REPEAT) s->why = "a repeat count above 1000 (Go's regexp limit: invalid repeat count)";
    return c ? c : 1;
}

/* A sequence of alternatives up to ')' or the end; its size with repeats expanded. */
static double re_seq(re_scan *s) {
    double total = 0;
    while (*s->p && *s->p != ')' && !s->why) {
        if (*s->p == '|') {
            s->p++;
            continue;
        }
        double a = re_atom(s);
        while (!s->why && (*s->p == '*' || *s->p == '+' || *s->p == '?' || *s->p == '{')) {
            if (*s->p != '{') s->p++;
            else {
                long c = re_count(s);
                if (c) a *= (double)c;
                else s->p++;   /* a literal '{' */
            }
        }
        total += a;
        if (total > RE_MAX_SIZE && !s->why) s->why = "more than 100,000 positions once its counted repeats are expanded";
    }
    return total;
}

/* NULL when regex `re` is within the bounds, else what is wrong. */
static const char *re_bounds(const char *re) {
    if (strlen(re) > RE_MAX_BYTES) return "longer than 4096 bytes";
    re_scan s = {.p = re};
    while (*s.p && !s.why) {
        re_seq(&s);
        if (*s.p == ')') s.p++;   /* an unmatched ')': regcomp says what is wrong */
    }
    return s.why;
}

/* `expander-priorities: {PRIORITY: [REGEX, ...]}` -- the data of the ConfigMap
 * cluster-autoscaler-priority-expander (expander/priority/priority.go). */
static int parse_priorities(const ynode *n, arena *a, autoscaler_spec *o, strbuf *err) {
    if (y_expect(n, YN_MAP, "expander-priorities", err)) return -1;
    o->priorities = ARENA_NEW(a, ca_priority, n->n ? n->n : 1);
    for (size_t i = 0; i < n->n; i++) {
        ca_priority *cp = &o->priorities[o->npriorities++];
        if (y_int(n->keys[i], "expander-priorities key", &cp->priority, err)) return -1;
        const ynode *l = n->vals[i];
        if (y_expect(l, YN_SEQ, "expander-priorities entry", err)) return -1;
        cp->regex = ARENA_NEW(a, const char *, l->n ? l->n : 1);
        for (size_t k = 0; k < l->n; k++) {
            if (y_str(l->vals[k], "expander-priorities regex", &cp->regex[k], err)) return -1;
            const char *why = re_bounds(cp->regex[k]);
            if (why) {
                yerr(err, l->vals[k], "expander-priorities: regex '%s': %s", cp->regex[k], why);
                return -1;
            }
            regex_t re;
            int rc = regcomp(&re, cp->regex[k], REG_EXTENDED | REG_NOSUB);
            if (rc) {
                char msg[128];
                regerror(rc, &re, msg, sizeof msg);
                yerr(err, l->vals[k], "expander-priorities: invalid regex '%s': %s", cp->regex[k], msg);
                return -1;
            }
            regfree(&re);
            cp->nregex++;
        }
    }
    return 0;
}

static int get_duration(const ynode *m, const char *key, sim_time *out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    if (!v) return 0;
    if (scenario_parse_duration(v, key, out, err)) return -1;
    return 0;
}

static int get_count(const ynode *m, const char *key, int64_t lo, int64_t *out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    if (!v) return 0;
    if (y_int(v, key, out, err)) return -1;
    if (*out < lo) {
        yerr(err, v, "%s: expected at least %lld, found %lld", key, (long long)lo, (long long)*out);
        return -1;
    }
    return 0;
}

static int get_ratio(const ynode *m, const char *key, double *out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    if (!v) return 0;
    if (y_double(v, key, out, err)) return -1;
    if (*out < 0 || *out > 1) {
        yerr(err, v, "%s: expected a fraction from 0 to 1, found %s", key, v->str);
        return -1;
    }
    return 0;
}

int autoscaler_spec_parse(const ynode *n, scenario *s, strbuf *err) {
    static const char *const keys[] = {
        "scan-interval", "max-node-provision-time", "scale-down-unneeded-time", "scale-down-delay-after-add",
        "scale-down-delay-after-delete", "scale-down-delay-after-failure", "initial-node-group-backoff-duration",
        "max-node-group-backoff-duration", "node-group-backoff-reset-timeout", "new-pod-scale-up-delay",
        "max-graceful-termination-sec", "scale-down-utilization-threshold", "scale-down-gpu-utilization-threshold",
        "scale-down-enabled", "max-nodes-per-scaleup", "max-scale-down-parallelism", "max-drain-parallelism",
        "scale-down-non-empty-candidates-count", "expendable-pods-priority-cutoff", "cores-total", "memory-total",
        "gpu-total", "expander", "expander-priorities", NULL};
    bool any = false;
    for (size_t i = 0; i < s->cluster.npools; i++) any |= s->cluster.pools[i].autoscaling != NULL;
    if (!any) {
        if (n) {
            yerr(err, n, "autoscaler: no node pool has autoscaling (add autoscaling: {min, max} to a node pool)");
            return -1;
        }
        return 0;
    }
    autoscaler_spec *o = ARENA_NEW(&s->a, autoscaler_spec, 1);
    autoscaler_spec_defaults(o);
    o->where = n;
    s->autoscaler = o;
    if (!n || y_is_null(n)) return 0;
    if (y_expect(n, YN_MAP, "autoscaler", err) || ymap_check_keys(n, keys, "autoscaler", err)) return -1;
    const ynode *v;
    if (get_duration(n, "scan-interval", &o->scan_interval, err) ||
        get_duration(n, "max-node-provision-time", &o->max_node_provision_time, err) ||
        get_duration(n, "scale-down-unneeded-time", &o->scale_down_unneeded_time, err) ||
        get_duration(n, "scale-down-delay-after-add", &o->scale_down_delay_after_add, err) ||
        get_duration(n, "scale-down-delay-after-delete", &o->scale_down_delay_after_delete, err) ||
        get_duration(n, "scale-down-delay-after-failure", &o->scale_down_delay_after_failure, err) ||
        get_duration(n, "initial-node-group-backoff-duration", &o->initial_backoff, err) ||
        get_duration(n, "max-node-group-backoff-duration", &o->max_backoff, err) ||
        get_duration(n, "node-group-backoff-reset-timeout", &o->backoff_reset, err) ||
        get_duration(n, "new-pod-scale-up-delay", &o->new_pod_scale_up_delay, err))
        return -1;
    if ((v = ymap_get(n, "scan-interval")) && o->scan_interval < SIM_SECONDS(1)) {
        yerr(err, v, "scan-interval: expected at least 1s");
        return -1;
    }
    if ((v = ymap_get(n, "max-node-group-backoff-duration")) && o->max_backoff < o->initial_backoff) {
        yerr(err, v, "max-node-group-backoff-duration: shorter than initial-node-group-backoff-duration");
        return -1;
    }
    int64_t secs = 600;
    if (get_count(n, "max-graceful-termination-sec", 0, &secs, err)) return -1;
    if (secs > 31536000) {   /* a year, the bound of a pod's terminationGracePeriodSeconds: x 1000 cannot overflow */
        yerr(err, ymap_get(n, "max-graceful-termination-sec"),
             "max-graceful-termination-sec: expected 0 to 31536000 (a year), found %lld", (long long)secs);
        return -1;
    }
    o->max_graceful_termination = SIM_SECONDS(secs);
    if (get_ratio(n, "scale-down-utilization-threshold", &o->utilization_threshold, err) ||
        get_ratio(n, "scale-down-gpu-utilization-threshold", &o->gpu_utilization_threshold, err))
        return -1;
    if ((v = ymap_get(n, "scale-down-enabled")) && y_bool(v, "scale-down-enabled", &o->scale_down_enabled, err))
        return -1;
    if (get_count(n, "max-nodes-per-scaleup", 1, &o->max_nodes_per_scaleup, err) ||
        get_count(n, "max-scale-down-parallelism", 1, &o->max_scale_down_parallelism, err) ||
        get_count(n, "max-drain-parallelism", 1, &o->max_drain_parallelism, err) ||
        get_count(n, "scale-down-non-empty-candidates-count", 0, &o->non_empty_candidates, err) ||
        get_count(n, "expendable-pods-priority-cutoff", INT32_MIN, &o->expendable_priority_cutoff, err))
        return -1;
    if ((v = ymap_get(n, "cores-total")) && parse_range(v, "cores-total", false, &o->cores_min, &o->cores_max, err))
        return -1;
    if ((v = ymap_get(n, "memory-total")) &&
        parse_range(v, "memory-total", false, &o->memory_min_gib, &o->memory_max_gib, err))
        return -1;
    if ((v = ymap_get(n, "gpu-total")) && parse_range(v, "gpu-total", true, &o->gpu_min, &o->gpu_max, err)) return -1;
    if ((v = ymap_get(n, "expander")) && parse_expanders(v, o, err)) return -1;
    if ((v = ymap_get(n, "expander-priorities")) && parse_priorities(v, &s->a, o, err)) return -1;
    for (size_t k = 0; k < o->nexpanders; k++)
        if (o->expanders[k] == EXP_PRIORITY && !o->npriorities) {
            yerr(err, ymap_get(n, "expander"), "expander: priority needs expander-priorities "
                 "(the ConfigMap cluster-autoscaler-priority-expander: {PRIORITY: [REGEX, ...]})");
            return -1;
        }
    return 0;
}
