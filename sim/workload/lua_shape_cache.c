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
 * Short strings are compared by address: every one an entry names stays
 * alive (anchored by the shape keys, and the group here), so no address it
 * holds can be reused by another string. Reads Lua's structs as lua_walk.c does (the vendored 5.4.4).
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

/* The two words of a big integer or a float into out; false for anything else. */
static inline bool wide_words(const TValue *v, uint64_t out[2]) {
    if (ttisinteger(v)) {
        out[0] = SIG_BIGINT;
        out[1] = (uint64_t)ivalue(v);
        return true;
    }
    if (ttisfloat(v)) {
        lua_Number f = fltvalue(v);
        out[0] = SIG_FLOAT;
        memcpy(&out[1], &f, sizeof f);
        return true;
    }
    return false;
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
    uint64_t two[2];
    if (wide_words(v, two)) {
        EXPECT(c, two[0]);
        EXPECT(c, two[1]);
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

/* ---- add: write the pod's words ---- */

/* false: not cacheable */
static bool add_value(luaw_shape_sig *e, const TValue *v, int depth) {
    uint64_t x = scalar_word(v), two[2];
    if (x) {
        VEC_PUSH(e->words, x);
        return true;
    }
    if (wide_words(v, two)) {
        VEC_PUSH(e->words, two[0]);
        VEC_PUSH(e->words, two[1]);
        return true;
    }
    if (!ttistable(v) || depth > LUAW_MAX_DEPTH) return false;   /* long strings, functions, ...: the shape key decides */
    const Table *t = hvalue(v);
    unsigned asize = array_size(t);
    size_t nsize = isdummy(t) ? 0 : sizenode(t);
    VEC_PUSH(e->words, table_word(asize, nsize));
    for (unsigned i = 0; i < asize; i++)
        if (!add_value(e, &t->array[i], depth + 1)) return false;
    for (size_t i = 0; i < nsize; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) {
            VEC_PUSH(e->words, SIG_EMPTY);
            continue;
        }
        uint64_t k = key_word(nd);
        if (!k) return false;
        VEC_PUSH(e->words, k);
        if (!add_value(e, gval(nd), depth + 1)) return false;
    }
    return true;
}

static const TValue *slot_value(lua_State *L, int slot) { return s2v(L->ci->func + slot); }

/* The bucket of the group in slot group_slot (by its string's address); its
 * LUAW_SIG_WAYS entries start at w->sig[bucket * LUAW_SIG_WAYS]. */
static size_t bucket_of(lua_State *L, int group_slot) {
    const TValue *g = slot_value(L, group_slot);
    uint64_t h = ttisshrstring(g) ? (uint64_t)(uintptr_t)tsvalue(g) : 0;
    h *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> (64 - LUAW_SIG_BITS));
}

uint32_t luaw_shape_cache_find(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present) {
    size_t bi = bucket_of(L, group_slot);
    const luaw_shape_sig *b = &w->sig[bi * LUAW_SIG_WAYS];
    uint32_t want = present;
    for (int j = 0; j < LUAW_SIG_WAYS; j++) {
        const luaw_shape_sig *e = &b[j];
        if (e->cls == UINT32_MAX || !e->words.len || e->present != want) continue;   /* empty, or other fields */
        sig_cmp c = {e->words.data, e->words.data + e->words.len};
        bool same = cmp_value(&c, slot_value(L, group_slot), 0);
        for (int i = 0; same && fields[i] >= 0; i++)
            if (e->present & (1u << fields[i])) same = cmp_value(&c, slot_value(L, fbase + fields[i]), 1);
        if (same && c.p == c.end) {
            w->sig_hits[bi]++;
            return e->cls;
        }
    }
    w->sig_misses[bi]++;
    return UINT32_MAX;
}

/* Its strings need no anchor of their own but the group's: the pod's class was
 * found by its shape key, which anchored every short string of the demand
 * fields when that shape was new (lua_walk.c; the same content is the same
 * string while one is alive); the key holds the group as text. */
void luaw_shape_cache_add(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present,
                          uint32_t cls) {
    size_t bi = bucket_of(L, group_slot);
    luaw_shape_sig *b = &w->sig[bi * LUAW_SIG_WAYS], *e = NULL;
    for (int j = 0; j < LUAW_SIG_WAYS && !e; j++)
        if (b[j].cls == UINT32_MAX || !b[j].words.len) e = &b[j];
    if (!e) {   /* all taken: round robin, while the group's layouts repeat enough to pay for it */
        if (w->sig_misses[bi] > 64 && w->sig_hits[bi] < w->sig_misses[bi] / 2) return;
        e = &b[w->sig_next++ % LUAW_SIG_WAYS];
    }
    bool anchored = false;   /* the group's string: anchored once, by the bucket's first entry of it */
    const TValue *g = slot_value(L, group_slot);
    uint64_t gw = scalar_word(g);
    for (int j = 0; j < LUAW_SIG_WAYS && !anchored; j++)
        anchored = &b[j] != e && b[j].cls != UINT32_MAX && b[j].words.len && b[j].words.data[0] == gw;
    e->cls = UINT32_MAX;   /* empty until complete */
    e->words.len = 0;
    e->present = present;
    bool ok = add_value(e, slot_value(L, group_slot), 0);
    for (int i = 0; ok && fields[i] >= 0; i++)
        if (e->present & (1u << fields[i])) ok = add_value(e, slot_value(L, fbase + fields[i]), 1);
    if (!ok) {   /* not cacheable: the entry stays empty */
        e->words.len = 0;
        return;
    }
    if (ttisshrstring(g) && !anchored) luaw_anchor_string(L, w, g);   /* at most one per class (LUAW_MAX_CLASSES) */
    e->cls = cls;
}

