/*
 * lua_view.c -- the cluster as a generator sees it, in both modes
 * (docs/LUA.md "Cluster state"): drasim.nodes{filters} (one table per node:
 * free CPU, memory, whole GPUs and, in DRA mode, free devices per
 * DeviceClass and the MIG devices that could still be carved),
 * drasim.free_devices{class=, selector=} (a CEL selector evaluated by the
 * allocator's CEL engine), drasim.free_gpus() in DRA mode, and
 * drasim.after_schedule(fn) (a callback after the scheduling pass of the
 * current instant, when pods submitted now have been placed).
 *
 * Everything is read-only: the DRA answers come from sched/dra/dra_free.c,
 * which asks the allocator without committing anything.
 */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "sched/dra/dra_free.h"
#include "sched/policies/gpushare.h"
#include "workload/lua_internal.h"

#define MAX_PER_QUERY 100000   /* devices one free_devices/nodes call lists per node and class */

static const char *node_label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

/* Node filters of drasim.nodes{...} / free_devices{...}. */
typedef struct view_filter {
    const char *name, *model;
    int sel;                   /* stack index of the `selector` label table, 0 = none */
    lua_Integer min_free_gpus;
    bool all;                  /* include unschedulable nodes */
} view_filter;

static const char *opt_string(lua_State *L, int t, const char *k, const char *fn) {
    int ty = lua_getfield(L, t, k);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    if (ty != LUA_TSTRING) luaL_error(L, "%s: %s: expected a string, found %s", fn, k, lua_typename(L, ty));
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);   /* the table keeps the string alive */
    return s;
}

/* Check the argument table's keys against `known` (NULL-terminated). */
static void check_keys(lua_State *L, int t, const char *const *known, const char *fn) {
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        bool ok = lua_type(L, -1) == LUA_TSTRING;
        for (int i = 0; ok && known[i]; i++)
            if (!strcmp(lua_tostring(L, -1), known[i])) goto next;
        {
            strbuf b = {0};
            for (int i = 0; known[i]; i++) sb_printf(&b, "%s%s", i ? ", " : "", known[i]);
            char msg[256];
            snprintf(msg, sizeof msg, "%s", sb_str(&b));
            sb_free(&b);
            luaL_error(L, "%s: unknown field '%s' (expected one of: %s)", fn,
                       lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1), msg);
        }
    next:;
    }
}

static void read_filter(lua_State *L, int t, view_filter *f, const char *fn) {
    memset(f, 0, sizeof *f);
    f->name = opt_string(L, t, "node", fn);
    f->model = opt_string(L, t, "model", fn);
    int ty = lua_getfield(L, t, "selector");
    if (ty == LUA_TTABLE) f->sel = lua_gettop(L);   /* stays on the stack */
    else if (ty != LUA_TNIL && strcmp(fn, "drasim.nodes") == 0)
        luaL_error(L, "%s: selector: expected a table of node labels {key = value}, found %s", fn, lua_typename(L, ty));
    else lua_pop(L, 1);
    if (f->sel) {
        lua_pushnil(L);
        while (lua_next(L, f->sel)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "%s: selector: expected string keys and values {key = value}", fn);
            lua_pop(L, 1);
        }
    }
    if (lua_getfield(L, t, "min_free_gpus") != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "%s: min_free_gpus: expected an integer", fn);
        f->min_free_gpus = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "unschedulable") != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) luaL_error(L, "%s: unschedulable: expected a boolean", fn);
        f->all = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
}

/* Whole GPUs free on node n (the GPU view, both modes). In device-plugin mode
 * a node whose GPUs are all MIG-partitioned (static MIG) offers no whole GPU,
 * whatever the view's bookkeeping says. */
static int free_whole_gpus(const scheduler *s, size_t n) {
    const gs_node *g = &s->gv.nodes[n];
    if (!s->dra) {
        static const char *const whole[] = {"nvidia.com/gpu", "nvidia.com/gpu.shared", "alibabacloud.com/gpu-milli"};
        bool any = false;
        for (int i = 0; i < 3 && !any; i++) {
            int r = sched_res_index(s, whole[i]);
            any = r >= 0 && s->alloc[n * s->nres + (size_t)r] > 0;
        }
        if (!any) return 0;
    }
    int k = 0;
    for (int i = 0; i < g->ngpu && i < GS_MAX_GPUS; i++) k += g->free[i] >= GS_MILLI;
    return k;
}

