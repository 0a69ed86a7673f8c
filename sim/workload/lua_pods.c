/*
 * lua_pods.c -- drasim.submit / drasim.submit_gang: a Lua pod table becomes
 * a pod of the run.
 *
 * The table's demand (requests, nodeSelector, affinity, tolerations, gpu,
 * priority, group) is converted into a YAML tree and read by the scenario's
 * own pod-group parser, so a Lua pod accepts exactly what a pod group does
 * and gets the same checks. Pods with the same demand share one scheduler
 * class: a canonical text of the demand fields (map keys sorted) is the shape
 * key, interned in a Lua table, so thousands of pods with a few shapes make a
 * few classes and only a new shape pays for the tree and the parser.
 *
 * Re-entrancy: reading the pod table may run Lua code (an __index
 * metamethod), which may call drasim.submit again. So the fields are first
 * copied into a plain table (snapshot_pod) and everything after reads that
 * copy and the nested tables with raw accesses only: no Lua code runs while
 * the shared scratch state (w->buf, w->shape) is in use. (The sandbox has no
 * __gc finalizers, the other way Lua code could run in the middle.)
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kai.h"
#include "model/kueue.h"
#include "model/yaml_tree.h"
#include "util/huge_vec.h"
#include "workload/lua_internal.h"
#include "workload/lua_keytext.h"

static const char *const POD_FIELDS[] = {"name", "group", "at", "duration", "priority", "cpu", "memory",
                                         "requests", "nodeSelector", "affinity", "tolerations", "gpu", "on_start", "labels",
                                         "containers", "initContainers", "usage", "owner", "checkpoint",
                                         "terminationGracePeriodSeconds", "restartPolicy", "namespace", NULL};
/* The pod's demand and its lifecycle (owner, checkpoint, grace period: engine/sim_evict.h), read by
 * the pod-group parser; pods that differ in any of them are different classes. */
static const char *const DEMAND_FIELDS[] = {"priority", "nodeSelector", "affinity", "tolerations", "gpu",
                                            "containers", "initContainers", "usage", "owner", "checkpoint",
                                            "terminationGracePeriodSeconds", "restartPolicy", "namespace", NULL};
/* The labels a queue manager routes a pod by (its queue, KAI's priority): with `queues:` in the
 * scenario they are part of the pod's class, as a pod group's labels are (queue/kq_gate.c,
 * queue/kai_gate.c read them per class); without, labels never split classes. Sorted. */
static const char *const ROUTING_LABELS[] = {KAI_QUEUE_LABEL, KQ_QUEUE_LABEL, "priorityClassName", NULL};
/* Indexes into POD_FIELDS: bits of luaw.present. */
enum { F_NAME, F_GROUP, F_AT, F_DURATION, F_PRIORITY, F_CPU, F_MEMORY, F_REQUESTS, F_NODESELECTOR, F_AFFINITY,
       F_TOLERATIONS, F_GPU, F_ON_START, F_LABELS, F_CONTAINERS, F_INIT_CONTAINERS, F_USAGE, F_OWNER, F_CHECKPOINT,
       F_GRACE, F_RESTART, F_NAMESPACE };

/* The pod table's fields live in stack slots FBASE + f (check_fields fills
 * them from its one traversal of the table; snapshot_pod from its copy), so
 * reading a field costs a stack copy, not a string-keyed table lookup. The
 * table itself stays at index 1. */
enum { NFIELDS = F_NAMESPACE + 1, FBASE = 2 };

