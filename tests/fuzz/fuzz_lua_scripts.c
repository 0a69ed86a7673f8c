/*
 * fuzz_lua_scripts.c -- libFuzzer target for the Lua sandbox as a whole: the
 * input bytes drive a small grammar that writes a Lua script out of the
 * sandbox's own pieces (every drasim.* function, pairs/next, string patterns
 * and string.rep, table.move/insert/sort/concat, setmetatable with __index /
 * __newindex / __len / __gc / __pairs / __tostring metamethods that call
 * drasim.submit again, coroutines, pcall/error, load, timers whose callbacks
 * cancel timers and submit pods). The script runs at time 0 in a small
 * cluster, then the run executes so timers, arrivals and on_finish callbacks
 * fire. Any result is fine except a crash, a leak, undefined behaviour or a
 * hang (the instruction, memory and time limits must hold).
 *
 *   tools/fuzz/run 600 fuzz_lua_scripts
 *   build-fuzz/tests/fuzz/fuzz_lua_scripts -runs=1 CRASHFILE -print_final_stats=1   # and print the script:
 *   DRASIM_FUZZ_PRINT=1 build-fuzz/tests/fuzz/fuzz_lua_scripts CRASHFILE
 * An input starting with "--lua\n" is run as it is: the seeds in
 * tests/fuzz/corpus/lua_scripts/ include the issue-10 reproducers that way.
 */
#include <lauxlib.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

typedef struct gen {
    const uint8_t *p;
    size_t n;
    strbuf out;
    int budget;   /* grammar nodes left: bounds the script size */
} gen;

static unsigned pick(gen *g, unsigned k) {
    if (!g->n) return 0;
    g->n--;
    return *g->p++ % k;
}

#define PICK(g, arr) ((arr)[pick((g), sizeof(arr) / sizeof *(arr))])

static void expr(gen *g, int depth);
static void block(gen *g, int depth, int nstmts);

static const char *const VARS[] = {"v1", "v2", "v3", "v4", "v5", "v6"};
static const char *const KEYS[] = {"name", "group", "at", "duration", "priority", "cpu", "memory", "requests",
                                   "nodeSelector", "tolerations", "gpu", "size", "devicePlugin", "[\"nvidia.com/gpu\"]",
                                   "dra", "claims", "key", "operator", "effect", "x", "[1]", "[2]", "[3]", "[0.5]",
                                   "[true]"};
static const char *const ATOMS[] = {"nil", "true", "false", "0", "1", "2", "-1", "0.5", "1e300", "-0.0",
                                    "math.maxinteger", "math.mininteger", "math.huge", "0/0", "'5m'", "'1h30m'",
                                    "'4'", "'16Gi'", "'500m'", "''", "'Exists'", "'NoSchedule'", "'nvidia.com/gpu'",
                                    "'g'", "'lua-0'", "'(('", "'%b()'", "'a?a?a?a?aaaa'", "'[%a]+'", "'%f[%w]'",
                                    "'durations.csv'", "'model'", "drasim.now()", "drasim.random()", "#v1",
                                    "drasim.pending()", "drasim.running('g')", "drasim.stop_time", "drasim.args",
                                    "drasim.mode", "select('#', 1, 2)", "string.rep('ab', 3)", "{}"};
static const char *const DRASIM_FNS[] = {"submit", "submit_gang", "now", "duration", "random", "random_int",
                                         "normal", "exponential", "lognormal", "every", "at", "after", "cancel",
                                         "on_finish", "pending", "running", "free_gpus", "nodes", "csv", "sorted_keys"};
static const char *const LIB_FNS[] = {"string.rep", "string.find", "string.match", "string.gsub", "string.gmatch",
                                      "string.format", "string.byte", "string.sub", "table.move", "table.insert",
                                      "table.remove", "table.concat", "table.unpack", "table.sort", "pairs", "ipairs",
                                      "next", "tostring", "tonumber", "select", "rawlen", "rawequal", "rawget",
                                      "setmetatable", "getmetatable", "collectgarbage", "load", "require", "print",
                                      "coroutine.wrap", "coroutine.create", "utf8.char", "math.random", "error",
                                      "assert", "type"};
static const char *const METAS[] = {"__index", "__newindex", "__len", "__gc", "__pairs", "__tostring", "__lt",
                                    "__call", "__concat", "__eq", "__close", "__mode", "__metatable"};

static void put(gen *g, const char *s) { sb_puts(&g->out, s); }

static void args(gen *g, int depth) {
    int n = (int)pick(g, 4);
    for (int i = 0; i < n; i++) {
        if (i) put(g, ", ");
        expr(g, depth + 1);
    }
}

