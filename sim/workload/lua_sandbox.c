/*
 * lua_sandbox.c -- the Lua state a generator runs in.
 *
 * Only the base library (without dofile, loadfile, and with a `load` that
 * accepts text chunks only), string (without string.dump), table, math (with
 * random drawing from the run's seeded stream), utf8 and coroutine are
 * opened: no os, io, debug or package. `require` is our own function that
 * loads `NAME.lua` (dots = directories) from the script's directory or the
 * installed library (`<datadir>/lua`), text only.
 *
 * Pattern functions (find, match, gmatch, gsub) refuse patterns whose
 * backtracking could run for hours inside one C call (see guarded_pattern_fn).
 *
 * Limits: a custom lua_Alloc refuses to grow the state beyond the memory
 * limit (Lua then raises "not enough memory"), and a count hook stops any
 * callback that runs more than the instruction limit. Once the budget is
 * spent the hook fires on every instruction, so a script cannot swallow the
 * error with pcall and keep looping.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/lua_internal.h"
#include "workload/lua_source.h"
#include "util/input_files.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char LUAW_KEY = 'w';   /* registry key (its address) of the luaw pointer */
static const char LOADED_KEY = 'l'; /* registry key of the table of required modules */

luaw *luaw_get(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LUAW_KEY);
    luaw *w = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return w;
}

/* lua_Alloc with a ceiling on the total size of live blocks. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    luaw *w = ud;
    if (!ptr) osize = 0;
    if (nsize == 0) {
        free(ptr);
        w->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && w->mem_used + w->c_used + (nsize - osize) > w->mem_limit) return NULL;
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    w->mem_used = w->mem_used - osize + nsize;
    return p;
}

void luaw_charge(lua_State *L, luaw *w, long bytes) {
    if (bytes < 0) {
        w->c_used -= (size_t)-bytes < w->c_used ? (size_t)-bytes : w->c_used;
        return;
    }
    if (w->mem_used + w->c_used + (size_t)bytes > w->mem_limit)
        luaL_error(L, "memory limit exceeded by queued timers and pods (%d MiB for the Lua state; raise "
                      "workload.lua.memoryLimit if the script really needs more)", (int)(w->mem_limit >> 20));
    w->c_used += (size_t)bytes;
}

/* Count hook: charge LUAW_INSTR_STEP instructions (1 once the budget is spent). */
static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    luaw *w = luaw_get(L);
    w->instr_used += w->instr_exceeded ? 1 : LUAW_INSTR_STEP;
    lua_Debug here;   /* remember where the script is: memory errors carry no position */
    if (lua_getstack(L, 0, &here) && lua_getinfo(L, "Sl", &here) && here.currentline > 0)
        snprintf(w->last_where, sizeof w->last_where, "%s:%d", here.short_src, here.currentline);
    if (w->instr_used > w->instr_limit) {
        if (!w->instr_exceeded) {
            w->instr_exceeded = true;
            lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
        }
        if (w->last_where[0]) lua_pushfstring(L, "%s: ", w->last_where);   /* set just above */
        else lua_pushliteral(L, "");
        luaL_error(L, "%sinstruction limit exceeded (%I instructions in one callback; "
                      "raise workload.lua.instructionLimit if this is not an endless loop)",
                   lua_tostring(L, -1), (lua_Integer)w->instr_limit);
    }
}

/* ---- deterministic pairs ---------------------------------------------------
 * Lua seeds its string hashes per process, so the order of next()/pairs()
 * over string keys changes from run to run. The sandbox's pairs() visits
 * keys in a fixed order instead: numbers by value, then strings bytewise,
 * then false, true; keys of other types (tables, functions as keys) follow
 * in next() order. A __pairs metamethod is honoured as in Lua. */

typedef struct pkey {
    int type;
    lua_Number num;
    const char *str;
    size_t len;
    int slot;                         /* index in the collected-keys table */
} pkey;

static int pkey_rank(int type) {
    switch (type) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
    }
}