/* Push field f of the pod table (nil when it has none). */
static int pod_field(lua_State *L, int f) {
    lua_pushvalue(L, FBASE + f);
    return lua_type(L, -1);
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Convert the Lua value at idx into a YAML node in arena a. Tables with keys
 * 1..n are lists, other tables maps with string keys (sorted). */
static ynode *to_ynode(lua_State *L, int idx, arena *a, int depth, const char *what) {
    idx = lua_absindex(L, idx);
    if (depth > LUAW_MAX_DEPTH) luaL_error(L, "%s: nested too deeply", what);
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        return yb_strn(a, s, len);
    }
    case LUA_TBOOLEAN: return yb_bool(a, lua_toboolean(L, idx));
    case LUA_TNUMBER: {
        if (lua_isinteger(L, idx)) return yb_int(a, (int64_t)lua_tointeger(L, idx));
        double d = lua_tonumber(L, idx);
        if (!isfinite(d)) luaL_error(L, "%s: expected a finite number", what);
        char buf[40];
        if (d == floor(d) && fabs(d) < 9.0e15) snprintf(buf, sizeof buf, "%lld", (long long)d);
        else snprintf(buf, sizeof buf, "%.17g", d);
        return yb_raw(a, buf);
    }
    case LUA_TTABLE: break;
    default: luaL_error(L, "%s: unsupported value of type %s", what, luaL_typename(L, idx));
    }
    luaL_checkstack(L, 8, "nested too deeply");
    size_t n = 0, len = lua_rawlen(L, idx);
    bool strkeys = true, intkeys = true;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        n++;
        if (lua_type(L, -1) != LUA_TSTRING) strkeys = false;
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || (size_t)lua_tointeger(L, -1) > len) intkeys = false;
    }
    if (n > 0 && intkeys && n == len) {
        ynode *seq = yb_seq(a);
        for (size_t i = 1; i <= len; i++) {
            lua_rawgeti(L, idx, (lua_Integer)i);
            yb_push(a, seq, to_ynode(L, -1, a, depth + 1, what));
            lua_pop(L, 1);
        }
        return seq;
    }
    if (!strkeys) luaL_error(L, "%s: a table must be a list (keys 1..n) or a map with string keys", what);
    const char **keys = arena_alloc(a, (n ? n : 1) * sizeof *keys);
    size_t k = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        keys[k++] = arena_strndup(a, lua_tostring(L, -1), lua_rawlen(L, -1));
    }
    qsort(keys, n, sizeof *keys, cmp_cstr);
    ynode *map = yb_map(a);
    for (size_t i = 0; i < n; i++) {
        lua_pushstring(L, keys[i]);
        lua_rawget(L, idx);   /* raw: no metamethod runs in the middle (see the file comment) */
        yb_add(a, map, keys[i], to_ynode(L, -1, a, depth + 1, keys[i]));
        lua_pop(L, 1);
    }
    return map;
}

/* Check that the pod table at index 1 (the only value on the stack) only
 * has known fields, note which it has (w->present) and put their values in
 * the slots FBASE + f. Lua interns short strings, so a key spelling a field
 * name is the very string the fields table holds (built once, which keeps
 * them alive): the keys are compared by address, with no table lookup. */
static void check_fields(lua_State *L, luaw *w, const char *fn, const char *extra) {
    if (w->fields_ref == 0) {
        lua_newtable(L);
        for (int i = 0; POD_FIELDS[i]; i++) {   /* every name is short (< LUAI_MAXSHORTLEN = 40): interned */
            w->field_str[i] = lua_pushstring(L, POD_FIELDS[i]);
            lua_pushinteger(L, i + 1);
            lua_rawset(L, -3);
            uint8_t *e = &w->field_at[luaw_field_slot(w->field_str[i])];
            if (!*e) *e = (uint8_t)(i + 1);   /* a clash: the later name is found by the scan */
        }
        w->fields_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    luaL_checkstack(L, NFIELDS + 8, "drasim.submit");
    lua_settop(L, FBASE + NFIELDS - 1);   /* the slots: nil */
    int bad;
    const char *k = NULL;
    w->present = luaw_walk_fields(L, w, 1, FBASE, NFIELDS, extra, &bad, &k);
    if (bad == LUA_TSTRING)
        luaL_error(L, "%s: unknown field '%s' (expected one of: name, group, at, duration, priority, cpu, memory, "
                      "requests, nodeSelector, affinity, tolerations, gpu, on_start, labels, containers, initContainers, usage, "
                      "owner, checkpoint, terminationGracePeriodSeconds, restartPolicy, namespace%s%s)", fn, k, extra ? ", " : "",
                   extra ? extra : "");
    if (bad != LUA_TNONE) luaL_error(L, "%s: field names must be strings, found a %s key", fn, lua_typename(L, bad));
}

/* Replace the pod table at index 1 by a plain copy of its fields (POD_FIELDS
 * and `extra`), read with lua_getfield so __index metamethods still work:
 * the only place where this call runs Lua code (which may submit pods: w's
 * per-call state is set after it), and refill the slots from the copy. A
 * table without metatable runs no Lua code when read and is used as it is. */
static void snapshot_pod(lua_State *L, luaw *w, const char *extra) {
    if (!lua_getmetatable(L, 1)) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 8);
    int copy = lua_gettop(L);
    for (int i = 0; POD_FIELDS[i] || extra; i++) {
        const char *f = POD_FIELDS[i] ? POD_FIELDS[i] : extra;
        lua_getfield(L, 1, f);
        lua_setfield(L, copy, f);   /* a fresh table without metatable: raw */
        if (!POD_FIELDS[i]) break;
    }
    lua_replace(L, 1);
    for (int i = 0; i < NFIELDS; i++) {
        lua_pushstring(L, POD_FIELDS[i]);
        lua_rawget(L, 1);
        lua_replace(L, FBASE + i);
    }
    w->present = ~0u;   /* __index may supply any field */
}

/* Push field k of the table at idx (absolute) and return true, unless it is
 * nil or an empty table (then nothing is pushed). */
static bool get_set_field(lua_State *L, int idx, const char *k) {
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        if (lua_next(L, -2) == 0) {   /* empty: lua_next pushed nothing */
            lua_pop(L, 1);
            return false;
        }
        lua_pop(L, 2);
    }
    return true;
}

