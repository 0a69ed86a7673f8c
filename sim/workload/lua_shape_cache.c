/*
 * lua_shape_cache.c -- a pod table laid out like an earlier one has its
 * class without a shape key.
 *
 * drasim.submit{...} finds a pod's class by its shape key (lua_pods.c,
 * lua_walk.c): a canonical text of the demand, hashed and looked up. A
 * script builds every pod's tables with the same code, so its tables have
 * the same keys in the same nodes, the same sizes and mostly the same
 * values: the key's sorting, text and hash are then work done again. This
 * cache keeps, per group, the raw layout of the last pod table whose class
 * was found (its signature: for the group and each demand field, the value;
 * for a table its array and node sizes, then every slot, key and value, in
 * Lua's own order) and the class. A pod whose layout is equal word for word
 * has equal content, so the same shape key: the same class. Anything else
 * (another layout of the same content, a long string, a deeper nesting than
 * the key allows) is a miss and takes the shape key, which stays the one
 * definition of a class.
 *
 * Short strings are compared by address: the entry anchors its strings in
 * a Lua table (registry), so no address it holds can be reused by another
 * string. Reads Lua's structs as lua_walk.c does (the vendored 5.4.4).
 */
#include "lstate.h"
#include "lstring.h"
#include "ltable.h"

#include <lauxlib.h>
#include <string.h>

#include "workload/lua_internal.h"

/* Word tags, in the low 4 bits: a short string is its address (16-byte
 * aligned) | SIG_SHORT, an integer fitting 56 bits is (v << 8) | SIG_INT; a
 * table's word holds its array and node sizes. */
enum { SIG_NIL = 1, SIG_FALSE, SIG_TRUE, SIG_SHORT, SIG_INT, SIG_BIGINT, SIG_FLOAT, SIG_TABLE, SIG_EMPTY };

/* The one word of a scalar (nil, boolean, short string, small integer), or 0
 * when v needs more (a big integer, a float, a table) or cannot be cached. */
static inline uint64_t scalar_word(const TValue *v) {
    switch (ttypetag(v)) {
    case LUA_VNIL: case LUA_VEMPTY: case LUA_VABSTKEY: return SIG_NIL;
    case LUA_VFALSE: return SIG_FALSE;
    case LUA_VTRUE: return SIG_TRUE;
    case LUA_VSHRSTR: {
        uintptr_t a = (uintptr_t)tsvalue(v);
        return a & 15 ? 0 : (uint64_t)a | SIG_SHORT;
    }
    case LUA_VNUMINT: {
        lua_Integer i = ivalue(v);
        return i >= -((lua_Integer)1 << 55) && i < ((lua_Integer)1 << 55) ? (uint64_t)i << 8 | SIG_INT : 0;
    }
    default: return 0;
    }
}

/* A node's key word: a short string's or a small integer's (0: not cacheable). */
static inline uint64_t key_word(const Node *nd) {
    if (keytt(nd) == ctb(LUA_VSHRSTR)) {
        uintptr_t a = (uintptr_t)keystrval(nd);
        return a & 15 ? 0 : (uint64_t)a | SIG_SHORT;
    }
    if (keyisinteger(nd) && keyival(nd) >= -((lua_Integer)1 << 55) && keyival(nd) < ((lua_Integer)1 << 55))
        return (uint64_t)keyival(nd) << 8 | SIG_INT;
    return 0;
}

static inline uint64_t table_word(unsigned asize, size_t nsize) {
    return SIG_TABLE | (uint64_t)asize << 8 | (uint64_t)nsize << 36;
}

/* ---- find: compare the pod with the words, stopping at the first difference ---- */

typedef struct sig_cmp {
    const uint64_t *p, *end;
} sig_cmp;

#define EXPECT(c, x) do { if ((c)->p == (c)->end || *(c)->p++ != (x)) return false; } while (0)

/* The real size of t's array part: its limit, unless that is only a hint (luaH_realasize). */
static inline unsigned array_size(const Table *t) { return isrealasize(t) ? t->alimit : luaH_realasize(t); }

static bool cmp_table(sig_cmp *c, const Table *t, int depth);

/* A value that needs more than one word (or is a table); scalars are compared inline. */
static bool cmp_other(sig_cmp *c, const TValue *v, int depth) {
    if (ttisinteger(v)) {
        EXPECT(c, SIG_BIGINT);
        EXPECT(c, (uint64_t)ivalue(v));
        return true;
    }
    if (ttisfloat(v)) {
        uint64_t bits;
        lua_Number f = fltvalue(v);
        memcpy(&bits, &f, sizeof bits);
        EXPECT(c, SIG_FLOAT);
        EXPECT(c, bits);
        return true;
    }
    if (!ttistable(v) || depth > LUAW_MAX_DEPTH) return false;
    return cmp_table(c, hvalue(v), depth);
}

static inline bool cmp_value(sig_cmp *c, const TValue *v, int depth) {
    uint64_t x = scalar_word(v);
    if (x) {
        EXPECT(c, x);
        return true;
    }
    return cmp_other(c, v, depth);
}

