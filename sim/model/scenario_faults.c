/*
 * scenario_faults.c -- the `faults:` section (scenario_faults.h): GPU and
 * node failure processes, planned maintenance, administrator
 * DeviceTaintRules and an events file. Every error names FILE:LINE:COL.
 */
#include "model/scenario_faults.h"

#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/k8s_decode_internal.h"
#include "util/csv.h"
#include "util/intern.h"

#define MS_PER_DAY 86400000.0

/* A pool name must be one of the cluster's node pools (when it lists pools). */
static int check_pool(const ynode *v, const scenario *s, const char *what, const char **out, strbuf *err) {
    if (y_str(v, what, out, err)) return -1;
    if (!s->cluster.npools) return 0;   /* a recorded inventory: node name prefixes, checked at run start */
    for (size_t i = 0; i < s->cluster.npools; i++)
        if (!strcmp(s->cluster.pools[i].name, *out)) return 0;
    yerr(err, v, "%s: no node pool named '%s' in cluster.nodePools", what, *out);
    return -1;
}

/* `ratePer<Unit>Day: X` or `mtbf: DURATION` -> events per unit per ms. */
static int parse_rate(const ynode *m, const char *rate_key, const char *what, double *out, strbuf *err) {
    const ynode *r = ymap_get(m, rate_key), *b = ymap_get(m, "mtbf");
    if (r && b) {
        yerr(err, b, "%s: give %s or mtbf, not both", what, rate_key);
        return -1;
    }
    if (!r && !b) {
        yerr(err, m, "%s: missing field '%s' (failures per day) or 'mtbf' (mean time between failures)", what, rate_key);
        return -1;
    }
    if (r) {
        double x;
        if (y_double(r, rate_key, &x, err)) return -1;
        if (!(x >= 0) || x > 1e6) {
            yerr(err, r, "%s: expected a rate from 0 to 1e6 per day", rate_key);
            return -1;
        }
        *out = x / MS_PER_DAY;
        return 0;
    }
    sim_time t;
    if (scenario_parse_duration(b, "mtbf", &t, err)) return -1;
    if (t <= 0) {
        yerr(err, b, "mtbf: expected a positive duration");
        return -1;
    }
    if (MS_PER_DAY / (double)t > 1e6) {   /* the rate's cap, however it is stated */
        yerr(err, b, "mtbf: expected at least 87ms (at most 1e6 failures per day, as %s), found %lldms", rate_key,
             (long long)t);
        return -1;
    }
    *out = 1.0 / (double)t;
    return 0;
}

static int parse_repair(const ynode *m, bool *has, duration_dist *d, strbuf *err) {
    const ynode *v = ymap_get(m, "repair");
    if (!v || y_is_null(v)) return 0;
    *has = true;
    return scenario_parse_duration_dist(v, d, err);
}

/* "fatal-xid" / "gpu-lost" / "nonfatal-xid"; -1 otherwise. */
static int gpu_kind_of(const char *s) {
    if (!strcmp(s, "fatal-xid")) return GPU_FAULT_FATAL_XID;
    if (!strcmp(s, "gpu-lost")) return GPU_FAULT_GPU_LOST;
    if (!strcmp(s, "nonfatal-xid")) return GPU_FAULT_NONFATAL_XID;
    return -1;
}

static int parse_gpu_failure(const ynode *m, scenario *s, gpu_failure_spec *g, strbuf *err) {
    static const char *const keys[] = {"name", "pool", "gpuModel", "ratePerGpuDay", "mtbf", "kind", "xid",
                                       "repair", "evictAfter", NULL};
    const ynode *v;
    if (y_expect(m, YN_MAP, "faults.gpuFailures[]", err) || ymap_check_keys(m, keys, "faults.gpuFailures[]", err))
        return -1;
    g->where = m;
    if ((v = ymap_get(m, "pool")) && check_pool(v, s, "faults.gpuFailures[].pool", &g->pool, err)) return -1;
    if ((v = ymap_get(m, "gpuModel")) && y_str(v, "gpuModel", &g->gpu_model, err)) return -1;
    if (parse_rate(m, "ratePerGpuDay", "faults.gpuFailures[]", &g->rate_per_gpu_ms, err)) return -1;
    g->kind = GPU_FAULT_FATAL_XID;
    if ((v = ymap_get(m, "kind"))) {
        const char *k;
        if (y_str(v, "kind", &k, err)) return -1;
        int kind = gpu_kind_of(k);
        if (kind < 0) {
            yerr(err, v, "kind: expected fatal-xid, gpu-lost or nonfatal-xid, found '%s'", k);
            return -1;
        }
        g->kind = (gpu_fault_kind)kind;
    }
    g->xid = g->kind == GPU_FAULT_NONFATAL_XID ? 13 : 79;
    if ((v = ymap_get(m, "xid"))) {
        int64_t x;
        if (y_int(v, "xid", &x, err)) return -1;
        if (x <= 0 || x > 100000) {
            yerr(err, v, "xid: expected an XID number from 1 to 100000");
            return -1;
        }
        g->xid = (int)x;
    }
    if (parse_repair(m, &g->has_repair, &g->repair, err)) return -1;
    if ((v = ymap_get(m, "evictAfter"))) {
        if (scenario_parse_duration(v, "evictAfter", &g->evict_after, err)) return -1;
        g->evict = true;
    }
    return 0;
}