/* The pod-group tree of the demand in the table at idx (group name `group`). */
static ynode *demand_tree(lua_State *L, int idx, const char *group, bool routed, arena *a) {
    ynode *m = yb_map(a);
    yb_add(a, m, "name", yb_str(a, group));
    if (routed && lua_getfield(L, idx, "labels") == LUA_TTABLE) {   /* luaw_labels_of checked them */
        ynode *lab = NULL;
        for (int i = 0; ROUTING_LABELS[i]; i++) {
            if (lua_getfield(L, -1, ROUTING_LABELS[i]) == LUA_TSTRING) {
                if (!lab) lab = yb_map(a);
                yb_add(a, lab, ROUTING_LABELS[i], yb_str(a, lua_tostring(L, -1)));
            }
            lua_pop(L, 1);
        }
        if (lab) yb_add(a, m, "labels", lab);
    }
    lua_pop(L, routed ? 1 : 0);
    ynode *req = NULL;
    if (get_set_field(L, idx, "requests")) {
        if (!lua_istable(L, -1)) luaL_error(L, "requests: expected a table such as {cpu=\"4\", memory=\"16Gi\"}");
        req = to_ynode(L, -1, a, 1, "requests");
        lua_pop(L, 1);
        if (req->kind != YN_MAP) luaL_error(L, "requests: expected a map of resource names to quantities");
    }
    static const char *const shorthand[] = {"cpu", "memory"};
    for (int i = 0; i < 2; i++) {
        if (!get_set_field(L, idx, shorthand[i])) continue;
        if (!req) req = yb_map(a);
        if (ymap_get(req, shorthand[i])) luaL_error(L, "%s is given both as a field and in requests", shorthand[i]);
        yb_add(a, req, shorthand[i], to_ynode(L, -1, a, 1, shorthand[i]));
        lua_pop(L, 1);
    }
    if (req) {   /* keep the keys sorted so that the shape key is canonical */
        for (size_t i = 1; i < req->n; i++)
            for (size_t j = i; j > 0 && strcmp(req->keys[j - 1]->str, req->keys[j]->str) > 0; j--) {
                ynode *tk = req->keys[j], *tv = req->vals[j];
                req->keys[j] = req->keys[j - 1];
                req->vals[j] = req->vals[j - 1];
                req->keys[j - 1] = tk;
                req->vals[j - 1] = tv;
            }
        yb_add(a, m, "requests", req);
    }
    for (int i = 0; DEMAND_FIELDS[i]; i++) {
        if (!get_set_field(L, idx, DEMAND_FIELDS[i])) continue;
        yb_add(a, m, DEMAND_FIELDS[i], to_ynode(L, -1, a, 1, DEMAND_FIELDS[i]));
        lua_pop(L, 1);
    }
    return m;
}

/* Drop zero-amount resources (they are no demand and may name resources no node has). */
static void drop_zero(k8s_resource_amount *r, size_t *n) {
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (quantity_sign(&r[i].value) != 0) r[k++] = r[i];
    *n = k;
}

/* ---- shape keys: an injective text form of the demand fields, built straight
 * from the Lua values (no tree), so that a pod of a known shape costs a string
 * build and one table lookup. Validity follows the structure, so two tables
 * with one key are both valid or both not. ---- */

/* True when labels route pods to queues in this run (ROUTING_LABELS). */
static bool routed(const luaw *w) { return w->run && (w->run->sc->queues || w->run->sc->kai_queues); }

/* The shape key of the pod table (its slots): group + demand fields in a fixed order
 * (+ the routing labels when the run has queues). */
/* The demand fields of a shape, in the key's order (the shape cache walks the same). */
static const int SHAPE_FIELDS[] = {F_CPU, F_MEMORY, F_REQUESTS, F_PRIORITY, F_NODESELECTOR, F_AFFINITY, F_TOLERATIONS,
                                   F_GPU, F_CONTAINERS, F_INIT_CONTAINERS, F_USAGE, F_OWNER, F_CHECKPOINT, F_GRACE,
                                   F_RESTART, F_NAMESPACE, -1};

/* SHAPE_FIELDS as bits (made once). */
static uint32_t shape_mask(void) {
    static uint32_t mask;
    if (!mask)
        for (int i = 0; SHAPE_FIELDS[i] >= 0; i++) mask |= 1u << SHAPE_FIELDS[i];
    return mask;
}

