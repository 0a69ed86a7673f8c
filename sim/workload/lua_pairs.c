/*
 * lua_pairs.c -- deterministic key order for the sandbox: pairs() and
 * drasim.sorted_keys().
 *
 * Lua seeds its string hashes per process, so the order of next() over
 * string keys changes from run to run. The sandbox's pairs() visits keys in a
 * fixed order instead: numbers by value, then strings bytewise, then false,
 * true; keys of other types (tables, functions as keys) follow in next()
 * order. A __pairs metamethod is honoured as in Lua.
 *
 * Cost: pairs(t) collects the keys and builds a binary heap (O(n)); each step
 * pops the smallest key (O(log n)). A loop that calls pairs() and breaks
 * after one step costs O(n) per call, a full traversal O(n log n); both are
 * charged to the callback's instruction budget, so neither can run for free.
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "workload/lua_internal.h"

/* Instructions charged per key collected: measured, collecting a key (next,
 * a copy into the key list, its sort record, the garbage) costs about as
 * much as 16 simple VM instructions. */
#define PAIRS_KEY_COST 16

typedef struct pkey {
    int rank;                         /* 0 number, 1 string, 2 boolean, 3 other */
    bool isint;
    lua_Integer i;                    /* integer keys, and booleans (0/1) */
    lua_Number num;                   /* float keys */
    const char *str;                  /* kept alive by the collected-keys table */
    size_t len;
    int slot;                         /* index in the collected-keys table (next() order) */
} pkey;

static int cmp_num(const pkey *a, const pkey *b) {
    if (a->isint && b->isint) return a->i < b->i ? -1 : a->i > b->i;
    if (!a->isint && !b->isint) return a->num < b->num ? -1 : a->num > b->num;
    /* Mixed: a float key is never integral within the integer range (Lua
     * normalises those to integers), so comparing as doubles can only tie at
     * +-2^63, where the float is the larger (or smaller) one. */
    lua_Number x = a->isint ? (lua_Number)a->i : a->num, y = b->isint ? (lua_Number)b->i : b->num;
    if (x != y) return x < y ? -1 : 1;
    lua_Number f = a->isint ? y : x;
    int int_first = f > 0 ? -1 : 1;   /* the integer is below +2^63, above -2^63 */
    return a->isint ? int_first : -int_first;
}

/* The sandbox's total order on keys. */
static int pkey_cmp(const void *pa, const void *pb) {
    const pkey *a = pa, *b = pb;
    if (a->rank != b->rank) return a->rank - b->rank;
    switch (a->rank) {
    case 0: return cmp_num(a, b);
    case 1: {
        int c = memcmp(a->str, b->str, a->len < b->len ? a->len : b->len);
        return c ? c : (a->len > b->len) - (a->len < b->len);
    }
    case 2: return (int)(a->i - b->i);
    default: return a->slot - b->slot;
    }
}

/* Describe the key at the top of the stack. */
static void pkey_read(lua_State *L, pkey *k, int slot) {
    memset(k, 0, sizeof *k);
    k->slot = slot;
    switch (lua_type(L, -1)) {
    case LUA_TNUMBER:
        k->rank = 0;
        k->isint = lua_isinteger(L, -1);
        if (k->isint) k->i = lua_tointeger(L, -1);
        else k->num = lua_tonumber(L, -1);
        break;
    case LUA_TSTRING: k->rank = 1; k->str = lua_tolstring(L, -1, &k->len); break;
    case LUA_TBOOLEAN: k->rank = 2; k->i = lua_toboolean(L, -1); break;
    default: k->rank = 3; break;
    }
}

static int64_t log2_ceil(size_t n) {
    int64_t l = 1;
    while (n > 1) {
        n >>= 1;
        l++;
    }
    return l;
}

/* Keys of the table at index 1 pushed as a list (index 2), in next() order; returns n. */
static size_t collect_keys(lua_State *L) {
    lua_newtable(L);
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, 2, (lua_Integer)++n);
    }
    return n;
}

/* ---- pairs ---- */

typedef struct pheap {
    size_t n;                         /* keys left in the heap */
    int64_t step_cost;                /* instructions charged per step */
    pkey k[];
} pheap;

static void heap_down(pheap *h, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->n && pkey_cmp(&h->k[l], &h->k[m]) < 0) m = l;
        if (l + 1 < h->n && pkey_cmp(&h->k[l + 1], &h->k[m]) < 0) m = l + 1;
        if (m == i) return;
        pkey t = h->k[i];
        h->k[i] = h->k[m];
        h->k[m] = t;
        i = m;
    }
}

/* Iterator: upvalues (collected keys, heap); state = the table. */
static int sorted_next(lua_State *L) {
    if (!lua_istable(L, 1))   /* f(5) with f from pairs() must not crash */
        return luaL_error(L, "pairs iterator: expected the table being traversed, found %s", luaL_typename(L, 1));
    pheap *h = lua_touserdata(L, lua_upvalueindex(2));
    while (h->n) {
        luaw_charge_work(L, h->step_cost);
        int slot = h->k[0].slot;
        h->k[0] = h->k[--h->n];
        heap_down(h, 0);
        lua_rawgeti(L, lua_upvalueindex(1), slot);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL) return 2;   /* key, value (raw, as next) */
        lua_pop(L, 2);                                /* removed while iterating: skip */
    }
    return 0;
}

int luaw_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    size_t n = collect_keys(L);                       /* 2 */
    luaw_charge_work(L, PAIRS_KEY_COST * (int64_t)n + 1);   /* collecting and heapifying */
    pheap *h = lua_newuserdatauv(L, sizeof *h + n * sizeof(pkey), 0);   /* 3, freed by the GC */
    h->n = n;
    h->step_cost = log2_ceil(n);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 2, (lua_Integer)i + 1);
        pkey_read(L, &h->k[i], (int)i + 1);
        lua_pop(L, 1);
    }
    for (size_t i = n / 2; i-- > 0;) heap_down(h, i);
    lua_pushcclosure(L, sorted_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* ---- drasim.sorted_keys ---- */

/* sorted_keys(t): the number and string keys of t in the pairs() order
 * (numbers first, then strings bytewise); other key types are an error. */
int luaw_sorted_keys(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    size_t n = collect_keys(L);
    luaw_charge_work(L, (int64_t)n * (log2_ceil(n) + PAIRS_KEY_COST));
    pkey *k = lua_newuserdatauv(L, (n ? n : 1) * sizeof *k, 0);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 2, (lua_Integer)i + 1);
        pkey_read(L, &k[i], (int)i + 1);
        if (k[i].rank > 1)
            return luaL_error(L, "drasim.sorted_keys: keys must be numbers or strings, found %s", luaL_typename(L, -1));
        lua_pop(L, 1);
    }
    qsort(k, n, sizeof *k, pkey_cmp);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 2, k[i].slot);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}
