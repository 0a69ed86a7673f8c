/*
 * cluster_spec.c -- parse a scenario's `cluster:` section (node pools or a
 * recorded inventory) and its `scheduling.devicePlugin:` options.
 *
 *   cluster:
 *     nodePools:
 *     - name: h100            # node names are h100-0, h100-1, ...
 *       count: 4
 *       cpu: "96"             # Kubernetes quantities
 *       memory: 1Ti
 *       maxPods: 110          # optional, default 110
 *       labels: {topology.kubernetes.io/zone: a}
 *       taints: [{key: dedicated, value: ml, effect: NoSchedule}]
 *       gpu: {model: H100-80GB, count: 8, mig: none|static|dynamic, migLayout: all-balanced,
 *             driverVersion: 580.95.5, cudaDriverVersion: "13.0"}   # versions optional
 *       topology: {racks: 12, nodesPerRack: 18, racksPerBlock: 4}  # optional (model/topology_spec.h)
 *   or
 *     inventory: recorded.yaml   # relative to the scenario file; or a list of files
 *   and, for both, optionally
 *     kubernetesVersion: "1.36"  # 1.34 | 1.35 | 1.36
 *     draDriver: {version: v0.4, deviceOrder: driver|sorted, computeDomains: false,
 *                 imexHandover: 30s}   # engine/sim_cd.h
 */
#include <stdio.h>
#include <string.h>

#include "model/autoscaler_spec.h"
#include "model/cluster.h"
#include "model/trace_fleet.h"
#include "model/dra_driver.h"
#include "model/scenario.h"
#include "model/cost_spec.h"
#include "model/topology_spec.h"
#include "util/intern.h"

/* A Kubernetes quantity from a scalar (quoted or not); must be positive. */
static int get_quantity(const ynode *n, const char *what, quantity *q, strbuf *err) {
    if (!n || n->kind != YN_SCALAR || y_is_null(n)) {
        yerr(err, n, "%s: expected a Kubernetes quantity such as \"96\" or 1Ti, found %s", what, ykind_name(n));
        return -1;
    }
    const char *msg = NULL;
    if (quantity_parse(n->str, n->len, q, &msg)) {
        yerr(err, n, "%s: invalid quantity '%s': %s", what, n->str, msg ? msg : "cannot parse");
        return -1;
    }
    if (quantity_sign(q) <= 0) {
        yerr(err, n, "%s: must be greater than zero, found '%s'", what, n->str);
        return -1;
    }
    return 0;
}

/* Node names are "<pool>-<i>": the pool name must be a DNS label. */
static bool dns_label(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 50) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && i > 0 && i + 1 < n);
        if (!ok) return false;
    }
    return true;
}

/* A label value (or the name part of a key): at most 63 of [A-Za-z0-9._-],
 * starting and ending with a letter or digit; empty allowed for values. */
bool k8s_label_name_ok(const char *s, size_t n, bool allow_empty) {
    if (n == 0) return allow_empty;
    if (n > 63) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && ((i == 0 || i + 1 == n) || (c != '-' && c != '_' && c != '.'))) return false;
    }
    return true;
}

/* A qualified name "[prefix/]name" with a DNS-subdomain prefix, as label and taint keys. */
bool k8s_label_key_ok(const char *s) {
    const char *slash = strchr(s, '/');
    if (!slash) return k8s_label_name_ok(s, strlen(s), false);
    size_t pl = (size_t)(slash - s);
    if (pl == 0 || pl > 253) return false;
    for (size_t i = 0; i < pl; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || ((c == '-' || c == '.') && i > 0 && i + 1 < pl);
        if (!ok) return false;
    }
    return k8s_label_name_ok(slash + 1, strlen(slash + 1), false);
}

static int parse_labels(arena *a, const ynode *n, node_pool_spec *p, strbuf *err) {
    if (y_is_null(n)) return 0;
    if (y_expect(n, YN_MAP, "labels", err)) return -1;
    p->labels = ARENA_NEW(a, k8s_kv, n->n ? n->n : 1);
    for (size_t i = 0; i < n->n; i++) {
        k8s_kv *kv = &p->labels[p->nlabels];
        if (y_str(n->keys[i], "label key", &kv->key, err)) return -1;
        if (n->vals[i]->kind != YN_SCALAR) {
            yerr(err, n->vals[i], "label %s: expected a string value, found %s", kv->key, ykind_name(n->vals[i]));
            return -1;
        }
        if (y_str(n->vals[i], "label value", &kv->value, err)) return -1;
        if (!k8s_label_key_ok(kv->key)) {
            yerr(err, n->keys[i], "labels: '%s' is not a valid label key ([prefix/]name, name at most 63 of A-Z a-z 0-9 . _ -)",
                 kv->key);
            return -1;
        }
        if (!k8s_label_name_ok(kv->value, strlen(kv->value), true)) {
            yerr(err, n->vals[i], "labels: '%s' is not a valid label value (at most 63 of A-Z a-z 0-9 . _ -, "
                 "starting and ending with a letter or digit)", kv->value);
            return -1;
        }
        p->nlabels++;
    }
    return 0;
}

