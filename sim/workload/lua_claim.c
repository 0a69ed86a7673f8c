/*
 * lua_claim.c -- drasim.claim{...}: a DRA claim entry of a pod's
 * `gpu.dra.claims` list from a few flat fields, instead of the 8-level
 * ResourceClaim spec (docs/LUA.md). The table it returns is the ordinary
 * claim shape (resource.k8s.io/v1 ResourceClaimSpec under `spec`), so
 * drasim.submit checks it with the scenario parser like any claim:
 *
 *   drasim.claim{count = 2}                      -> 2 devices of gpu.nvidia.com
 *   drasim.claim{profile = "3g.40gb"}            -> 1 MIG device of that profile
 *   drasim.claim{class = "gpu.nvidia.com", selector = "device.attributes['gpu.nvidia.com'].productName == 'X'",
 *                match = "resource.kubernetes.io/pcieRoot", count = 2, name = "gpus"}
 *   drasim.claim{shared = "team-gpu"}           -> {name =, resourceClaimName = "team-gpu"}
 */
#include <lauxlib.h>
#include <string.h>

#include "workload/lua_internal.h"

#define GPU_CLASS "gpu.nvidia.com"   /* the generated inventory's DeviceClasses (model/inventory_dra.c) */
#define MIG_CLASS "mig.nvidia.com"

static const char *const FIELDS[] = {"name", "class", "count", "selector", "profile", "match", "capacity", "shared",
                                     NULL};

static const char *opt_str(lua_State *L, const char *k) {
    int t = lua_getfield(L, 1, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    if (t != LUA_TSTRING || lua_rawlen(L, -1) == 0)
        luaL_error(L, "drasim.claim: %s: expected a non-empty string, found %s", k, lua_typename(L, t));
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);   /* the argument table keeps it alive */
    return s;
}

/* Push {cel = {expression = e}} and append it to the list at index list. */
static void add_selector(lua_State *L, int list, const char *e) {
    lua_createtable(L, 0, 1);
    lua_createtable(L, 0, 1);
    lua_pushstring(L, e);
    lua_setfield(L, -2, "expression");
    lua_setfield(L, -2, "cel");
    lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
}

static bool profile_ok(const char *p) {
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
              *p == '+' || *p == '-'))
            return false;
    return true;
}

