/*
 * lua_internal.h -- shared state of the Lua workload source (lua_*.c):
 * the sandboxed state and its limits (lua_sandbox.c), the drasim API
 * (lua_api.c), pod submission and shape interning (lua_pods.c), timers and
 * the engine hooks (lua_source.c).
 */
#ifndef DRASIM_WORKLOAD_LUA_INTERNAL_H
#define DRASIM_WORKLOAD_LUA_INTERNAL_H

#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/sim.h"
#include "util/arena.h"
#include "util/rng.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* A timer: `every` (interval > 0) or one-shot (`at`, `after`). */
typedef struct luaw_timer {
    int fn_ref;                /* registry reference of the callback, LUA_NOREF when done */
    sim_time interval;         /* 0 = one-shot */
} luaw_timer;

/* A pod submitted for a later (or the current) instant. */
typedef struct luaw_arrival {
    uint32_t cls;
    const char *name;
    sim_time duration;
} luaw_arrival;

typedef struct luaw {
    lua_State *L;
    sim_run *run;              /* NULL when used without an engine (tests, fuzzing) */
    const lua_source_spec *spec;
    const char *script_dir;    /* directory of the main script ("" = cwd) */
    /* limits */
    size_t mem_used, mem_limit;
    size_t c_used;             /* C-side memory charged to the same limit: queued timers and arrivals */
    int64_t instr_limit, instr_used;
    bool instr_exceeded;
    char last_where[256];      /* "script:line" seen by the count hook in this callback, "" if none */
    /* state */
    rng rng;
    arena a;                   /* pod names and the specs of the classes made from Lua */
    arena shape;               /* scratch: the tree and spec of a shape being checked */
    int shape_attempts;        /* new shapes parsed (valid or not), capped at 2 * LUAW_MAX_CLASSES */
    strbuf buf;                /* per-submit text (shape keys, parser errors) */
    VEC(luaw_timer) timers;
    VEC(luaw_arrival) arrivals;
    int shapes_ref;            /* registry table: shape key -> class index */
    int names_ref;             /* registry table: pod name -> true */
    int finish_ref;            /* registry table: pod name -> list of callbacks */
    int counters_ref;          /* registry table: group -> pods named automatically */
    int fields_ref;            /* registry set of the pod table's field names (0 until first use) */
} luaw;

#define LUAW_INSTR_STEP 1000   /* the count hook runs every this many VM instructions */
#define LUAW_MAX_CLASSES 10000 /* distinct pod shapes a script may create */
#define LUAW_QUEUED_COST 64    /* bytes charged to the memory limit per queued timer or arrival */

/* ---- lua_sandbox.c ---- */
/* A sandboxed state with limits; w->L set. Returns 0 or -1 (out of memory). */
int luaw_open(luaw *w, int64_t instr_limit, int64_t mem_limit);
void luaw_close(luaw *w);
/* Load a text chunk from a file with chunk name "@path": 0 with the function
 * pushed, or -1 with the error message pushed. */
int luaw_load_file(luaw *w, const char *path);
/* Call the function below `nargs` arguments on the stack with a fresh
 * instruction budget; nres results stay on the stack. 0, or -1 with err =
 * "WHAT: script:line: message\nstack traceback: ...". */
int luaw_call(luaw *w, int nargs, int nres, const char *what, strbuf *err);
luaw *luaw_get(lua_State *L);

/* Charge (+) or refund (-) C-side memory to the state's limit; charging
 * beyond it raises a Lua error. */
void luaw_charge(lua_State *L, luaw *w, long bytes);

/* ---- lua_api.c ---- */
/* Register the global table `drasim` (with `args` converted from the scenario). */
void luaw_open_api(luaw *w, const ynode *args);
/* A time or duration argument: a number of seconds or a string such as "5m"; in ms. */
sim_time luaw_check_duration(lua_State *L, int idx, const char *what);

/* ---- lua_pods.c ---- */
int luaw_submit(lua_State *L);
int luaw_submit_gang(lua_State *L);

/* ---- lua_source.c ---- */
/* Current simulated time (0 without an engine). */
sim_time luaw_now(const luaw *w);
/* Schedule arg (timer or arrival, see lua_source.c) at t. */
void luaw_schedule(luaw *w, sim_time t, uint64_t arg);
#define LUAW_EV_TIMER 0u
#define LUAW_EV_ARRIVAL 1u

#endif