static bool cmp_table(sig_cmp *c, const Table *t, int depth) {
    unsigned asize = array_size(t);
    size_t nsize = isdummy(t) ? 0 : sizenode(t);
    EXPECT(c, table_word(asize, nsize));
    for (unsigned i = 0; i < asize; i++)
        if (!cmp_value(c, &t->array[i], depth + 1)) return false;
    for (size_t i = 0; i < nsize; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) {
            EXPECT(c, SIG_EMPTY);
            continue;
        }
        uint64_t k = key_word(nd);
        if (!k) return false;
        EXPECT(c, k);
        if (!cmp_value(c, gval(nd), depth + 1)) return false;
    }
    return true;
}

/* ---- add: write the pod's words, anchoring the strings they name ---- */

typedef struct sig_add {
    luaw_shape_sig *e;
    lua_State *L;        /* the anchor table is at the top of its stack */
} sig_add;

static void anchor(sig_add *a, TString *ts) {
    lua_State *L = a->L;
    setsvalue2s(L, L->top, ts);
    L->top++;
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
}

/* false: not cacheable */
static bool add_value(sig_add *a, const TValue *v, int depth) {
    uint64_t x = scalar_word(v);
    if (x) {
        VEC_PUSH(a->e->words, x);
        if (ttisshrstring(v)) anchor(a, tsvalue(v));
        return true;
    }
    if (ttisinteger(v)) {
        VEC_PUSH(a->e->words, SIG_BIGINT);
        VEC_PUSH(a->e->words, (uint64_t)ivalue(v));
        return true;
    }
    if (ttisfloat(v)) {
        uint64_t bits;
        lua_Number f = fltvalue(v);
        memcpy(&bits, &f, sizeof bits);
        VEC_PUSH(a->e->words, SIG_FLOAT);
        VEC_PUSH(a->e->words, bits);
        return true;
    }
    if (!ttistable(v) || depth > LUAW_MAX_DEPTH) return false;   /* long strings, functions, ...: the shape key decides */
    const Table *t = hvalue(v);
    unsigned asize = array_size(t);
    size_t nsize = isdummy(t) ? 0 : sizenode(t);
    VEC_PUSH(a->e->words, table_word(asize, nsize));
    for (unsigned i = 0; i < asize; i++)
        if (!add_value(a, &t->array[i], depth + 1)) return false;
    for (size_t i = 0; i < nsize; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) {
            VEC_PUSH(a->e->words, SIG_EMPTY);
            continue;
        }
        uint64_t k = key_word(nd);
        if (!k) return false;
        VEC_PUSH(a->e->words, k);
        if (keytt(nd) == ctb(LUA_VSHRSTR)) anchor(a, keystrval(nd));
        if (!add_value(a, gval(nd), depth + 1)) return false;
    }
    return true;
}

static const TValue *slot_value(lua_State *L, int slot) { return s2v(L->ci->func + slot); }

/* The bits of `fields` (-1 ends): a field outside them is not part of the shape. */
static uint32_t fields_mask(const int *fields) {
    uint32_t m = 0;
    for (int i = 0; fields[i] >= 0; i++) m |= 1u << fields[i];
    return m;
}

/* The entry of the group in slot group_slot (by its string's address). */
static luaw_shape_sig *entry_of(lua_State *L, luaw *w, int group_slot) {
    const TValue *g = slot_value(L, group_slot);
    uint64_t h = ttisshrstring(g) ? (uint64_t)(uintptr_t)tsvalue(g) : 0;
    h *= 0x9e3779b97f4a7c15ULL;
    return &w->sig[h >> (64 - LUAW_SIG_BITS)];
}

uint32_t luaw_shape_cache_find(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present) {
    luaw_shape_sig *e = entry_of(L, w, group_slot);
    if (e->cls == UINT32_MAX || !e->words.len) return UINT32_MAX;
    if ((present & fields_mask(fields)) != e->present) return UINT32_MAX;   /* the same fields, or not */
    sig_cmp c = {e->words.data, e->words.data + e->words.len};
    if (!cmp_value(&c, slot_value(L, group_slot), 0)) return UINT32_MAX;
    for (int i = 0; fields[i] >= 0; i++)
        if ((e->present & (1u << fields[i])) && !cmp_value(&c, slot_value(L, fbase + fields[i]), 1)) return UINT32_MAX;
    return c.p == c.end ? e->cls : UINT32_MAX;
}

void luaw_shape_cache_add(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present,
                          uint32_t cls) {
    luaw_shape_sig *e = entry_of(L, w, group_slot);
    luaL_checkstack(L, 4, "drasim.submit");
    e->cls = UINT32_MAX;   /* empty until complete (the anchor's growth may raise a memory error) */
    e->words.len = 0;
    if (e->anchor_ref) luaL_unref(L, LUA_REGISTRYINDEX, e->anchor_ref);
    e->anchor_ref = 0;
    lua_newtable(L);   /* the anchor: its keys are the strings the words name */
    sig_add a = {e, L};
    e->present = present & fields_mask(fields);
    bool ok = add_value(&a, slot_value(L, group_slot), 0);
    for (int i = 0; ok && fields[i] >= 0; i++)
        if (e->present & (1u << fields[i])) ok = add_value(&a, slot_value(L, fbase + fields[i]), 1);
    if (!ok) {   /* not cacheable: the entry stays empty */
        e->words.len = 0;
        lua_pop(L, 1);
        return;
    }
    e->anchor_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    e->cls = cls;
}

void luaw_shape_cache_free(luaw *w) {
    for (size_t i = 0; i < (size_t)1 << LUAW_SIG_BITS; i++) VEC_FREE(w->sig[i].words);
}