static int parse_node_failure(const ynode *m, scenario *s, node_failure_spec *n, strbuf *err) {
    static const char *const keys[] = {"name", "pool", "ratePerNodeDay", "mtbf", "repair", NULL};
    const ynode *v;
    if (y_expect(m, YN_MAP, "faults.nodeFailures[]", err) || ymap_check_keys(m, keys, "faults.nodeFailures[]", err))
        return -1;
    n->where = m;
    if ((v = ymap_get(m, "pool")) && check_pool(v, s, "faults.nodeFailures[].pool", &n->pool, err)) return -1;
    if (parse_rate(m, "ratePerNodeDay", "faults.nodeFailures[]", &n->rate_per_node_ms, err)) return -1;
    return parse_repair(m, &n->has_repair, &n->repair, err);
}

static int parse_maintenance(const ynode *m, scenario *s, maintenance_spec *x, strbuf *err) {
    static const char *const keys[] = {"name", "pool", "nodes", "at", "duration", NULL};
    const ynode *v;
    if (y_expect(m, YN_MAP, "faults.maintenance[]", err) || ymap_check_keys(m, keys, "faults.maintenance[]", err))
        return -1;
    x->where = m;
    if (ymap_need(m, "pool", "faults.maintenance[]", &v, err) ||
        check_pool(v, s, "faults.maintenance[].pool", &x->pool, err))
        return -1;
    if (ymap_need(m, "nodes", "faults.maintenance[]", &v, err) || y_int(v, "nodes", &x->nodes, err)) return -1;
    int64_t have = -1;
    for (size_t i = 0; i < s->cluster.npools; i++)
        if (!strcmp(s->cluster.pools[i].name, x->pool)) have = s->cluster.pools[i].count;
    if (x->nodes < 1 || (have >= 0 && x->nodes > have)) {
        yerr(err, v, "nodes: expected 1 to the pool's %lld nodes, found %lld", (long long)have, (long long)x->nodes);
        return -1;
    }
    if (ymap_need(m, "at", "faults.maintenance[]", &v, err) || scenario_parse_duration(v, "at", &x->at, err)) return -1;
    if (ymap_need(m, "duration", "faults.maintenance[]", &v, err) ||
        scenario_parse_duration(v, "duration", &x->duration, err))
        return -1;
    return 0;
}

static int parse_rule_effect(const ynode *v, k8s_taint_effect *out, strbuf *err) {
    if (y_scalar_eq(v, "None")) *out = TAINT_NONE;
    else if (y_scalar_eq(v, "NoSchedule")) *out = TAINT_NO_SCHEDULE;
    else if (y_scalar_eq(v, "NoExecute")) *out = TAINT_NO_EXECUTE;
    else {
        /* KEP-5055: PreferNoSchedule is not allowed on devices */
        yerr(err, v, "taint.effect: expected None, NoSchedule or NoExecute (device taints have no PreferNoSchedule)");
        return -1;
    }
    return 0;
}

