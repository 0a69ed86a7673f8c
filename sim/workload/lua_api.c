/*
 * lua_api.c -- the global `drasim` table a generator script sees (the
 * reference is docs/LUA.md): clock, seeded random draws, timers, pod
 * submission (lua_pods.c), read-only cluster state, CSV tables and the
 * scenario's `args`. Every function checks its arguments and raises a Lua
 * error naming the function and the argument on bad input.
 */
#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "engine/sim.h"
#include "engine/sim_evict.h"
#include "util/csv.h"
#include "util/intern.h"
#include "workload/lua_internal.h"
#include "workload/lua_source.h"

sim_time luaw_check_duration(lua_State *L, int idx, const char *what) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double s = lua_tonumber(L, idx);
        if (!(s >= 0 && s < 9.0e12)) return luaL_error(L, "%s: expected a non-negative number of seconds, found %f", what, s);
        double ms = s * 1000.0;   /* llround for 0 <= ms < 2^63, without the libm call (a pod has two) */
        sim_time whole = (sim_time)ms;
        return whole + (ms - (double)whole >= 0.5);
    }
    if (lua_type(L, idx) == LUA_TSTRING) {
        sim_time t;
        if (parse_duration_text(lua_tostring(L, idx), &t) == 0) return t;
        return luaL_error(L, "%s: expected a duration such as 90s, 5m or 1h30m, found '%s'", what, lua_tostring(L, idx));
    }
    return luaL_error(L, "%s: expected a duration (number of seconds or a string such as \"5m\"), found %s", what,
                      luaL_typename(L, idx));
}

static double check_number(lua_State *L, int idx, const char *what) {
    if (lua_type(L, idx) != LUA_TNUMBER)
        return luaL_error(L, "%s: expected a number, found %s", what, luaL_typename(L, idx));
    double v = lua_tonumber(L, idx);
    if (!isfinite(v)) return luaL_error(L, "%s: expected a finite number", what);
    return v;
}

static lua_Integer check_integer(lua_State *L, int idx, const char *what) {
    if (!lua_isinteger(L, idx)) {
        if (lua_type(L, idx) == LUA_TNUMBER) {
            lua_Number n = lua_tonumber(L, idx);
            lua_Integer i;
            if (lua_numbertointeger(floor(n), &i) && floor(n) == n) return i;
        }
        return luaL_error(L, "%s: expected an integer, found %s", what, luaL_typename(L, idx));
    }
    return lua_tointeger(L, idx);
}

/* ---- clock and random draws ---- */

static int api_now(lua_State *L) {
    lua_pushnumber(L, (double)luaw_now(luaw_get(L)) / 1000.0);
    return 1;
}

static int api_duration(lua_State *L) {
    lua_pushnumber(L, (double)luaw_check_duration(L, 1, "drasim.duration") / 1000.0);
    return 1;
}

static int api_random(lua_State *L) {
    lua_pushnumber(L, rng_uniform(&luaw_get(L)->rng));
    return 1;
}

static int api_random_int(lua_State *L) {
    lua_Integer a = check_integer(L, 1, "drasim.random_int: a"), b = check_integer(L, 2, "drasim.random_int: b");
    if (a > b) return luaL_error(L, "drasim.random_int: empty interval [%I, %I]", a, b);
    uint64_t span = (uint64_t)b - (uint64_t)a;
    luaw *w = luaw_get(L);
    uint64_t v = span == UINT64_MAX ? rng_next(&w->rng) : rng_below(&w->rng, span + 1);
    lua_pushinteger(L, (lua_Integer)((uint64_t)a + v));
    return 1;
}

static int api_normal(lua_State *L) {
    double mu = lua_isnoneornil(L, 1) ? 0 : check_number(L, 1, "drasim.normal: mean");
    double sd = lua_isnoneornil(L, 2) ? 1 : check_number(L, 2, "drasim.normal: stddev");
    if (sd < 0) return luaL_error(L, "drasim.normal: stddev must be >= 0");
    lua_pushnumber(L, mu + sd * rng_normal(&luaw_get(L)->rng));
    return 1;
}

static int api_exponential(lua_State *L) {
    double mean = check_number(L, 1, "drasim.exponential: mean");
    if (!(mean > 0)) return luaL_error(L, "drasim.exponential: mean must be > 0");
    lua_pushnumber(L, rng_exponential(&luaw_get(L)->rng, mean));
    return 1;
}

