/*
 * lua_gang.c -- drasim.submit_gang{size = n, template = {...} or the pod's
 * fields, all_or_nothing = true, min_count = n, timeout = "10m",
 * on_timeout = fn}: the pods of lua_pods.c's submit_gang, made one gang of
 * the scheduler's gang model (engine/sim_gang.h, docs/PREEMPTION.md) when
 * all_or_nothing is true: no pod runs before min_count (default size) are
 * placed; in 1.35/1.36 the placed pods wait at Permit for at most `timeout`
 * (default 5m), then the attempt is rejected, its pods release what they hold,
 * on_timeout(names) is called and the gang is retried after a back-off.
 */
#include <lauxlib.h>
#include <string.h>

#include "engine/sim_gang.h"
#include "workload/lua_internal.h"
#include "util/intern.h"

static const char GANGS_KEY = 0;   /* registry[&GANGS_KEY]: gang id -> {fn, names} */

static const char *const OWN_FIELDS[] = {"all_or_nothing", "min_count", "timeout", "on_timeout", "template", NULL};

static bool own_field(const char *k) {
    for (int i = 0; OWN_FIELDS[i]; i++)
        if (!strcmp(k, OWN_FIELDS[i])) return true;
    return false;
}

/* Copy the string-keyed fields of table `from` into the table on top (skipping ours). */
static void copy_fields(lua_State *L, int from) {
    lua_pushnil(L);
    while (lua_next(L, from)) {
        if (lua_type(L, -2) == LUA_TSTRING && !own_field(lua_tostring(L, -2))) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -4);
        } else {
            lua_pop(L, 1);
        }
    }
}

/* on_timeout: the gang's callback with the list of its pod names. */
static int call_on_timeout(sim_run *r, void *ctx, uint32_t gang, sim_time t) {
    (void)t;
    luaw *w = ctx;
    lua_State *L = w->L;
    if (!lua_checkstack(L, 4)) return 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &GANGS_KEY);
    lua_rawgeti(L, -1, (lua_Integer)gang + 1);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    int rc = luaw_call(w, 1, 0, "a drasim.submit_gang on_timeout callback", &r->error);
    lua_pop(L, 2);
    return rc;
}

int luaw_gang_submit(lua_State *L) {
    luaw *w = luaw_get(L);
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "drasim.submit_gang: expected a pod table with size=N, found %s", luaL_typename(L, 1));
    lua_settop(L, 1);
    bool aon = false;
    if (lua_getfield(L, 1, "all_or_nothing") != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) return luaL_error(L, "drasim.submit_gang: all_or_nothing: expected true or false");
        aon = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    sim_time timeout = 0;
    if (lua_getfield(L, 1, "timeout") != LUA_TNIL) {
        timeout = luaw_check_duration(L, -1, "drasim.submit_gang: timeout");
        if (timeout <= 0) return luaL_error(L, "drasim.submit_gang: timeout: expected a duration > 0");
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, 1, "on_timeout");
    if (t != LUA_TNIL && t != LUA_TFUNCTION)
        return luaL_error(L, "drasim.submit_gang: on_timeout: expected a function, found %s", luaL_typename(L, -1));
    lua_pop(L, 1);
    if (!aon && (timeout || t != LUA_TNIL))
        return luaL_error(L, "drasim.submit_gang: timeout and on_timeout need all_or_nothing = true");
    t = lua_getfield(L, 1, "template");
    if (t != LUA_TNIL && t != LUA_TTABLE)
        return luaL_error(L, "drasim.submit_gang: template: expected a pod table, found %s", luaL_typename(L, -1));
    lua_pop(L, 1);
    /* the pod table of the plain submit_gang: the template's fields, then the call's own */
    lua_pushcfunction(L, luaw_submit_gang);
    lua_newtable(L);
    if (lua_getfield(L, 1, "template") == LUA_TTABLE) {
        lua_insert(L, -2);   /* ..., template, new table */
        int tmpl = lua_gettop(L) - 1;
        copy_fields(L, tmpl);
        lua_remove(L, tmpl);
    } else {
        lua_pop(L, 1);
    }
    copy_fields(L, 1);
    int pod = lua_gettop(L);
    lua_Integer size = (lua_getfield(L, pod, "size") == LUA_TNUMBER && lua_isinteger(L, -1)) ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    const char *group = lua_getfield(L, pod, "group") == LUA_TSTRING ? intern(lua_tostring(L, -1)) : intern("lua");
    lua_pop(L, 1);
    lua_Integer min = size;
    if (lua_getfield(L, 1, "min_count") != LUA_TNIL) {
        if (!aon) return luaL_error(L, "drasim.submit_gang: min_count needs all_or_nothing = true");
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || (size > 0 && lua_tointeger(L, -1) > size))
            return luaL_error(L, "drasim.submit_gang: min_count: expected an integer from 1 to size");
        min = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    lua_call(L, 1, 1);   /* the names (errors are the plain submit_gang's, with the script's line) */
    int names = lua_gettop(L);
    if (!aon || !w->run) return 1;
    uint32_t g = sim_gang_new(w->run, group, (int32_t)min, (int32_t)size, timeout);
    lua_Integer n = (lua_Integer)lua_rawlen(L, names);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, names, i);
        sim_gang_expect(w->run, g, intern(lua_tostring(L, -1)));
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "on_timeout") == LUA_TFUNCTION) {
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &GANGS_KEY) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, -1);
            lua_rawsetp(L, LUA_REGISTRYINDEX, &GANGS_KEY);
        }
        lua_createtable(L, 2, 0);
        lua_pushvalue(L, -3);
        lua_rawseti(L, -2, 1);
        lua_pushvalue(L, names);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, (lua_Integer)g + 1);
        lua_pop(L, 1);
        sim_gang_on_timeout(w->run, g, call_on_timeout, w);
    }
    lua_pop(L, 1);
    lua_settop(L, names);
    return 1;
}