int luaw_claim(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE)
        return luaL_error(L, "drasim.claim: expected a table such as {count = 2} or {profile = \"3g.40gb\"}, found %s",
                          luaL_typename(L, 1));
    lua_settop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        bool ok = lua_type(L, -1) == LUA_TSTRING;
        for (int i = 0; ok && FIELDS[i]; i++)
            if (!strcmp(lua_tostring(L, -1), FIELDS[i])) goto known;
        return luaL_error(L, "drasim.claim: unknown field '%s' (expected one of: name, class, count, selector, profile, "
                             "match, capacity, shared)", ok ? lua_tostring(L, -1) : luaL_typename(L, -1));
    known:;
    }
    luaw_charge_work(L, 32);
    const char *profile = opt_str(L, "profile"), *cls = opt_str(L, "class"), *name = opt_str(L, "name");
    const char *shared = opt_str(L, "shared"), *match = opt_str(L, "match");
    if (profile && !profile_ok(profile))
        return luaL_error(L, "drasim.claim: profile: '%s' is not a MIG profile name such as 3g.40gb", profile);
    if (!cls) cls = profile ? MIG_CLASS : GPU_CLASS;
    if (!name) name = shared ? shared : profile ? "mig" : "gpu";
    if (shared) {   /* a workload.resourceClaims entry: {name =, resourceClaimName =} */
        lua_getfield(L, 1, "count");
        lua_getfield(L, 1, "selector");
        lua_getfield(L, 1, "capacity");
        if (!lua_isnil(L, -1) || !lua_isnil(L, -2) || !lua_isnil(L, -3) || profile || match || opt_str(L, "class"))
            return luaL_error(L, "drasim.claim: shared: a shared claim is defined in workload.resourceClaims; only "
                                 "'name' may go with it");
        lua_createtable(L, 0, 2);
        lua_pushstring(L, name);
        lua_setfield(L, -2, "name");
        lua_pushstring(L, shared);
        lua_setfield(L, -2, "resourceClaimName");
        return 1;
    }
    lua_createtable(L, 0, 4);   /* exactly */
    int ex = lua_gettop(L);
    lua_pushstring(L, cls);
    lua_setfield(L, ex, "deviceClassName");
    int t = lua_getfield(L, 1, "count");
    if (t == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "all")) {
        lua_pushstring(L, "All");
        lua_setfield(L, ex, "allocationMode");
    } else if (t != LUA_TNIL) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 1000000)
            return luaL_error(L, "drasim.claim: count: expected a positive integer or \"all\"");
        lua_pushinteger(L, lua_tointeger(L, -1));
        lua_setfield(L, ex, "count");
    }
    lua_pop(L, 1);
    lua_newtable(L);   /* selectors */
    int sels = lua_gettop(L);
    if (profile) {
        lua_pushfstring(L, "device.attributes['" GPU_CLASS "'].profile == '%s'", profile);
        add_selector(L, sels, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    t = lua_getfield(L, 1, "selector");
    if (t == LUA_TSTRING) add_selector(L, sels, lua_tostring(L, -1));
    else if (t == LUA_TTABLE) {
        for (lua_Integer i = 1, n = (lua_Integer)lua_rawlen(L, -1); i <= n; i++) {
            if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
                return luaL_error(L, "drasim.claim: selector[%d]: expected a CEL expression (string)", (int)i);
            add_selector(L, sels, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    } else if (t != LUA_TNIL) {
        return luaL_error(L, "drasim.claim: selector: expected a CEL expression or a list of them, found %s",
                          lua_typename(L, t));
    }
    lua_pop(L, 1);
    if (lua_rawlen(L, sels)) lua_setfield(L, ex, "selectors");
    else lua_pop(L, 1);
    t = lua_getfield(L, 1, "capacity");   /* {memory = "10Gi"}: capacity.requests */
    if (t == LUA_TTABLE) {
        lua_createtable(L, 0, 1);
        lua_insert(L, -2);
        lua_setfield(L, -2, "requests");
        lua_setfield(L, ex, "capacity");
    } else if (t != LUA_TNIL) {
        return luaL_error(L, "drasim.claim: capacity: expected a table such as {memory = \"10Gi\"}, found %s",
                          lua_typename(L, t));
    } else {
        lua_pop(L, 1);
    }
    /* request {name =, exactly =} in spec.devices.requests */
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushvalue(L, ex);
    lua_setfield(L, -2, "exactly");
    lua_createtable(L, 1, 0);
    lua_insert(L, -2);
    lua_rawseti(L, -2, 1);   /* requests list */
    lua_createtable(L, 0, 2);   /* devices */
    lua_insert(L, -2);
    lua_setfield(L, -2, "requests");
    if (match) {   /* all devices of the request share this attribute's value (matchAttribute) */
        lua_createtable(L, 1, 0);
        lua_createtable(L, 0, 2);
        lua_pushstring(L, match);
        lua_setfield(L, -2, "matchAttribute");
        lua_createtable(L, 1, 0);
        lua_pushstring(L, name);
        lua_rawseti(L, -2, 1);
        lua_setfield(L, -2, "requests");
        lua_rawseti(L, -2, 1);
        lua_setfield(L, -2, "constraints");
    }
    lua_createtable(L, 0, 1);   /* spec */
    lua_insert(L, -2);
    lua_setfield(L, -2, "devices");
    lua_createtable(L, 0, 2);   /* the claim entry */
    lua_insert(L, -2);
    lua_setfield(L, -2, "spec");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    return 1;
}