static void shape_key(lua_State *L, luaw *w, const char *group, strbuf *b) {
    const int *fields = SHAPE_FIELDS;
    sb_clear(b);
    w->key_strs.len = 0;
    size_t glen = strlen(group);
    put_int(b, 0, (long long)glen, ':');
    kput(b, group, glen);
    for (int i = 0; fields[i] >= 0; i++) {
        if (!(w->present & (1u << fields[i]))) {   /* absent: key_value's nil, without a Lua call */
            kputc(b, '-');
            continue;
        }
        luaw_key_value(L, w, FBASE + fields[i], b, 1, POD_FIELDS[fields[i]]);
    }
    if (!routed(w) || !(w->present & (1u << F_LABELS))) return;
    kputc(b, 'L');
    pod_field(L, F_LABELS);
    for (int i = 0; ROUTING_LABELS[i]; i++) {
        lua_getfield(L, -1, ROUTING_LABELS[i]);
        luaw_key_value(L, w, -1, b, 1, "labels");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The demand in the table at idx as a pod group (tree and spec in arena a). */
static pod_group_spec *parse_shape(lua_State *L, int idx, const char *group, bool route, arena *a, strbuf *err,
                                   const char *fn) {
    ynode *tree = demand_tree(L, idx, group, route, a);
    yb_add(a, tree, "count", yb_int(a, 1));
    ynode *arr = yb_map(a), *times = yb_seq(a);
    yb_push(a, times, yb_raw(a, "0"));
    yb_add(a, arr, "times", times);
    yb_add(a, tree, "arrival", arr);
    yb_add(a, tree, "duration", yb_raw(a, "0"));
    pod_group_spec *g = ARENA_NEW(a, pod_group_spec, 1);
    if (scenario_parse_pod_group(tree, a, g, err)) luaL_error(L, "%s: %s", fn, sb_str(err));
    return g;
}

/* A claim naming a ComputeDomain's channel template (`resourceClaimTemplateName`)
 * gets the channel request, as in scenario files (model/scenario_cd.c). */
static void resolve_cd(lua_State *L, const scenario *sc, pod_group_spec *g, strbuf *err, const char *fn) {
    for (size_t k = 0; k < g->ndra_claims; k++)
        if (g->dra_claims[k].template_name) {
            if (!sc->ncds) luaL_error(L, "%s: gpu.dra claim '%s': resourceClaimTemplateName '%s': the scenario declares no "
                                         "workload.computeDomains", fn, g->dra_claims[k].name, g->dra_claims[k].template_name);
            sb_clear(err);
            if (scenario_resolve_group_cd_claims(sc, g, err)) {
                /* drop the FILE:LINE:COL of the generated tree: the error is the calling line's */
                const char *m = sb_str(err), *c = strstr(m, "gpu.dra claim");
                luaL_error(L, "%s: %s", fn, c ? c : m);
            }
            return;
        }
}

/* The class of the demand in the table at idx: found by shape key or made. */
static uint32_t class_of(lua_State *L, luaw *w, int idx, const char *fn) {
    /* a pod laid out as the last of its group: its class (lua_shape_cache.c; routed runs key labels too) */
    bool cached = !routed(w);
    if (cached) {
        uint32_t c = luaw_shape_cache_find(L, w, FBASE + F_GROUP, FBASE, SHAPE_FIELDS, w->present & shape_mask());
        if (c != UINT32_MAX) return c;
    }
    const char *group = "lua";
    if (pod_field(L, F_GROUP) != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0 || lua_rawlen(L, -1) > 253)
            luaL_error(L, "%s: group: expected a non-empty string of at most 253 characters", fn);
        group = lua_tostring(L, -1);
    }
    shape_key(L, w, group, &w->buf);
    uint64_t h = luaw_shape_hash(sb_str(&w->buf), w->buf.len);
    uint32_t known = luaw_shape_find(&w->shapes, h, sb_str(&w->buf), w->buf.len);
    if (known != UINT32_MAX) {   /* a known shape: no Lua string, no table lookup */
        lua_pop(L, 1);
        if (cached) luaw_shape_cache_add(L, w, FBASE + F_GROUP, FBASE, SHAPE_FIELDS, w->present & shape_mask(), known);
        return known;
    }
    /* A new shape: build its tree, complete it into a pod group and parse it, all in
     * the scratch arena w->shape first (a script retrying bad shapes under pcall
     * cannot grow C memory). */
    if (w->run->sched.nclasses >= (size_t)LUAW_MAX_CLASSES + w->run->sc->ngroups ||
        w->shape_attempts >= 2 * LUAW_MAX_CLASSES)   /* parsing interns strings: bound failed attempts too */
        luaL_error(L, "%s: more than %d distinct pod shapes (requests, selectors, tolerations, gpu, priority, "
                      "group): use fewer distinct values", fn, LUAW_MAX_CLASSES);
    w->shape_attempts++;
    if (pod_field(L, F_NAMESPACE) != LUA_TNIL && lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "%s: namespace: expected a string, found %s", fn, luaL_typename(L, -1));
    lua_pop(L, 1);
    /* its C work, charged: parsing the shape, and a class prepared on every node (Filter and Score columns) */
    luaw_charge_work(L, LUAW_SHAPE_WORK + 8 * (int64_t)w->run->sched.nnodes);
    arena_free(&w->shape);
    pod_group_spec *g = parse_shape(L, idx, group, routed(w), &w->shape, &w->buf, fn);
    if (scenario_check_namespace(g, &w->buf)) luaL_error(L, "%s: %s", fn, sb_str(&w->buf));
    resolve_cd(L, w->run->sc, g, &w->buf, fn);
    g->count = 0;
    drop_zero(g->requests, &g->nrequests);
    drop_zero(g->dp_resources, &g->ndp_resources);
    sched_mode mode = w->run->sc->sched.mode;
    if (mode == SCHED_MODE_DEVICE_PLUGIN && g->dra && !g->has_dp)
        luaL_error(L, "%s: the pod states its GPU demand only for DRA (gpu.dra); add gpu.devicePlugin to run it in "
                      "device-plugin mode", fn);
    if (mode == SCHED_MODE_DRA && g->has_dp && !g->dra)
        luaL_error(L, "%s: the pod states its GPU demand only for the device plugin (gpu.devicePlugin); add gpu.dra "
                      "to run it in dra mode", fn);
    for (size_t i = 0; i < g->nrequests + (mode == SCHED_MODE_DEVICE_PLUGIN ? g->ndp_resources : 0); i++) {
        const char *res = i < g->nrequests ? g->requests[i].name : g->dp_resources[i - g->nrequests].name;
        if (sched_res_index(&w->run->sched, res) < 0)
            luaL_error(L, "%s: no node of the cluster offers resource '%s' (such a pod could never run)", fn, res);
    }
    /* Valid: parse it again where it lives as long as the run (the class points
     * into it); one shared arena, not one 64 KiB block per shape. */
    arena_free(&w->shape);
    g = parse_shape(L, idx, group, routed(w), &w->a, &w->buf, fn);
    resolve_cd(L, w->run->sc, g, &w->buf, fn);
    g->count = 0;
    drop_zero(g->requests, &g->nrequests);
    drop_zero(g->dp_resources, &g->ndp_resources);
    int c = sim_add_class(w->run, g);
    if (c < 0) {
        const char *why = sb_str(&w->run->error);
        luaL_error(L, "%s: %s", fn, *why ? why : "the scheduler refused the pod's class");
    }
    w->keep_key_strs = true;
    shape_key(L, w, group, &w->buf);   /* w->buf held parser errors meanwhile */
    w->keep_key_strs = false;
    luaw_anchor_key_strs(L, w);        /* the key names them by address (lua_walk.c) */
    luaw_shape_add(&w->shapes, h, sb_str(&w->buf), w->buf.len, (uint32_t)c);
    lua_pop(L, 1);
    luaw_index_class(L, w, (uint32_t)c);
    if (cached) luaw_shape_cache_add(L, w, FBASE + F_GROUP, FBASE, SHAPE_FIELDS, w->present & shape_mask(), (uint32_t)c);
    return (uint32_t)c;
}

/* Record the name (base_name's text) as taken (error if it was; `free`:
 * base_name made it and found it free) under the next submission number
 * (*k); returns a copy that lives as long as the run. */
static const char *claim_name(lua_State *L, luaw *w, const char *fn, bool free, uint32_t *k, const char *name) {
    size_t len = strlen(name);   /* ~10 bytes: cheaper than carrying base_name's length through */
    if (!free && luaw_name_find(w, name, len) != UINT32_MAX) luaL_error(L, "%s: a pod named '%s' was already submitted", fn, name);
    if (!free) w->any_named = true;
    if (w->podref.len >= UINT32_MAX - 1) luaL_error(L, "%s: too many pods", fn);
    if (!w->max_pods) {   /* the scenario's cap on pods per run holds for a script's pods too */
        w->max_pods = scenario_max_pods();
        for (size_t i = 0; w->run && i < w->run->sc->ngroups; i++) w->max_pods -= w->run->sc->groups[i].count;
        if (w->max_pods <= 0) w->max_pods = -1;
    }
    if ((int64_t)w->podref.len >= w->max_pods)
        luaL_error(L, "%s: more than %I pods in the run (the scenario's pod groups and this script's pods; set "
                      "DRASIM_MAX_PODS to raise the limit)", fn, (lua_Integer)scenario_max_pods());
    *k = (uint32_t)w->podref.len;
    HUGE_VEC_PUSH(w->podref, LUAW_GONE);   /* set by enqueue */
    const char *copy = luaw_name_keep(w, name, len);
    luaw_name_add(w, copy, *k);
    return copy;
}

/* The automatic-name counter of class c's group ("<group>-<n>"): a class has
 * one group (the shape key begins with it), so the class finds its counter's
 * slot without hashing the group's name per pod; the slot is looked up again
 * only when the counters' table grew (its slots moved). */
static luaw_counter *class_counter(lua_State *L, luaw *w, uint32_t c) {
    luaw_counters *t = &w->counters;
    if (c < w->class_counter.len && w->class_counter.data[c].cap == t->cap)
        return &t->slot[w->class_counter.data[c].slot];
    size_t glen = 3;
    const char *group = "lua";
    if (lua_type(L, FBASE + F_GROUP) == LUA_TSTRING) group = lua_tolstring(L, FBASE + F_GROUP, &glen);   /* class_of checked it */
    luaw_counter *e = luaw_group_counter(w, group, glen);
    while (w->class_counter.len <= c) VEC_PUSH(w->class_counter, ((luaw_class_counter){0, 0}));
    w->class_counter.data[c] = (luaw_class_counter){(uint32_t)(e - t->slot), t->cap};
    return e;
}

/* The pod (or gang) name: field `name` if given, else "<group>-<n>" with the
 * group's next free number. Written into buf (300 bytes) and pushed as a Lua
 * string, except a made-up one when `push` is false (nil is pushed: the
 * caller returns nothing, and a Lua string per pod costs its making and its
 * collection); true when it is such a free made-up name. */
static bool base_name(lua_State *L, luaw *w, uint32_t c, char *buf, const char *fn, bool push) {
    if (pod_field(L, F_NAME) != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0 || lua_rawlen(L, -1) > 253 ||
            strlen(lua_tostring(L, -1)) != lua_rawlen(L, -1))
            luaL_error(L, "%s: name: expected a non-empty string of at most 253 characters", fn);
        snprintf(buf, 300, "%s", lua_tostring(L, -1));
        return false;
    }
    lua_pop(L, 1);
    luaw_counter *e = class_counter(L, w, c);   /* luaw_name_find below does not move the counters */
    const char *group = w->counters.keys.s + e->off;
    size_t glen = e->len;
    int64_t n = e->n;
    for (;;) {   /* skip numbers the script used for names of its own */
        char num[24];
        int d = 0;
        unsigned long long u = (unsigned long long)n++;
        do num[d++] = (char)('0' + u % 10); while ((u /= 10) && d < 22);
        size_t len = glen < 253 ? glen : 253;
        memcpy(buf, group, len);
        buf[len++] = '-';
        while (d) buf[len++] = num[--d];
        buf[len] = 0;
        /* Made-up names never clash with each other ("<group>-<n>" splits at its last '-', and a
         * group's n only grows), so while every name taken was made up, none is looked up (a
         * random access into the names table per pod). */
        if (!w->any_named || luaw_name_find(w, buf, len) == UINT32_MAX) {
            if (push) lua_pushlstring(L, buf, len);
            else lua_pushnil(L);
            break;
        }
    }
    e->n = n;
    return true;
}

