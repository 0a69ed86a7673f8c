/*
 * lua_internal.h -- shared state of the Lua workload source (lua_*.c):
 * the sandboxed state and its limits (lua_sandbox.c), guards on standard
 * library functions that work in C (lua_guards.c), deterministic pairs and
 * key sorting (lua_pairs.c), the drasim API (lua_api.c), pod submission and
 * shape interning (lua_pods.c), timers and the engine hooks (lua_source.c).
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

/* A timer: `every` (interval > 0) or one-shot (`at`, `after`). A slot has
 * exactly one queued event while in use and returns to the free list when
 * that event finds it done (fired, stopped or cancelled); `gen` counts the
 * slot's uses so the id of a finished timer never cancels a newer one. */
typedef struct luaw_timer {
    int fn_ref;                /* registry reference of the callback, LUA_NOREF when done */
    sim_time interval;         /* 0 = one-shot */
    uint32_t gen;
    uint32_t next_free;        /* free list: index + 1 of the next free slot, 0 = none */
    rng rng;                   /* its own stream (forked from its creator's when it was set) */
} luaw_timer;

/* A pod submitted for a later (or the current) instant (lua_arrivals.c):
 * in a slot of luaw.arrivals (free again once the pod arrived) or in the
 * FIFO run luaw.fifo. Its name is luaw.names.name[k]. */
typedef struct luaw_arrival {
    uint32_t cls;              /* LUAW_CANCELLED: deleted before it arrived */
    bool due_now;              /* submitted for the instant it was submitted at (counted in `due`) */
    uint32_t next_free;
    uint32_t labels;           /* the run's label set id (engine/sim_labels.h), 0 = none */
    uint32_t k;                /* the script's submission number (index into luaw.podref) */
    sim_time duration;
} luaw_arrival;

typedef struct luaw_queued_pod {   /* an arrival of the FIFO run */
    sim_time at;
    uint64_t seq;              /* its place in the engine's event order (sim_reserve_source_seq) */
    luaw_arrival a;
} luaw_queued_pod;

typedef struct luaw_arrival_fifo {
    VEC(luaw_queued_pod) q;    /* q[head..len): not arrived yet, (at, seq) ascending; q[head] is in the engine */
    size_t head;
    uint64_t base;             /* position of q[0] since the run started (podref names positions) */
} luaw_arrival_fifo;

typedef struct luaw_shape {    /* lua_shapes.c */
    uint64_t hash;             /* 0 = empty slot */
    size_t off, len;           /* the key in luaw_shapes.keys */
    uint32_t cls;
} luaw_shape;
typedef struct luaw_shapes {
    luaw_shape *slot;
    size_t cap, n;
    strbuf keys;
} luaw_shapes;

typedef struct luaw_shape_sig {   /* lua_shape_cache.c: a group's last pod layout and its class */
    VEC(uint64_t) words;       /* the signature (empty: no entry) */
    uint32_t cls;              /* UINT32_MAX while the entry is incomplete */
    uint32_t present;          /* the demand fields the pod had (bits of lua_pods.c's F_*): only they have words */
} luaw_shape_sig;
#define LUAW_SIG_BITS 4        /* 16 buckets by the group string's address ... */
#define LUAW_SIG_WAYS 8        /* ... of 8 entries (a group's last 8 layouts) */

typedef struct luaw_label_sig {   /* lua_shape_cache.c: a labels table's layout and its label set */
#define LUAW_LSIG_MAX 32       /* words: a table of at most 16 nodes */
    uint64_t words[LUAW_LSIG_MAX];
    uint64_t h;                /* their hash */
    int n;                     /* words */
    int nlabels;               /* labels (non-empty nodes) */
    uint32_t id;
    int anchor_ref;            /* registry table holding its strings (0 = no entry) */
} luaw_label_sig;
#define LUAW_LSIG_N 16         /* entries (each looked at, by hash first) */

typedef struct luaw_names {    /* lua_names.c: pod name -> submission number */
    uint32_t *slot;            /* submission number + 1, 0 = empty */
    size_t cap, n;
    VEC(const char *) name;    /* per submission: its name (in luaw.a) */
    size_t indexed;            /* name[0 .. indexed) are in the hash (built at the first lookup) */
    char *pool_chunks;         /* the names' text (luaw_name_keep): chunks linked through their first word */
    char *pool_next;
    size_t pool_left;
} luaw_names;

