/*
 * lua_walk.c -- drasim.submit's two walks over a pod table, read straight
 * from Lua's own structs (Table, Node, TValue: the internal headers of the
 * vendored Lua 5.4.4, third_party/lua): the pod table's fields, and the
 * shape key of its demand (lua_pods.c). Through the C API every entry cost
 * a lua_next (which looks the previous key up again to find the next one)
 * plus pushes and type calls, several hundred instructions per nested
 * table; here an entry is a few loads.
 *
 * The entries are visited in lua_next's order (the array part, then the
 * nodes by position), so an error names the same entry as before; every
 * access is raw (no metamethod, no Lua code runs); nothing here allocates
 * in the Lua state, so no collection runs while the pointers are held.
 * To be revisited whenever the vendored Lua changes version.
 */
#include "lstate.h"
#include "ltable.h"

#include <lauxlib.h>
#include <stdbool.h>

#include "workload/lua_internal.h"
#include "workload/lua_keytext.h"

enum { MAX_KEYS = 64 };

/* The value at the (positive) stack index idx of the running C function. */
static const TValue *at_index(lua_State *L, int idx) { return s2v(L->ci->func + idx); }

uint32_t luaw_walk_fields(lua_State *L, const luaw *w, int idx, int fbase, int nfields, const char *extra,
                          int *bad_type, const char **bad_name) {
    Table *t = hvalue(at_index(L, idx));
    uint32_t present = 0;
    *bad_type = LUA_TNONE;
    for (unsigned i = 0, asize = luaH_realasize(t); i < asize; i++)
        if (!isempty(&t->array[i])) {   /* an integer key */
            *bad_type = LUA_TNUMBER;
            return present;
        }
    for (size_t i = 0, size = sizenode(t); i < size; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) continue;
        if (novariant(keytt(nd)) != LUA_TSTRING) {
            *bad_type = novariant(keytt(nd));
            return present;
        }
        const char *k = getstr(keystrval(nd));
        int f = w->field_at[luaw_field_slot(k)] - 1;
        if (f < 0 || w->field_str[f] != k)
            for (f = 0; f < nfields && w->field_str[f] != k; f++) {}
        if (f < nfields) {
            present |= 1u << f;
            setobj2s(L, L->ci->func + fbase + f, gval(nd));
        } else if (!(extra && !strcmp(k, extra))) {
            *bad_type = LUA_TSTRING;
            *bad_name = k;
            return present;
        }
    }
    return present;
}

/* A map entry while its keys are sorted: a short key by its string's address,
 * a long one (over LUAI_MAXSHORTLEN bytes, not interned) by its bytes. */
typedef struct key_ref {
    const TString *ts;
    const char *s;   /* NULL for a short key */
    size_t n;
    const TValue *v;
} key_ref;

