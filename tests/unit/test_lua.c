/* test_lua.c -- Lua workload generators: the sandbox refuses escapes and
 * enforces its limits, errors name script and line, the API's timers, clock,
 * cluster reads and argument checks, shape interning, the standard library,
 * and determinism (same seed, same pods). Scripts live in tests/lua/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

/* A run of a scenario on a small cluster (2 nodes x 8 H100, 1 node of 56
 * MIG 1g.10gb slices) whose workload is tests/lua/SCRIPT. */
typedef struct lrun {
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    strbuf err;
    int rc;   /* sim_execute's result */
} lrun;

static void lrun_start(lrun *t, const char *script, const char *extra, uint64_t seed) {
    memset(t, 0, sizeof *t);
    strbuf y = {0};
    sb_printf(&y,
              "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: %llu\nstop: {time: 10h}\n"
              "cluster:\n  nodePools:\n"
              "  - {name: h100, count: 2, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}\n"
              "  - {name: mig, count: 1, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8, mig: static, "
              "migLayout: all-1g.10gb}}\n"
              "scheduling: {mode: device-plugin, devicePlugin: {migStrategy: mixed}}\n"
              "workload:\n  lua: {script: %s%s}\n",
              (unsigned long long)seed, script, extra ? extra : "");
    assert_int_equal(yfile_load_mem(TEST_DATA_DIR "/lua/inline.yaml", y.s, y.len, &t->sc.file, &t->err), 0);
    sb_free(&y);
    t->sc.has_file = true;
    if (scenario_from_tree(t->sc.file.docs[0], &t->sc, &t->err)) fail_msg("%s", sb_str(&t->err));
    assert_int_equal(catalog_load(NULL, &t->cat, &t->err), 0);
    assert_int_equal(inventory_build_ex(&t->sc.cluster, &t->cat, &t->sc.sched.dp, INV_NO_SLICES, &t->inv, &t->err), 0);
    sim_init(&t->run, &t->sc, t->inv.nodes, t->inv.nnodes);
    t->rc = workload_execute(&t->run, NULL);
}

/* A run of a scenario file (path relative to the source tree) with seed `seed`. */
static void lrun_file(lrun *t, const char *rel, uint64_t seed) {
    memset(t, 0, sizeof *t);
    strbuf path = {0};
    sb_printf(&path, "%s/../%s", TEST_DATA_DIR, rel);
    if (scenario_load(sb_str(&path), &t->sc, &t->err)) fail_msg("%s", sb_str(&t->err));
    sb_free(&path);
    t->sc.seed = seed;
    assert_int_equal(catalog_load(NULL, &t->cat, &t->err), 0);
    assert_int_equal(inventory_build_ex(&t->sc.cluster, &t->cat, &t->sc.sched.dp, INV_NO_SLICES, &t->inv, &t->err), 0);
    sim_init(&t->run, &t->sc, t->inv.nodes, t->inv.nnodes);
    t->rc = workload_execute(&t->run, NULL);
}

static void lrun_free(lrun *t) {
    sim_free(&t->run);
    inventory_free(&t->inv);
    catalog_free(&t->cat);
    scenario_free(&t->sc);
    sb_free(&t->err);
    intern_reset();
}

/* Run SCRIPT and expect it to fail with a message containing every needle. */
static void expect_failure(const char *script, const char *extra, const char *const *needles) {
    lrun t;
    lrun_start(&t, script, extra, 1);
    const char *msg = sb_str(&t.run.error);
    if (t.rc != -2) fail_msg("%s: expected the run to fail, rc %d", script, t.rc);
    for (int i = 0; needles[i]; i++)
        if (!strstr(msg, needles[i])) fail_msg("%s: message lacks '%s':\n%s", script, needles[i], msg);
    lrun_free(&t);
}

static void expect_success(const char *script, const char *extra, lrun *t) {
    lrun_start(t, script, extra, 1);
    if (t->rc != 0) fail_msg("%s failed: %s", script, sb_str(&t->run.error));
}