typedef struct luaw_counter { /* lua_names.c: group -> pods named automatically */
    uint64_t hash;             /* 0 = empty slot */
    size_t off, len;           /* the group name in luaw_counters.keys */
    int64_t n;
} luaw_counter;
typedef struct luaw_counters {
    luaw_counter *slot;
    size_t cap, n;
    strbuf keys;
} luaw_counters;
typedef struct luaw_class_counter {   /* lua_pods.c's class_counter: a class's group counter */
    uint32_t slot;             /* its slot in luaw_counters */
    uint32_t cap;              /* the counters' cap then (it moved if cap changed; 0 = not known) */
} luaw_class_counter;

typedef struct luaw_after_pass_cb {   /* drasim.after_schedule */
    int fn_ref;
    rng rng;
} luaw_after_pass_cb;

typedef struct luaw_fork_slot {   /* lua_streams.c */
    uint64_t key;              /* 0 = empty */
    uint32_t n;
} luaw_fork_slot;
typedef struct luaw_forks {
    luaw_fork_slot *slot;
    size_t cap, used;
    sim_time t;                /* the instant the counts are for */
} luaw_forks;

typedef struct luaw_record {  /* drasim.record */
    const char *metric;        /* interned */
    const char *group;         /* interned; NULL: the whole run */
    double value;
} luaw_record;

enum { LUAW_POOL_CLASSES = 16 };   /* blocks of 16 .. 256 bytes */

typedef struct luaw {
    lua_State *L;
    sim_run *run;              /* NULL when used without an engine (tests, fuzzing) */
    int source_id;             /* its id among the engine's sources */
    const lua_source_spec *spec;
    const char *script_dir;    /* directory of the main script ("" = cwd) */
    /* limits */
    size_t mem_used, mem_limit;
    size_t c_used;             /* C-side memory charged to the same limit: queued timers and arrivals */
    int64_t instr_limit, instr_used;
    int tripped;               /* LUAW_TRIP_*: once set, every further instruction of the callback fails */
    double time_limit;         /* wall seconds per callback (0 = none) */
    double started;            /* monotonic clock at the start of the callback */
    char last_where[256];      /* "script:line" seen by the count hook in this callback, "" if none */
    /* state */
    rng rng;                   /* the stream of the running callback (drasim.random, math.random) */
    rng base;                  /* the generator's stream: seed and generator name (docs/LUA.md) */
    arena a;                   /* pod names and the specs of the classes made from Lua */
    arena shape;               /* scratch: the tree and spec of a shape being checked */
    int shape_attempts;        /* new shapes parsed (valid or not), capped at 2 * LUAW_MAX_CLASSES */
    strbuf buf;                /* per-submit text (shape keys, parser errors) */
    VEC(luaw_timer) timers;
    VEC(luaw_arrival) arrivals;   /* pods queued out of time order, an engine event each (lua_arrivals.c) */
    luaw_arrival_fifo fifo;       /* pods queued in time order, one engine event for the lot */
    uint32_t free_timer, free_arrival;   /* free lists (index + 1, 0 = empty) */
    sim_time instant;          /* simulated time of the last timer callback */
    int64_t instant_calls;     /* timer callbacks run at that time */
    luaw_shapes shapes;        /* shape key -> class index (lua_shapes.c) */
    luaw_shape_sig sig[(1 << LUAW_SIG_BITS) * LUAW_SIG_WAYS];   /* pod layouts -> class (lua_shape_cache.c) */
    unsigned sig_next;         /* the entry a full bucket gives up next (round robin) */
    uint32_t sig_hits[1 << LUAW_SIG_BITS];     /* per bucket: a full one replaces entries */
    uint32_t sig_misses[1 << LUAW_SIG_BITS];   /* only while its hits pay for it */
    luaw_label_sig lsig[LUAW_LSIG_N];   /* labels layouts -> label set (lua_shape_cache.c) */
    unsigned lsig_next;        /* the entry a full cache gives up next (round robin) */
    VEC(int64_t) podref;       /* per submission: pod id (arrived), luaw_ref_slot/fifo (queued), LUAW_GONE (deleted before) */
    int64_t max_pods;          /* submissions allowed (DRASIM_MAX_PODS less the pod groups' pods), 0 until the first */
    bool any_finish, any_start;   /* some on_finish / per-pod on_start was ever set (else the hooks skip the lookup) */
    int finish_ref;            /* registry table: pod name -> list of callbacks */
    luaw_counters counters;    /* group -> pods named automatically (lua_names.c) */
    VEC(luaw_class_counter) class_counter;   /* per class: its group's counter (lua_pods.c) */
    int fields_ref;            /* registry table: the pod table's field names -> index + 1 (0 until first use) */
    uint32_t present;          /* the fields the pod table being submitted has (bits of lua_pods.c's F_*) */
    int groups_ref;            /* registry table: group name -> list of its class indexes */
    luaw_names names;          /* pod name -> its submission number (podref), lua_names.c */
    bool any_named;            /* a name not made up ("<group>-<n>") was ever taken: made-up names must be looked up */
    int start_ref;             /* registry table: pod name -> list of on_start callbacks */
    int start_all_ref;         /* registry list: drasim.on_start callbacks (every pod) */
    VEC(int64_t) due;          /* per class: pods submitted for now that have not arrived yet */
    int64_t after_stop;        /* pods submitted for an arrival at or after the stop time */
    VEC(luaw_record) records;   /* drasim.record, first-call order */
    int records_ref;           /* registry table: "metric\0group" -> index in records + 1 */
    int delete_hook_ref;       /* the process layer's function drasim.delete calls (0 = none) */
    VEC(luaw_after_pass_cb) after_pass;   /* drasim.after_schedule callbacks due after this instant's pass */
    luaw_shapes labelsets;     /* canonical labels text -> the run's label set id (lua_labels.c) */
    luaw_forks forks;          /* callbacks set per (stream state, prototype) at this instant (lua_streams.c) */
    const char *field_str[32]; /* the interned Lua strings of lua_pods.c's field names (kept alive by fields_ref) */
    uint8_t field_at[64];      /* by the address of such a string (lua_pods.c's field_slot): its index + 1, 0 = none */
    VEC(const void *) key_strs; /* the short strings (TString *) the last shape key names by address (lua_walk.c) */
    bool keep_key_strs;        /* note them in key_strs while walking (only a new shape's are anchored) */
    int anchors_ref;           /* registry table: the short strings of the shape keys kept (0 until the first) */
    const void *template_mt;   /* the metatable of drasim.template's handles (in the registry), NULL until the first */
    /* the Lua state's small blocks (lua_sandbox.c): a free list per 16-byte size class, carved from chunks */
    void *pool_free[LUAW_POOL_CLASSES];
    void *pool_chunks;         /* chunks, linked through their first word */
    char *pool_next, *pool_end;   /* the rest of the newest chunk */
} luaw;