static int api_lognormal(lua_State *L) {
    double mu = check_number(L, 1, "drasim.lognormal: mu"), sigma = check_number(L, 2, "drasim.lognormal: sigma");
    if (sigma < 0 || sigma > 10) return luaL_error(L, "drasim.lognormal: sigma must be in [0, 10]");
    if (fabs(mu) > 700) return luaL_error(L, "drasim.lognormal: mu out of range");
    lua_pushnumber(L, rng_lognormal(&luaw_get(L)->rng, mu, sigma));
    return 1;
}

/* ---- timers ---- */

/* Timer ids: slot + 1 in the low 32 bits, the slot's generation above. */
static int add_timer(lua_State *L, sim_time at, sim_time interval, int fn_idx) {
    luaw *w = luaw_get(L);
    luaw_charge(L, w, LUAW_QUEUED_COST);
    if (!w->free_timer && w->timers.len >= UINT32_MAX - 1) return luaL_error(L, "too many timers");
    lua_pushvalue(L, fn_idx);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    size_t slot;
    if (w->free_timer) {   /* reuse a finished timer's slot: fired timers cost nothing */
        slot = w->free_timer - 1;
        w->free_timer = w->timers.data[slot].next_free;
    } else {
        luaw_timer fresh = {0};
        VEC_PUSH(w->timers, fresh);
        slot = w->timers.len - 1;
    }
    luaw_timer *t = &w->timers.data[slot];
    t->fn_ref = ref;
    t->interval = interval;
    t->gen++;
    t->next_free = 0;
    /* common random numbers: the timer draws from its own stream, so draws of
     * callbacks that depend on the fleet (on_finish, drasim.pending()) never
     * shift the draws of other timers; setting it draws nothing (lua_streams.c) */
    luaw_child_stream(L, w, fn_idx, &t->rng);
    luaw_schedule(w, at, ((uint64_t)slot << LUAW_EV_SHIFT) | LUAW_EV_TIMER);
    lua_pushinteger(L, (lua_Integer)(((uint64_t)t->gen - 1) << 32 | (slot + 1)));
    return 1;
}

static int api_every(lua_State *L) {
    sim_time iv = luaw_check_duration(L, 1, "drasim.every: interval");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    if (iv <= 0) return luaL_error(L, "drasim.every: the interval must be positive");
    sim_time start = lua_isnoneornil(L, 3) ? luaw_now(luaw_get(L)) + iv
                                           : luaw_check_duration(L, 3, "drasim.every: first time");
    if (start < luaw_now(luaw_get(L))) return luaL_error(L, "drasim.every: the first time is in the past");
    return add_timer(L, start, iv, 2);
}

static int api_at(lua_State *L) {
    sim_time t = luaw_check_duration(L, 1, "drasim.at: time");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    sim_time now = luaw_now(luaw_get(L));
    if (t < now) return luaL_error(L, "drasim.at: time %f s is in the past (now %f s)", t / 1000.0, now / 1000.0);
    return add_timer(L, t, 0, 2);
}

static int api_after(lua_State *L) {
    sim_time d = luaw_check_duration(L, 1, "drasim.after: delay");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    return add_timer(L, luaw_now(luaw_get(L)) + d, 0, 2);
}

static int api_cancel(lua_State *L) {
    luaw *w = luaw_get(L);
    lua_Integer id = check_integer(L, 1, "drasim.cancel: timer");
    uint64_t slot = ((uint64_t)id & 0xffffffffu) - 1, gen = ((uint64_t)id >> 32) + 1;
    if (id < 1 || slot >= w->timers.len || gen > w->timers.data[slot].gen)
        return luaL_error(L, "drasim.cancel: no timer %I", id);
    luaw_timer *t = &w->timers.data[slot];
    if (t->fn_ref == LUA_NOREF || gen != t->gen) return 0;   /* already done (the slot may serve another timer now) */
    luaL_unref(L, LUA_REGISTRYINDEX, t->fn_ref);
    t->fn_ref = LUA_NOREF;
    luaw_charge(L, w, -LUAW_QUEUED_COST);
    return 0;
}

static int api_on_finish(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    if (luaw_name_find(w, name, strlen(name)) == UINT32_MAX)
        return luaL_error(L, "drasim.on_finish: no pod named '%s' was submitted", name);
    w->any_finish = true;
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->finish_ref);
    if (lua_getfield(L, -1, name) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, name);
    }
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    return 0;
}