static const sim_pod *pod_named(const sim_run *r, const char *name) {
    for (size_t i = 0; i < r->pods.len; i++)
        if (sim_pod_name(r, (uint32_t)i) && !strcmp(sim_pod_name(r, (uint32_t)i), name)) return &r->pods.data[i];
    fail_msg("no pod named %s", name);
    return NULL;
}

static void test_escapes_are_refused(void **state) {
    FILE *f = fopen("/tmp/drasim-escaped", "r");
    if (f) {
        fclose(f);
        remove("/tmp/drasim-escaped");
    }
    expect_failure("escape_os_execute.lua", NULL,
                   (const char *const[]){"escape_os_execute.lua:1:", "global 'os'", "stack traceback", NULL});
    assert_null(fopen("/tmp/drasim-escaped", "r"));
    expect_failure("escape_io_open.lua", NULL, (const char *const[]){"escape_io_open.lua:1:", "global 'io'", NULL});
    expect_failure("escape_require_os.lua", NULL,
                   (const char *const[]){"module 'os' not found in the sandbox", "escape_require_os.lua:1:", NULL});
    expect_failure("escape_bytecode.lua", NULL,
                   (const char *const[]){"escape_bytecode.lua:4: refused:", "attempt to load a binary chunk", NULL});
    expect_failure("escape_dofile.lua", NULL, (const char *const[]){"escape_dofile.lua:2:", "global 'dofile'", NULL});
}

static void test_limits(void **state) {
    expect_failure("escape_infinite_loop.lua", ", instructionLimit: 2000000",
                   (const char *const[]){"escape_infinite_loop.lua:1: instruction limit exceeded (2000000", NULL});
    expect_failure("escape_pcall_loop.lua", ", instructionLimit: 2000000",
                   (const char *const[]){"instruction limit exceeded", NULL});
    expect_failure("escape_memory_bomb.lua", ", memoryLimit: 16Mi",
                   (const char *const[]){"escape_memory_bomb.lua: lua error in the main chunk: memory limit exceeded near ",
                                         "escape_memory_bomb.lua:1 (16 MiB", NULL});
    expect_failure("escape_string_rep.lua", NULL, (const char *const[]){"memory limit exceeded (256 MiB", NULL});
    expect_failure("escape_pattern.lua", NULL,
                   (const char *const[]){"escape_pattern.lua:3: pattern too complex for the sandbox (25 repetition", NULL});
    lrun t;
    expect_success("api_patterns.lua", NULL, &t);
    lrun_free(&t);
    expect_failure("escape_timer_flood.lua", ", memoryLimit: 16Mi",
                   (const char *const[]){"escape_timer_flood.lua:3: memory limit exceeded by queued timers and pods (16 MiB",
                                         NULL});
    expect_failure("escape_shape_flood.lua", NULL,
                   (const char *const[]){"escape_shape_flood.lua:5: drasim.submit: more than 10000 distinct pod shapes",
                                         NULL});
    expect_failure("escape_bad_shape_retry.lua", ", instructionLimit: 3000000",
                   (const char *const[]){"instruction limit exceeded", NULL});
}

static void test_error_names_script_line_and_traceback(void **state) {
    expect_failure("error_line.lua", NULL,
                   (const char *const[]){"lua error in a drasim.at/after callback", "error_line.lua:4: attempt to index a nil value",
                                         "stack traceback:", "in upvalue 'broken'", "error_line.lua:6:", NULL});
    expect_failure("no_such_script.lua", NULL, (const char *const[]){"no_such_script.lua: cannot open: No such file or directory", NULL});
}