#define LUAW_CANCELLED UINT32_MAX
#define LUAW_GONE INT64_MIN
#define LUAW_MAX_DEPTH 24      /* nesting of a pod table's demand values (lua_pods.c, lua_walk.c) */
#define LUAW_INSTR_STEP 1000   /* the count hook runs every this many VM instructions */
#define LUAW_MAX_CLASSES 10000 /* distinct pod shapes a script may create */
#define LUAW_SHAPE_WORK 2000   /* instructions charged for a new shape (parse, class), + 8 per node */
#define LUAW_QUEUED_COST 64    /* bytes charged to the memory limit per queued timer or arrival */
#define LUAW_MAX_SCRIPT (64L << 20) /* bytes of a script or module file */
#define LUAW_TIME_LIMIT 60.0
#define LUAW_MAX_CALLS_PER_INSTANT 1000000 /* Lua callbacks of any kind at one simulated time (chains) */   /* default wall seconds per callback (workload.lua.timeLimit) */

enum { LUAW_TRIP_NONE, LUAW_TRIP_INSTRUCTIONS, LUAW_TRIP_TIME, LUAW_TRIP_INTERRUPT };

/* A pod field name's entry in luaw.field_at: by the address of its interned string. */
static inline size_t luaw_field_slot(const char *k) { return ((uintptr_t)k >> 4) & 63; }

/* ---- lua_walk.c: read straight from Lua's tables ---- */
/* The fields of the pod table at stack index idx (> 0): the value of known field f (w->field_str)
 * goes to stack slot fbase + f (they exist), and its bit is set in the result. Stops at the first
 * key that is not a string (*bad_type = its type) or names no field and is not `extra`
 * (*bad_type = LUA_TSTRING, *bad_name = it); else *bad_type = LUA_TNONE. lua_next's order. */
uint32_t luaw_walk_fields(lua_State *L, const luaw *w, int idx, int fbase, int nfields, const char *extra,
                          int *bad_type, const char **bad_name);