static void table_ctor(gen *g, int depth) {
    put(g, "{");
    int n = (int)pick(g, 5);
    for (int i = 0; i < n; i++) {
        if (pick(g, 3)) {
            put(g, PICK(g, KEYS));
            put(g, " = ");
        }
        expr(g, depth + 1);
        put(g, ", ");
    }
    put(g, "}");
}

static void function_expr(gen *g, int depth) {
    put(g, "function(a, b) ");
    block(g, depth + 1, 1 + (int)pick(g, 3));
    put(g, " return ");
    expr(g, depth + 1);
    put(g, " end");
}

static void expr(gen *g, int depth) {
    if (--g->budget <= 0 || depth > 5) {
        put(g, PICK(g, ATOMS));
        return;
    }
    switch (pick(g, 12)) {
    case 0: case 1: put(g, PICK(g, ATOMS)); break;
    case 2: put(g, PICK(g, VARS)); break;
    case 3: table_ctor(g, depth); break;
    case 4: function_expr(g, depth); break;
    case 5:   /* a table with metamethods (which may re-enter the API) */
        put(g, "setmetatable(");
        table_ctor(g, depth);
        put(g, ", {");
        for (int i = 0, n = 1 + (int)pick(g, 3); i < n; i++) {
            put(g, PICK(g, METAS));
            put(g, " = ");
            function_expr(g, depth);
            put(g, ", ");
        }
        put(g, "})");
        break;
    case 6: put(g, "drasim."); put(g, PICK(g, DRASIM_FNS)); put(g, "("); args(g, depth); put(g, ")"); break;
    case 7: put(g, PICK(g, LIB_FNS)); put(g, "("); args(g, depth); put(g, ")"); break;
    case 8: put(g, "("); expr(g, depth + 1); put(g, PICK(g, ((const char *const[]){" .. ", " + ", " * ", " < ", " == ", " and ", " or "}))); expr(g, depth + 1); put(g, ")"); break;
    case 9: put(g, PICK(g, VARS)); put(g, "["); expr(g, depth + 1); put(g, "]"); break;
    case 10: put(g, "drasim.submit{cpu = '1', duration = "); expr(g, depth + 1); put(g, ", group = "); expr(g, depth + 1); put(g, "}"); break;
    default: put(g, "(select(2, pcall("); put(g, PICK(g, LIB_FNS)); put(g, ", "); args(g, depth); put(g, ")))"); break;
    }
}

static void stmt(gen *g, int depth) {
    if (--g->budget <= 0) {
        put(g, "do end");
        return;
    }
    const char *v = PICK(g, VARS);
    switch (pick(g, 14)) {
    case 0: sb_printf(&g->out, "%s = ", v); expr(g, depth); break;
    case 1: sb_printf(&g->out, "%s[", v); expr(g, depth); put(g, "] = "); expr(g, depth); break;
    case 2: put(g, "drasim.submit("); expr(g, depth); put(g, ")"); break;
    case 3: sb_printf(&g->out, "for k, x in pairs(%s) do ", v); block(g, depth + 1, 1 + (int)pick(g, 2)); put(g, " end"); break;
    case 4: sb_printf(&g->out, "%s = drasim.after(", v); expr(g, depth); put(g, ", "); function_expr(g, depth); put(g, ")"); break;
    case 5: sb_printf(&g->out, "%s = drasim.every(", v); expr(g, depth); put(g, ", "); function_expr(g, depth); put(g, ")"); break;
    case 6: sb_printf(&g->out, "drasim.cancel(%s)", v); break;
    case 7: put(g, "coroutine.wrap("); function_expr(g, depth); put(g, ")()"); break;
    case 8: sb_printf(&g->out, "local f = pairs(%s) f(", v); expr(g, depth); put(g, ")"); break;
    case 9: put(g, "if "); expr(g, depth); put(g, " then "); block(g, depth + 1, 1); put(g, " else "); block(g, depth + 1, 1); put(g, " end"); break;
    case 10: sb_printf(&g->out, "drasim.on_finish(%s, ", v); function_expr(g, depth); put(g, ")"); break;
    case 11: put(g, "for i = 1, "); expr(g, depth); put(g, " do "); block(g, depth + 1, 1); put(g, " end"); break;
    case 12: put(g, PICK(g, LIB_FNS)); put(g, "("); args(g, depth); put(g, ")"); break;
    default: put(g, "drasim."); put(g, PICK(g, DRASIM_FNS)); put(g, "("); args(g, depth); put(g, ")"); break;
    }
}