static bool node_passes(lua_State *L, const scheduler *s, size_t n, const view_filter *f) {
    const k8s_node *nd = &s->nodes[n];
    if (nd->unschedulable && !f->all) return false;
    if (f->name && strcmp(nd->meta.name, f->name)) return false;
    if (f->model) {
        const char *m = node_label(nd, "nvidia.com/gpu.product");
        if (!m || strcmp(m, f->model)) return false;
    }
    if (f->sel) {
        lua_pushnil(L);
        while (lua_next(L, f->sel)) {
            const char *v = node_label(nd, lua_tostring(L, -2));
            bool ok = v && !strcmp(v, lua_tostring(L, -1));
            lua_pop(L, 1);
            if (!ok) {
                lua_pop(L, 1);
                return false;
            }
        }
    }
    if (f->min_free_gpus > 0 && free_whole_gpus(s, n) < f->min_free_gpus) return false;
    return true;
}

/* Charge the allocator's search steps of a query (steps are the allocator's unit of work). */
static void charge_steps(lua_State *L, uint64_t steps) { luaw_charge_work(L, (int64_t)(steps > (1ULL << 40) ? 1ULL << 40 : steps)); }

/* ---- counting devices per class / MIG profile (DRA) ---- */

typedef struct count_ctx {
    lua_State *L;
    int mig;                   /* stack index of the mig table, 0 = none */
    int list;                  /* stack index of a device list, 0 = none */
    const char *node;
    lua_Integer n;
} count_ctx;

static const char *dev_attr_str(const k8s_device *dev, const char *id) {
    for (size_t i = 0; i < k8s_dev_nattrs(dev); i++) {
        const k8s_attribute *a = k8s_dev_attr(dev, i);
        if (a->id && !strcmp(a->id, id) && a->kind == ATTR_STRING) return a->s;
    }
    return NULL;
}

static void on_device(void *ctx, const k8s_device *dev, const char *driver, const char *pool, const char *name) {
    count_ctx *c = ctx;
    lua_State *L = c->L;
    const char *profile = dev_attr_str(dev, "profile");
    if (c->mig && profile) {
        lua_getfield(L, c->mig, profile);
        lua_Integer v = lua_tointeger(L, -1);
        lua_pop(L, 1);
        lua_pushinteger(L, v + 1);
        lua_setfield(L, c->mig, profile);
    }
    if (c->list) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, c->node);
        lua_setfield(L, -2, "node");
        lua_pushstring(L, driver);
        lua_setfield(L, -2, "driver");
        lua_pushstring(L, pool);
        lua_setfield(L, -2, "pool");
        lua_pushstring(L, name);
        lua_setfield(L, -2, "name");
        if (profile) {
            lua_pushstring(L, profile);
            lua_setfield(L, -2, "profile");
        }
        lua_rawseti(L, c->list, ++c->n);
    }
}

/* Free devices of class `cls` (selector may be NULL) on node n; raises a Lua error when the claim cannot be handled. */
static int count_free(lua_State *L, luaw *w, size_t n, const char *cls, const char *selector, count_ctx *c,
                      const char *fn) {
    dra_state *d = w->run->dra;
    uint64_t steps = 0;
    strbuf err = {0};
    int k = dra_free_devices(d, &w->run->sched.nodes[n], cls, selector, MAX_PER_QUERY, c ? on_device : NULL, c,
                             &steps, &err);
    if (k < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sb_str(&err));
        sb_free(&err);
        luaL_error(L, "%s: %s", fn, msg);
    }
    sb_free(&err);
    charge_steps(L, steps + 1);
    return k;
}

static bool dra_mode(const luaw *w) { return w->run && w->run->dra && w->run->sc->sched.mode == SCHED_MODE_DRA; }