/* Append the shape-key text of the value at stack index idx (nested tables down to LUAW_MAX_DEPTH;
 * maps by sorted key): an injective text form, raising the errors of an unsupported value. A short
 * string (interned by Lua: one object per content) is written as its address and noted in
 * w->key_strs, a long one as its bytes; map keys are sorted short ones first, by address, then long
 * ones bytewise. So the text is injective only while those strings live: a key kept beyond the
 * call must have them anchored (luaw_anchor_key_strs); then no other string can take an address it
 * names. The text is never shown: it only finds classes. */
void luaw_key_value(lua_State *L, luaw *w, int idx, strbuf *b, int depth, const char *what);
/* Keep the strings of w->key_strs alive as long as the state (a registry table of them). */
void luaw_anchor_key_strs(lua_State *L, luaw *w);
/* Keep the string at v alive for the run (in the same anchors table). */
void luaw_anchor_string(lua_State *L, luaw *w, const void *v);
/* Whether the caller of the running C function uses any of its results (a call as a statement
 * wants none). */
bool luaw_results_wanted(lua_State *L);

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
/* lua_faults.c: add the fault verbs to the table on top of the stack. */
void luaw_open_faults(lua_State *L);

/* Charge (+) or refund (-) C-side memory to the state's limit; charging
 * beyond it raises a Lua error. */
void luaw_charge(lua_State *L, luaw *w, long bytes);
/* Charge `units` VM-instruction equivalents of work done in C to the
 * callback's instruction budget (before doing it); raises the
 * instruction-limit error when the budget is spent. */
void luaw_charge_work(lua_State *L, int64_t units);

/* ---- lua_guards.c ---- */
/* Replace standard functions that loop in C (string.rep, string.find/match/
 * gmatch/gsub, table.move/insert/remove/concat/unpack/sort, setmetatable,
 * collectgarbage) by guarded versions; the libraries must be open. */
void luaw_open_guards(lua_State *L);

/* ---- lua_pairs.c ---- */
/* pairs() in a fixed order (numbers, strings bytewise, false, true, others). */
int luaw_pairs(lua_State *L);
/* drasim.sorted_keys(t). */
int luaw_sorted_keys(lua_State *L);

/* ---- lua_api.c ---- */
/* Register the global table `drasim` (with `args` converted from the scenario). */
void luaw_open_api(luaw *w, const ynode *args);
/* Record class c under its group name (drasim.pending/running by group). */
void luaw_index_class(lua_State *L, luaw *w, uint32_t c);
/* A time or duration argument: a number of seconds or a string such as "5m"; in ms. */
sim_time luaw_check_duration(lua_State *L, int idx, const char *what);

/* ---- lua_pods.c ---- */
int luaw_submit(lua_State *L);
int luaw_submit_gang(lua_State *L);
/* drasim.template{...}: a pod table kept as a handle for drasim.submit(handle, {at=, duration=, ...}). */
int luaw_template(lua_State *L);
/* lua_gang.c: drasim.submit_gang with all_or_nothing (the scheduler's gang model). */
int luaw_gang_submit(lua_State *L);

/* ---- lua_shapes.c ---- */
uint64_t luaw_shape_hash(const char *s, size_t n);
/* The class of shape key s, or UINT32_MAX. */
uint32_t luaw_shape_find(const luaw_shapes *t, uint64_t h, const char *s, size_t n);
void luaw_shape_add(luaw_shapes *t, uint64_t h, const char *s, size_t n, uint32_t cls);
void luaw_shapes_free(luaw_shapes *t);

/* ---- lua_shape_cache.c ---- */
/* The class of the pod in the slots (group in group_slot, fields[] at fbase + f, -1 ends; a
 * field without its bit in `present`, which has no bits outside fields[], is nil) when it is laid out exactly as one of the last
 * pods of its group whose class was found (LUAW_SIG_WAYS), else UINT32_MAX. */
uint32_t luaw_shape_cache_find(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present);
/* Remember the pod's layout as its group's, with class cls (nothing when it cannot be cached). */
void luaw_shape_cache_add(lua_State *L, luaw *w, int group_slot, int fbase, const int *fields, uint32_t present,
                          uint32_t cls);
void luaw_shape_cache_free(luaw *w);
/* The label set of the labels table at stack index idx (absolute) when it is laid out as a
 * recent one's, else UINT32_MAX; luaw_labels_cache_add remembers it (a set seen before). */
uint32_t luaw_labels_cache_find(lua_State *L, luaw *w, int idx, int *nlabels);
void luaw_labels_cache_add(lua_State *L, luaw *w, int idx, uint32_t id);