static int parse_effect(const ynode *n, k8s_taint_effect *out, strbuf *err) {
    if (y_scalar_eq(n, "NoSchedule")) *out = TAINT_NO_SCHEDULE;
    else if (y_scalar_eq(n, "PreferNoSchedule")) *out = TAINT_PREFER_NO_SCHEDULE;
    else if (y_scalar_eq(n, "NoExecute")) *out = TAINT_NO_EXECUTE;
    else {
        yerr(err, n, "taint effect: expected NoSchedule, PreferNoSchedule or NoExecute, found %s%s%s",
             n && n->kind == YN_SCALAR ? "'" : "", n && n->kind == YN_SCALAR ? n->str : ykind_name(n),
             n && n->kind == YN_SCALAR ? "'" : "");
        return -1;
    }
    return 0;
}

static int parse_taints(arena *a, const ynode *n, node_pool_spec *p, strbuf *err) {
    if (y_is_null(n)) return 0;
    if (y_expect(n, YN_SEQ, "taints", err)) return -1;
    p->taints = ARENA_NEW(a, k8s_taint, n->n ? n->n : 1);
    static const char *const keys[] = {"key", "value", "effect", NULL};
    for (size_t i = 0; i < n->n; i++) {
        const ynode *t = n->vals[i], *v;
        k8s_taint *tt = &p->taints[p->ntaints];
        if (ymap_check_keys(t, keys, "a taint", err)) return -1;
        if (ymap_need(t, "key", "a taint", &v, err) || y_str(v, "taint key", &tt->key, err)) return -1;
        if (!k8s_label_key_ok(tt->key)) {
            yerr(err, v, "taint key: '%s' is not a valid key ([prefix/]name)", tt->key);
            return -1;
        }
        if ((v = ymap_get(t, "value")) && !y_is_null(v)) {
            if (y_str(v, "taint value", &tt->value, err)) return -1;
            if (!k8s_label_name_ok(tt->value, strlen(tt->value), true)) {
                yerr(err, v, "taint value: '%s' is not a valid value (at most 63 of A-Z a-z 0-9 . _ -)", tt->value);
                return -1;
            }
        }
        if (ymap_need(t, "effect", "a taint", &v, err) || parse_effect(v, &tt->effect, err)) return -1;
        p->ntaints++;
    }
    return 0;
}

/* A driver or CUDA version as the driver publishes it: digits and dots. */
static int parse_version(const ynode *v, const char *what, int parts_min, const char **out, strbuf *err) {
    if (y_str(v, what, out, err)) return -1;
    int parts = 1;
    const char *s = *out;
    bool ok = *s >= '0' && *s <= '9';
    for (; *s && ok; s++) {
        if (*s == '.') {
            parts++;
            ok = s[1] >= '0' && s[1] <= '9';
        } else if (*s < '0' || *s > '9') {
            ok = false;
        }
    }
    if (!ok || parts < parts_min || parts > 3) {
        yerr(err, v, "%s: expected a version such as %s, found '%s'", what,
             parts_min == 3 ? "580.95.5" : "\"13.0\"", *out);
        return -1;
    }
    return 0;
}