/* Arrival time and run time of the pod table (its slots). */
static void times_of(lua_State *L, luaw *w, const char *fn, sim_time *at, sim_time *dur) {
    sim_time now = luaw_now(w);
    *at = now;
    if (lua_type(L, FBASE + F_AT) != LUA_TNIL) {
        *at = luaw_check_duration(L, FBASE + F_AT, "submit: at");
        if (*at < now)
            luaL_error(L, "%s: at = %f s is in the past (now %f s)", fn, (double)*at / 1000.0, (double)now / 1000.0);
    }
    if (lua_type(L, FBASE + F_DURATION) == LUA_TNIL)
        luaL_error(L, "%s: missing field 'duration' (how long the pod runs once started)", fn);
    *dur = luaw_check_duration(L, FBASE + F_DURATION, "submit: duration");
}

static void enqueue(lua_State *L, luaw *w, uint32_t c, uint32_t k, sim_time at, sim_time dur, uint32_t labels) {
    luaw_charge(L, w, LUAW_QUEUED_COST);   /* refunded when the pod arrives */
    bool due_now = w->run && at == luaw_now(w);
    luaw_arrival a = {.cls = c, .duration = dur, .due_now = due_now, .labels = labels, .k = k};
    if (w->run) {
        if (due_now) {
            while (w->due.len <= c) VEC_PUSH(w->due, 0);
            w->due.data[c]++;
        }
        if (at >= w->run->sc->stop_time) w->after_stop++;   /* never arrives: warned about at the end */
    }
    luaw_arrival_queue(w, a, at);
}

