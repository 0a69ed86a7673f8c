/* test_lua_hostile.c -- the Lua sandbox against hostile scripts (issue 10):
 * drasim.submit re-entered from an __index metamethod, the pairs() iterator
 * called with a non-table, CPU-time bombs in C functions (string.rep,
 * table.move/insert, pairs in a loop, sorted_keys, running, %b and long
 * finds, collectgarbage, __gc finalizers, loops in coroutines), the budget
 * being fresh for every callback, finished timers giving their memory back,
 * and C functions named in errors. Scripts: tests/lua/hostile_*.lua. The
 * CLI side (directory as script, Ctrl-C, wall-clock limit, args keys) is
 * tests/lua_hostile.cmake. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/lua_internal.h"

/* A run of a small cluster (2 nodes x 8 H100) whose workload is tests/lua/SCRIPT. */
typedef struct lrun {
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    strbuf err;
    int rc;
    double seconds;   /* wall time of sim_execute */
} lrun;

static void lrun_start(lrun *t, const char *script, const char *extra) {
    memset(t, 0, sizeof *t);
    strbuf y = {0};
    sb_printf(&y,
              "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {time: 20h}\n"
              "cluster:\n  nodePools:\n"
              "  - {name: h100, count: 2, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}\n"
              "scheduling: {mode: device-plugin}\n"
              "workload:\n  lua: {script: %s%s}\n",
              script, extra ? extra : "");
    assert_int_equal(yfile_load_mem(TEST_DATA_DIR "/lua/inline.yaml", y.s, y.len, &t->sc.file, &t->err), 0);
    sb_free(&y);
    t->sc.has_file = true;
    if (scenario_from_tree(t->sc.file.docs[0], &t->sc, &t->err)) fail_msg("%s", sb_str(&t->err));
    assert_int_equal(catalog_load(NULL, &t->cat, &t->err), 0);
    assert_int_equal(inventory_build_ex(&t->sc.cluster, &t->cat, &t->sc.sched.dp, INV_NO_SLICES, &t->inv, &t->err), 0);
    sim_init(&t->run, &t->sc, t->inv.nodes, t->inv.nnodes);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    t->rc = workload_execute(&t->run, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    t->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

static void lrun_free(lrun *t) {
    sim_free(&t->run);
    inventory_free(&t->inv);
    catalog_free(&t->cat);
    scenario_free(&t->sc);
    sb_free(&t->err);
    intern_reset();
}

static void expect_failure(const char *script, const char *extra, const char *const *needles) {
    lrun t;
    lrun_start(&t, script, extra);
    const char *msg = sb_str(&t.run.error);
    if (t.rc != -2) fail_msg("%s %s: expected the run to fail, rc %d", script, extra ? extra : "", t.rc);
    for (int i = 0; needles[i]; i++)
        if (!strstr(msg, needles[i])) fail_msg("%s %s: message lacks '%s':\n%s", script, extra ? extra : "", needles[i], msg);
    lrun_free(&t);
}

static void expect_success(const char *script, const char *extra, lrun *t) {
    lrun_start(t, script, extra);
    if (t->rc != 0) fail_msg("%s %s failed: %s", script, extra ? extra : "", sb_str(&t->run.error));
}

static size_t pods_in_group(const sim_run *r, const char *prefix) {
    size_t n = 0;
    for (size_t i = 0; i < r->pods.len; i++)
        n += !strncmp(r->sched.classes[r->pods.data[i].group].name, prefix, strlen(prefix));
    return n;
}

/* An __index metamethod of the pod table submits pods of new shapes while the
 * outer submit reads the table: every pod is accepted (and ASan sees no use
 * after free of the shape arena, the original bug). */
static void test_submit_reentered_from_index(void **state) {
    lrun t;
    expect_success("hostile_reentry.lua", NULL, &t);
    assert_int_equal(pods_in_group(&t.run, "outer"), 40);
    assert_int_equal(pods_in_group(&t.run, "inner"), 120);
    assert_int_equal(t.run.sched.nclasses, 160);
    lrun_free(&t);
}

/* CPU-time bombs in C functions stop with a clear error (or, for an empty
 * string.rep, simply finish): the work is charged to the instruction budget,
 * so the outcome is the same on any machine (a slow one is only noted: wall
 * time is not what the guards count, issue 25). */
static void test_cpu_bombs(void **state) {
    static const struct { const char *c, *want, *settings; } fail[] = {
        {"table_move", "hostile_cpu.lua:6: instruction limit exceeded (20000000", NULL},
        {"gc_loop", "hostile_cpu.lua:8: setmetatable: __gc metamethods (finalizers) are not available", NULL},
        {"pairs_loop", "hostile_cpu.lua:12: instruction limit exceeded", NULL},
        {"balanced", "hostile_cpu.lua:28: pattern too complex for the sandbox (1 repetition items on a 1000000-byte", NULL},
        {"plain_find", "hostile_cpu.lua:33: pattern too complex for the sandbox (0 repetition items", NULL},
        {"endless_coroutine", "instruction limit exceeded", NULL},
        {"collect_loop", "instruction limit exceeded", NULL},
        {"insert_front", "instruction limit exceeded", NULL},
        {"alloc_fail_loop", "limit exceeded", ", memoryLimit: 32Mi"},
        {"same_instant_chain", "more than 1000000 Lua callbacks (timers, on_start, on_finish, after_schedule) at t = 0.000 s", NULL},
    };
    for (size_t i = 0; i < sizeof fail / sizeof *fail; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, ", instructionLimit: 20000000%s, args: {case: %s}",
                 fail[i].settings ? fail[i].settings : "", fail[i].c);
        lrun t;
        lrun_start(&t, "hostile_cpu.lua", extra);
        if (t.rc != -2 || !strstr(sb_str(&t.run.error), fail[i].want))
            fail_msg("case %s: rc %d, message:\n%s", fail[i].c, t.rc, sb_str(&t.run.error));
        if (t.seconds > 10) print_message("note: case %s took %.1f s of wall time\n", fail[i].c, t.seconds);
        lrun_free(&t);
    }
    static const char *const pass[] = {"rep_empty", "sorted_keys", "running"};
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, ", instructionLimit: 20000000, args: {case: %s}", pass[i]);
        lrun t;
        expect_success("hostile_cpu.lua", extra, &t);
        if (t.seconds > 10) print_message("note: case %s took %.1f s of wall time\n", pass[i], t.seconds);
        lrun_free(&t);
    }
}