static int parse_gpu(const ynode *n, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"model", "count", "mig", "migLayout", "driverVersion", "cudaDriverVersion",
                                       NULL};
    const ynode *v;
    int64_t cnt;
    if (ymap_check_keys(n, keys, "gpu", err)) return -1;
    if (ymap_need(n, "model", "gpu", &v, err) || y_str(v, "gpu.model", &p->gpu_model, err)) return -1;
    p->gpu_model_where = v;
    if (ymap_need(n, "count", "gpu", &v, err) || y_int(v, "gpu.count", &cnt, err)) return -1;
    if (cnt < 1 || cnt > 64) {
        yerr(err, v, "gpu.count: expected 1 to 64 GPUs per node, found %lld", (long long)cnt);
        return -1;
    }
    p->gpus = (int)cnt;
    p->mig = MIG_OFF;
    if ((v = ymap_get(n, "mig"))) {
        p->mig_where = v;
        if (y_scalar_eq(v, "none")) p->mig = MIG_OFF;
        else if (y_scalar_eq(v, "static")) p->mig = MIG_STATIC;
        else if (y_scalar_eq(v, "dynamic")) p->mig = MIG_DYNAMIC;
        else {
            yerr(err, v, "gpu.mig: expected none, static or dynamic, found %s%s%s", v->kind == YN_SCALAR ? "'" : "",
                 v->kind == YN_SCALAR ? v->str : ykind_name(v), v->kind == YN_SCALAR ? "'" : "");
            return -1;
        }
    }
    v = ymap_get(n, "migLayout");
    if (p->mig == MIG_STATIC) {
        if (!v) {
            yerr(err, n, "missing field 'migLayout' in gpu (required with mig: static, e.g. all-balanced)");
            return -1;
        }
        if (y_str(v, "gpu.migLayout", &p->mig_layout, err)) return -1;
        p->mig_layout_where = v;
    } else if (v) {
        yerr(err, v, "gpu.migLayout: only valid with mig: static");
        return -1;
    }
    if ((v = ymap_get(n, "driverVersion")) && parse_version(v, "gpu.driverVersion", 2, &p->driver_version, err))
        return -1;
    if ((v = ymap_get(n, "cudaDriverVersion")) &&
        parse_version(v, "gpu.cudaDriverVersion", 2, &p->cuda_driver_version, err))
        return -1;
    return 0;
}

static int parse_pool_dp(arena *a, const ynode *n, node_pool_spec *p, strbuf *err);

static int parse_pool(arena *a, const ynode *n, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"name", "count", "cpu", "memory", "maxPods", "labels", "taints", "gpu",
                                       "devicePlugin", "autoscaling", "topology", "price", "power", "spot", NULL};
    const ynode *v;
    int64_t i64;
    if (ymap_check_keys(n, keys, "a node pool", err)) return -1;
    p->where = n;
    if (ymap_need(n, "name", "a node pool", &v, err) || y_str(v, "name", &p->name, err)) return -1;
    if (!dns_label(p->name)) {
        yerr(err, v, "name: '%s' is not a valid node pool name (lower-case letters, digits and '-', at most 50)",
             p->name);
        return -1;
    }
    const ynode *topo = ymap_get(n, "topology");   /* racks x nodesPerRack may stand for count */
    if (!(topo && !ymap_get(n, "count"))) {
        if (ymap_need(n, "count", "a node pool", &v, err) || y_int(v, "count", &i64, err)) return -1;
        if (i64 < 0 || i64 > 1000000) {
            yerr(err, v, "count: expected 0 to 1000000 nodes, found %lld", (long long)i64);
            return -1;
        }
        p->count = (int)i64;
    }
    if (ymap_need(n, "cpu", "a node pool", &v, err) || get_quantity(v, "cpu", &p->cpu_quantity, err)) return -1;
    p->cpu_milli = quantity_milli_value(&p->cpu_quantity);
    if (ymap_need(n, "memory", "a node pool", &v, err) || get_quantity(v, "memory", &p->memory_quantity, err))
        return -1;
    p->memory_bytes = quantity_value(&p->memory_quantity);
    p->max_pods = 110;
    if ((v = ymap_get(n, "maxPods"))) {
        if (y_int(v, "maxPods", &p->max_pods, err)) return -1;
        if (p->max_pods < 1) {
            yerr(err, v, "maxPods: must be at least 1");
            return -1;
        }
    }
    if (parse_labels(a, ymap_get(n, "labels"), p, err)) return -1;
    if (parse_taints(a, ymap_get(n, "taints"), p, err)) return -1;
    if ((v = ymap_get(n, "gpu")) && !y_is_null(v) && parse_gpu(v, p, err)) return -1;
    if ((v = ymap_get(n, "devicePlugin")) && parse_pool_dp(a, v, p, err)) return -1;
    if ((v = ymap_get(n, "autoscaling")) && pool_autoscaling_parse(v, a, p, err)) return -1;
    if (topo && pool_topology_parse(topo, a, p, ymap_get(n, "count") != NULL, err)) return -1;
    if ((v = ymap_get(n, "price")) && pool_price_parse(v, a, p, err)) return -1;   /* issue 30 */
    if ((v = ymap_get(n, "power")) && pool_power_parse(v, a, p, err)) return -1;
    if ((v = ymap_get(n, "spot")) && pool_spot_parse(v, a, p, err)) return -1;
    return 0;
}