/* ---- lua_names.c ---- */
/* The submission number of pod name s (n bytes), or UINT32_MAX. */
uint32_t luaw_name_find(luaw *w, const char *s, size_t n);
/* A copy of name s (n bytes) that lives as long as the run. */
const char *luaw_name_keep(luaw *w, const char *s, size_t n);
/* Record name s (NUL-terminated, lives as long as the run) as submission k. */
void luaw_name_add(luaw *w, const char *s, uint32_t k);
void luaw_names_free(luaw *w);
/* The counter of group s (n bytes) for automatic names "<group>-<n>" (n 0 when new); its
 * slot moves when the table grows (a new group). */
luaw_counter *luaw_group_counter(luaw *w, const char *s, size_t n);

/* ---- lua_labels.c ---- */
/* The pod table's `labels` (the value at idx) as the run's label set id (engine/sim_labels.h), 0 = none. */
uint32_t luaw_labels_of(lua_State *L, luaw *w, int idx, const char *fn);
/* Push the labels of pod `pod` of the run as a new table {key = value} (nil if it has none). */
void luaw_push_labels(lua_State *L, const luaw *w, uint32_t pod);

/* ---- lua_process.c ---- */
/* Add drasim.process/sleep/wait/any/all (the global drasim must exist). */
int luaw_open_process(lua_State *L);
/* drasim.delete deleted pod `name`: wake the processes waiting for it. */
void luaw_deleted_hook(lua_State *L, luaw *w, const char *name);

/* ---- lua_csv_rows.c ---- */
/* Add csv_rows and parse_time to the drasim table at the top of the stack. */
void luaw_open_csv_rows(lua_State *L);

/* ---- lua_claim.c ---- */
/* drasim.claim{...}: a claim entry of gpu.dra.claims. */
int luaw_claim(lua_State *L);

/* ---- lua_view.c ---- */
/* drasim.nodes{filters}: one table per node. */
int luaw_nodes_list(lua_State *L);
/* drasim.free_gpus([by]) in DRA mode. */
int luaw_free_gpus_dra(lua_State *L, bool by_model);
/* Add free_devices and after_schedule to the drasim table at the top of the stack. */
void luaw_open_view(lua_State *L);
/* Run the after_schedule callbacks due (after a scheduling pass). 0, or -1 with err set. */
int luaw_run_after_pass(luaw *w, strbuf *err, const char *what);

/* ---- lua_source.c ---- */
/* Current simulated time (0 without an engine). */
sim_time luaw_now(const luaw *w);
/* Schedule arg (timer or arrival, see lua_source.c) at t. */
void luaw_schedule(luaw *w, sim_time t, uint64_t arg);
/* lua_streams.c: the stream of a callback (the function at fn_idx) set now, forked from the running
 * code's stream without drawing from it; luaw_forks_free at the end. */
void luaw_child_stream(lua_State *L, luaw *w, int fn_idx, rng *out);
void luaw_forks_free(luaw *w);
/* An EV_SOURCE event's arg: index << LUAW_EV_SHIFT | kind. */
#define LUAW_EV_SHIFT 2
#define LUAW_EV_TIMER 0u
#define LUAW_EV_ARRIVAL 1u   /* the pod in arrivals[index] */
#define LUAW_EV_FIFO 2u      /* the FIFO run's head */

/* ---- lua_arrivals.c ---- */
/* podref of a queued pod: -(index + 1), FIFO positions above LUAW_REF_FIFO. */
#define LUAW_REF_FIFO ((uint64_t)1 << 48)
static inline int64_t luaw_ref_slot(size_t slot) { return -(int64_t)slot - 1; }
static inline int64_t luaw_ref_fifo(uint64_t pos) { return -(int64_t)(pos + LUAW_REF_FIFO) - 1; }
/* Keep arrival a (its podref set) and schedule its arrival at `at`. */
void luaw_arrival_queue(luaw *w, luaw_arrival a, sim_time at);
/* The record of a queued pod from its podref value. */
luaw_arrival *luaw_arrival_of(luaw *w, int64_t ref);
/* An arrival event (kind LUAW_EV_ARRIVAL or LUAW_EV_FIFO) at t. 0, or -1 with r->error set. */
int luaw_arrival_event(sim_run *r, luaw *w, uint32_t kind, size_t idx, sim_time t);
/* After the main chunk: room in the engine for the pods queued (sim_expect_arrivals). */
void luaw_arrivals_expect(luaw *w);
void luaw_arrivals_free(luaw *w);

#endif
