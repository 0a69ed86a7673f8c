/*
 * lua_guards.c -- standard library functions that loop in C, guarded.
 *
 * The count hook only sees VM instructions: a C function runs to its end
 * unseen, however long it takes, and a loop calling it costs a handful of
 * instructions per call. So every standard function whose C work is not
 * bounded by the size of its arguments, or is large compared to its
 * instruction cost, is replaced here by a wrapper that checks its arguments
 * (so errors name the function, not '?') and charges the work it is about to
 * do to the callback's instruction budget (luaw_charge_work), or refuses it:
 *
 *   string.rep            result bytes and pieces; an empty result returns at once
 *                         (string.rep("", math.maxinteger) looped 2^63 times)
 *   string.find           plain (or special-free) finds run here in linear time
 *                         (memmem) instead of Lua's O(n*m) search; other patterns
 *                         as below
 *   string.match, gmatch, gsub, find with a pattern
 *                         refused when the backtracking bound is too high
 *                         (pattern_too_complex), charged by subject length
 *   table.move, insert, remove, concat, unpack, sort
 *                         charged by the number of elements they touch
 *   setmetatable          refuses metatables with __gc: finalizers run with
 *                         hooks off (lgc.c GCTM, Lua 5.4), where no budget or
 *                         Ctrl-C reaches them, and at any allocation, where they
 *                         could re-enter the drasim API
 *   collectgarbage        "count", "step", "collect", "isrunning" only; a
 *                         collection is charged by the heap size
 *
 * Work the wrappers cannot see (an expensive C call repeated in a loop, say
 * string.upper on a 100 MB string) is caught by the wall-clock limit the
 * count hook checks (lua_sandbox.c): a last-resort safety net. The drasim
 * API charges its own C work where it is done (lua_view.c through
 * dra_free_devices' work count, lua_pods.c per new shape), priced so that
 * the default budget takes about as long as as many VM instructions.
 */
#define _GNU_SOURCE   /* memmem */
#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "workload/lua_internal.h"

#define BYTES_PER_INSTR 32   /* bytes scanned or copied in C per charged instruction */

/* Call the original function (upvalue 1) with this call's arguments. */
static int call_original(lua_State *L) {
    int top = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, top, LUA_MULTRET);
    return lua_gettop(L);
}

/* ---- patterns ---- */

/* Repetition items in a Lua pattern: a single-character class followed by
 * *, +, - or ?, and %b (a balanced span of any length). */
static int pattern_items(const char *p, size_t n) {
    int items = 0;
    size_t i = n && p[0] == '^' ? 1 : 0;
    while (i < n) {
        char c = p[i];
        if (c == '(' || c == ')' || (c == '$' && i + 1 == n)) { i++; continue; }
        if (c == '%' && i + 1 < n && p[i + 1] == 'b') { items++; i += 4; continue; }
        if (c == '%' && i + 1 < n && p[i + 1] == 'f') i += 2;   /* the frontier's set follows */
        if (i < n && p[i] == '%') i += 2;                         /* %a, %%, ... */
        else if (i < n && p[i] == '[') {                          /* a set: [^]...] */
            i++;
            if (i < n && p[i] == '^') i++;
            if (i < n && p[i] == ']') i++;
            while (i < n && p[i] != ']') i += p[i] == '%' ? 2 : 1;
            i++;
        } else i++;                                               /* . or a literal */
        if (i < n && (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?')) { items++; i++; }
    }
    return items;
}

/* Lua's matcher backtracks without counting VM instructions. With q items
 * on a string of n bytes the attempts are bounded by about n^(q+1) / q!
 * (every start, every way to split the text among the items); without items
 * by n * m (every start, the whole pattern of m bytes). Refuse bounds over
 * 1e9 (a few seconds of matching at worst); charge the linear part. */
static void check_pattern(lua_State *L, size_t n, const char *pat, size_t plen) {
    int q = pattern_items(pat, plen);
    double bound = (q + 1) * log((double)n + 2) - lgamma((double)q + 1) + (q ? 0 : log((double)plen + 1));
    if (bound > log(1e9))
        luaL_error(L, "pattern too complex for the sandbox (%d repetition items on a %d-byte string could "
                      "backtrack for hours; split the work or use a plain find)", q, (int)(n < 2147483647 ? n : 2147483647));
    luaw_charge_work(L, (int64_t)(n / BYTES_PER_INSTR) + 1);
}

static bool has_specials(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] && strchr("^$*+?.([%-", p[i])) return true;
    return false;
}

