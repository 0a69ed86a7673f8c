/*
 * lua_source.c -- the Lua generator as the engine's workload source: loads
 * the script at time 0, turns timers and submitted pods into EV_SOURCE
 * events (arg = index << 1 | kind) and calls drasim.on_finish callbacks.
 */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "engine/sim_labels.h"
#include "util/input_files.h"
#include "util/huge_vec.h"
#include "workload/lua_internal.h"
#include "workload/lua_source.h"

sim_time luaw_now(const luaw *w) { return w->run ? w->run->last_t : 0; }

void luaw_schedule(luaw *w, sim_time t, uint64_t arg) { sim_schedule_source(w->run, w->source_id, t, arg); }

static int open_api(lua_State *L) {
    luaw *w = luaw_get(L);
    luaw_open_api(w, w->spec->args);
    return 0;
}

static void new_ref_table(luaw *w, int *ref) {
    lua_newtable(w->L);
    *ref = luaL_ref(w->L, LUA_REGISTRYINDEX);
}

/* "SCRIPT: lua error in WHAT" for messages. */
static const char *where(luaw *w, const char *what) {
    sb_clear(&w->buf);
    sb_printf(&w->buf, "%s: lua error in %s", w->spec->script, what);
    return sb_str(&w->buf);
}

/* The generator's name: its script's file name without the directory and
 * `.lua` (lua/examples/mix.lua: "mix"); keys its random stream. */
static const char *luaw_generator_name(luaw *w) {
    const char *s = w->spec->script, *slash = strrchr(s, '/');
    const char *base = slash ? slash + 1 : s;
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".lua")) n -= 4;
    return arena_strndup(&w->a, base, n);
}