static void test_timers_and_clock(void **state) {
    lrun t;
    expect_success("api_timers.lua", NULL, &t);
    const sim_run *r = &t.run;
    assert_int_equal(pod_named(r, "first")->arrival, 0);
    assert_int_equal(pod_named(r, "after-first")->arrival, SIM_SECONDS(600));
    assert_int_equal(pod_named(r, "at-1h")->arrival, SIM_SECONDS(3600));
    assert_int_equal(pod_named(r, "after-90s")->arrival, SIM_SECONDS(90));
    assert_int_equal(pod_named(r, "future")->arrival, SIM_SECONDS(7200));
    assert_int_equal(pod_named(r, "tick-0")->arrival, SIM_SECONDS(1800));
    assert_int_equal(pod_named(r, "tick-2")->arrival, SIM_SECONDS(5400));
    assert_int_equal(pod_named(r, "g-0")->arrival, SIM_SECONDS(10800));
    size_t ticks = 0;
    for (size_t i = 0; i < r->pods.len; i++) ticks += sim_pod_name(r, (uint32_t)i) && !strncmp(sim_pod_name(r, (uint32_t)i), "tick-", 5);
    assert_int_equal(ticks, 3);   /* the every() callback returned false on the third tick */
    assert_int_equal(r->pods.len, 11);
    assert_int_equal(pod_named(r, "after-first")->state, POD_SUCCEEDED);
    lrun_free(&t);
}

static void test_cluster_state(void **state) {
    lrun t;
    expect_success("api_state.lua", NULL, &t);
    assert_int_equal(pod_named(&t.run, "wait-1")->start, SIM_SECONDS(3600));
    lrun_free(&t);
}

/* delete, on_start, pod(name) and the counts (the script asserts the values it sees). */
static void test_pod_lifecycle(void **state) {
    lrun t;
    expect_success("api_lifecycle.lua", NULL, &t);
    const sim_pod *a = pod_named(&t.run, "a"), *c = pod_named(&t.run, "c"), *d = pod_named(&t.run, "d");
    assert_int_equal(a->state, POD_DELETED);
    assert_int_equal(a->end, SIM_SECONDS(60));
    assert_int_equal(c->state, POD_DELETED);
    assert_int_equal(c->start, -1);
    assert_int_equal(d->start, SIM_SECONDS(60));
    assert_int_equal(d->end, SIM_SECONDS(3660));
    assert_string_equal(sim_delete_reason(&t.run, (uint32_t)(a - t.run.pods.data)), "culled");
    assert_string_equal(sim_delete_reason(&t.run, (uint32_t)(c - t.run.pods.data)), "scaled down");
    assert_null(sim_delete_reason(&t.run, (uint32_t)(d - t.run.pods.data)));
    assert_int_equal(t.run.pods.len, 4);   /* e deleted before it arrived, late after the stop */
    assert_true(sim_metric_get(&t.run, "pods_after_stop") == 1.0);
    assert_true(sim_metric_get(&t.run, "pods_succeeded") == 2.0);   /* b, d */
    lrun_free(&t);
}

/* 3000 pods of three shapes: three classes, and every pod scheduled. */
static void test_shapes_are_interned(void **state) {
    lrun t;
    expect_success("api_shapes.lua", ", args: {pods: 3000}", &t);
    assert_int_equal(t.run.pods.len, 3000);
    assert_int_equal(t.run.sched.nclasses, 3);
    int64_t total = 0;
    for (size_t c = 0; c < 3; c++) total += sim_class_spec(&t.run, (uint32_t)c)->count;
    assert_int_equal(total, 3000);
    assert_int_equal(sim_metric_get(&t.run, "pods_scheduled"), 3000);
    lrun_free(&t);
}

/* Priorities and group-name lengths around 10 and 100 (shape keys write numbers below 100 inline):
 * 18 distinct shapes of two pods each (tests/lua/shape_numbers.lua). */
static void test_shape_numbers(void **state) {
    lrun t;
    expect_success("shape_numbers.lua", NULL, &t);
    assert_int_equal(t.run.pods.len, 36);
    assert_int_equal(t.run.sched.nclasses, 18);
    for (size_t c = 0; c < 18; c++) assert_int_equal(sim_class_spec(&t.run, (uint32_t)c)->count, 2);
    lrun_free(&t);
}