/* string.find(s, pattern [, init [, plain]]). */
static int guarded_find(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    lua_Integer init = luaL_optinteger(L, 3, 1);
    if (!lua_toboolean(L, 4) && has_specials(p, lp)) {
        check_pattern(L, ls, p, lp);
        return call_original(L);
    }
    /* start (0-based) as Lua 5.4's str_find_aux: negative counts from the end */
    size_t start = init > 0 ? (size_t)init - 1 : init == 0 || init < -(lua_Integer)ls ? 0 : ls + (size_t)init;
    if (init > 0 && (lua_Unsigned)init - 1 > ls) start = ls + 1;
    if (start > ls) {
        luaL_pushfail(L);
        return 1;
    }
    luaw_charge_work(L, (int64_t)((ls - start) / BYTES_PER_INSTR) + 1);
    const char *hit = lp == 0 ? s + start : memmem(s + start, ls - start, p, lp);
    if (!hit) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
    return 2;
}

/* string.match, gmatch, gsub. */
static int guarded_pattern_fn(lua_State *L) {
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *pat = luaL_checklstring(L, 2, &plen);
    if (lua_toboolean(L, lua_upvalueindex(2))) {   /* gsub: the replacement */
        int t = lua_type(L, 3);
        luaL_argexpected(L, t == LUA_TNUMBER || t == LUA_TSTRING || t == LUA_TTABLE || t == LUA_TFUNCTION, 3,
                         "string/function/table");
        luaL_optinteger(L, 4, 0);
    } else luaL_optinteger(L, 3, 1);
    check_pattern(L, n, pat, plen);
    return call_original(L);
}

/* string.rep(s, n [, sep]). */
static int guarded_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {   /* "" whatever n is: no need to loop n times */
        lua_pushliteral(L, "");
        return 1;
    }
    luaw *w = luaw_get(L);
    lua_Unsigned piece = (lua_Unsigned)l + lsep;
    if ((lua_Unsigned)n <= (lua_Unsigned)(w->mem_limit / piece) + 1)   /* may fit: charge it; else Lua fails at once */
        luaw_charge_work(L, n / 4 + (int64_t)((lua_Unsigned)n * piece / BYTES_PER_INSTR) + 1);
    return call_original(L);
}

/* ---- tables ---- */

/* Argument idx must be a table or have a metatable (Lua's table functions
 * accept objects with __index/__newindex/__len); checked here so that the
 * error names the wrapper ('table.insert') rather than '?'. */
static void check_tab(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TTABLE) return;
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return;
    }
    luaL_checktype(L, idx, LUA_TTABLE);
}

/* Elements from i to j (0 when j < i), saturated. */
static int64_t span(lua_Integer i, lua_Integer j) {
    if (j < i) return 0;
    lua_Unsigned d = (lua_Unsigned)j - (lua_Unsigned)i;
    return d >= (lua_Unsigned)INT64_MAX ? INT64_MAX : (int64_t)d + 1;
}

/* table.move(a1, f, e, t [, a2]). */
static int guarded_move(lua_State *L) {
    check_tab(L, 1);
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    luaL_checkinteger(L, 4);
    luaw_charge_work(L, span(f, e));
    return call_original(L);
}

/* table.insert(t, [pos,] v): moves #t - pos + 1 elements up. */
static int guarded_insert(lua_State *L) {
    check_tab(L, 1);
    if (lua_gettop(L) == 3) {
        lua_Integer n = luaL_len(L, 1), pos = luaL_checkinteger(L, 2);
        luaw_charge_work(L, span(pos, n) + 1);
    }
    return call_original(L);
}