void luaw_shape_cache_free(luaw *w) {
    for (size_t i = 0; i < ((size_t)1 << LUAW_SIG_BITS) * LUAW_SIG_WAYS; i++) VEC_FREE(w->sig[i].words);
}

/* ---- label sets: a pod's `labels` table laid out like a recent one (the
 * same short-string keys and values in the same nodes) has that one's set.
 * An entry is made only for a set seen before (lua_labels.c), so a script
 * whose labels differ on every pod pays failed comparisons, not entries; an
 * entry anchors its strings in a table of its own, replaced with it. The
 * last LUAW_LSIG_N sets that came again are kept, replaced round robin. ---- */

/* The words of the labels table at stack index idx (absolute): per node a key
 * and a value word (short strings only), into out (at most LUAW_LSIG_MAX);
 * their count, or -1 when it cannot be cached. *h: their hash. */
static int label_words(lua_State *L, int idx, uint64_t *out, uint64_t *h) {
    const TValue *v = slot_value(L, idx);
    if (!ttistable(v)) return -1;
    const Table *t = hvalue(v);
    if (array_size(t) || isdummy(t)) return -1;
    size_t nsize = sizenode(t);
    if (2 * nsize > LUAW_LSIG_MAX) return -1;
    uint64_t x = 0x9e3779b97f4a7c15ULL ^ nsize;
    int n = 0;
    for (size_t i = 0; i < nsize; i++) {
        const Node *nd = gnode(t, i);
        uint64_t k = SIG_EMPTY, val = SIG_EMPTY;
        if (!isempty(gval(nd))) {
            if (keytt(nd) != ctb(LUA_VSHRSTR) || !ttisshrstring(gval(nd))) return -1;
            k = (uint64_t)(uintptr_t)keystrval(nd) | SIG_SHORT;
            val = (uint64_t)(uintptr_t)tsvalue(gval(nd)) | SIG_SHORT;
        }
        out[n++] = k;
        out[n++] = val;
        x = (x ^ k) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ val) * 0x94d049bb133111ebULL;
    }
    *h = x ^ (x >> 31);
    return n;
}

uint32_t luaw_labels_cache_find(lua_State *L, luaw *w, int idx, int *nlabels) {
    uint64_t words[LUAW_LSIG_MAX], h;
    int n = label_words(L, idx, words, &h);
    if (n < 0) return UINT32_MAX;
    for (int i = 0; i < LUAW_LSIG_N; i++) {   /* a few entries: all looked at, by hash first */
        const luaw_label_sig *e = &w->lsig[i];
        if (e->h == h && e->anchor_ref && e->n == n && !memcmp(e->words, words, (size_t)n * sizeof *words)) {
            *nlabels = e->nlabels;
            return e->id;
        }
    }
    return UINT32_MAX;
}

void luaw_labels_cache_add(lua_State *L, luaw *w, int idx, uint32_t id) {
    uint64_t words[LUAW_LSIG_MAX], h;
    int n = label_words(L, idx, words, &h);
    if (n < 0) return;
    luaw_label_sig *e = NULL;
    for (int i = 0; i < LUAW_LSIG_N && !e; i++)
        if (!w->lsig[i].anchor_ref) e = &w->lsig[i];
    if (!e) e = &w->lsig[w->lsig_next++ % LUAW_LSIG_N];   /* all taken: round robin */
    luaL_checkstack(L, 4, "drasim.submit");
    if (e->anchor_ref) luaL_unref(L, LUA_REGISTRYINDEX, e->anchor_ref);
    e->anchor_ref = 0;
    lua_newtable(L);   /* its strings, kept alive while the entry names them */
    const Table *t = hvalue(slot_value(L, idx));
    e->nlabels = 0;
    for (size_t i = 0, nsize = (size_t)sizenode(t); i < nsize; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) continue;
        e->nlabels++;
        setsvalue2s(L, L->top, keystrval(nd));
        L->top++;
        setobj2s(L, L->top, gval(nd));
        L->top++;
        lua_rawset(L, -3);   /* anchor[key] = value: both strings held */
    }
    memcpy(e->words, words, (size_t)n * sizeof *words);
    e->h = h;
    e->n = n;
    e->id = id;
    e->anchor_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}
