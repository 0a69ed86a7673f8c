/*
 * fuzz_lua_api.c -- libFuzzer target for the C side of the Lua API: every
 * drasim.* function is called with arguments of random types and values
 * (nil, booleans, integers, odd floats, strings from the input, nested
 * tables with pod-field keys, functions, drasim.template handles). Wrong arguments must give Lua
 * errors, never crashes, leaks or undefined behaviour; then the run is
 * executed so timers, arrivals and on_finish callbacks fire too.
 *
 *   CC=clang cmake -B build-fuzz -DDRASIM_FUZZ=ON -DDRASIM_SANITIZE=ON -DDRASIM_TESTS=OFF
 *   cmake --build build-fuzz --target fuzz_lua_api && DRASIM_DATADIR=$PWD build-fuzz/tests/fuzz/fuzz_lua_api -max_total_time=60
 */
#include <lauxlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static uint8_t byte(input *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static const char *const FUNCS[] = {"submit", "submit_gang", "now", "duration", "random", "random_int", "normal",
                                    "exponential", "lognormal", "every", "at", "after", "cancel", "on_finish",
                                    "pending", "running", "free_gpus", "nodes", "csv", "sorted_keys", "template"};
static const char *const KEYS[] = {"name", "group", "at", "duration", "priority", "cpu", "memory", "requests",
                                   "nodeSelector", "affinity", "tolerations", "gpu", "size", "devicePlugin",
                                   "nvidia.com/gpu", "dra", "claims", "key", "operator", "effect", "value",
                                   "nvidia.com/mig-1g.10gb", "spec", "x"};
static const char *const STRINGS[] = {"", "5m", "1h30m", "-1s", "4", "16Gi", "500m", "Exists", "Equal", "NoSchedule",
                                      "nvidia.com/gpu", "model", "resource", "lua", "x", "1e400", "0.001",
                                      "durations.csv", "../x", "/etc/passwd", "9999999999999h"};

static void push_value(lua_State *L, input *in, int depth);

static void push_table(lua_State *L, input *in, int depth) {
    int n = byte(in) % 5;
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; i++) {
        uint8_t k = byte(in);
        if (k & 0x80) lua_pushinteger(L, (k & 3) + 1);   /* list-like keys */
        else lua_pushstring(L, KEYS[k % (sizeof KEYS / sizeof *KEYS)]);
        push_value(L, in, depth + 1);
        lua_settable(L, -3);
    }
}

static void push_value(lua_State *L, input *in, int depth) {
    uint8_t t = byte(in);
    switch (t % 10) {
    case 0: lua_pushnil(L); break;
    case 1: lua_pushboolean(L, t & 0x10); break;
    case 2: lua_pushinteger(L, (lua_Integer)(int8_t)byte(in) * (t & 0x10 ? 1000000007LL : 1)); break;
    case 3: {
        static const double odd[] = {0.0, -0.0, 0.5, -1.5, 1e300, -1e300, 1e-300, 3.0, 9e15, 1.0 / 0.0};
        double v = odd[byte(in) % 10];
        if (t & 0x10) v = v - v;   /* 0 or NaN (inf - inf) */
        lua_pushnumber(L, v);
        break;
    }
    case 4: lua_pushstring(L, STRINGS[byte(in) % (sizeof STRINGS / sizeof *STRINGS)]); break;
    case 5: {
        size_t len = byte(in) % 16;
        if (len > in->n) len = in->n;
        lua_pushlstring(L, (const char *)in->p, len);
        in->p += len;
        in->n -= len;
        break;
    }
    case 6:
    case 7:
        if (depth < 4) push_table(L, in, depth);
        else lua_pushnil(L);
        break;
    case 8:   /* a function, or a drasim.template handle (drasim.submit's first argument) */
        luaL_dostring(L, t & 0x10 ? "return drasim.template{cpu='1', duration=1, gpu={devicePlugin={['nvidia.com/gpu']=1}}}"
                                  : "return function() return false end");
        break;
    default: luaL_dostring(L, "return function(n) drasim.submit{cpu='1', duration=1, at=drasim.now()} end"); break;
    }
}

static gpu_catalog cat;
static char script[64];

static const char SCENARIO[] =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: f}\nseed: 3\nstop: {time: 2h}\n"
    "cluster:\n  nodePools:\n"
    "  - {name: g, count: 2, cpu: \"16\", memory: 64Gi, gpu: {model: H100-80GB, count: 2}}\n"
    "  - {name: m, count: 1, cpu: \"16\", memory: 64Gi, gpu: {model: H100-80GB, count: 1, mig: static, "
    "migLayout: all-1g.10gb}}\n"
    "scheduling: {mode: device-plugin, devicePlugin: {migStrategy: mixed}}\n"
    "workload:\n  lua: {script: %s, instructionLimit: 200000, memoryLimit: 32Mi}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    strbuf err = {0};
    if (catalog_load(NULL, &cat, &err)) {
        fprintf(stderr, "%s (set DRASIM_DATADIR)\n", sb_str(&err));
        abort();
    }
    snprintf(script, sizeof script, "/tmp/fuzz_lua_api_XXXXXX");
    int fd = mkstemp(script);
    if (fd < 0 || write(fd, "-- empty\n", 9) != 9) abort();
    close(fd);
    sb_free(&err);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
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
    lua_State *L = w->L;
    for (int call = 0; call < 16 && in.n; call++) {
        lua_getglobal(L, "drasim");
        lua_getfield(L, -1, FUNCS[byte(&in) % (sizeof FUNCS / sizeof *FUNCS)]);
        lua_remove(L, -2);
        int nargs = byte(&in) % 4;
        for (int i = 0; i < nargs; i++) push_value(L, &in, 0);
        luaw_call(w, nargs, 0, "fuzz", &err);   /* errors are expected; crashes are not */
    }
    /* Executing the run fires timers, arrivals and completions (errors expected). */
    sim_execute(&run, NULL);
    sim_free(&run);
    inventory_free(&inv);
    scenario_free(&sc);
    sb_free(&err);
    sb_free(&y);
    return 0;
}