static int pkey_cmp(const void *pa, const void *pb) {
    const pkey *a = pa, *b = pb;
    int ra = pkey_rank(a->type), rb = pkey_rank(b->type);
    if (ra != rb) return ra - rb;
    switch (ra) {
    case 0: return a->num < b->num ? -1 : a->num > b->num ? 1 : a->slot - b->slot;
    case 1: {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->str, b->str, n);
        return c ? c : a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
    }
    case 2: return (int)a->num - (int)b->num;
    default: return a->slot - b->slot;
    }
}

/* Iterator: upvalues (sorted keys table, next position); state = the table. */
static int sorted_next(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(2));
    for (;;) {
        if (lua_rawgeti(L, lua_upvalueindex(1), ++i) == LUA_TNIL) return 0;   /* done */
        lua_pushinteger(L, i);
        lua_replace(L, lua_upvalueindex(2));
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL) return 2;     /* key, value (raw, as next) */
        lua_pop(L, 2);                                  /* removed while iterating: skip */
    }
}

static int sandbox_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_newtable(L);                                    /* 2: keys in next() order */
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, 2, ++n);
    }
    pkey *keys = n ? lua_newuserdatauv(L, (size_t)n * sizeof *keys, 0) : NULL;   /* freed by the GC */
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 2, i + 1);
        pkey *k = &keys[i];
        k->type = lua_type(L, -1);
        k->slot = i + 1;
        k->str = NULL;
        k->len = 0;
        k->num = 0;
        if (k->type == LUA_TNUMBER) k->num = lua_tonumber(L, -1);
        else if (k->type == LUA_TSTRING) k->str = lua_tolstring(L, -1, &k->len);   /* kept alive by table 2 */
        else if (k->type == LUA_TBOOLEAN) k->num = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    if (n) qsort(keys, (size_t)n, sizeof *keys, pkey_cmp);
    lua_createtable(L, n, 0);                           /* the sorted keys */
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 2, keys[i].slot);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, sorted_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* print(...) writes to stderr, prefixed with the simulated time. */
static int sandbox_print(lua_State *L) {
    luaw *w = luaw_get(L);
    int n = lua_gettop(L);
    luaL_Buffer b;   /* Lua-managed: a __tostring error half-way leaks nothing */
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "[lua t=%f s]", (double)luaw_now(w) / 1000.0);
    luaL_addvalue(&b);
    for (int i = 1; i <= n; i++) {
        luaL_addchar(&b, ' ');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 0;
}

/* load(chunk [, chunkname [, mode [, env]]]) for text chunks only: `mode` is ignored
 * (always "t"), so precompiled bytecode is refused. */