/* Issue 19: every callback gets a fresh instruction budget (50 callbacks,
 * each using about 60 % of it). */
static void test_budget_is_per_callback(void **state) {
    lrun t;
    expect_success("hostile_budget.lua", ", instructionLimit: 1000000", &t);
    bool done = false;
    for (size_t i = 0; i < t.run.pods.len; i++)
        done |= sim_pod_name(&t.run, (uint32_t)i) && !strcmp(sim_pod_name(&t.run, (uint32_t)i), "done-50");
    assert_true(done);
    lrun_free(&t);
    /* and the same callback with a budget below its need fails in the first call */
    expect_failure("hostile_budget.lua", ", instructionLimit: 300000",
                   (const char *const[]){"lua error in a drasim.every callback", "instruction limit exceeded (300000", NULL});
}

/* 20,000 chained one-shot timers (plus every/cancelled ones) and their pods:
 * the slots of fired, stopped and cancelled timers and of arrived pods are
 * reused, so the tables stay as small as the timers queued at once (a
 * cancelled timer keeps its slot until its event comes up, 100 s later: about
 * 50 of them at any time) instead of 60,000 entries. */
static void test_finished_timers_are_freed(void **state) {
    lrun t;
    expect_success("hostile_timers.lua", ", memoryLimit: 16Mi", &t);
    assert_int_equal(pods_in_group(&t.run, "chain"), 20000);
    const luaw *w = t.run.sources[t.run.nsources - 1].ctx;
    if (w->timers.len > 64 || w->arrivals.len > 4 || w->fifo.q.len > 4)
        fail_msg("timer slots %zu, arrival slots %zu, FIFO entries %zu: finished ones are not reused", w->timers.len,
                 w->arrivals.len, w->fifo.q.len);
    assert_int_equal(w->c_used, 0);   /* every charge refunded */
    lrun_free(&t);
}

