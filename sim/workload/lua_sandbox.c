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
 * Standard functions that loop in C are guarded (lua_guards.c), pairs()
 * has a fixed order (lua_pairs.c).
 *
 * Limits: a custom lua_Alloc refuses to grow the state beyond the memory
 * limit (Lua then raises "not enough memory"), and a count hook stops any
 * callback that runs more than the instruction limit (work done in C is
 * charged to the same budget by luaw_charge_work), more than the wall-clock
 * limit, or that is running when Ctrl-C arrives (the engine's interrupt
 * flag). Once tripped the hook fires on every instruction and fails again,
 * so a script cannot swallow the error with pcall and keep looping. Hooks
 * are per thread in Lua; coroutines inherit the hook when created and catch
 * up with the current step on their first hook call.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "workload/lua_internal.h"
#include "workload/lua_source.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char LOADED_KEY = 'l'; /* registry key of the table of required modules */

/* The luaw of L: kept in the state's extra space (copied into every thread
 * the script makes), so the API's C functions find it without a registry
 * lookup (~100 instructions, several times per drasim.submit). */
luaw *luaw_get(lua_State *L) { return *(luaw **)lua_getextraspace(L); }

/* ---- small blocks: Lua allocates and frees a few small blocks per table a
 * script makes (a pod table, its gpu table ...): glibc's malloc + free cost
 * ~200 instructions a pair, a size-class free list ~20. Blocks of up to
 * 16 * LUAW_POOL_CLASSES bytes come from 64 KiB chunks and return to their
 * class's list; the chunks are freed with the state. The memory limit
 * counts the sizes Lua asked for, as before. ---- */
enum { POOL_CHUNK = 64 * 1024 };

static size_t pool_class(size_t n) { return (n + 15) / 16 - 1; }   /* n in 1 .. 16 * LUAW_POOL_CLASSES */

static void *pool_alloc(luaw *w, size_t n) {
    size_t c = pool_class(n);
    void *p = w->pool_free[c];
    if (p) {
        w->pool_free[c] = *(void **)p;
        return p;
    }
    size_t sz = (c + 1) * 16;
    if ((size_t)(w->pool_end - w->pool_next) < sz) {   /* a new chunk (the old one's tail is left unused) */
        char *chunk = malloc(POOL_CHUNK);
        if (!chunk) return NULL;
        *(void **)chunk = w->pool_chunks;
        w->pool_chunks = chunk;
        w->pool_next = chunk + 16;
        w->pool_end = chunk + POOL_CHUNK;
    }
    p = w->pool_next;
    w->pool_next += sz;
    return p;
}

static void pool_release(luaw *w, void *p, size_t n) {
    size_t c = pool_class(n);
    *(void **)p = w->pool_free[c];
    w->pool_free[c] = p;
}

static bool pooled(size_t n) { return n > 0 && n <= 16 * LUAW_POOL_CLASSES; }

static void pool_free_all(luaw *w) {
    while (w->pool_chunks) {
        void *next = *(void **)w->pool_chunks;
        free(w->pool_chunks);
        w->pool_chunks = next;
    }
    memset(w->pool_free, 0, sizeof w->pool_free);
    w->pool_next = w->pool_end = NULL;
}

/* limited_alloc's general case: growing or shrinking a block, a new block
 * outside the pool or of an empty class, freeing a block outside the pool. */
static __attribute__((noinline)) void *alloc_slow(luaw *w, void *ptr, size_t osize, size_t nsize) {
    if (nsize == 0) {
        if (pooled(osize)) pool_release(w, ptr, osize);
        else free(ptr);
        w->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && w->mem_used + w->c_used + (nsize - osize) > w->mem_limit) {
        /* Lua answers a refusal with an emergency full collection: charge it
         * (no error can be raised here; the next hook call trips the budget),
         * so a pcall loop of failing allocations cannot run for free. */
        int64_t gc = (int64_t)(w->mem_used / 32);
        w->instr_used = w->instr_used > INT64_MAX - gc ? INT64_MAX : w->instr_used + gc;
        return NULL;
    }
    void *p;
    if (pooled(nsize) || pooled(osize)) {   /* to, from or within the pool */
        if (pooled(nsize) && pooled(osize) && pool_class(nsize) == pool_class(osize)) {
            p = ptr;
        } else {
            p = pooled(nsize) ? pool_alloc(w, nsize) : malloc(nsize);
            if (!p) return NULL;
            if (ptr) {
                memcpy(p, ptr, osize < nsize ? osize : nsize);
                if (pooled(osize)) pool_release(w, ptr, osize);
                else free(ptr);
            }
        }
    } else {
        p = realloc(ptr, nsize);
        if (!p) return NULL;
    }
    w->mem_used = w->mem_used - osize + nsize;
    return p;
}