/* The pod table's on_start = fn (checked before anything is submitted). */
static void check_on_start(lua_State *L, const char *fn) {
    int t = lua_type(L, FBASE + F_ON_START);
    if (t != LUA_TNIL && t != LUA_TFUNCTION) luaL_error(L, "%s: on_start: expected a function, found %s", fn, lua_typename(L, t));
}

/* Register the pod table's on_start for pod `name`. */
static void add_on_start(lua_State *L, luaw *w, const char *name) {
    if (lua_type(L, FBASE + F_ON_START) != LUA_TFUNCTION) return;
    pod_field(L, F_ON_START);
    w->any_start = true;
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->start_ref);
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, -3);
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 2);
}

/* ---- templates: `local t = drasim.template{...}` keeps a pod table's fields
 * (a private deep copy: changing the tables it was made from changes nothing),
 * and `drasim.submit(t, {at=, duration=, name=, on_start=})` submits a pod of
 * them with the per-pod fields given. The template's class and label set are
 * found (or made) at its first pod, as drasim.submit{...} would, and kept, so
 * a further pod costs no shape key: only its own small table. ---- */

typedef struct pod_template {
    uint32_t cls;      /* its pods' class, UINT32_MAX until its first pod */
    uint32_t labels;   /* their label set id (set with cls) */
} pod_template;