static int api_on_start(lua_State *L) {
    luaw *w = luaw_get(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    w->any_start = true;
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->start_all_ref);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    return 0;
}

/* Pod `name` of this script: 1 with its id in *id (arrived), 0 with its
 * podref value in *ref (submitted, not arrived: luaw_arrival_of), -1
 * (unknown, or deleted before it arrived); *k = its submission number when known. */
static int find_pod(lua_State *L, luaw *w, const char *name, uint32_t *id, int64_t *ref, size_t *k) {
    (void)L;
    uint32_t n = luaw_name_find(w, name, strlen(name));
    if (n == UINT32_MAX) return -1;
    *k = n;
    int64_t v = w->podref.data[*k];
    if (v == LUAW_GONE) return -1;
    if (v >= 0) {
        *id = (uint32_t)v;
        return 1;
    }
    *ref = v;
    return 0;
}

/* A user metric or series name: "user_" then [A-Za-z0-9_.-], 6..64 bytes
 * (the prefix keeps it apart from every metric drasim writes). */
static const char *check_user_name(lua_State *L, int idx, const char *fn, const char *what) {
    size_t n;
    if (lua_type(L, idx) != LUA_TSTRING)
        luaL_error(L, "%s: %s: expected a string, found %s", fn, what, luaL_typename(L, idx));
    const char *s = lua_tolstring(L, idx, &n);
    bool ok = n > 5 && n <= 64 && !strncmp(s, "user_", 5);
    for (size_t i = 0; ok && i < n; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
             s[i] == '_' || s[i] == '.' || s[i] == '-';
    if (!ok)
        luaL_error(L, "%s: %s '%s': expected 'user_' followed by letters, digits, '_', '.' or '-', at most 64 characters "
                      "(names without the user_ prefix are drasim's own)", fn, what, s);
    return s;
}

static int api_record(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *metric = check_user_name(L, 1, "drasim.record", "metric");
    double v = check_number(L, 2, "drasim.record: value");
    const char *group = "";
    if (!lua_isnoneornil(L, 3)) {
        if (lua_type(L, 3) != LUA_TSTRING || lua_rawlen(L, 3) == 0 || lua_rawlen(L, 3) > 253)
            return luaL_error(L, "drasim.record: group: expected a non-empty string of at most 253 characters");
        group = lua_tostring(L, 3);
        if (strlen(group) != lua_rawlen(L, 3)) return luaL_error(L, "drasim.record: group: contains a NUL byte");
    }
    luaw_charge_work(L, 16);
    if (!w->records_ref) return 0;   /* no engine (tests): nothing to record into */
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->records_ref);
    lua_pushstring(L, metric);
    lua_pushlstring(L, "", 1);
    lua_pushstring(L, group);
    lua_concat(L, 3);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, -3) == LUA_TNUMBER) {   /* recorded before: the last value wins */
        w->records.data[lua_tointeger(L, -1) - 1].value = v;
        lua_pop(L, 3);
        return 0;
    }
    lua_pop(L, 1);
    luaw_charge(L, w, LUAW_QUEUED_COST);
    luaw_record rec = {intern(metric), *group ? intern(group) : NULL, v};
    VEC_PUSH(w->records, rec);
    lua_pushinteger(L, (lua_Integer)w->records.len);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return 0;
}

static int api_sample(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *series = check_user_name(L, 1, "drasim.sample", "series");
    double v = check_number(L, 2, "drasim.sample: value");
    luaw_charge_work(L, 16);
    if (!w->run) return 0;
    luaw_charge(L, w, (long)sizeof(sim_user_sample));
    sim_user_sample x = {intern(series), luaw_now(w), v};
    VEC_PUSH(w->run->user_samples, x);
    return 0;
}

static const char *const STATE_NAMES[] = {"pending", "running", "succeeded", "deleted", "terminating", "failed"};

/* A deleted or evicted pod: its on_start/on_finish callbacks never run and
 * drasim.wait on it returns "deleted" now. */
static void forget_pod(lua_State *L, luaw *w, const char *name) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->finish_ref);
    lua_pushnil(L);
    lua_setfield(L, -2, name);
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->start_ref);
    lua_pushnil(L);
    lua_setfield(L, -2, name);
    lua_pop(L, 2);
    luaw_deleted_hook(L, w, name);
}