/* Short keys first, by address; then long keys, bytewise. */
static int cmp_key_ref(const key_ref *x, const key_ref *y) {
    if (!x->s || !y->s) {
        if (x->s) return 1;
        if (y->s) return -1;
        return (x->ts > y->ts) - (x->ts < y->ts);
    }
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* A short string's token: its address (8 bytes after `tag`), noted in w->key_strs
 * while w->keep_key_strs (class_of's second walk of a new shape, whose strings it
 * anchors; a known shape's strings are anchored already). */
static inline void put_short(luaw *w, strbuf *b, char tag, const TString *ts) {
    char tok[1 + sizeof ts];
    tok[0] = tag;
    memcpy(tok + 1, &ts, sizeof ts);
    kput(b, tok, sizeof tok);
    if (w->keep_key_strs) VEC_PUSH(w->key_strs, ts);
}

/* The shape-key text of v (see luaw_key_value). */
static void key_value(lua_State *L, luaw *w, const TValue *v, strbuf *b, int depth, const char *what) {
    if (depth > LUAW_MAX_DEPTH) luaL_error(L, "%s: nested too deeply", what);
    switch (ttype(v)) {
    case LUA_TNIL: kputc(b, '-'); return;
    case LUA_TBOOLEAN: kputc(b, ttistrue(v) ? 'T' : 'F'); return;
    case LUA_TSTRING: {
        TString *ts = tsvalue(v);
        if (ts->tt == LUA_VSHRSTR) {
            put_short(w, b, 'p', ts);
            return;
        }
        size_t len = tsslen(ts);
        put_int(b, 's', (long long)len, ':');
        kput(b, getstr(ts), len);
        return;
    }
    case LUA_TNUMBER:
        if (ttisinteger(v)) put_int(b, 'i', (long long)ivalue(v), ';');
        else sb_printf(b, "f%.17g;", (double)fltvalue(v));
        return;
    case LUA_TTABLE: break;
    default: luaL_error(L, "%s: unsupported value of type %s", what, lua_typename(L, ttype(v)));
    }
    Table *t = hvalue(v);
    key_ref keys[MAX_KEYS];
    size_t n = 0;
    lua_Integer maxint = 0;   /* the largest key while all are integers >= 1, else -1 */
    bool strkeys = true;
    for (unsigned i = 0, asize = luaH_realasize(t); i < asize; i++)
        if (!isempty(&t->array[i])) {   /* key i + 1 */
            strkeys = false;
            if (maxint >= 0 && (lua_Integer)i + 1 > maxint) maxint = (lua_Integer)i + 1;
            n++;
        }
    for (size_t i = 0, size = sizenode(t); i < size; i++) {
        const Node *nd = gnode(t, i);
        if (isempty(gval(nd))) continue;
        if (novariant(keytt(nd)) == LUA_TSTRING) {
            if (n < MAX_KEYS) {
                TString *ts = keystrval(nd);
                keys[n] = keytt(nd) == ctb(LUA_VSHRSTR) ? (key_ref){ts, NULL, 0, gval(nd)}
                                                        : (key_ref){ts, getstr(ts), tsslen(ts), gval(nd)};
            }
            maxint = -1;
        } else {   /* a float key is never integral (Lua stores those as integers) */
            strkeys = false;
            if (!keyisinteger(nd) || keyival(nd) < 1) maxint = -1;
            else if (maxint >= 0 && keyival(nd) > maxint) maxint = keyival(nd);
        }
        n++;
    }
    /* a list: keys 1..n (the border only matters then) */
    size_t len = n > 0 && maxint > 0 ? (size_t)luaH_getn(t) : 0;
    if (n > 0 && maxint > 0 && (size_t)maxint <= len && n == len) {
        kputc(b, '[');
        for (size_t i = 1; i <= len; i++) key_value(L, w, luaH_getint(t, (lua_Integer)i), b, depth + 1, what);
        kputc(b, ']');
        return;
    }
    if (!strkeys) luaL_error(L, "%s: a table must be a list (keys 1..n) or a map with string keys", what);
    if (n > MAX_KEYS) luaL_error(L, "%s: more than %d fields in one table", what, MAX_KEYS);
    for (size_t i = 1; i < n; i++)   /* a few keys: insertion sort */
        for (size_t j = i; j > 0 && cmp_key_ref(&keys[j - 1], &keys[j]) > 0; j--) {
            key_ref tmp = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = tmp;
        }
    kputc(b, '{');
    for (size_t i = 0; i < n; i++) {
        if (!keys[i].s) put_short(w, b, 'P', keys[i].ts);
        else {
            put_int(b, 0, (long long)keys[i].n, ':');
            kput(b, keys[i].s, keys[i].n);
        }
        key_value(L, w, keys[i].v, b, depth + 1, what);
    }
    kputc(b, '}');
}

void luaw_key_value(lua_State *L, luaw *w, int idx, strbuf *b, int depth, const char *what) {
    key_value(L, w, at_index(L, lua_absindex(L, idx)), b, depth, what);
}

void luaw_anchor_key_strs(lua_State *L, luaw *w) {
    luaL_checkstack(L, 4, "drasim.submit");
    if (!w->anchors_ref) {
        lua_newtable(L);
        w->anchors_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->anchors_ref);
    for (size_t i = 0; i < w->key_strs.len; i++) {
        setsvalue2s(L, L->top, (TString *)w->key_strs.data[i]);
        L->top++;
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
}

void luaw_anchor_string(lua_State *L, luaw *w, const void *v) {
    luaL_checkstack(L, 4, "drasim.submit");
    if (!w->anchors_ref) {
        lua_newtable(L);
        w->anchors_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->anchors_ref);
    setobj2s(L, L->top, (const TValue *)v);
    L->top++;
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

bool luaw_results_wanted(lua_State *L) { return L->ci->nresults != 0; }