/* Argument checks and names: C functions are named in errors and tracebacks. */
static void test_arguments_and_names(void **state) {
    static const struct { const char *code, *want; } cases[] = {
        {"local f = pairs({a=1}); f(5)", "pairs iterator: expected the table being traversed, found number"},
        {"local f = pairs({a=1}); f()", "pairs iterator: expected the table being traversed, found no value"},
        {"local ok, e = pcall(drasim.every, '1m'); error(e)", "bad argument #2 to 'drasim.every'"},
        {"drasim.after(1, drasim.submit)", "in function 'drasim.submit'"},
        {"local ok, e = pcall(string.gsub, 'x', 'x'); error(e)", "bad argument #3 to 'string.gsub'"},
        {"local ok, e = pcall(table.move, {}, 1); error(e)", "bad argument #3 to 'table.move'"},
        {"collectgarbage('stop')", "bad argument #1 to 'collectgarbage' (invalid option 'stop')"},
        {"setmetatable({}, {__gc = true})", "__gc metamethods (finalizers) are not available"},
        {"local ok, e = pcall(setmetatable, 5, {}); error(e)", "bad argument #1 to 'setmetatable' (table expected"},
        {"local ok, e = pcall(table.insert, 5, 1); error(e)", "bad argument #1 to 'table.insert' (table expected"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        strbuf extra = {0};
        sb_printf(&extra, ", args: {code: \"%s\"}", cases[i].code);
        expect_failure("run_code.lua", sb_str(&extra), (const char *const[]){cases[i].want, NULL});
        sb_free(&extra);
    }
}

/* The guarded functions keep Lua's results on ordinary input. */
static void test_guards_keep_results(void **state) {
    static const char *const ok[] = {
        "assert(('hello world'):find('o w', 1, true) == 5)",
        "assert(('hello'):find('l') == 3 and ('hello'):find('', 10) == nil and ('hello'):find('', 6) == 6)",
        "assert(('hello'):find('lo', -2) == 4 and ('hello'):find('h', -100) == 1 and ('a.b'):find('.', 1, true) == 2)",
        "assert(string.rep('ab', 3, ',') == 'ab,ab,ab' and string.rep('x', 0) == '' and string.rep('x', -1) == '')",
        "local t = {1, 2, 3}; table.insert(t, 1, 0); assert(table.concat(t, ',') == '0,1,2,3'); "
        "assert(table.remove(t, 1) == 0 and #t == 3)",
        "local t = table.move({1, 2, 3}, 1, 3, 2); assert(t[1] == 1 and t[4] == 3)",
        "local t = {3, 1, 2}; table.sort(t); assert(t[1] == 1 and t[3] == 3); assert(select('#', table.unpack(t)) == 3)",
        "local k = drasim.sorted_keys({b = 1, a = 2, [10] = 3, [2] = 4, [1.5] = 5}); "
        "assert(#k == 5 and k[1] == 1.5 and k[2] == 2 and k[3] == 10 and k[4] == 'a' and k[5] == 'b')",
        "local k = drasim.sorted_keys({[math.maxinteger] = 1, [2^63] = 2, [-2^63] = 3, [math.mininteger + 1] = 4}); "
        "assert(k[1] == -2^63 and k[2] == math.mininteger + 1 and k[3] == math.maxinteger and k[4] == 2^63)",
        "assert(collectgarbage('count') > 0 and collectgarbage() == 0)",
        "local mt = setmetatable({}, {__index = function(t, k) return k .. '!' end}); assert(mt.x == 'x!')",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        strbuf extra = {0};
        sb_printf(&extra, ", args: {code: \"%s\"}", ok[i]);
        lrun t;
        expect_success("run_code.lua", sb_str(&extra), &t);
        lrun_free(&t);
        sb_free(&extra);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_reentered_from_index),
        cmocka_unit_test(test_cpu_bombs),
        cmocka_unit_test(test_budget_is_per_callback),
        cmocka_unit_test(test_finished_timers_are_freed),
        cmocka_unit_test(test_arguments_and_names),
        cmocka_unit_test(test_guards_keep_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