/* `draDriver: {version, deviceOrder, computeDomains, imexHandover}` */
static int parse_dra_driver(const ynode *n, dra_publish *pub, strbuf *err) {
    static const char *const keys[] = {"version", "deviceOrder", "computeDomains", "imexHandover", NULL};
    if (y_is_null(n)) return 0;
    if (ymap_check_keys(n, keys, "draDriver", err)) return -1;
    const ynode *v;
    if ((v = ymap_get(n, "version"))) {
        const char *s;
        if (y_str(v, "draDriver.version", &s, err)) return -1;
        if (dra_driver_parse(s, &pub->driver)) {
            yerr(err, v, "draDriver.version: expected one of %s, found '%s'", dra_driver_names(), s);
            return -1;
        }
    }
    if ((v = ymap_get(n, "deviceOrder"))) {
        if (y_scalar_eq(v, "sorted")) pub->sorted_devices = true;
        else if (y_scalar_eq(v, "driver")) pub->sorted_devices = false;
        else {
            yerr(err, v, "draDriver.deviceOrder: expected driver or sorted, found %s",
                 v->kind == YN_SCALAR ? v->str : ykind_name(v));
            return -1;
        }
    }
    if ((v = ymap_get(n, "computeDomains")) && y_bool(v, "draDriver.computeDomains", &pub->compute_domains, err))
        return -1;
    if ((v = ymap_get(n, "imexHandover"))) {   /* engine/sim_cd.h */
        if (scenario_parse_duration(v, "draDriver.imexHandover", &pub->imex_handover_ms, err)) return -1;
        pub->imex_handover_set = true;
    }
    return 0;
}

int k8s_version_parse(const char *s, int *minor) {
    if (!strcmp(s, "1.34")) *minor = 34;
    else if (!strcmp(s, "1.35")) *minor = 35;
    else if (!strcmp(s, "1.36")) *minor = 36;
    else if (!strcmp(s, "1.37")) *minor = 37;   /* gangs: the workload scheduling cycle (engine/sim_gang.c) */
    else return -1;
    return 0;
}

/* `inventory:` a file name or a non-empty list of them. */
static int parse_inventory(arena *a, const ynode *inv, cluster_spec *out, strbuf *err) {
    size_t n = inv->kind == YN_SEQ ? inv->n : 1;
    if (n == 0) {
        yerr(err, inv, "inventory: expected a file name or a list of file names");
        return -1;
    }
    out->inventory_files = ARENA_NEW(a, const char *, n);
    for (size_t i = 0; i < n; i++) {
        const ynode *f = inv->kind == YN_SEQ ? inv->vals[i] : inv;
        const char *path;
        if (y_str(f, "inventory", &path, err)) return -1;
        if (!*path) {
            yerr(err, f, "inventory: expected a file name");
            return -1;
        }
        out->inventory_files[i] = y_resolve_path(f, path);
    }
    out->ninventory_files = n;
    out->inventory_file = out->inventory_files[0];
    return 0;
}