static int parse_rule(const ynode *m, taint_rule_spec *r, strbuf *err) {
    static const char *const keys[] = {"name", "at", "until", "selector", "taint", NULL};
    static const char *const skeys[] = {"driver", "pool", "device", NULL};
    static const char *const tkeys[] = {"key", "value", "effect", NULL};
    const ynode *v, *sel, *t;
    if (y_expect(m, YN_MAP, "faults.deviceTaintRules[]", err) ||
        ymap_check_keys(m, keys, "faults.deviceTaintRules[]", err))
        return -1;
    r->where = m;
    r->until = SIM_TIME_NEVER;
    if (ymap_need(m, "name", "faults.deviceTaintRules[]", &v, err) || y_str(v, "name", &r->name, err)) return -1;
    /* as the API server validates a DeviceTaintRule (kubernetes v1.36, pkg/apis/resource/validation/
     * validation.go: ValidateDeviceTaintRule's ObjectMeta name a DNS subdomain; validateDeviceTaint: the
     * key a qualified name (metav1validation.ValidateLabelName), the value a label value) */
    if (!k8s_is_dns_subdomain(r->name)) {
        yerr(err, v, "name: '%s' is not a valid DeviceTaintRule name (a DNS subdomain: at most 253 of a-z 0-9 - ., "
             "starting and ending with a letter or digit)", r->name);
        return -1;
    }
    if ((v = ymap_get(m, "at")) && scenario_parse_duration(v, "at", &r->at, err)) return -1;
    if ((v = ymap_get(m, "until"))) {
        if (scenario_parse_duration(v, "until", &r->until, err)) return -1;
        if (r->until <= r->at) {
            yerr(err, v, "until: expected a time after 'at'");
            return -1;
        }
    }
    /* 1.35+: only driver, pool and device select; a rule without a selector would
     * match every device in 1.37.0 (kubernetes#141620), so drasim asks for one */
    if (ymap_need(m, "selector", "faults.deviceTaintRules[]", &sel, err) || y_expect(sel, YN_MAP, "selector", err) ||
        ymap_check_keys(sel, skeys, "selector", err))
        return -1;
    if (sel->n == 0) {
        yerr(err, sel, "selector: give at least one of driver, pool, device (an empty selector matches every "
             "device in the cluster)");
        return -1;
    }
    if ((v = ymap_get(sel, "driver")) && y_str(v, "selector.driver", &r->driver, err)) return -1;
    if ((v = ymap_get(sel, "pool")) && y_str(v, "selector.pool", &r->pool, err)) return -1;
    if ((v = ymap_get(sel, "device")) && y_str(v, "selector.device", &r->device, err)) return -1;
    if (ymap_need(m, "taint", "faults.deviceTaintRules[]", &t, err) || y_expect(t, YN_MAP, "taint", err) ||
        ymap_check_keys(t, tkeys, "taint", err))
        return -1;
    if (ymap_need(t, "key", "taint", &v, err) || y_str(v, "taint.key", &r->taint.key, err)) return -1;
    if (!*r->taint.key) {
        yerr(err, v, "taint.key: expected a non-empty key");
        return -1;
    }
    if (!k8s_label_key_ok(r->taint.key)) {
        yerr(err, v, "taint.key: '%s' is not a valid taint key ([prefix/]name: a DNS-subdomain prefix, a name of at "
             "most 63 of A-Z a-z 0-9 . _ -, starting and ending with a letter or digit)", r->taint.key);
        return -1;
    }
    if ((v = ymap_get(t, "value")) && y_str(v, "taint.value", &r->taint.value, err)) return -1;
    if (v && !k8s_label_name_ok(r->taint.value, strlen(r->taint.value), true)) {
        yerr(err, v, "taint.value: '%s' is not a valid taint value (at most 63 of A-Z a-z 0-9 . _ -, starting and "
             "ending with a letter or digit)", r->taint.value);
        return -1;
    }
    if (ymap_need(t, "effect", "taint", &v, err) || parse_rule_effect(v, &r->taint.effect, err)) return -1;
    return 0;
}

/* Column (1-based) of field c of a CSV row as written (unquoted fields). */
static int csv_col_of(const csv_table *t, size_t row, int c) {
    int col = 1;
    for (int k = 0; k < c; k++) col += (int)strlen(csv_cell(t, row, k)) + 1;
    return col;
}