/* The same demand is one class however its tables were built (lua_walk.c reads them raw):
 * 3 demands of 3, 2 and 2 pods (tests/lua/shape_tables.lua). */
static void test_shape_tables(void **state) {
    lrun t;
    expect_success("shape_tables.lua", NULL, &t);
    assert_int_equal(t.run.pods.len, 7);
    assert_int_equal(t.run.sched.nclasses, 3);
    assert_int_equal(sim_class_spec(&t.run, 0)->count, 3);
    assert_int_equal(sim_class_spec(&t.run, 1)->count, 2);
    assert_int_equal(sim_class_spec(&t.run, 2)->count, 2);
    lrun_free(&t);
}

/* Pods of one group laid out alike but different deep inside get their own classes; equal
 * ones share one, also when a group cycles through more layouts than the cache keeps
 * (tests/lua/shape_cache.lua, classes by hand). */
static void test_shape_cache(void **state) {
    lrun t;
    expect_success("shape_cache.lua", NULL, &t);
    static const uint32_t want[] = {0, 1, 0, 1, 2, 0, 3, 3, 4, 5, 6, 5, 0, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                    7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    assert_int_equal(t.run.pods.len, 33);
    assert_int_equal(t.run.sched.nclasses, 17);
    for (uint32_t i = 0; i < 33; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%u", i + 1);
        if (pod_named(&t.run, name)->group != want[i])
            fail_msg("%s: class %u, expected %u", name, pod_named(&t.run, name)->group, want[i]);
    }
    lrun_free(&t);
}

/* A statement drasim.submit{...} gets no Lua string for its made-up name; numbering and
 * returned names are unchanged, and a made-up name skips one the script gave
 * (tests/lua/submit_names.lua): g-0 .. g-4, x, g-5, g-7, g-6, g-8 in order. */
static void test_submit_names(void **state) {
    lrun t;
    expect_success("submit_names.lua", NULL, &t);
    static const char *const want[] = {"g-0", "g-1", "g-2", "g-3", "g-4", "x", "g-5", "g-7", "g-6", "g-8"};
    assert_int_equal(t.run.pods.len, 10);
    for (uint32_t i = 0; i < 10; i++) assert_string_equal(sim_pod_name(&t.run, i), want[i]);
    lrun_free(&t);
}

/* Pods submitted in and out of time order arrive by (time, submission order), whether they
 * joined the FIFO run or got an event each (tests/lua/arrival_order.lua); p4 and p5 were
 * deleted before they arrived. */
static void test_arrival_order(void **state) {
    lrun t;
    expect_success("arrival_order.lua", NULL, &t);
    static const char *const want[] = {"p9", "p6", "p2", "p3", "q1", "p1", "p10", "p7", "p8", "q2", "p11"};
    static const int at[] = {0, 1, 3, 3, 4, 5, 7, 9, 9, 9, 11};
    assert_int_equal(t.run.pods.len, 11);
    for (uint32_t i = 0; i < 11; i++) {
        assert_string_equal(sim_pod_name(&t.run, i), want[i]);
        assert_int_equal(t.run.pods.data[i].arrival, SIM_SECONDS(at[i]));
    }
    const luaw *w = t.run.sources[t.run.nsources - 1].ctx;
    assert_int_equal(w->c_used, 0);   /* every queued pod's charge refunded */
    lrun_free(&t);
}

/* The FIFO run moves its tail to the front once half of it arrived, and a pod deleted after
 * that is found at its new place (tests/lua/arrival_fifo_compact.lua). */
static void test_arrival_fifo_compacts(void **state) {
    lrun t;
    expect_success("arrival_fifo_compact.lua", NULL, &t);
    assert_int_equal(t.run.pods.len, 10000);   /* 9,999 c pods + late */
    for (uint32_t i = 0; i < 10000; i++) assert_string_not_equal(sim_pod_name(&t.run, i), "c9000");
    assert_string_equal(sim_pod_name(&t.run, 8998), "c8999");
    assert_string_equal(sim_pod_name(&t.run, 8999), "c9001");
    assert_int_equal(t.run.pods.data[8999].arrival, SIM_SECONDS(9001));
    assert_string_equal(sim_pod_name(&t.run, 9999), "late");
    assert_int_equal(t.run.pods.data[9999].arrival, SIM_SECONDS(20000));
    lrun_free(&t);
}

/* Integers' text from the vendored Lua equals printf's (tests/lua/int_text.lua asserts it). */
static void test_integer_text(void **state) {
    lrun t;
    expect_success("int_text.lua", NULL, &t);
    lrun_free(&t);
}

/* drasim.template (tests/lua/template.lua): its pods are the pods drasim.submit{...} makes from the
 * same fields: the template copies its tables, the pod gives name, at, duration, on_start. By hand:
 * t-0 .. t-4, x, t-6 in class 0 (memory 1Gi), t-5 in class 1 (2Gi); t-1 runs 30 s, t-2
 * arrives at 100 s; x's on_start ran once. The error cases are asserted by the script. */
static void test_template(void **state) {
    lrun t;
    expect_success("template.lua", NULL, &t);
    static const char *const want[] = {"t-0", "t-1", "t-2", "t-3", "x", "t-4", "t-5", "t-6"};
    static const uint32_t cls[] = {0, 0, 0, 0, 0, 0, 1, 0};
    assert_int_equal(t.run.pods.len, 8);
    for (uint32_t i = 0; i < 8; i++) assert_int_equal(pod_named(&t.run, want[i])->group, cls[i]);
    assert_int_equal(t.run.sched.nclasses, 2);
    assert_int_equal(pod_named(&t.run, "t-1")->duration, 30000);
    assert_int_equal(pod_named(&t.run, "t-3")->duration, 60000);
    assert_int_equal(pod_named(&t.run, "t-2")->arrival, 100000);
    lrun_free(&t);
}

static void test_standard_library(void **state) {
    lrun t;
    expect_success("lib_dist.lua", NULL, &t);
    lrun_free(&t);
    expect_success("lib_jobs.lua", NULL, &t);
    assert_int_equal(t.run.pods.len, 6);
    assert_int_equal(pod_named(&t.run, "svc-2")->state, POD_SUCCEEDED);
    lrun_free(&t);
}

/* pairs() order is fixed (the sandbox sorts keys), so scripts are deterministic. */
static void test_pairs_order_is_fixed(void **state) {
    lrun t;
    expect_success("pairs_order.lua", NULL, &t);
    lrun_free(&t);
}

/* Same seed, same pods (names, times, nodes) for the example generator;
 * another seed differs. */
static void test_same_seed_same_pods(void **state) {
    lrun a, b, c;
    lrun_file(&a, "scenarios/examples/lua-mix.yaml", 42);
    lrun_file(&b, "scenarios/examples/lua-mix.yaml", 42);
    lrun_file(&c, "scenarios/examples/lua-mix.yaml", 43);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_int_equal(c.rc, 0);
    assert_true(a.run.pods.len > 100);
    assert_int_equal(a.run.pods.len, b.run.pods.len);
    bool differs = a.run.pods.len != c.run.pods.len;
    for (size_t i = 0; i < a.run.pods.len; i++) {
        const sim_pod *x = &a.run.pods.data[i], *y = &b.run.pods.data[i];
        assert_string_equal(sim_pod_name(&a.run, (uint32_t)i), sim_pod_name(&b.run, (uint32_t)i));
        assert_int_equal(x->arrival, y->arrival);
        assert_int_equal(x->start, y->start);
        assert_int_equal(x->duration, y->duration);
        assert_int_equal(x->node, y->node);
        if (!differs && i < c.run.pods.len)
            differs = x->arrival != c.run.pods.data[i].arrival || x->duration != c.run.pods.data[i].duration;
    }
    assert_true(differs);
    lrun_free(&a);
    lrun_free(&b);
    lrun_free(&c);
}

/* Wrong argument types and values give Lua errors naming the function. */
static void test_api_argument_errors(void **state) {
    static const struct { const char *code, *want; } cases[] = {
        {"drasim.submit(5)", "drasim.submit: expected a pod table"},
        {"drasim.submit{cpu='1'}", "missing field 'duration'"},
        {"drasim.submit{cpu='1', duration='soon'}", "submit: duration: expected a duration such as 90s"},
        {"drasim.submit{cpu='1', duration=-5}", "expected a non-negative number of seconds"},
        {"drasim.submit{cpu='1', duration=1, at=-1}", "submit: at"},
        {"drasim.after(10, function() drasim.submit{cpu='1', duration=1, at=5} end)", "is in the past"},
        {"drasim.submit{cpu='lots', duration=1}", "invalid quantity 'lots'"},
        {"drasim.submit{cpu={1,2}, duration=1}", "requests: cpu: expected a quantity"},
        {"drasim.submit{cpu='1', duration=1, wat=1}", "unknown field 'wat'"},
        {"drasim.submit{[1]=2, duration=1}", "field names must be strings, found a number key"},
        {"drasim.submit{cpu='1', duration=1, [true]=1}", "field names must be strings, found a boolean key"},
        {"drasim.submit{cpu='1', duration=1, [0.5]=1}", "field names must be strings, found a number key"},
        {"drasim.submit_gang{size=1, cpu='1', duration=1, sise=1}", "unknown field 'sise'"},
        {"drasim.submit{cpu='1', duration=1, nodeSelector={'a', b='c'}}", "nodeSelector: a table must be a list"},
        {"drasim.submit{cpu='1', duration=1, tolerations={[2]={key='k'}}}", "tolerations: a table must be a list"},
        {"drasim.submit{cpu='1', duration=1, tolerations={{[0]=1}}}", "tolerations: a table must be a list"},
        {"local t = {} for i = 1, 65 do t['k' .. i] = 'v' end drasim.submit{cpu='1', duration=1, nodeSelector=t}",
         "nodeSelector: more than 64 fields in one table"},
        {"drasim.submit{cpu='1', duration=1, gpu={dra={claims={{name='c', spec=coroutine.create(print)}}}}}",
         "gpu: unsupported value of type thread"},
        {"drasim.submit{cpu='1', duration=1, priority='high'}", "priority: expected an integer"},
        {"drasim.submit{cpu='1', duration=1, gpu={devicePlugin={gpu=1}}}", "is not an extended resource name"},
        {"drasim.submit{cpu='1', duration=1, gpu={devicePlugin={['example.com/fpga']=1}}}",
         "no node of the cluster offers resource 'example.com/fpga'"},
        {"drasim.submit{cpu='1', duration=1, gpu={dra={claims={{name='c', spec={}}}}}}",
         "states its GPU demand only for DRA"},
        {"drasim.submit{cpu='1', duration=1, nodeSelector={a=function() end}}", "unsupported value of type function"},
        {"drasim.submit{name='x', cpu='1', duration=1}; drasim.submit{name='x', cpu='1', duration=1}",
         "a pod named 'x' was already submitted"},
        {"drasim.submit{name='', cpu='1', duration=1}", "name: expected a non-empty string"},
        {"local t = {} t.t = t drasim.submit{cpu='1', duration=1, nodeSelector=t}", "nested too deeply"},
        {"drasim.submit_gang{cpu='1', duration=1}", "missing field 'size'"},
        {"drasim.submit_gang{size=0, cpu='1', duration=1}", "size: expected an integer from 1"},
        {"drasim.every(0, function() end)", "interval must be positive"},
        {"drasim.every('1m')", "bad argument #2 to 'every'"},
        {"drasim.at(nil, function() end)", "drasim.at: time: expected a duration"},
        {"drasim.cancel(99)", "no timer 99"},
        {"drasim.on_finish('nobody', function() end)", "no pod named 'nobody'"},
        {"drasim.random_int(5, 1)", "empty interval"},
        {"drasim.random_int('a', 1)", "expected an integer"},
        {"drasim.exponential(0)", "mean must be > 0"},
        {"drasim.lognormal(0, -1)", "sigma must be in [0, 10]"},
        {"drasim.normal('x')", "expected a number"},
        {"drasim.free_gpus('colour')", "invalid option 'colour'"},
        {"drasim.csv('/etc/passwd')", "expected a path relative to the script's directory"},
        {"drasim.csv('../x.csv')", "without '..'"},
        {"drasim.csv('missing.csv')", "drasim.csv:"},
        {"drasim.sorted_keys({[true]=1})", "keys must be numbers or strings"},
        {"math.randomseed(1)", "math.randomseed is not available"},
        {"require('a/b')", "invalid module name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        strbuf extra = {0};
        sb_printf(&extra, ", args: {code: \"%s\"}", cases[i].code);
        expect_failure("run_code.lua", sb_str(&extra), (const char *const[]){cases[i].want, NULL});
        sb_free(&extra);
    }
}

static void test_scenario_errors(void **state) {
    strbuf err = {0};
    scenario sc = {0};
    static const char *const bad[][2] = {
        {"workload: {lua: {script: x.lua}}\nstop: {allPodsDone: true}\n", "a Lua workload needs stop.time"},
        {"workload: {lua: {script: x.lua, argz: {}}}\nstop: {time: 1h}\n", "unknown field 'argz' in workload.lua"},
        {"workload: {lua: {script: x.lua, args: [1]}}\nstop: {time: 1h}\n", "workload.lua.args: expected a map"},
        {"workload: {lua: {script: x.lua, memoryLimit: lots}}\nstop: {time: 1h}\n", "memoryLimit: expected a quantity"},
        {"workload: {lua: {script: x.lua, instructionLimit: 5}}\nstop: {time: 1h}\n", "at least 1000"},
        {"workload: {lua: {args: {}}}\nstop: {time: 1h}\n", "missing field 'script'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        strbuf y = {0};
        sb_printf(&y, "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\n%s"
                      "cluster: {nodePools: [{name: c, count: 1, cpu: \"4\", memory: 8Gi}]}\n"
                      "scheduling: {mode: device-plugin}\n", bad[i][0]);
        memset(&sc, 0, sizeof sc);
        assert_int_equal(yfile_load_mem("bad.yaml", y.s, y.len, &sc.file, &err), 0);
        sc.has_file = true;
        assert_int_equal(scenario_from_tree(sc.file.docs[0], &sc, &err), -1);
        if (!strstr(sb_str(&err), bad[i][1]) || strncmp(sb_str(&err), "bad.yaml:", 9))
            fail_msg("case %zu: %s", i, sb_str(&err));
        scenario_free(&sc);
        sb_free(&y);
    }
    sb_free(&err);
    intern_reset();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes_are_refused),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_error_names_script_line_and_traceback),
        cmocka_unit_test(test_timers_and_clock),
        cmocka_unit_test(test_cluster_state),
        cmocka_unit_test(test_shapes_are_interned),
        cmocka_unit_test(test_shape_numbers),
        cmocka_unit_test(test_shape_tables),
        cmocka_unit_test(test_integer_text),
        cmocka_unit_test(test_shape_cache),
        cmocka_unit_test(test_arrival_order),
        cmocka_unit_test(test_arrival_fifo_compacts),
        cmocka_unit_test(test_submit_names),
        cmocka_unit_test(test_template),
        cmocka_unit_test(test_standard_library),
        cmocka_unit_test(test_pairs_order_is_fixed),
        cmocka_unit_test(test_same_seed_same_pods),
        cmocka_unit_test(test_api_argument_errors),
        cmocka_unit_test(test_pod_lifecycle),
        cmocka_unit_test(test_scenario_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