int cluster_spec_parse(const ynode *cluster, arena *a, cluster_spec *out, strbuf *err) {
    static const char *const keys[] = {"nodePools", "inventory", "kubernetesVersion", "draDriver", "state", "power",
                                       "chargeback", "fleet", NULL};
    memset(out, 0, sizeof *out);
    out->publish.driver = DRA_DRIVER_NEWEST;
    out->publish.k8s_minor = 36;
    if (ymap_check_keys(cluster, keys, "cluster", err)) return -1;
    const ynode *kv = ymap_get(cluster, "kubernetesVersion");
    if (kv) {
        const char *s;
        if (y_str(kv, "kubernetesVersion", &s, err)) return -1;
        if (k8s_version_parse(s, &out->publish.k8s_minor)) {
            yerr(err, kv, "kubernetesVersion: expected 1.34, 1.35, 1.36 or 1.37, found '%s'", s);
            return -1;
        }
    }
    if (parse_dra_driver(ymap_get(cluster, "draDriver"), &out->publish, err)) return -1;
    const ynode *pw = ymap_get(cluster, "power"), *cb = ymap_get(cluster, "chargeback");   /* issue 30 */
    if ((pw && cluster_power_parse(pw, a, out, err)) || (cb && cluster_chargeback_parse(cb, out, err))) return -1;
    const ynode *pools = ymap_get(cluster, "nodePools"), *inv = ymap_get(cluster, "inventory");
    const ynode *fleet = ymap_get(cluster, "fleet");   /* issue 29: a trace's published cluster */
    if (fleet && (pools || inv)) {
        yerr(err, fleet, "cluster: give one of nodePools, inventory or fleet");
        return -1;
    }
    if (fleet && !(pools = trace_fleet_pools(fleet, a, err))) return -1;
    if (pools && inv) {
        yerr(err, inv, "cluster: give either nodePools or inventory, not both");
        return -1;
    }
    if (!pools && !inv) {
        yerr(err, cluster, "missing field 'nodePools' in cluster (or 'inventory' for a recorded inventory)");
        return -1;
    }
    if (inv) return parse_inventory(a, inv, out, err);
    if (y_expect(pools, YN_SEQ, "nodePools", err)) return -1;
    if (pools->n == 0) {
        yerr(err, pools, "nodePools: expected at least one node pool");
        return -1;
    }
    out->pools = ARENA_NEW(a, node_pool_spec, pools->n);
    for (size_t i = 0; i < pools->n; i++) {
        node_pool_spec *p = &out->pools[i];
        if (parse_pool(a, pools->vals[i], p, err)) return -1;
        for (size_t j = 0; j < i; j++)
            if (out->pools[j].name == p->name) {
                yerr(err, ymap_get(pools->vals[i], "name"), "duplicate node pool name '%s'", p->name);
                return -1;
            }
        out->npools++;
        if (p->mig == MIG_DYNAMIC && !dra_driver_has_dynamic_mig(out->publish.driver)) {
            yerr(err, p->mig_where, "gpu.mig: dynamic MIG needs driver v25.12 or later (draDriver.version is %s)",
                 dra_driver_name(out->publish.driver));
            return -1;
        }
    }
    return cost_spec_check(out, err);
}

/* `timeSlicing:` or `mps:` of a devicePlugin map (the NVIDIA device plugin's
 * config `sharing.timeSlicing` / `sharing.mps`, README of NVIDIA/k8s-device-plugin
 * v0.17: one replica count for nvidia.com/gpu, renameByDefault,
 * failRequestsGreaterThanOne; MPS replicas at most 48 (16 before Volta). */
static int parse_sharing_mode(const ynode *ts, const char *what, bool mps, device_plugin_opts *out, strbuf *err) {
    static const char *const ts_keys[] = {"replicas", "renameByDefault", "failRequestsGreaterThanOne", NULL};
    const ynode *v;
    char w[64];
    if (ymap_check_keys(ts, ts_keys, what, err)) return -1;
    int64_t r;
    snprintf(w, sizeof w, "%s.replicas", what);
    if (ymap_need(ts, "replicas", what, &v, err) || y_int(v, w, &r, err)) return -1;
    int64_t max = mps ? 48 : 1024;
    if (r < 1 || r > max) {
        yerr(err, v, "%s: expected 1 to %lld, found %lld", w, (long long)max, (long long)r);
        return -1;
    }
    out->time_slicing_replicas = (int)r;
    out->mps = mps;
    snprintf(w, sizeof w, "%s.renameByDefault", what);
    if ((v = ymap_get(ts, "renameByDefault")) && y_bool(v, w, &out->rename_by_default, err)) return -1;
    snprintf(w, sizeof w, "%s.failRequestsGreaterThanOne", what);
    if ((v = ymap_get(ts, "failRequestsGreaterThanOne")) && y_bool(v, w, &out->fail_requests_gt_one, err)) return -1;
    return 0;
}

/* The sharing part of a devicePlugin map: timeSlicing or mps, never both
 * (the device plugin refuses both). */
static int parse_dp_sharing(const ynode *n, device_plugin_opts *out, strbuf *err) {
    const ynode *ts = ymap_get(n, "timeSlicing"), *mps = ymap_get(n, "mps");
    if (ts && y_is_null(ts)) ts = NULL;
    if (mps && y_is_null(mps)) mps = NULL;
    if (ts && mps) {
        yerr(err, mps, "devicePlugin: time-slicing and MPS cannot be used together (give timeSlicing or mps)");
        return -1;
    }
    if (ts) return parse_sharing_mode(ts, "timeSlicing", false, out, err);
    if (mps) return parse_sharing_mode(mps, "mps", true, out, err);
    return 0;
}