/* The fields a pod of a template may give itself: none of them is demand. */
#define PER_POD_FIELDS ((1u << F_NAME) | (1u << F_AT) | (1u << F_DURATION) | (1u << F_ON_START))

/* Push a copy of the value at idx: tables (their raw entries, metatables not
 * kept: a pod's nested tables are read raw anyway) copied all the way down. */
static void copy_value(lua_State *L, int idx, int depth, const char *what) {
    if (lua_type(L, idx) != LUA_TTABLE) {
        lua_pushvalue(L, idx);
        return;
    }
    if (depth > LUAW_MAX_DEPTH) luaL_error(L, "drasim.template: %s: nested too deeply", what);
    luaL_checkstack(L, 8, "nested too deeply");
    idx = lua_absindex(L, idx);
    lua_createtable(L, (int)lua_rawlen(L, idx), 0);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pushvalue(L, -2);
        copy_value(L, -2, depth + 1, what);
        lua_rawset(L, copy);
        lua_pop(L, 1);
    }
}

int luaw_template(lua_State *L) {
    luaw *w = luaw_get(L);
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "drasim.template: expected a pod table such as {cpu=\"4\", gpu=...}, found %s",
                          luaL_typename(L, 1));
    lua_settop(L, 1);
    check_fields(L, w, "drasim.template", NULL);
    snapshot_pod(L, w, NULL);
    lua_createtable(L, 0, 8);
    int copy = lua_gettop(L);
    for (int f = 0; f < NFIELDS; f++) {
        if (lua_type(L, FBASE + f) == LUA_TNIL) continue;
        copy_value(L, FBASE + f, 1, POD_FIELDS[f]);
        lua_setfield(L, copy, POD_FIELDS[f]);   /* a fresh table without metatable: raw */
    }
    pod_template *t = lua_newuserdatauv(L, sizeof *t, 1);
    t->cls = UINT32_MAX;
    t->labels = 0;
    lua_pushvalue(L, copy);
    lua_setiuservalue(L, -2, 1);
    if (luaL_newmetatable(L, "drasim.template")) {   /* __name: errors call it a drasim.template */
        lua_pushliteral(L, "drasim.template");   /* getmetatable(t) gives this, not the table */
        lua_setfield(L, -2, "__metatable");
        w->template_mt = lua_topointer(L, -1);   /* kept alive by the registry */
    }
    lua_setmetatable(L, -2);
    return 1;
}

/* The template at index 1, or NULL when it is something else. */
static pod_template *template_at(lua_State *L, const luaw *w) {
    if (!w->template_mt || lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1)) return NULL;
    bool is = lua_topointer(L, -1) == w->template_mt;
    lua_pop(L, 1);
    return is ? lua_touserdata(L, 1) : NULL;
}

/* drasim.submit(template, pod): stack [template, pod]. The slots are filled from
 * the template's copy (put at index 1, where luaw_submit has the pod table), then
 * from the pod's table, which may give only PER_POD_FIELDS. */