/* table.remove(t [, pos]): moves #t - pos elements down. */
static int guarded_remove(lua_State *L) {
    check_tab(L, 1);
    if (lua_gettop(L) >= 2) {
        lua_Integer n = luaL_len(L, 1), pos = luaL_checkinteger(L, 2);
        luaw_charge_work(L, span(pos, n) + 1);
    }
    return call_original(L);
}

/* table.concat(t [, sep [, i [, j]]]) and table.unpack(t [, i [, j]]): j - i + 1 elements. */
static int guarded_range(lua_State *L) {
    check_tab(L, 1);
    int first = lua_toboolean(L, lua_upvalueindex(2)) ? 3 : 2;   /* concat has sep before i */
    lua_Integer i = luaL_optinteger(L, first, 1);
    lua_Integer j = lua_isnoneornil(L, first + 1) ? luaL_len(L, 1) : luaL_checkinteger(L, first + 1);
    int64_t n = span(i, j);
    if (first == 2 && n > 1000000) n = 1;   /* unpack refuses that many results by itself */
    luaw_charge_work(L, n + 1);
    return call_original(L);
}

/* table.sort(t [, comp]): about n log2 n comparisons. */
static int guarded_sort(lua_State *L) {
    check_tab(L, 1);
    lua_Integer n = luaL_len(L, 1);
    if (n > 1) luaw_charge_work(L, (int64_t)((double)n * log2((double)n)));
    return call_original(L);
}

/* ---- metatables and the collector ---- */

/* setmetatable(t, mt) refusing finalizers (see the file comment). */
static int sandbox_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, lua_type(L, 2) == LUA_TNIL || lua_type(L, 2) == LUA_TTABLE, 2, "nil or table");
    lua_settop(L, 2);
    lua_pushliteral(L, "__gc");
    if (lua_type(L, 2) == LUA_TTABLE && lua_rawget(L, 2) != LUA_TNIL)   /* raw, as Lua's own check */
        return luaL_error(L, "setmetatable: __gc metamethods (finalizers) are not available in the sandbox");
    lua_settop(L, 2);
    return call_original(L);
}

/* collectgarbage([opt]) with the options that cannot slow the state down. */
static int sandbox_collectgarbage(lua_State *L) {
    static const char *const opts[] = {"collect", "step", "count", "isrunning", NULL};
    int o = luaL_checkoption(L, 1, "collect", opts);
    if (o <= 1) luaw_charge_work(L, (int64_t)(luaw_get(L)->mem_used / BYTES_PER_INSTR) + 1);
    return call_original(L);
}

/* Replace t[name] (t at the top of the stack) by fn with the original as upvalue 1 and `flag` as 2. */
static void wrap(lua_State *L, const char *name, lua_CFunction fn, bool flag) {
    lua_getfield(L, -1, name);
    lua_pushboolean(L, flag);
    lua_pushcclosure(L, fn, 2);
    lua_setfield(L, -2, name);
}

void luaw_open_guards(lua_State *L) {
    lua_getglobal(L, "string");
    wrap(L, "find", guarded_find, false);
    wrap(L, "match", guarded_pattern_fn, false);
    wrap(L, "gmatch", guarded_pattern_fn, false);
    wrap(L, "gsub", guarded_pattern_fn, true);
    wrap(L, "rep", guarded_rep, false);
    lua_pop(L, 1);
    lua_getglobal(L, "table");
    wrap(L, "move", guarded_move, false);
    wrap(L, "insert", guarded_insert, false);
    wrap(L, "remove", guarded_remove, false);
    wrap(L, "concat", guarded_range, true);
    wrap(L, "unpack", guarded_range, false);
    wrap(L, "sort", guarded_sort, false);
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    wrap(L, "setmetatable", sandbox_setmetatable, false);
    wrap(L, "collectgarbage", sandbox_collectgarbage, false);
    lua_pop(L, 1);
}
