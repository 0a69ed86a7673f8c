/*
 * lua_faults.c -- the fault verbs of the Lua API (docs/LUA.md, docs/DYNAMICS.md):
 *   drasim.fail_gpu(node, index [, kind [, xid]])   kind: "fatal-xid" (default), "gpu-lost", "nonfatal-xid"
 *   drasim.repair_gpu(node, index)
 *   drasim.fail_node(node)      NotReady: unreachable taints, pods evicted after their toleration (300 s)
 *   drasim.repair_node(node)
 *   drasim.drain_node(node)     cordon and evict
 *   drasim.uncordon_node(node)
 *   drasim.add_device_taint_rule{name=, driver=, pool=, device=, key=, value=, effect=}
 *       -> the number of devices it taints (DRA mode; effect None, NoSchedule or NoExecute)
 *   drasim.remove_device_taint_rule(name) -> true, or false when there is no such rule
 * They act at drasim.now() through the same code as the scenario's `faults:`
 * (workload/faults.h). Nodes are named as in drasim.nodes().
 */
#include <string.h>

#include <lauxlib.h>

#include "workload/faults.h"
#include "workload/lua_internal.h"

static sim_run *run_of(lua_State *L, const char *verb) {
    luaw *w = luaw_get(L);
    if (!w->run) luaL_error(L, "%s: needs a simulation run", verb);
    return w->run;
}

static size_t node_arg(lua_State *L, sim_run *r, int i, const char *verb) {
    const char *name = luaL_checkstring(L, i);
    luaw_charge_work(L, (int64_t)r->nnodes / 16 + 1);
    int n = faults_node_index(r, name);
    if (n < 0) luaL_error(L, "%s: no node named '%s'", verb, name);
    return (size_t)n;
}

static int gpu_arg(lua_State *L, int i) {
    lua_Integer g = luaL_checkinteger(L, i);
    if (g < 0 || g > 63) luaL_error(L, "GPU index: expected 0 to 63, found %d", (int)g);
    return (int)g;
}

static int api_fail_gpu(lua_State *L) {
    sim_run *r = run_of(L, "drasim.fail_gpu");
    size_t node = node_arg(L, r, 1, "drasim.fail_gpu");
    int gpu = gpu_arg(L, 2);
    const char *k = luaL_optstring(L, 3, "fatal-xid");
    gpu_fault_kind kind;
    if (!strcmp(k, "fatal-xid")) kind = GPU_FAULT_FATAL_XID;
    else if (!strcmp(k, "gpu-lost")) kind = GPU_FAULT_GPU_LOST;
    else if (!strcmp(k, "nonfatal-xid")) kind = GPU_FAULT_NONFATAL_XID;
    else return luaL_error(L, "drasim.fail_gpu: kind: expected fatal-xid, gpu-lost or nonfatal-xid, found '%s'", k);
    lua_Integer xid = luaL_optinteger(L, 4, kind == GPU_FAULT_NONFATAL_XID ? 13 : 79);
    if (xid <= 0 || xid > 100000) return luaL_error(L, "drasim.fail_gpu: xid: expected 1 to 100000");
    strbuf err = {0};
    if (faults_gpu_fail(r, node, gpu, kind, (int)xid, r->sched.now, &err)) {
        lua_pushfstring(L, "drasim.fail_gpu: %s", sb_str(&err));
        sb_free(&err);
        return lua_error(L);
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int api_repair_gpu(lua_State *L) {
    sim_run *r = run_of(L, "drasim.repair_gpu");
    size_t node = node_arg(L, r, 1, "drasim.repair_gpu");
    int gpu = gpu_arg(L, 2);
    strbuf err = {0};
    if (faults_gpu_repair(r, node, gpu, r->sched.now, &err)) {
        lua_pushfstring(L, "drasim.repair_gpu: %s", sb_str(&err));
        sb_free(&err);
        return lua_error(L);
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* The node verbs share one shape: (node) -> true. */
#define NODE_VERB(fn, verb, call)                                      \
    static int fn(lua_State *L) {                                      \
        sim_run *r = run_of(L, verb);                                  \
        size_t node = node_arg(L, r, 1, verb);                         \
        if (call(r, node, r->sched.now)) return luaL_error(L, "%s: no fault state for the run", verb); \
        luaw_charge_work(L, 64);                                       \
        lua_pushboolean(L, 1);                                         \
        return 1;                                                      \
    }
NODE_VERB(api_fail_node, "drasim.fail_node", faults_node_fail)
NODE_VERB(api_repair_node, "drasim.repair_node", faults_node_repair)
NODE_VERB(api_drain_node, "drasim.drain_node", faults_node_drain)
NODE_VERB(api_uncordon_node, "drasim.uncordon_node", faults_node_uncordon)

static const char *opt_field(lua_State *L, const char *key) {
    lua_getfield(L, 1, key);
    const char *s = NULL;
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "drasim.add_device_taint_rule: %s: expected a string, found %s", key, luaL_typename(L, -1));
        s = lua_tostring(L, -1);
    }
    lua_pop(L, 1);   /* the string stays alive: interned by the callee before the next call */
    return s;
}

static int api_add_rule(lua_State *L) {
    sim_run *r = run_of(L, "drasim.add_device_taint_rule");
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *name = opt_field(L, "name"), *driver = opt_field(L, "driver"), *pool = opt_field(L, "pool");
    const char *device = opt_field(L, "device"), *key = opt_field(L, "key"), *value = opt_field(L, "value");
    const char *effect = opt_field(L, "effect");
    if (!name || !*name) return luaL_error(L, "drasim.add_device_taint_rule: name: required");
    if (!key || !*key) return luaL_error(L, "drasim.add_device_taint_rule: key: required");
    if (!driver && !pool && !device)
        return luaL_error(L, "drasim.add_device_taint_rule: give at least one of driver, pool, device "
                          "(an empty selector matches every device)");
    k8s_taint t = {.key = key, .value = value};
    if (!effect || !strcmp(effect, "NoExecute")) t.effect = TAINT_NO_EXECUTE;
    else if (!strcmp(effect, "NoSchedule")) t.effect = TAINT_NO_SCHEDULE;
    else if (!strcmp(effect, "None")) t.effect = TAINT_NONE;
    else return luaL_error(L, "drasim.add_device_taint_rule: effect: expected None, NoSchedule or NoExecute, found '%s'",
                           effect);
    luaw_charge_work(L, (int64_t)r->nnodes + 1);
    strbuf err = {0};
    int n = faults_rule_add(r, name, driver, pool, device, &t, r->sched.now, &err);
    if (n < 0) {
        lua_pushfstring(L, "drasim.add_device_taint_rule: %s", sb_str(&err));
        sb_free(&err);
        return lua_error(L);
    }
    lua_pushinteger(L, n);
    return 1;
}

static int api_remove_rule(lua_State *L) {
    sim_run *r = run_of(L, "drasim.remove_device_taint_rule");
    const char *name = luaL_checkstring(L, 1);
    luaw_charge_work(L, (int64_t)r->nnodes + 1);
    lua_pushboolean(L, faults_rule_remove(r, name, r->sched.now) == 0);
    return 1;
}

void luaw_open_faults(lua_State *L) {
    static const luaL_Reg fns[] = {
        {"fail_gpu", api_fail_gpu},       {"repair_gpu", api_repair_gpu},
        {"fail_node", api_fail_node},     {"repair_node", api_repair_node},
        {"drain_node", api_drain_node},   {"uncordon_node", api_uncordon_node},
        {"add_device_taint_rule", api_add_rule}, {"remove_device_taint_rule", api_remove_rule},
        {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