/* Start: build the sandbox, the API, and run the main chunk at time 0. */
static int source_start(sim_run *r, void *ctx) {
    luaw *w = ctx;
    const lua_source_spec *spec = w->spec;
    w->time_limit = spec->time_limit > 0 ? (double)spec->time_limit / 1000.0 : LUAW_TIME_LIMIT;
    if (luaw_open(w, spec->instruction_limit, spec->memory_limit)) {
        sb_printf(&r->error, "%s: cannot create the Lua state", spec->path);
        return -1;
    }
    const char *slash = strrchr(spec->path, '/');
    w->script_dir = slash ? arena_strndup(&w->a, spec->path, (size_t)(slash - spec->path)) : "";
    if (slash && slash == spec->path) w->script_dir = "/";
    /* the generator may open any file below its directory, at any time (require, drasim.csv*) */
    input_files_note_tree(*w->script_dir ? w->script_dir : ".");
    rng seeded;
    rng_seed(&seeded, r->sc->seed);
    rng_fork(&seeded, rng_name_tag(luaw_generator_name(w)), &w->base);
    w->rng = w->base;   /* the main chunk draws from the generator's stream */
    lua_State *L = w->L;
    if (!lua_checkstack(L, 8)) return -1;
    new_ref_table(w, &w->finish_ref);
    new_ref_table(w, &w->start_ref);
    new_ref_table(w, &w->start_all_ref);
    new_ref_table(w, &w->records_ref);
    lua_pushcfunction(L, open_api);
    if (luaw_call(w, 0, 0, "lua: setting up the drasim API", &r->error)) return -1;
    if (luaw_load_file(w, spec->path)) {
        sb_clear(&r->error);
        sb_printf(&r->error, "lua: %s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "cannot load the script");
        lua_pop(L, 1);
        return -1;
    }
    if (luaw_call(w, 0, 0, where(w, "the main chunk"), &r->error)) return -1;
    luaw_arrivals_expect(w);
    return 0;
}

/* Return timer slot idx to the free list (its one queued event has fired). */
static void free_timer(luaw *w, size_t idx) {
    w->timers.data[idx].next_free = w->free_timer;
    w->free_timer = (uint32_t)idx + 1;
}

/* Each callback has its own budget, so a chain at one instant would keep the
 * clock there forever: drasim.after(0, f) calling itself, or an on_start or
 * after_schedule callback submitting a pod that starts at once and calls it
 * again. Every kind of callback counts against one bound per instant; n
 * callbacks are about to run at t. 0, or -1 with the error set. */
static int instant_guard(sim_run *r, luaw *w, sim_time t, size_t n) {
    if (t != w->instant) {
        w->instant = t;
        w->instant_calls = 0;
    }
    w->instant_calls += (int64_t)n;
    if (w->instant_calls <= LUAW_MAX_CALLS_PER_INSTANT) return 0;
    sb_clear(&r->error);
    sb_printf(&r->error, "%s: more than %d Lua callbacks (timers, on_start, on_finish, after_schedule) at t = %.3f s: "
              "a chain that never lets simulated time advance (drasim.after(0, f) calling itself, or a callback "
              "submitting a pod whose start or placement calls it again?)", w->spec->script,
              LUAW_MAX_CALLS_PER_INSTANT, (double)t / 1000.0);
    return -1;
}

static int fire_timer(sim_run *r, luaw *w, size_t idx, sim_time t) {
    lua_State *L = w->L;
    int ref = w->timers.data[idx].fn_ref;
    if (ref == LUA_NOREF) {   /* cancelled (and refunded) while queued */
        free_timer(w, idx);
        return 0;
    }
    bool every = w->timers.data[idx].interval > 0;
    if (instant_guard(r, w, t, 1)) return -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    rng outer = w->rng;
    w->rng = w->timers.data[idx].rng;   /* the callback draws from its timer's stream */
    int crc = luaw_call(w, 0, 1, where(w, every ? "a drasim.every callback" : "a drasim.at/after callback"),
                        &r->error);
    luaw_timer *tm = &w->timers.data[idx];   /* the callback may have added timers */
    tm->rng = w->rng;                        /* an `every` timer's next call goes on drawing from it */
    w->rng = outer;
    if (crc) return -1;
    bool stop = lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (tm->fn_ref == LUA_NOREF) {           /* it cancelled itself (and was refunded) */
        free_timer(w, idx);
        return 0;
    }
    if (every && !stop) {
        luaw_schedule(w, t + tm->interval, ((uint64_t)idx << LUAW_EV_SHIFT) | LUAW_EV_TIMER);
        return 0;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, tm->fn_ref);
    tm->fn_ref = LUA_NOREF;
    luaw_charge(L, w, -LUAW_QUEUED_COST);
    free_timer(w, idx);
    return 0;
}

static int source_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    luaw *w = ctx;
    size_t idx = (size_t)(arg >> LUAW_EV_SHIFT);
    uint32_t kind = (uint32_t)(arg & ((1u << LUAW_EV_SHIFT) - 1));
    if (kind == LUAW_EV_TIMER) return fire_timer(r, w, idx, t);
    return luaw_arrival_event(r, w, kind, idx, t);
}

/* A pod of ours ended: run its on_finish callbacks (each with the pod name). */
static int source_finished(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    luaw *w = ctx;
    if (!w->any_finish) return 0;   /* no drasim.on_finish yet: nothing to look up */
    lua_State *L = w->L;
    const char *name = sim_pod_name(r, pod);
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->finish_ref);
    if (lua_getfield(L, -1, name) == LUA_TNIL) {
        lua_pop(L, 2);
        return 0;
    }
    lua_pushnil(L);
    lua_setfield(L, -3, name);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (instant_guard(r, w, t, (size_t)n)) {
        lua_pop(L, 2);
        return -1;
    }
    /* when a pod ends depends on the fleet: its callbacks draw from a stream of
     * their own, keyed by the pod's name, and leave every other stream alone */
    rng outer = w->rng;
    rng_fork(&w->base, rng_name_tag(name), &w->rng);
    int rc = 0;
    for (lua_Integer i = 1; i <= n && !rc; i++) {
        lua_rawgeti(L, -1, i);
        lua_pushstring(L, name);
        if (luaw_call(w, 1, 0, where(w, "a drasim.on_finish callback"), &r->error)) rc = -1;
    }
    w->rng = outer;
    lua_pop(L, 2);
    return rc;
}

/* Call the callbacks of list `list_idx` (if it is a list) with the pod name. */
static int call_start_list(sim_run *r, luaw *w, int list_idx, const char *name) {
    lua_State *L = w->L;
    if (lua_type(L, list_idx) != LUA_TTABLE) return 0;
    lua_Integer n = (lua_Integer)lua_rawlen(L, list_idx);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list_idx, i);
        lua_pushstring(L, name);
        if (luaw_call(w, 1, 0, where(w, "a drasim.on_start callback"), &r->error)) return -1;
    }
    return 0;
}