int device_plugin_opts_parse(const ynode *n, device_plugin_opts *out, strbuf *err) {
    static const char *const keys[] = {"migStrategy", "timeSlicing", "mps", NULL};
    *out = (device_plugin_opts){MIG_STRATEGY_NONE, 1, false, false, false};
    if (y_is_null(n)) return 0;
    if (ymap_check_keys(n, keys, "devicePlugin", err)) return -1;
    const ynode *v = ymap_get(n, "migStrategy");
    if (v) {
        if (y_scalar_eq(v, "none")) out->mig_strategy = MIG_STRATEGY_NONE;
        else if (y_scalar_eq(v, "single")) out->mig_strategy = MIG_STRATEGY_SINGLE;
        else if (y_scalar_eq(v, "mixed")) out->mig_strategy = MIG_STRATEGY_MIXED;
        else {
            yerr(err, v, "migStrategy: expected none, single or mixed, found %s%s%s", v->kind == YN_SCALAR ? "'" : "",
                 v->kind == YN_SCALAR ? v->str : ykind_name(v), v->kind == YN_SCALAR ? "'" : "");
            return -1;
        }
    }
    return parse_dp_sharing(n, out, err);
}

/* A pool's `devicePlugin: {timeSlicing: {...}}` or `{mps: {...}}` (the plugin's
 * config map per node). MPS cannot be combined with MIG (NVDP README). */
static int parse_pool_dp(arena *a, const ynode *n, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"timeSlicing", "mps", NULL};
    if (y_expect(n, YN_MAP, "devicePlugin", err) || ymap_check_keys(n, keys, "a node pool's devicePlugin", err))
        return -1;
    device_plugin_opts *o = ARENA_NEW(a, device_plugin_opts, 1);
    *o = (device_plugin_opts){MIG_STRATEGY_NONE, 1, false, false, false};
    if (parse_dp_sharing(n, o, err)) return -1;
    if (o->mps && p->mig != MIG_OFF) {
        yerr(err, ymap_get(n, "mps"), "devicePlugin.mps: MPS cannot be combined with MIG (pool '%s' has gpu.mig)",
             p->name);
        return -1;
    }
    p->dp = o;
    return 0;
}

const device_plugin_opts *device_plugin_opts_for_pool(const device_plugin_opts *dp, const node_pool_spec *p,
                                                      device_plugin_opts *buf) {
    if (!dp || !p->dp) return dp;
    *buf = *dp;
    buf->time_slicing_replicas = p->dp->time_slicing_replicas;
    buf->rename_by_default = p->dp->rename_by_default;
    buf->mps = p->dp->mps;
    buf->fail_requests_gt_one = p->dp->fail_requests_gt_one;
    return buf;
}

int cluster_check_pool_sharing(const cluster_spec *c, const device_plugin_opts *dp, strbuf *err) {
    int reps[2] = {0, 0};   /* per name (nvidia.com/gpu, .shared): the replicas of the first pool */
    const node_pool_spec *first[2] = {NULL, NULL};
    for (size_t i = 0; i < c->npools; i++) {
        const node_pool_spec *p = &c->pools[i];
        if (!p->gpu_model) continue;
        device_plugin_opts buf;
        const device_plugin_opts *o = device_plugin_opts_for_pool(dp, p, &buf);
        int R = o->time_slicing_replicas > 1 ? o->time_slicing_replicas : 1;
        if (p->dp && p->mig == MIG_STATIC) {
            yerr(err, p->where, "node pool '%s': devicePlugin: a statically MIG-partitioned pool shares as "
                 "scheduling.devicePlugin says (drasim counts MIG replicas cluster-wide)", p->name);
            return -1;
        }
        if (p->mig == MIG_STATIC) continue;
        int k = R > 1 && o->rename_by_default;
        if (!first[k]) {
            first[k] = p;
            reps[k] = R;
        } else if (reps[k] != R) {
            yerr(err, p->where, "node pool '%s': its GPUs are %s with %d replicas, pool '%s' offers the same "
                 "resource with %d; pools that share differently must set renameByDefault (and agree on replicas): "
                 "drasim counts one GPU-equivalent per resource name", p->name,
                 k ? "nvidia.com/gpu.shared" : "nvidia.com/gpu", R, first[k]->name, reps[k]);
            return -1;
        }
    }
    return 0;
}