static int api_delete(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *name = luaL_checkstring(L, 1);
    const char *reason = NULL;
    if (!lua_isnoneornil(L, 2)) {
        size_t n;
        reason = luaL_checklstring(L, 2, &n);
        if (n > 1024) return luaL_error(L, "drasim.delete: reason: at most 1024 bytes, found %d", (int)n);
    }
    luaw_charge_work(L, 16);
    uint32_t id;
    int64_t ref;
    size_t sub;
    int k = find_pod(L, w, name, &id, &ref, &sub);
    if (k < 0) {
        lua_pushnil(L);
        return 1;
    }
    if (reason) reason = intern(reason);
    if (k == 0) {   /* not arrived yet: it never will */
        luaw_arrival *a = luaw_arrival_of(w, ref);
        if (a->due_now) w->due.data[a->cls]--;
        a->cls = LUAW_CANCELLED;
        w->podref.data[sub] = LUAW_GONE;
        luaw_deleted_hook(L, w, name);
        lua_pushstring(L, "submitted");
        return 1;
    }
    const sim_pod *p = &w->run->pods.data[id];
    /* the pending queue is searched: charge its length */
    if (p->state == POD_PENDING) luaw_charge_work(L, (int64_t)sched_waiting(&w->run->sched, p->group));
    int was = sim_delete(w->run, id, reason, luaw_now(w));
    if (was < 0) {
        lua_pushnil(L);
        return 1;
    }
    forget_pod(L, w, name);
    lua_pushstring(L, STATE_NAMES[was]);
    return 1;
}

/* drasim.evict(name [, {reason=, grace=}]) -> the state the pod was in
 * ("pending", "running") or nil: the Eviction API (engine/sim_evict.h). A
 * running pod terminates gracefully: it keeps its resources for `grace`
 * (default: its terminationGracePeriodSeconds, 30 s), then they are free; a
 * pending one leaves the queue. Counted as an eviction (cause drain, as
 * kubectl drain uses this API); its on_start/on_finish callbacks never run. */
static int api_evict(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *name = luaL_checkstring(L, 1);
    const char *reason = "Evicted";
    sim_time grace = -1;
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        if (lua_getfield(L, 2, "reason") != LUA_TNIL) {
            size_t n;
            const char *s = lua_tolstring(L, -1, &n);
            if (!s || lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "drasim.evict: reason: expected a string");
            if (n > 1024) return luaL_error(L, "drasim.evict: reason: at most 1024 bytes, found %d", (int)n);
            reason = intern(s);
        }
        if (lua_getfield(L, 2, "grace") != LUA_TNIL) grace = luaw_check_duration(L, -1, "drasim.evict: grace");
        lua_pop(L, 2);
    }
    luaw_charge_work(L, 16);
    uint32_t id;
    int64_t ref;
    size_t sub;
    if (find_pod(L, w, name, &id, &ref, &sub) <= 0) {   /* unknown, or not arrived yet: nothing to evict */
        lua_pushnil(L);
        return 1;
    }
    const sim_pod *p = &w->run->pods.data[id];
    if (p->state == POD_PENDING) luaw_charge_work(L, (int64_t)sched_waiting(&w->run->sched, p->group));
    int was = sim_evict(w->run, id, EVICT_DRAIN, reason, grace, luaw_now(w));
    if (was < 0) {
        lua_pushnil(L);
        return 1;
    }
    forget_pod(L, w, name);
    lua_pushstring(L, STATE_NAMES[was]);
    return 1;
}

static void set_time(lua_State *L, const char *k, sim_time t) {
    if (t < 0) return;
    lua_pushnumber(L, (double)t / 1000.0);
    lua_setfield(L, -2, k);
}