/* lua_Alloc with a ceiling on the total size of live blocks. The common
 * cases (a small block freed, a small new block from its class's list, a
 * NULL block "freed") make no call; the rest is alloc_slow's. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    luaw *w = ud;
    if (!ptr) {
        if (nsize == 0) return NULL;   /* Lua frees the empty part of a table (NULL): ~16 a pod of nested tables */
        osize = 0;   /* osize is the kind of object Lua makes */
    }
    if (nsize == 0 && pooled(osize)) {
        size_t c = pool_class(osize);
        *(void **)ptr = w->pool_free[c];
        w->pool_free[c] = ptr;
        w->mem_used -= osize;
        return NULL;
    }
    if (!ptr && pooled(nsize) && w->pool_free[pool_class(nsize)] && w->mem_used + w->c_used + nsize <= w->mem_limit) {
        size_t c = pool_class(nsize);
        void *p = w->pool_free[c];
        w->pool_free[c] = *(void **)p;
        w->mem_used += nsize;
        return p;
    }
    return alloc_slow(w, ptr, osize, nsize);
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

static double monotonic_s(void) {
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);   /* a few ns: cheap enough for every hook call */
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_hook(lua_State *L, lua_Debug *ar);

/* Raise the error of the tripped limit, and make every further instruction
 * of this thread come back here (pcall cannot swallow it). The position is
 * the running Lua function's (level 0 in the hook, level 1 in a C function
 * charging work), else where the hook last saw the script. */
static int raise_tripped(lua_State *L, luaw *w, int level) {
    if (lua_gethookcount(L) != 1) lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    luaL_where(L, level);
    if (!*lua_tostring(L, -1) && w->last_where[0]) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: ", w->last_where);
    }
    const char *at = lua_tostring(L, -1);
    switch (w->tripped) {
    case LUAW_TRIP_INTERRUPT: lua_pushfstring(L, "%sinterrupted", at); break;
    case LUAW_TRIP_TIME:
        lua_pushfstring(L, "%stime limit exceeded (%f s of wall time in one callback; raise workload.lua.timeLimit "
                           "if this is not an endless loop)", at, w->time_limit);
        break;
    default:
        lua_pushfstring(L, "%sinstruction limit exceeded (%I instructions in one callback; raise "
                           "workload.lua.instructionLimit if this is not an endless loop)", at, (lua_Integer)w->instr_limit);
    }
    return lua_error(L);
}

/* Trip a limit if one is reached: budget, wall clock, Ctrl-C. */
static void check_limits(lua_State *L, luaw *w, bool in_hook) {
    if (!w->tripped) {
        if (w->instr_used > w->instr_limit) w->tripped = LUAW_TRIP_INSTRUCTIONS;
        else if (w->run && w->run->interrupt && *w->run->interrupt) w->tripped = LUAW_TRIP_INTERRUPT;
        else if (in_hook && w->time_limit > 0 && monotonic_s() - w->started > w->time_limit) w->tripped = LUAW_TRIP_TIME;
    }
    if (w->tripped) raise_tripped(L, w, in_hook ? 0 : 1);
}

void luaw_charge_work(lua_State *L, int64_t units) {
    luaw *w = luaw_get(L);
    w->instr_used = units > INT64_MAX - w->instr_used ? INT64_MAX : w->instr_used + units;
    check_limits(L, w, false);
}

/* Count hook: charge the instructions since the last call (the thread's hook
 * count: LUAW_INSTR_STEP, or 1 once tripped) and check the limits. */
static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    luaw *w = luaw_get(L);
    int step = lua_gethookcount(L);
    if (w->instr_used < INT64_MAX - step) w->instr_used += step;   /* saturated by a huge charge */
    if (!w->tripped && step != LUAW_INSTR_STEP)   /* a coroutine still on the per-instruction hook of an earlier callback */
        lua_sethook(L, count_hook, LUA_MASKCOUNT, LUAW_INSTR_STEP);
    lua_Debug here;   /* remember where the script is: memory errors carry no position */
    if (lua_getstack(L, 0, &here) && lua_getinfo(L, "Sl", &here) && here.currentline > 0)
        snprintf(w->last_where, sizeof w->last_where, "%s:%d", here.short_src, here.currentline);
    check_limits(L, w, true);
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
    strbuf text = {0}, err = {0};
    if (file_read_all(path, &text, &err)) {   /* size limit; directories and devices refused */
        lua_pushstring(L, sb_str(&err));
        sb_free(&err);
        sb_free(&text);
        return -1;
    }
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
    if (w->time_limit <= 0) w->time_limit = LUAW_TIME_LIMIT;
    lua_State *L = lua_newstate(limited_alloc, w);
    if (!L) return -1;
    w->L = L;
    *(luaw **)lua_getextraspace(L) = w;
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
    lua_register(L, "pairs", luaw_pairs);
    lua_register(L, "require", sandbox_require);
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    luaw_open_guards(L);
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
    /* Generational collection (Lua 5.4's LUA_GCGEN, default parameters): a generator's garbage is
     * mostly young (a pod's tables die when drasim.submit returns), which a minor collection frees
     * without traversing the old objects; bench_lua_yaml: -2 % instructions of the whole run in DRA
     * mode, results unchanged. When it runs depends only on the bytes allocated: deterministic. */
    lua_gc(L, LUA_GCGEN, 0, 0);
    return 0;
}

void luaw_close(luaw *w) {
    if (w->L) lua_close(w->L);
    w->L = NULL;
    pool_free_all(w);
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
    w->instr_used = 0;   /* a fresh budget for every callback */
    w->last_where[0] = 0;
    w->started = w->time_limit > 0 ? monotonic_s() : 0;
    if (w->tripped) {
        w->tripped = LUAW_TRIP_NONE;
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