static int sandbox_load(lua_State *L) {
    size_t len;
    const char *s;
    if (lua_type(L, 1) == LUA_TFUNCTION) {   /* concatenate the pieces the function returns */
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (;;) {
            lua_pushvalue(L, 1);
            lua_call(L, 0, 1);
            if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TSTRING && lua_rawlen(L, -1) == 0)) {
                lua_pop(L, 1);
                break;
            }
            if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "reader function must return a string");
            luaL_addvalue(&b);
        }
        luaL_pushresult(&b);
        lua_replace(L, 1);
    }
    s = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, s);
    int has_env = !lua_isnone(L, 4);
    int st = luaL_loadbufferx(L, s, len, name, "t");
    if (st != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (has_env) {
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* math.random with Lua's semantics, from the run's stream. */
static int sandbox_math_random(lua_State *L) {
    luaw *w = luaw_get(L);
    lua_Integer lo, hi;
    switch (lua_gettop(L)) {
    case 0: lua_pushnumber(L, rng_uniform(&w->rng)); return 1;
    case 1: lo = 1; hi = luaL_checkinteger(L, 1); break;
    case 2: lo = luaL_checkinteger(L, 1); hi = luaL_checkinteger(L, 2); break;
    default: return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t v = span == UINT64_MAX ? rng_next(&w->rng) : rng_below(&w->rng, span + 1);
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + v));
    return 1;
}

static int sandbox_no_randomseed(lua_State *L) {
    return luaL_error(L, "math.randomseed is not available: random numbers come from the scenario seed");
}

/* Repetition items (a single-character class followed by *, +, - or ?) in a
 * Lua pattern. Parentheses, anchors, %b and %f take no repetition. */
static int pattern_items(const char *p, size_t n) {
    int items = 0;
    size_t i = p[0] == '^' ? 1 : 0;
    while (i < n) {
        char c = p[i];
        if (c == '(' || c == ')' || (c == '$' && i + 1 == n)) { i++; continue; }
        if (c == '%' && i + 1 < n && p[i + 1] == 'b') { i += 4; continue; }
        if (c == '%' && i + 1 < n && p[i + 1] == 'f') i += 2;   /* the frontier's set follows */
        if (p[i] == '%') i += 2;                                  /* %a, %%, ... */
        else if (p[i] == '[') {                                   /* a set: [^]...] */
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

/* Lua's pattern matcher backtracks without counting VM instructions, so a
 * pattern with many repetition items ("a?a?a?...") on a modest string could
 * run for hours inside one C call. With q items on a string of n bytes the
 * attempts are bounded by about n^(q+1) / q! (every start, every way to split
 * the text among the items); refuse patterns whose bound exceeds 1e9 (a few
 * seconds of matching at worst). */
static int guarded_pattern_fn(lua_State *L) {
    size_t n, plen;
    const char *subject = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &n) : NULL;
    const char *pat = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &plen) : NULL;
    bool plain = lua_toboolean(L, lua_upvalueindex(2)) && lua_toboolean(L, 4);   /* string.find(s, p, init, true) */
    if (subject && pat && !plain) {
        int q = pattern_items(pat, plen);
        if ((double)(q + 1) * log((double)n + 2) - lgamma((double)q + 1) > log(1e9))
            return luaL_error(L, "pattern too complex for the sandbox (%d repetition items on a %d-byte string could "
                                 "backtrack for hours; split the work or use a plain find)", q, (int)n);
    }
    int top = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, top, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replace string.NAME by the guard above (method calls go through the same table). */
static void guard_string_fn(lua_State *L, const char *name, bool has_plain) {
    lua_getfield(L, -1, name);
    lua_pushboolean(L, has_plain);
    lua_pushcclosure(L, guarded_pattern_fn, 2);
    lua_setfield(L, -2, name);
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *lua_library_dir(void) {
    static char buf[4096];
    const char *dirs[3] = {getenv("DRASIM_DATADIR"), DRASIM_INSTALL_DATADIR, DRASIM_SOURCE_DATADIR};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        struct stat st;
        snprintf(buf, sizeof buf, "%s/lua/drasim", dirs[i]);
        if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(buf, sizeof buf, "%s/lua", dirs[i]);
            return buf;
        }
    }
    return NULL;
}

int luaw_load_file(luaw *w, const char *path) {
    lua_State *L = w->L;
    FILE *f = fopen(path, "rb");
    if (!f) {
        lua_pushfstring(L, "%s: cannot open the Lua script", path);
        return -1;
    }
    input_files_note(path);   /* never an output of this run (sim/store/output_path.c) */
    strbuf text = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sb_append(&text, chunk, n);
    fclose(f);
    const char *s = sb_str(&text);
    size_t len = text.len;
    if (len && s[0] == '#') {   /* skip a "#!" first line, as lua does (keep the newline for line numbers) */
        while (len && *s != '\n') { s++; len--; }
    }
    char name[4200];
    snprintf(name, sizeof name, "@%s", path);
    int st = luaL_loadbufferx(L, s, len, name, "t");   /* protected inside: returns, never unwinds */
    sb_free(&text);
    return st == LUA_OK ? 0 : -1;
}

/* require(name): NAME.lua (dots = directories) from the script's directory or <datadir>/lua. */
static int sandbox_require(lua_State *L) {
    luaw *w = luaw_get(L);
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    bool ok = len > 0 && len < 200 && name[0] != '.' && name[len - 1] != '.';
    for (size_t i = 0; ok && i < len; i++) {
        char c = name[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
             (c == '.' && name[i + 1] != '.');
    }
    if (!ok) return luaL_error(L, "require: invalid module name '%s' (expected names such as drasim.dist)", name);
    lua_settop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &LOADED_KEY);   /* index 2 */
    lua_getfield(L, -1, name);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    char rel[256];
    snprintf(rel, sizeof rel, "%s.lua", name);
    for (char *p = rel; *p && strcmp(p, ".lua"); p++)
        if (*p == '.') *p = '/';
    /* Paths are built in Lua strings: nothing to free if an error unwinds the C stack. */
    const char *dirs[2] = {w->script_dir, lua_library_dir()};
    luaL_Buffer tried;
    luaL_buffinit(L, &tried);
    const char *path = NULL;
    for (int i = 0; i < 2 && !path; i++) {
        if (!dirs[i]) continue;
        const char *p = lua_pushfstring(L, "%s%s%s", dirs[i], *dirs[i] ? "/" : "", rel);
        if (is_file(p)) {
            path = p;
            break;
        }
        lua_pushfstring(L, "\n\tno file '%s'", p);
        lua_remove(L, -2);   /* balanced use of the stack between buffer operations */
        luaL_addvalue(&tried);
    }
    if (!path) {
        luaL_pushresult(&tried);
        return luaL_error(L, "module '%s' not found in the sandbox (only Lua files from the script's directory and "
                             "the drasim library can be required):%s", name, lua_tostring(L, -1));
    }
    if (luaw_load_file(w, path)) return lua_error(L);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, 2, name);
    return 1;
}

int luaw_open(luaw *w, int64_t instr_limit, int64_t mem_limit) {
    w->mem_limit = (size_t)mem_limit;
    w->instr_limit = instr_limit;
    lua_State *L = lua_newstate(limited_alloc, w);
    if (!L) return -1;
    w->L = L;
    lua_pushlightuserdata(L, w);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LUAW_KEY);
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},        {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_TABLIBNAME, luaopen_table},  {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine},
                                    {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->name; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    static const char *const removed[] = {"dofile", "loadfile", NULL};
    for (int i = 0; removed[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    lua_register(L, "load", sandbox_load);
    lua_register(L, "print", sandbox_print);
    lua_register(L, "pairs", sandbox_pairs);
    lua_register(L, "require", sandbox_require);
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    guard_string_fn(L, "find", true);
    guard_string_fn(L, "match", false);
    guard_string_fn(L, "gmatch", false);
    guard_string_fn(L, "gsub", false);
    lua_pop(L, 1);
    lua_getglobal(L, "math");
    lua_pushcfunction(L, sandbox_math_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, sandbox_no_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    /* The loaded-modules table (package.loaded does not exist here). */
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &LOADED_KEY);
    lua_sethook(L, count_hook, LUA_MASKCOUNT, LUAW_INSTR_STEP);
    return 0;
}

void luaw_close(luaw *w) {
    if (w->L) lua_close(w->L);
    w->L = NULL;
}

/* Message handler: the error text plus the Lua traceback. */
static int traceback_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) msg = lua_tostring(L, -1);
        else msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int luaw_call(luaw *w, int nargs, int nres, const char *what, strbuf *err) {
    lua_State *L = w->L;
    strbuf label = {0};   /* `what` may live in a buffer the callback reuses */
    sb_puts(&label, what);
    what = sb_str(&label);
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    w->instr_used = 0;
    w->last_where[0] = 0;
    if (w->instr_exceeded) {
        w->instr_exceeded = false;
        lua_sethook(L, count_hook, LUA_MASKCOUNT, LUAW_INSTR_STEP);
    }
    int st = lua_pcall(L, nargs, nres, base);
    lua_remove(L, base);
    if (st == LUA_OK) {
        sb_free(&label);
        return 0;
    }
    sb_clear(err);
    if (st == LUA_ERRMEM)
        sb_printf(err, "%s: memory limit exceeded%s%s (%zu MiB for the Lua state; raise workload.lua.memoryLimit "
                       "if the script really needs more)", what, w->last_where[0] ? " near " : "", w->last_where,
                  w->mem_limit >> 20);
    else
        sb_printf(err, "%s: %s", what, lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
    lua_pop(L, 1);
    sb_free(&label);
    return -1;
}