static int api_pod(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *name = luaL_checkstring(L, 1);
    luaw_charge_work(L, 16);
    uint32_t id;
    int64_t ref;
    size_t sub;
    int k = find_pod(L, w, name, &id, &ref, &sub);
    if (k < 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 6);
    if (k == 0) {
        lua_pushstring(L, "submitted");
        lua_setfield(L, -2, "state");
        return 1;
    }
    const sim_pod *p = &w->run->pods.data[id];
    lua_pushstring(L, STATE_NAMES[p->state]);
    lua_setfield(L, -2, "state");
    if (p->node >= 0) {
        lua_pushstring(L, w->run->nodes[p->node].meta.name);
        lua_setfield(L, -2, "node");
    }
    set_time(L, "arrival", p->arrival);
    set_time(L, "start", p->start);
    set_time(L, "finish", p->end);
    luaw_push_labels(L, w, id);
    lua_setfield(L, -2, "labels");   /* nil: no field */
    if (p->node >= 0) {   /* {resource = {unit, ...}} of the device units it took */
        const pod_class *c = &w->run->sched.classes[p->group];
        const uint64_t *u = sim_pod_units(w->run, p);
        lua_createtable(L, 0, (int)c->next);
        size_t x = 0;   /* as pods.devices: the units of each extended resource */
        for (size_t e = 0; e < c->ndemand; e++) {
            if (c->demand[e].res <= RES_PODS) continue;
            uint64_t m = x < 8 ? u[x] : 0;
            x++;
            if (!m && (int)c->demand[e].res == c->gpu_res) m = p->gpus;
            if (!m) continue;
            lua_newtable(L);
            int n = 0;
            for (; m; m &= m - 1) {
                lua_pushinteger(L, __builtin_ctzll(m));
                lua_rawseti(L, -2, ++n);
            }
            lua_setfield(L, -2, w->run->sched.res_names[c->demand[e].res]);
        }
        lua_setfield(L, -2, "devices");
    }
    return 1;
}

/* ---- cluster state (read-only) ---- */

void luaw_index_class(lua_State *L, luaw *w, uint32_t c) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->groups_ref);
    if (lua_getfield(L, -1, w->run->sched.classes[c].name) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, w->run->sched.classes[c].name);
    }
    lua_pushinteger(L, c);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 2);
}

/* Sum per class over the classes of `group` (the group index), or over all
 * classes; the classes visited are charged to the budget. */