/* drasim.nodes{...}: a list of the nodes that pass the filters, one table each. */
int luaw_nodes_list(lua_State *L) {
    static const char *const keys[] = {"node", "model", "selector", "min_free_gpus", "unschedulable", NULL};
    luaw *w = luaw_get(L);
    const char *fn = "drasim.nodes";
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    check_keys(L, 1, keys, fn);
    view_filter f;
    read_filter(L, 1, &f, fn);
    const scheduler *s = &w->run->sched;
    size_t R = s->nres;
    bool dra = dra_mode(w);
    luaw_charge_work(L, (int64_t)(s->nnodes * (R + 1)) + 1);
    lua_newtable(L);
    int out = lua_gettop(L);
    lua_Integer k = 0;
    for (size_t n = 0; n < s->nnodes; n++) {
        if (!node_passes(L, s, n, &f)) continue;
        const k8s_node *nd = &s->nodes[n];
        lua_createtable(L, 0, 10);
        lua_pushstring(L, nd->meta.name);
        lua_setfield(L, -2, "name");
        const char *m = node_label(nd, "nvidia.com/gpu.product");
        if (m) {
            lua_pushstring(L, m);
            lua_setfield(L, -2, "model");
        }
        lua_pushboolean(L, !nd->unschedulable);
        lua_setfield(L, -2, "schedulable");
        lua_pushnumber(L, (double)(s->alloc[n * R + RES_CPU] - s->used[n * R + RES_CPU]) / 1000.0);
        lua_setfield(L, -2, "cpu");
        lua_pushinteger(L, s->alloc[n * R + RES_MEMORY] - s->used[n * R + RES_MEMORY]);
        lua_setfield(L, -2, "memory");
        lua_pushinteger(L, free_whole_gpus(s, n));
        lua_setfield(L, -2, "gpus");
        lua_pushinteger(L, s->gv.nodes[n].ngpu);
        lua_setfield(L, -2, "gpus_total");
        lua_newtable(L);   /* resources: free units of every extended resource the node has */
        for (size_t r = RES_PODS + 1; r < R; r++) {
            if (s->alloc[n * R + r] <= 0) continue;
            lua_pushinteger(L, s->alloc[n * R + r] - s->used[n * R + r]);
            lua_setfield(L, -2, s->res_names[r]);
        }
        lua_setfield(L, -2, "resources");
        if (dra) {
            dra_state *d = w->run->dra;
            lua_newtable(L);   /* devices: free devices per DeviceClass */
            int devs = lua_gettop(L);
            lua_newtable(L);   /* mig: MIG devices per profile that could be carved (each alone) */
            int mig = lua_gettop(L);
            for (size_t c = 0; c < d->nclasses; c++) {
                count_ctx cc = {.L = L, .mig = mig};
                int free = count_free(L, w, n, d->classes[c]->meta.name, NULL, &cc, fn);
                if (!free) continue;
                lua_pushinteger(L, free);
                lua_setfield(L, devs, d->classes[c]->meta.name);
            }
            lua_setfield(L, -3, "mig");
            lua_setfield(L, -2, "devices");
        }
        lua_rawseti(L, out, ++k);
    }
    return 1;
}

/* drasim.free_devices{class=, selector=, node=, model=}: the number of free
 * devices and the list of them ({node=, driver=, pool=, name=, profile=}). */
static int api_free_devices(lua_State *L) {
    static const char *const keys[] = {"class", "selector", "node", "model", "min_free_gpus", NULL};
    luaw *w = luaw_get(L);
    const char *fn = "drasim.free_devices";
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "%s: expected a table such as {class = \"gpu.nvidia.com\", selector = \"...\"}, found %s",
                          fn, luaL_typename(L, 1));
    lua_settop(L, 1);
    check_keys(L, 1, keys, fn);
    if (!dra_mode(w)) return luaL_error(L, "%s: only in dra mode (this run is device-plugin: use drasim.nodes{} or "
                                           "drasim.free_gpus())", fn);
    const char *cls = opt_string(L, 1, "class", fn);
    if (!cls) return luaL_error(L, "%s: missing field 'class' (a DeviceClass name)", fn);
    if (!dra_has_class(w->run->dra, cls)) return luaL_error(L, "%s: class: no DeviceClass named '%s'", fn, cls);
    const char *selector = opt_string(L, 1, "selector", fn);
    if (selector) {   /* compiled first, for a clear message (the allocator compiles it again, cached) */
        const dra_state *d = w->run->dra;
        cel_options o = {.consumable_capacity = d->features.consumable_capacity,
                         .list_attributes = d->features.list_type_attributes, .device_env = true};
        strbuf why = {0};
        cel_program *p = cel_compile(selector, strlen(selector), &o, &why);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", why.len ? sb_str(&why) : "compilation failed");
        sb_free(&why);
        if (!p) return luaL_error(L, "%s: selector: CEL selector does not compile: %s", fn, msg);
        cel_program_free(p);
    }
    view_filter f;
    read_filter(L, 1, &f, fn);
    const scheduler *s = &w->run->sched;
    luaw_charge_work(L, (int64_t)s->nnodes + 1);
    lua_newtable(L);
    count_ctx cc = {.L = L, .list = lua_gettop(L)};
    for (size_t n = 0; n < s->nnodes; n++) {
        if (!node_passes(L, s, n, &f)) continue;
        cc.node = s->nodes[n].meta.name;
        count_free(L, w, n, cls, selector, &cc, fn);
    }
    lua_pushinteger(L, cc.n);
    lua_insert(L, -2);
    return 2;
}

