/*
 * lua_labels.c -- `labels = {key = value}` of a Lua pod: checked with
 * Kubernetes' label syntax and interned as one of the run's label sets
 * (engine/sim_labels.h): pods with equal labels share one set, so a million
 * labelled pods of a few kinds cost a few sets and a set id per pod. A set
 * seen before is found by its canonical text in a C hash table (lua_shapes.c's
 * kind), so a pod of a known set costs one traversal of its table, a sort of
 * its keys and a hash: no Lua string, no interning, no syntax check (the set's
 * strings were checked when it was first seen). Written to the run's
 * label tables (view pod_labels, docs/SCHEMA.md).
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_labels.h"
#include "model/cluster.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

#define MAX_LABELS 64   /* per pod */

typedef struct lkv {   /* a label as Lua holds it (kept alive by the pod's table) */
    const char *k, *v;
    size_t kn, vn;
} lkv;

static int cmp_lkv(const void *a, const void *b) {
    const lkv *x = a, *y = b;
    int c = memcmp(x->k, y->k, x->kn < y->kn ? x->kn : y->kn);
    return c ? c : (x->kn > y->kn) - (x->kn < y->kn);
}

/* Check the labels of a set not seen before (Kubernetes' syntax). */
static void check_new(lua_State *L, const lkv *kv, size_t n, const char *fn) {
    for (size_t i = 0; i < n; i++) {
        if (!k8s_label_key_ok(kv[i].k))
            luaL_error(L, "%s: labels: '%s' is not a valid label key ([prefix/]name, name at most 63 of A-Z a-z 0-9 . _ -)",
                       fn, kv[i].k);
        if (!k8s_label_name_ok(kv[i].v, kv[i].vn, true))
            luaL_error(L, "%s: labels: %s: '%s' is not a valid label value (at most 63 of A-Z a-z 0-9 . _ -, starting "
                          "and ending with a letter or digit)", fn, kv[i].k, kv[i].v);
    }
}

uint32_t luaw_labels_of(lua_State *L, luaw *w, int idx, const char *fn) {
    int top = lua_gettop(L);
    lua_pushvalue(L, idx);
    int t = lua_type(L, -1);
    if (t == LUA_TNIL) {
        lua_settop(L, top);
        return 0;
    }
    if (t != LUA_TTABLE) luaL_error(L, "%s: labels: expected a table {key = \"value\"}, found %s", fn, lua_typename(L, t));
    int tab = lua_gettop(L);
    int nlabels;
    uint32_t cached = luaw_labels_cache_find(L, w, tab, &nlabels);   /* laid out as a recent pod's labels */
    if (cached != UINT32_MAX) {
        luaw_charge_work(L, (int64_t)nlabels * 4);   /* as below */
        lua_settop(L, top);
        return cached;
    }
    lkv kv[MAX_LABELS];
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, tab)) {   /* raw traversal: no metamethod runs (lua_pods.c's file comment) */
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "%s: labels: keys must be strings, found a %s key", fn, luaL_typename(L, -2));
        size_t kn, vn;
        const char *k = lua_tolstring(L, -2, &kn);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "%s: labels: %s: expected a string value, found %s", fn, k, luaL_typename(L, -1));
        const char *v = lua_tolstring(L, -1, &vn);
        if (n == MAX_LABELS) luaL_error(L, "%s: labels: more than %d labels", fn, MAX_LABELS);
        if (memchr(k, 0, kn))   /* the C checks below and the set's text stop at a NUL */
            luaL_error(L, "%s: labels: '%s' is not a valid label key ([prefix/]name, name at most 63 of A-Z a-z 0-9 . _ -)",
                       fn, k);
        if (memchr(v, 0, vn))
            luaL_error(L, "%s: labels: %s: '%s' is not a valid label value (at most 63 of A-Z a-z 0-9 . _ -, starting "
                          "and ending with a letter or digit)", fn, k, v);
        kv[n++] = (lkv){k, v, kn, vn};   /* kept alive by the table until the set is found or made */
        lua_pop(L, 1);
    }
    if (!n) {
        lua_settop(L, top);
        return 0;
    }
    for (size_t i = 1; i < n; i++)   /* a few keys: insertion sort */
        for (size_t j = i; j > 0 && cmp_lkv(&kv[j - 1], &kv[j]) > 0; j--) {
            lkv x = kv[j];
            kv[j] = kv[j - 1];
            kv[j - 1] = x;
        }
    luaw_charge_work(L, (int64_t)n * 4);
    /* the set's text: "k\0v\0k\0v\0" in key order (no NUL inside a key or value: checked above) */
    strbuf *b = &w->buf;
    sb_clear(b);
    size_t need = 0;
    for (size_t i = 0; i < n; i++) need += kv[i].kn + kv[i].vn + 2;
    if (need >= b->cap) {   /* the buffer grows */
        for (size_t i = 0; i < n; i++) {
            sb_append(b, kv[i].k, kv[i].kn + 1);
            sb_append(b, kv[i].v, kv[i].vn + 1);
        }
    } else {   /* in place: no call per piece (a set is looked up per pod) */
        for (size_t i = 0; i < n; i++) {
            memcpy(b->s + b->len, kv[i].k, kv[i].kn + 1);
            b->len += kv[i].kn + 1;
            memcpy(b->s + b->len, kv[i].v, kv[i].vn + 1);
            b->len += kv[i].vn + 1;
        }
        b->s[b->len] = 0;
    }
    uint64_t h = luaw_shape_hash(b->s, b->len);
    uint32_t id = luaw_shape_find(&w->labelsets, h, b->s, b->len);
    if (id != UINT32_MAX) {
        luaw_labels_cache_add(L, w, tab, id);   /* seen before: worth an entry */
        lua_settop(L, top);
        return id;
    }
    check_new(L, kv, n, fn);
    luaw_charge(L, w, (long)(b->len + n * sizeof(k8s_kv) + 32));
    k8s_kv own[MAX_LABELS];
    for (size_t i = 0; i < n; i++) own[i] = (k8s_kv){intern_n(kv[i].k, kv[i].kn), intern_n(kv[i].v, kv[i].vn)};
    id = sim_label_set_id(w->run, own, n);
    luaw_shape_add(&w->labelsets, h, b->s, b->len, id);
    lua_settop(L, top);
    return id;
}

void luaw_push_labels(lua_State *L, const luaw *w, uint32_t pod) {
    const k8s_kv *kv;
    size_t n = sim_pod_labels(w->run, pod, &kv);
    if (!n) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, 0, (int)n);   /* a fresh table: changing it changes no pod */
    for (size_t i = 0; i < n; i++) {
        lua_pushstring(L, kv[i].value);
        lua_setfield(L, -2, kv[i].key);
    }
}