/* `events: FILE`: rows time,target,event (header required). */
static int parse_events(const ynode *v, scenario *s, fault_spec *f, strbuf *err) {
    const char *path;
    if (scenario_parse_path(v, "faults.events", &path, err)) return -1;
    csv_table t = {0};
    if (csv_load(path, &t, err)) {
        strbuf e = {0};
        sb_printf(&e, "%s", sb_str(err));
        yerr(err, v, "faults.events: %s", sb_str(&e));
        sb_free(&e);
        return -1;
    }
    int ct = csv_col(&t, "time"), cg = csv_col(&t, "target"), ce = csv_col(&t, "event");
    if (ct < 0 || cg < 0 || ce < 0) {
        sb_clear(err);
        sb_printf(err, "%s:1:1: expected the header time,target,event", path);
        csv_free(&t);
        return -1;
    }
    f->events = ARENA_NEW(&s->a, fault_event_spec, t.nrows ? t.nrows : 1);
    f->nevents = t.nrows;
    const char *file = intern(path);
    for (size_t r = 0; r < t.nrows; r++) {
        fault_event_spec *e = &f->events[r];
        int line = t.lines[r + 1];
        e->file = file;
        e->line = line;
        e->col = 1;
        const char *tm = csv_cell(&t, r, ct), *tg = csv_cell(&t, r, cg), *ev = csv_cell(&t, r, ce);
        if (parse_duration_text(tm, &e->t)) {
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: time: expected a duration since the start such as 90s or 2h, found '%s'", path,
                      line, csv_col_of(&t, r, ct), tm);
            goto fail;
        }
        int gcol = csv_col_of(&t, r, cg), ecol = csv_col_of(&t, r, ce);
        e->col = gcol;
        if (!strncmp(tg, "node/", 5) && tg[5]) {
            e->node = intern(tg + 5);
            e->gpu = -1;
            if (!strcmp(ev, "fail")) e->kind = FEV_NODE_FAIL;
            else if (!strcmp(ev, "repair")) e->kind = FEV_NODE_REPAIR;
            else if (!strcmp(ev, "drain")) e->kind = FEV_NODE_DRAIN;
            else if (!strcmp(ev, "uncordon")) e->kind = FEV_NODE_UNCORDON;
            else {
                sb_clear(err);
                sb_printf(err, "%s:%d:%d: event: a node's event is fail, repair, drain or uncordon, found '%s'", path,
                          line, ecol, ev);
                goto fail;
            }
        } else if (!strncmp(tg, "gpu/", 4)) {
            const char *slash = strrchr(tg + 4, '/');
            char *end = NULL;
            long idx = slash ? strtol(slash + 1, &end, 10) : -1;
            if (!slash || slash == tg + 4 || !end || *end || end == slash + 1 || idx < 0 || idx > 63) {
                sb_clear(err);
                sb_printf(err, "%s:%d:%d: target: expected gpu/NODE/INDEX (index 0 to 63), found '%s'", path, line,
                          gcol, tg);
                goto fail;
            }
            e->node = intern_n(tg + 4, (size_t)(slash - (tg + 4)));
            e->gpu = (int)idx;
            int kind = gpu_kind_of(ev);
            if (kind >= 0) {
                e->kind = FEV_GPU_FAIL;
                e->gpu_kind = (gpu_fault_kind)kind;
            } else if (!strcmp(ev, "repair")) {
                e->kind = FEV_GPU_REPAIR;
            } else {
                sb_clear(err);
                sb_printf(err, "%s:%d:%d: event: a GPU's event is fatal-xid, gpu-lost, nonfatal-xid or repair, "
                          "found '%s'", path, line, ecol, ev);
                goto fail;
            }
        } else {
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: target: expected node/NAME or gpu/NODE/INDEX, found '%s'", path, line, gcol, tg);
            goto fail;
        }
    }
    csv_free(&t);
    /* stable sort by time (insertion: files are short and mostly sorted) */
    for (size_t i = 1; i < f->nevents; i++) {
        fault_event_spec x = f->events[i];
        size_t j = i;
        for (; j > 0 && f->events[j - 1].t > x.t; j--) f->events[j] = f->events[j - 1];
        f->events[j] = x;
    }
    return 0;
fail:
    sb_cut_echoes(err, SB_ECHO_MAX);
    csv_free(&t);
    return -1;
}

/* The optional `name` of each entry of list `seq` (what: "faults.gpuFailures"): a
 * string, and no two entries alike (`--set faults.gpuFailures.NAME.x=...` picks an
 * entry by its name, so a second one would never be reached). */