static int64_t sum_classes(lua_State *L, luaw *w, const char *group, int64_t (*per_class)(const sim_run *, uint32_t)) {
    int64_t n = 0;
    if (!group) {
        luaw_charge_work(L, (int64_t)w->run->sched.nclasses + 1);
        for (size_t c = 0; c < w->run->sched.nclasses; c++) n += per_class(w->run, (uint32_t)c);
        return n;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->groups_ref);
    if (lua_getfield(L, -1, group) == LUA_TTABLE) {
        lua_Integer k = (lua_Integer)lua_rawlen(L, -1);
        luaw_charge_work(L, k + 1);
        for (lua_Integer i = 1; i <= k; i++) {
            lua_rawgeti(L, -1, i);
            n += per_class(w->run, (uint32_t)lua_tointeger(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 2);
    return n;
}

static luaw *count_w;   /* the script whose counts are taken (pods submitted for now, not arrived) */
static int64_t class_waiting(const sim_run *r, uint32_t c) {
    int64_t due = count_w && c < count_w->due.len ? count_w->due.data[c] : 0;
    return (int64_t)sched_waiting(&r->sched, c) + due;
}
static int64_t class_running(const sim_run *r, uint32_t c) { return r->class_running[c]; }

static int api_pending(lua_State *L) {
    const char *group = luaL_optstring(L, 1, NULL);
    count_w = luaw_get(L);
    lua_pushinteger(L, sum_classes(L, count_w, group, class_waiting));
    count_w = NULL;
    return 1;
}

static int api_running(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *group = luaL_optstring(L, 1, NULL);
    lua_pushinteger(L, group ? sum_classes(L, w, group, class_running) : w->run->running);
    return 1;
}

static const char *node_label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

static bool is_gpu_resource(const char *r) {
    return !strcmp(r, "nvidia.com/gpu") || !strncmp(r, "nvidia.com/mig-", 15) || !strcmp(r, "nvidia.com/gpu.shared");
}

/* Add v to t[key] (table at the top of the stack). */
static void add_count(lua_State *L, const char *key, lua_Integer v) {
    lua_getfield(L, -1, key);
    lua_Integer cur = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_pushinteger(L, cur + v);
    lua_setfield(L, -2, key);
}

/* free_gpus([by]): free units per GPU resource (by = "resource", default) or free
 * whole GPUs (nvidia.com/gpu) per GPU product label (by = "model"); schedulable nodes only. */
static int api_free_gpus(lua_State *L) {
    static const char *const modes[] = {"resource", "model", NULL};
    int by = luaL_checkoption(L, 1, "resource", modes);
    if (luaw_get(L)->run->dra && luaw_get(L)->run->sc->sched.mode == SCHED_MODE_DRA) return luaw_free_gpus_dra(L, by == 1);
    const scheduler *s = &luaw_get(L)->run->sched;
    size_t R = s->nres;
    luaw_charge_work(L, (int64_t)(s->nnodes * R) + 1);
    lua_newtable(L);
    for (size_t n = 0; n < s->nnodes; n++) {
        if (s->nodes[n].unschedulable) continue;
        const char *model = by ? node_label(&s->nodes[n], "nvidia.com/gpu.product") : NULL;
        for (size_t r = RES_PODS + 1; r < R; r++) {
            if (!is_gpu_resource(s->res_names[r])) continue;
            int64_t freev = s->alloc[n * R + r] - s->used[n * R + r];
            if (!by) add_count(L, s->res_names[r], freev);
            else if (!strcmp(s->res_names[r], "nvidia.com/gpu") && s->alloc[n * R + r] > 0)
                add_count(L, model ? model : "unknown", freev);
        }
    }
    return 1;
}

/* nodes(): {count=, schedulable=, allocatable={res=total}, models={product=nodes}, pools=...}. */
static int api_nodes(lua_State *L) {
    if (!lua_isnoneornil(L, 1)) return luaw_nodes_list(L);   /* drasim.nodes{filters}: per node (lua_view.c) */
    const scheduler *s = &luaw_get(L)->run->sched;
    size_t R = s->nres, sched = 0;
    luaw_charge_work(L, (int64_t)(s->nnodes * (R + 1)) + 1);
    lua_newtable(L);
    lua_newtable(L);   /* allocatable */
    for (size_t r = 0; r < R; r++) {
        int64_t tot = 0;
        for (size_t n = 0; n < s->nnodes; n++) tot += s->alloc[n * R + r];
        if (r == RES_CPU) {
            lua_pushnumber(L, (double)tot / 1000.0);   /* cores */
            lua_setfield(L, -2, "cpu");
        } else if (tot) {
            lua_pushinteger(L, tot);
            lua_setfield(L, -2, s->res_names[r]);
        }
    }
    lua_setfield(L, -2, "allocatable");
    lua_newtable(L);   /* models */
    for (size_t n = 0; n < s->nnodes; n++) {
        const char *m = node_label(&s->nodes[n], "nvidia.com/gpu.product");
        if (m) add_count(L, m, 1);
        if (!s->nodes[n].unschedulable) sched++;
    }
    lua_setfield(L, -2, "models");
    lua_pushinteger(L, (lua_Integer)s->nnodes);
    lua_setfield(L, -2, "count");
    lua_pushinteger(L, (lua_Integer)sched);
    lua_setfield(L, -2, "schedulable");
    return 1;
}

/* ---- data ---- */

/* __gc of the userdata that owns a parsed CSV while it is turned into tables
 * (a memory error half-way must not leak it). */
static int csv_guard_gc(lua_State *L) {
    csv_table *t = lua_touserdata(L, 1);
    if (t && t->cells) csv_free(t);
    if (t) memset(t, 0, sizeof *t);
    return 0;
}

static void push_cell(lua_State *L, const char *s) {
    if (*s && lua_stringtonumber(L, s) != 0) return;
    lua_pushstring(L, s);
}

/* csv(path): rows of a CSV file from the script's directory (relative path, no ".."),
 * as a list of {column = value} tables; numeric cells become numbers. Second result: the header. */
static int api_csv(lua_State *L) {
    luaw *w = luaw_get(L);
    const char *rel = luaL_checkstring(L, 1);
    if (!*rel || rel[0] == '/' || strstr(rel, ".."))
        return luaL_error(L, "drasim.csv: '%s': expected a path relative to the script's directory, without '..'", rel);
    csv_table *t = lua_newuserdatauv(L, sizeof *t, 0);
    memset(t, 0, sizeof *t);
    lua_newtable(L);
    lua_pushcfunction(L, csv_guard_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    const char *path = lua_pushfstring(L, "%s%s%s", w->script_dir, *w->script_dir ? "/" : "", rel);
    strbuf err = {0};
    int rc = csv_load(path, t, &err);   /* no Lua call until err is freed */
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sb_str(&err));
    sb_free(&err);
    lua_pop(L, 1);
    if (rc) {
        memset(t, 0, sizeof *t);
        return luaL_error(L, "drasim.csv: %s", msg);
    }
    lua_createtable(L, (int)t->nrows, 0);
    for (size_t r = 0; r < t->nrows; r++) {
        lua_createtable(L, 0, (int)t->ncols);
        for (size_t c = 0; c < t->ncols; c++) {
            push_cell(L, csv_cell(t, r, (int)c));
            lua_setfield(L, -2, t->cells[c]);
        }
        lua_rawseti(L, -2, (lua_Integer)r + 1);
    }
    lua_createtable(L, (int)t->ncols, 0);
    for (size_t c = 0; c < t->ncols; c++) {
        lua_pushstring(L, t->cells[c]);
        lua_rawseti(L, -2, (lua_Integer)c + 1);
    }
    csv_free(t);
    memset(t, 0, sizeof *t);
    return 2;
}

/* Push a scenario YAML node as a Lua value: plain true/false -> boolean,
 * numeric plain scalars -> numbers, null -> nil, lists and maps -> tables. */
static void push_ynode(lua_State *L, const ynode *n) {
    luaL_checkstack(L, 4, "args too deep");
    if (n->kind == YN_SCALAR) {
        if (n->plain && y_is_null(n)) lua_pushnil(L);
        else if (n->plain && (y_scalar_eq(n, "true") || y_scalar_eq(n, "false"))) lua_pushboolean(L, y_scalar_eq(n, "true"));
        else if (!(n->plain && lua_stringtonumber(L, n->str))) lua_pushlstring(L, n->str, n->len);
        return;
    }
    lua_createtable(L, n->kind == YN_SEQ ? (int)n->n : 0, n->kind == YN_MAP ? (int)n->n : 0);
    for (size_t i = 0; i < n->n; i++) {   /* map keys are scalars (checked by scenario_parse_lua_source) */
        push_ynode(L, n->vals[i]);
        if (n->kind == YN_SEQ) lua_rawseti(L, -2, (lua_Integer)i + 1);
        else {
            lua_pushlstring(L, n->keys[i]->str, n->keys[i]->len);
            lua_insert(L, -2);
            lua_rawset(L, -3);
        }
    }
}

void luaw_open_api(luaw *w, const ynode *args) {
    static const luaL_Reg fns[] = {
        {"now", api_now},           {"duration", api_duration},       {"random", api_random},
        {"random_int", api_random_int}, {"normal", api_normal},       {"exponential", api_exponential},
        {"lognormal", api_lognormal}, {"every", api_every},           {"at", api_at},
        {"after", api_after},       {"cancel", api_cancel},           {"on_finish", api_on_finish},
        {"on_start", api_on_start},  {"delete", api_delete},          {"evict", api_evict},  {"pod", api_pod},
        {"submit", luaw_submit},    {"submit_gang", luaw_gang_submit}, {"pending", api_pending},
        {"running", api_running},   {"free_gpus", api_free_gpus},     {"nodes", api_nodes},
        {"csv", api_csv},           {"record", api_record},           {"sample", api_sample},           {"sorted_keys", luaw_sorted_keys},
        {"claim", luaw_claim},      {"template", luaw_template}, {NULL, NULL}};
    lua_State *L = w->L;
    luaL_newlib(L, fns);
    luaw_open_view(L);
    luaw_open_csv_rows(L);
    luaw_open_faults(L);   /* lua_faults.c */
    if (args) push_ynode(L, args);
    else lua_newtable(L);
    lua_setfield(L, -2, "args");
    lua_pushinteger(L, (lua_Integer)(w->run ? w->run->sc->seed : 0));
    lua_setfield(L, -2, "seed");
    lua_pushstring(L, w->run && w->run->sc->sched.mode == SCHED_MODE_DRA ? "dra" : "device-plugin");
    lua_setfield(L, -2, "mode");
    lua_pushnumber(L, w->run ? (double)w->run->sc->stop_time / 1000.0 : 0);
    lua_setfield(L, -2, "stop_time");
    /* In the loaded-modules table too, so that errors and tracebacks name
     * C functions ("bad argument #2 to 'drasim.every'", not '?'). */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "drasim");
    lua_pop(L, 1);
    lua_setglobal(L, "drasim");
    luaw_open_process(L);
    if (w->run) {
        lua_newtable(L);
        w->groups_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        for (size_t c = 0; c < w->run->sched.nclasses; c++) luaw_index_class(L, w, (uint32_t)c);
    }
}