/* free_gpus() in DRA mode: free devices per DeviceClass over the schedulable
 * nodes; free_gpus("model"): free whole GPUs per product (the GPU view). */
int luaw_free_gpus_dra(lua_State *L, bool by_model) {
    luaw *w = luaw_get(L);
    const scheduler *s = &w->run->sched;
    dra_state *d = w->run->dra;
    luaw_charge_work(L, (int64_t)s->nnodes + 1);
    lua_newtable(L);
    int out = lua_gettop(L);
    for (size_t n = 0; n < s->nnodes; n++) {
        if (s->nodes[n].unschedulable) continue;
        if (by_model) {
            const char *m = node_label(&s->nodes[n], "nvidia.com/gpu.product");
            if (!s->gv.nodes[n].ngpu) continue;
            lua_getfield(L, out, m ? m : "unknown");
            lua_Integer v = lua_tointeger(L, -1);
            lua_pop(L, 1);
            lua_pushinteger(L, v + free_whole_gpus(s, n));
            lua_setfield(L, out, m ? m : "unknown");
            continue;
        }
        for (size_t c = 0; c < d->nclasses; c++) {
            int k = count_free(L, w, n, d->classes[c]->meta.name, NULL, NULL, "drasim.free_gpus");
            lua_getfield(L, out, d->classes[c]->meta.name);
            lua_Integer v = lua_tointeger(L, -1);
            lua_pop(L, 1);
            lua_pushinteger(L, v + k);
            lua_setfield(L, out, d->classes[c]->meta.name);
        }
    }
    return 1;
}

/* drasim.after_schedule(fn): fn() once, after the scheduling pass of this instant. */
static int api_after_schedule(lua_State *L) {
    luaw *w = luaw_get(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaw_charge(L, w, LUAW_QUEUED_COST);
    lua_pushvalue(L, 1);
    luaw_after_pass_cb cb = {.fn_ref = luaL_ref(L, LUA_REGISTRYINDEX)};
    luaw_child_stream(L, w, 1, &cb.rng);   /* its own stream, like a timer's (lua_streams.c) */
    VEC_PUSH(w->after_pass, cb);
    return 0;
}

int luaw_run_after_pass(luaw *w, strbuf *err, const char *what) {
    lua_State *L = w->L;
    if (w->after_pass.len) {   /* callbacks these callbacks set run after the next pass (the next instant's) */
        luaw_after_pass_cb *cbs = w->after_pass.data;
        size_t n = w->after_pass.len;
        w->after_pass.data = NULL;
        w->after_pass.len = w->after_pass.cap = 0;
        int rc = 0;
        for (size_t i = 0; i < n; i++) {
            if (!rc) {
                lua_rawgeti(L, LUA_REGISTRYINDEX, cbs[i].fn_ref);
                rng outer = w->rng;
                w->rng = cbs[i].rng;
                rc = luaw_call(w, 0, 0, what, err);
                w->rng = outer;
            }
            luaL_unref(L, LUA_REGISTRYINDEX, cbs[i].fn_ref);
            luaw_charge(L, w, -LUAW_QUEUED_COST);
        }
        free(cbs);
        if (rc) return -1;
    }
    return 0;
}

void luaw_open_view(lua_State *L) {
    lua_pushcfunction(L, api_free_devices);
    lua_setfield(L, -2, "free_devices");
    lua_pushcfunction(L, api_after_schedule);
    lua_setfield(L, -2, "after_schedule");
}