static int submit_template(lua_State *L, luaw *w, pod_template *t) {
    static const char fn[] = "drasim.submit";
    int pt = lua_type(L, 2);
    if (pt != LUA_TNONE && pt != LUA_TNIL && pt != LUA_TTABLE)
        return luaL_error(L, "%s: a pod of a template: expected a table such as {at=..., duration=...}, found %s", fn,
                          luaL_typename(L, 2));
    enum { TSLOT = FBASE + NFIELDS, PSLOT };   /* the template and the pod's table, above the slots */
    luaL_checkstack(L, NFIELDS + 10, fn);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);   /* the copy */
    lua_rotate(L, 1, 1);          /* copy, template, pod */
    lua_settop(L, PSLOT);
    lua_copy(L, 2, TSLOT);
    lua_copy(L, 3, PSLOT);
    lua_pushnil(L);
    lua_copy(L, -1, 2);
    lua_replace(L, 3);
    int bad;
    const char *k = NULL;
    uint32_t present = luaw_walk_fields(L, w, 1, FBASE, NFIELDS, NULL, &bad, &k);   /* checked when it was made */
    if (pt == LUA_TTABLE) {
        uint32_t own = luaw_walk_fields(L, w, PSLOT, FBASE, NFIELDS, NULL, &bad, &k);
        if (bad == LUA_TSTRING)
            luaL_error(L, "%s: unknown field '%s' (a pod of a template gives only: name, at, duration, on_start)", fn, k);
        if (bad != LUA_TNONE) luaL_error(L, "%s: field names must be strings, found a %s key", fn, lua_typename(L, bad));
        if (own & ~PER_POD_FIELDS)
            for (int f = 0; f < NFIELDS; f++)
                if (own & ~PER_POD_FIELDS & (1u << f))
                    luaL_error(L, "%s: field '%s' belongs to the template (a pod of a template gives only: name, at, "
                                  "duration, on_start)", fn, POD_FIELDS[f]);
        present |= own;
        if (lua_getmetatable(L, PSLOT)) {   /* __index may supply the per-pod fields (it may run Lua code) */
            lua_pop(L, 1);
            for (int f = 0; f < NFIELDS; f++) {
                if (!(PER_POD_FIELDS & (1u << f))) continue;
                if (lua_getfield(L, PSLOT, POD_FIELDS[f]) == LUA_TNIL) {
                    lua_pop(L, 1);
                    continue;
                }
                lua_replace(L, FBASE + f);
                present |= 1u << f;
            }
        }
    }
    w->present = present;
    sim_time at, dur;
    times_of(L, w, fn, &at, &dur);
    check_on_start(L, fn);
    if (t->cls == UINT32_MAX) {   /* its first pod: as drasim.submit{...} would */
        uint32_t labels = w->present & (1u << F_LABELS) ? luaw_labels_of(L, w, FBASE + F_LABELS, fn) : 0;
        t->cls = class_of(L, w, 1, fn);
        t->labels = labels;
    }
    char buf[300];
    bool wanted = luaw_results_wanted(L);
    bool made = base_name(L, w, t->cls, buf, fn, wanted);
    uint32_t k2;
    const char *name = claim_name(L, w, fn, made, &k2, buf);
    enqueue(L, w, t->cls, k2, at, dur, t->labels);
    add_on_start(L, w, name);
    return wanted ? 1 : 0;
}

int luaw_submit(lua_State *L) {
    luaw *w = luaw_get(L);
    pod_template *tmpl = template_at(L, w);
    if (tmpl) return submit_template(L, w, tmpl);
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "drasim.submit: expected a pod table such as {cpu=\"4\", duration=\"1h\"}, found %s",
                          luaL_typename(L, 1));
    lua_settop(L, 1);
    check_fields(L, w, "drasim.submit", NULL);
    snapshot_pod(L, w, NULL);
    sim_time at, dur;
    times_of(L, w, "drasim.submit", &at, &dur);
    check_on_start(L, "drasim.submit");
    uint32_t labels = w->present & (1u << F_LABELS) ? luaw_labels_of(L, w, FBASE + F_LABELS, "drasim.submit") : 0;
    uint32_t c = class_of(L, w, 1, "drasim.submit");
    char buf[300];
    bool wanted = luaw_results_wanted(L);   /* a statement `drasim.submit{...}` drops the name */
    bool made = base_name(L, w, c, buf, "drasim.submit", wanted);   /* the name: returned */
    uint32_t k;
    const char *name = claim_name(L, w, "drasim.submit", made, &k, buf);
    enqueue(L, w, c, k, at, dur, labels);
    add_on_start(L, w, name);
    return wanted ? 1 : 0;
}

/* submit_gang{size=n, name=..., ...}: n pods of the same demand at the same instant,
 * named NAME-0 .. NAME-(n-1); returns the list of names. */
int luaw_submit_gang(lua_State *L) {
    luaw *w = luaw_get(L);
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "drasim.submit_gang: expected a pod table with size=N, found %s", luaL_typename(L, 1));
    lua_settop(L, 1);
    check_fields(L, w, "drasim.submit_gang", "size");
    snapshot_pod(L, w, "size");
    if (lua_getfield(L, 1, "size") == LUA_TNIL) return luaL_error(L, "drasim.submit_gang: missing field 'size'");
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 100000)
        return luaL_error(L, "drasim.submit_gang: size: expected an integer from 1 to 100000");
    int size = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    sim_time at, dur;
    times_of(L, w, "drasim.submit_gang", &at, &dur);
    check_on_start(L, "drasim.submit_gang");
    uint32_t labels = w->present & (1u << F_LABELS) ? luaw_labels_of(L, w, FBASE + F_LABELS, "drasim.submit_gang") : 0;
    uint32_t c = class_of(L, w, 1, "drasim.submit_gang");
    char base[300], buf[320];
    base_name(L, w, c, base, "drasim.submit_gang", false);
    lua_pop(L, 1);
    lua_createtable(L, size, 0);
    for (int i = 0; i < size; i++) {
        snprintf(buf, sizeof buf, "%s-%d", base, i);
        uint32_t k;
        const char *name = claim_name(L, w, "drasim.submit_gang", false, &k, buf);
        enqueue(L, w, c, k, at, dur, labels);
        add_on_start(L, w, name);
        lua_pushstring(L, name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}