/* A pod of ours was bound: drasim.on_start callbacks (every pod's first, in
 * the order they were set), then the pod's own on_start; each gets the name. */
static int source_started(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    luaw *w = ctx;
    if (!w->any_start) return 0;   /* no on_start callback was ever set */
    lua_State *L = w->L;
    const char *name = sim_pod_name(r, pod);
    if (!lua_checkstack(L, 8)) return -1;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->start_all_ref);
    bool any = lua_rawlen(L, -1) > 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->start_ref);
    lua_getfield(L, -1, name);
    if (!any && lua_isnil(L, -1)) {
        lua_settop(L, top);
        return 0;
    }
    lua_pushnil(L);
    lua_setfield(L, -3, name);   /* a pod starts once */
    size_t n = lua_rawlen(L, top + 1) + (lua_type(L, top + 3) == LUA_TTABLE ? lua_rawlen(L, top + 3) : 0);
    if (instant_guard(r, w, t, n)) {
        lua_settop(L, top);
        return -1;
    }
    /* like on_finish: a stream keyed by the pod's name (another tag than on_finish's) */
    rng outer = w->rng;
    rng_fork(&w->base, rng_name_tag(name) ^ 0x5374617274ULL, &w->rng);
    int rc = call_start_list(r, w, top + 1, name);
    if (!rc) rc = call_start_list(r, w, top + 3, name);
    w->rng = outer;
    lua_settop(L, top);
    return rc;
}

/* After the scheduling pass of an instant: drasim.after_schedule callbacks. */
static int source_after_pass(sim_run *r, void *ctx, sim_time t) {
    luaw *w = ctx;
    if (!w->after_pass.len) return 0;
    if (instant_guard(r, w, t, w->after_pass.len)) return -1;
    return luaw_run_after_pass(w, &r->error, where(w, "a drasim.after_schedule callback"));
}

/* After the run: pods submitted for the stop time or later never arrived. */
static void source_summarize(sim_run *r, void *ctx) {
    luaw *w = ctx;
    sim_metric_add(r, "pods_after_stop", (double)w->after_stop);
    for (size_t i = 0; i < w->records.len; i++) {   /* drasim.record: unique per (metric, group), user_ prefix */
        sim_metric m = {w->records.data[i].metric, w->records.data[i].value, w->records.data[i].group};
        VEC_PUSH(r->summary, m);
    }
    if (w->after_stop)
        fprintf(stderr, "drasim: warning: %s: %lld pod%s submitted for arrival at or after the stop time (%.3f s) "
                "never arrived (summary pods_after_stop)\n", w->spec->script, (long long)w->after_stop,
                w->after_stop == 1 ? " was" : "s were", (double)r->sc->stop_time / 1000.0);
}

static void source_free(void *ctx) {
    luaw *w = ctx;
    luaw_close(w);
    arena_free(&w->a);
    arena_free(&w->shape);
    sb_free(&w->buf);
    VEC_FREE(w->timers);
    luaw_arrivals_free(w);
    VEC_FREE(w->due);
    VEC_FREE(w->records);
    HUGE_VEC_FREE(w->podref);
    luaw_shapes_free(&w->shapes);
    luaw_shape_cache_free(w);
    VEC_FREE(w->key_strs);
    luaw_shapes_free(&w->labelsets);
    luaw_names_free(w);
    luaw_forks_free(w);
    VEC_FREE(w->after_pass);
    free(w);
}

void lua_source_attach(sim_run *r, const lua_source_spec *spec) {
    luaw *w = xcalloc(1, sizeof *w);
    w->run = r;
    w->spec = spec;
    w->script_dir = "";
    sim_source src = {.ctx = w, .start = source_start, .event = source_event, .finished = source_finished,
                      .started = source_started, .after_pass = source_after_pass, .summarize = source_summarize,
                      .free = source_free};
    w->source_id = sim_add_source(r, &src);
    if (w->source_id < 0) source_free(w);
}
