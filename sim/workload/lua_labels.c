/*
 * lua_labels.c -- `labels = {key = value}` of a Lua pod: checked with
 * Kubernetes' label syntax, interned as label sets (pods with equal labels
 * share one set, so a million labelled pods of a few kinds cost a few sets),
 * and written to the run's pod_labels when the pod arrives (docs/SCHEMA.md).
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

#define MAX_LABELS 64   /* per pod */

static int cmp_kv(const void *a, const void *b) { return strcmp(((const k8s_kv *)a)->key, ((const k8s_kv *)b)->key); }

uint32_t luaw_labels_of(lua_State *L, luaw *w, int idx, const char *fn) {
    int top = lua_gettop(L);
    int t = lua_getfield(L, idx, "labels");
    if (t == LUA_TNIL) {
        lua_settop(L, top);
        return 0;
    }
    if (t != LUA_TTABLE) luaL_error(L, "%s: labels: expected a table {key = \"value\"}, found %s", fn, lua_typename(L, t));
    int tab = lua_gettop(L);
    k8s_kv kv[MAX_LABELS];
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, tab)) {   /* raw traversal: no metamethod runs (lua_pods.c's file comment) */
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "%s: labels: keys must be strings, found a %s key", fn, luaL_typename(L, -2));
        const char *k = lua_tostring(L, -2);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "%s: labels: %s: expected a string value, found %s", fn, k, luaL_typename(L, -1));
        const char *v = lua_tostring(L, -1);
        if (n == MAX_LABELS) luaL_error(L, "%s: labels: more than %d labels", fn, MAX_LABELS);
        if (strlen(k) != lua_rawlen(L, -2) || !k8s_label_key_ok(k))
            luaL_error(L, "%s: labels: '%s' is not a valid label key ([prefix/]name, name at most 63 of A-Z a-z 0-9 . _ -)",
                       fn, k);
        if (strlen(v) != lua_rawlen(L, -1) || !k8s_label_name_ok(v, strlen(v), true))
            luaL_error(L, "%s: labels: %s: '%s' is not a valid label value (at most 63 of A-Z a-z 0-9 . _ -, starting "
                          "and ending with a letter or digit)", fn, k, v);
        kv[n++] = (k8s_kv){k, v};   /* kept alive by the table until the set is interned */
        lua_pop(L, 1);
    }
    if (!n) {
        lua_settop(L, top);
        return 0;
    }
    qsort(kv, n, sizeof *kv, cmp_kv);
    luaw_charge_work(L, (int64_t)n * 4);
    /* the set's key: "k\0v\0k\0v\0" in key order */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < n; i++) {
        luaL_addlstring(&b, kv[i].key, strlen(kv[i].key) + 1);
        luaL_addlstring(&b, kv[i].value, strlen(kv[i].value) + 1);
    }
    luaL_pushresult(&b);
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->labelsets_ref);
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        uint32_t id = (uint32_t)lua_tointeger(L, -1);
        lua_settop(L, top);
        return id;
    }
    lua_pop(L, 1);
    luaw_charge(L, w, (long)(n * sizeof(k8s_kv) + sizeof(luaw_labelset)));
    k8s_kv *own = arena_alloc(&w->a, n * sizeof *own);
    for (size_t i = 0; i < n; i++) own[i] = (k8s_kv){intern(kv[i].key), intern(kv[i].value)};
    luaw_labelset set = {own, n};
    VEC_PUSH(w->labelsets, set);
    lua_pushvalue(L, -2);
    lua_pushinteger(L, (lua_Integer)w->labelsets.len);
    lua_rawset(L, -3);
    lua_settop(L, top);
    return (uint32_t)w->labelsets.len;
}

void luaw_labels_arrived(luaw *w, uint32_t set, uint32_t pod) {
    if (!set || !w->run) return;
    const luaw_labelset *s = &w->labelsets.data[set - 1];
    for (size_t i = 0; i < s->n; i++) {
        sim_pod_label l = {pod, s->kv[i].key, s->kv[i].value};
        VEC_PUSH(w->run->pod_labels, l);
    }
}

void luaw_push_labels(lua_State *L, const luaw *w, uint32_t set) {
    const luaw_labelset *s = &w->labelsets.data[set - 1];
    lua_createtable(L, 0, (int)s->n);
    for (size_t i = 0; i < s->n; i++) {
        lua_pushstring(L, s->kv[i].value);
        lua_setfield(L, -2, s->kv[i].key);
    }
}