/* nstmts statements, each in its own pcall so that one error does not end the block. */
static void block(gen *g, int depth, int nstmts) {
    for (int i = 0; i < nstmts; i++) {
        bool raw = depth > 3 || pick(g, 4) == 0;
        put(g, raw ? "do " : "pcall(function() ");
        stmt(g, depth);
        put(g, raw ? " end " : " end) ");
    }
}

/* A watchdog thread stops (through the run's interrupt flag, which the
 * engine and the Lua hook poll) an input that runs for more than 2 s: a
 * script may legitimately keep the simulator busy with many timers, which is
 * slow but not a bug; a hang inside one C call would still be caught by
 * libFuzzer's -timeout. */
static volatile sig_atomic_t stop_run;
static _Atomic long run_generation;   /* bumped per input; odd while an input runs */

static void *watchdog(void *arg) {
    (void)arg;
    long seen = -1, ticks = 0;
    for (;;) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        long g = run_generation;
        if (g != seen) {
            seen = g;
            ticks = 0;
        } else if ((g & 1) && ++ticks >= 20) stop_run = 1;
    }
    return NULL;
}

static gpu_catalog cat;
static char script[64];

static const char SCENARIO[] =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: f}\nseed: 3\nstop: {time: 10m}\n"
    "cluster:\n  nodePools:\n"
    "  - {name: g, count: 2, cpu: \"16\", memory: 64Gi, gpu: {model: H100-80GB, count: 2}}\n"
    "scheduling: {mode: device-plugin}\n"
    "workload:\n  lua: {script: %s, instructionLimit: 300000, memoryLimit: 32Mi, timeLimit: 3s}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    strbuf err = {0};
    if (catalog_load(NULL, &cat, &err)) {
        fprintf(stderr, "%s (set DRASIM_DATADIR)\n", sb_str(&err));
        abort();
    }
    snprintf(script, sizeof script, "/tmp/fuzz_lua_scripts_XXXXXX");
    int fd = mkstemp(script);
    if (fd < 0 || write(fd, "-- empty\n", 9) != 9) abort();
    close(fd);
    sb_free(&err);
    pthread_t th;
    if (pthread_create(&th, NULL, watchdog, NULL)) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gen g = {.p = data, .n = size, .budget = 400};
    if (size >= 6 && !memcmp(data, "--lua\n", 6)) {   /* a literal script (the regression seeds) */
        sb_append(&g.out, (const char *)data, size);
    } else {
        put(&g, "local v1, v2, v3, v4, v5, v6 = {}, {a = 1, [2] = 'b'}, 'lua-0', 1, drasim.args, nil\n");
        while (g.n && g.budget > 0) {
            block(&g, 0, 1);
            put(&g, "\n");
        }
    }
    if (getenv("DRASIM_FUZZ_PRINT")) fprintf(stderr, "%s\n", sb_str(&g.out));
    strbuf err = {0}, y = {0};
    scenario sc = {0};
    inventory inv = {0};
    sb_printf(&y, SCENARIO, script);
    if (yfile_load_mem("fuzz.yaml", y.s, y.len, &sc.file, &err)) abort();
    sc.has_file = true;
    if (scenario_from_tree(sc.file.docs[0], &sc, &err)) abort();
    if (inventory_build_ex(&sc.cluster, &cat, &sc.sched.dp, INV_NO_SLICES, &inv, &err)) abort();
    sim_run run;
    sim_init(&run, &sc, inv.nodes, inv.nnodes);
    workload_attach(&run);   /* the Lua generator is the last source */
    sim_source *src = &run.sources[run.nsources - 1];
    if (src->start(&run, src->ctx)) abort();
    src->start = NULL;   /* started here: sim_execute must not start it again */
    luaw *w = src->ctx;
    stop_run = 0;
    run_generation++;   /* odd: running */
    run.interrupt = &stop_run;   /* polled by the Lua hook while the main chunk runs */
    if (luaL_loadbufferx(w->L, g.out.s, g.out.len, "=fuzz", "t") == LUA_OK) {
        if (luaw_call(w, 0, 0, "fuzz", &err) == 0) sim_execute(&run, &stop_run);   /* errors are expected */
    } else {
        if (getenv("DRASIM_FUZZ_PRINT")) fprintf(stderr, "syntax: %s\n", lua_tostring(w->L, -1));
        lua_pop(w->L, 1);
    }
    run_generation++;   /* even: idle */
    sim_free(&run);
    inventory_free(&inv);
    scenario_free(&sc);
    sb_free(&err);
    sb_free(&y);
    sb_free(&g.out);
    return 0;
}