static int check_entry_names(const ynode *seq, const char *what, strbuf *err) {
    for (size_t i = 0; i < seq->n; i++) {
        const ynode *v = ymap_get(seq->vals[i], "name");
        const char *name;
        if (!v) continue;
        if (y_str(v, "name", &name, err)) return -1;
        for (size_t j = 0; j < i; j++) {
            const ynode *w = ymap_get(seq->vals[j], "name");
            if (w && w->kind == YN_SCALAR && !strcmp(w->str, name)) {
                yerr(err, v, "name: a second entry of %s named '%s' (the first is at line %d)", what, name, w->line);
                return -1;
            }
        }
    }
    return 0;
}

int scenario_parse_faults(const ynode *n, scenario *s, strbuf *err) {
    static const char *const keys[] = {"gpuFailures", "nodeFailures", "maintenance", "deviceTaintRules", "events",
                                       NULL};
    if (y_is_null(n)) return 0;   /* `--set faults=null`: the same scenario without faults */
    if (y_expect(n, YN_MAP, "faults", err) || ymap_check_keys(n, keys, "faults", err)) return -1;
    fault_spec *f = ARENA_NEW(&s->a, fault_spec, 1);
    memset(f, 0, sizeof *f);
    f->where = n;
    const ynode *v;
    if (s->trace) {
        yerr(err, n, "faults: not supported with workload.trace (a trace replays its own history)");
        return -1;
    }
    if ((v = ymap_get(n, "gpuFailures"))) {
        if (y_expect(v, YN_SEQ, "faults.gpuFailures", err)) return -1;
        f->gpu = ARENA_NEW(&s->a, gpu_failure_spec, v->n ? v->n : 1);
        memset(f->gpu, 0, (v->n ? v->n : 1) * sizeof *f->gpu);
        f->ngpu = v->n;
        for (size_t i = 0; i < v->n; i++)
            if (parse_gpu_failure(v->vals[i], s, &f->gpu[i], err)) return -1;
        if (check_entry_names(v, "faults.gpuFailures", err)) return -1;
    }
    if ((v = ymap_get(n, "nodeFailures"))) {
        if (y_expect(v, YN_SEQ, "faults.nodeFailures", err)) return -1;
        f->node = ARENA_NEW(&s->a, node_failure_spec, v->n ? v->n : 1);
        memset(f->node, 0, (v->n ? v->n : 1) * sizeof *f->node);
        f->nnode = v->n;
        for (size_t i = 0; i < v->n; i++)
            if (parse_node_failure(v->vals[i], s, &f->node[i], err)) return -1;
        if (check_entry_names(v, "faults.nodeFailures", err)) return -1;
    }
    if ((v = ymap_get(n, "maintenance"))) {
        if (y_expect(v, YN_SEQ, "faults.maintenance", err)) return -1;
        f->maint = ARENA_NEW(&s->a, maintenance_spec, v->n ? v->n : 1);
        memset(f->maint, 0, (v->n ? v->n : 1) * sizeof *f->maint);
        f->nmaint = v->n;
        for (size_t i = 0; i < v->n; i++)
            if (parse_maintenance(v->vals[i], s, &f->maint[i], err)) return -1;
        if (check_entry_names(v, "faults.maintenance", err)) return -1;
    }
    if ((v = ymap_get(n, "deviceTaintRules"))) {
        if (y_expect(v, YN_SEQ, "faults.deviceTaintRules", err)) return -1;
        if (s->sched.mode != SCHED_MODE_DRA && v->n) {
            yerr(err, v, "faults.deviceTaintRules: DeviceTaintRules need scheduling.mode: dra");
            return -1;
        }
        f->rules = ARENA_NEW(&s->a, taint_rule_spec, v->n ? v->n : 1);
        memset(f->rules, 0, (v->n ? v->n : 1) * sizeof *f->rules);
        f->nrules = v->n;
        for (size_t i = 0; i < v->n; i++) {
            if (parse_rule(v->vals[i], &f->rules[i], err)) return -1;
            for (size_t j = 0; j < i; j++)
                if (f->rules[j].name == f->rules[i].name) {
                    yerr(err, ymap_get(v->vals[i], "name"), "name: a second DeviceTaintRule named '%s'",
                         f->rules[i].name);
                    return -1;
                }
        }
    }
    if ((v = ymap_get(n, "events")) && parse_events(v, s, f, err)) return -1;
    s->faults = f;
    return 0;
}
