/* test_store.c -- a tiny run worked out by hand, written to SQLite and read
 * back; atomic publishing (abort leaves the old file, no temp file left). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "store/store.h"
#include "store/store_rows.h"
#include "workload/attach.h"
#include "util/intern.h"

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* One node with 2 GPUs; three 1-GPU pods arrive at t=0 and run 10 s each:
 * two start at once on units 0 and 1, the third waits 10 s for a free unit. */
typedef struct tiny {
    k8s_node node;
    k8s_resource_amount alloc[4];
    scenario sc;
    pod_group_spec g;
    sim_time times[3];
    k8s_resource_amount dp[1];
    sim_run run;
} tiny;

static void tiny_run(tiny *t) {
    memset(t, 0, sizeof *t);
    t->alloc[0] = amt("cpu", 8);
    t->alloc[1] = amt("memory", 64LL << 30);
    t->alloc[2] = amt("pods", 110);
    t->alloc[3] = amt("nvidia.com/gpu", 2);
    t->node.meta.name = intern("node-0");
    t->node.allocatable = t->alloc;
    t->node.nallocatable = 4;
    t->g.name = intern("job");
    t->g.count = 3;
    t->g.arrival = (arrival_spec){.kind = ARRIVAL_TIMES, .times = t->times};
    t->g.duration = (duration_dist){.kind = DIST_FIXED, .a = 10000};
    t->dp[0] = amt("nvidia.com/gpu", 1);
    t->g.dp_resources = t->dp;
    t->g.ndp_resources = 1;
    t->g.has_dp = true;
    t->sc.name = intern("tiny");
    t->sc.seed = 1;
    t->sc.stop_time = SIM_TIME_NEVER;
    t->sc.stop_all_pods_done = true;
    t->sc.sample_interval = 5000;
    t->sc.sched.mode = SCHED_MODE_DEVICE_PLUGIN;
    t->sc.sched.dp.time_slicing_replicas = 1;
    t->sc.groups = &t->g;
    t->sc.ngroups = 1;
    sim_init(&t->run, &t->sc, &t->node, 1);
    assert_int_equal(workload_execute(&t->run, NULL), 0);
}

static int64_t q_int(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

static double q_double(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    double v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}

static void q_text(sqlite3 *db, const char *sql, char *out, size_t n) {
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    const unsigned char *v = sqlite3_column_text(s, 0);
    snprintf(out, n, "%s", v ? (const char *)v : "(null)");
    sqlite3_finalize(s);
}

static void test_tiny_run_tables(void **state) {
    tiny *t = test_malloc(sizeof *t);
    tiny_run(t);
    char path[] = "/tmp/drasim-test-store-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    store st;
    strbuf err = {0};
    assert_int_equal(store_open(&st, path, &err), 0);
    assert_int_equal(store_write_run(&st, &t->run, NULL, "tiny.yaml", &err, NULL), 1);
    assert_int_equal(store_commit(&st, &err), 0);

    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char buf[256];
    assert_int_equal(q_int(db, "SELECT count(*) FROM pods"), 3);
    assert_int_equal(q_int(db, "SELECT count(*) FROM pods WHERE state='Succeeded'"), 3);
    assert_int_equal(q_int(db, "SELECT wait_ms FROM pods WHERE pod_id=2"), 10000);
    assert_int_equal(q_int(db, "SELECT completion_ms FROM pods WHERE pod_id=2"), 20000);
    q_text(db, "SELECT devices FROM pods WHERE pod_id=0", buf, sizeof buf);
    assert_string_equal(buf, "nvidia.com/gpu=0");
    q_text(db, "SELECT devices FROM pods WHERE pod_id=1", buf, sizeof buf);
    assert_string_equal(buf, "nvidia.com/gpu=1");
    q_text(db, "SELECT devices FROM pods WHERE pod_id=2", buf, sizeof buf);
    assert_string_equal(buf, "nvidia.com/gpu=0");   /* pod 0's unit, freed first */
    q_text(db, "SELECT name FROM pods WHERE pod_id=2", buf, sizeof buf);
    assert_string_equal(buf, "job-2");
    assert_int_equal(q_int(db, "SELECT count(*) FROM devices"), 2);
    assert_int_equal(q_int(db, "SELECT end_ms FROM runs"), 20000);
    q_text(db, "SELECT mode || ' ' || policy || ' ' || scenario FROM runs", buf, sizeof buf);
    assert_string_equal(buf, "device-plugin LeastAllocated tiny");
    /* GPUs: 2 in use for 10 s, 1 for 10 s, of 2 over 20 s = 75 % */
    assert_true(q_double(db, "SELECT value FROM summary WHERE metric='gpu_alloc_pct'") > 74.999);
    assert_true(q_double(db, "SELECT value FROM summary WHERE metric='gpu_alloc_pct'") < 75.001);
    assert_int_equal(q_int(db, "SELECT value FROM summary WHERE metric='wait_max_s'"), 10);
    assert_int_equal(q_int(db, "SELECT value FROM summary WHERE metric='unschedulable'"), 0);
    /* samples every 5 s: at 0 two GPUs and one pending, at 10 s one GPU */
    assert_int_equal(q_int(db, "SELECT count(*) FROM samples"), 5);
    assert_int_equal(q_int(db, "SELECT gpus_alloc FROM samples WHERE time_ms=0"), 2);
    assert_int_equal(q_int(db, "SELECT pending_pods FROM samples WHERE time_ms=0"), 1);
    assert_int_equal(q_int(db, "SELECT gpus_alloc FROM samples WHERE time_ms=10000"), 1);
    assert_int_equal(q_int(db, "SELECT allocated FROM sample_resources WHERE time_ms=5000 AND resource='nvidia.com/gpu'"), 2);
    /* placement quality is measured in every run: every sample has it (no MIG: frag_mig_pct NULL) */
    assert_int_equal(q_int(db, "SELECT count(*) FROM samples WHERE frag_gpus IS NOT NULL AND nodes_fit_1 IS NOT NULL"
                               " AND stranded_gpus IS NOT NULL AND frag_mig_pct IS NULL"), 5);
    assert_int_equal(q_int(db, "SELECT count(*) FROM summary WHERE metric IN ('frag_gpu_pct_mean', 'stranded_gpus_max',"
                               " 'nodes_fit_8_min')"), 3);
    sqlite3_close(db);
    unlink(path);
    sb_free(&err);
    sim_free(&t->run);
    test_free(t);
}

static void test_abort_keeps_old_file(void **state) {
    tiny *t = test_malloc(sizeof *t);
    tiny_run(t);
    char path[] = "/tmp/drasim-test-store-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "old", 3), 3);
    close(fd);
    store st;
    strbuf err = {0};
    assert_int_equal(store_open(&st, path, &err), 0);
    assert_int_equal(store_write_run(&st, &t->run, NULL, NULL, &err, NULL), 1);
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", st.tmp);
    assert_int_equal(access(tmp, F_OK), 0);   /* being written under the temporary name */
    store_abort(&st);
    assert_int_equal(access(tmp, F_OK), -1);
    FILE *f = fopen(path, "r");
    char buf[8] = {0};
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 3);
    fclose(f);
    assert_string_equal(buf, "old");
    /* an interrupted write fails and says so */
    volatile sig_atomic_t stop = 1;
    assert_int_equal(store_open(&st, path, &err), 0);
    assert_int_equal(store_write_run(&st, &t->run, NULL, NULL, &err, &stop), -1);
    assert_string_equal(sb_str(&err), "interrupted");
    store_abort(&st);
    unlink(path);
    sb_free(&err);
    sim_free(&t->run);
    test_free(t);
}

/* Placement-quality samples by hand on the tiny run (samples at 0, 5, 10,
 * 15, 20 s; each holds 5 s, the last none): the summary metrics
 * (engine/sim_quality.c) and the samples' columns. */
static void test_quality_samples(void **state) {
    tiny *t = test_malloc(sizeof *t);
    tiny_run(t);
    assert_int_equal(t->run.samples.len, 5);
    /* replace what the run measured by hand-made samples, and drop its quality metrics */
    t->run.sample_gpu.len = 0;
    size_t keep = 0;
    for (size_t i = 0; i < t->run.summary.len; i++) {
        const char *m = t->run.summary.data[i].name;
        if (strncmp(m, "frag_", 5) && strncmp(m, "stranded_", 9) && strncmp(m, "nodes_fit_", 10))
            t->run.summary.data[keep++] = t->run.summary.data[i];
    }
    t->run.summary.len = keep;
    /* gpus 2; frag, idle, stranded, nodes_fit, mig */
#define QS(idle, frag, strand, f1, f2, mig) \
    {.gpus = 2, .idle_gpus = idle, .frag_gpus = frag, .stranded_gpus = strand, .nodes_fit = {f1, f2, 0, 0}, \
     .mig_frag_pct = mig}
    const gpu_metrics g[5] = {
        QS(1.0, 0.5, 0.0, 2, 1, -1),    /* frag 25 % of GPUs, 50 % of idle */
        QS(1.6, 1.0, 1.0, 1, 1, 10),    /* 50 %, 62.5 % */
        QS(0.5, 0.25, 0.5, 0, 0, 20),   /* 12.5 %, 50 % */
        QS(2.0, 0.0, 0.0, 2, 1, 30),    /* 0 %, 0 % */
        QS(0.8, 0.2, 2.0, 1, 0, 40),    /* 10 %, 25 % (end) */
    };
#undef QS
    for (int i = 0; i < 5; i++) VEC_PUSH(t->run.sample_gpu, g[i]);
    sim_metric_add(&t->run, "frag_ratio_pct_end", 99);   /* as a trace run writes it: kept, not repeated */
    sim_quality_summary(&t->run);
    sim_quality_summary(&t->run);   /* a second call adds nothing */
    int n = 0;
    for (size_t i = 0; i < t->run.summary.len; i++) n += !strcmp(t->run.summary.data[i].name, "frag_ratio_pct_end");
    assert_int_equal(n, 1);
    n = 0;
    for (size_t i = 0; i < t->run.summary.len; i++) n += !strcmp(t->run.summary.data[i].name, "nodes_fit_1_min");
    assert_int_equal(n, 1);
    assert_float_equal(sim_metric_get(&t->run, "frag_ratio_pct_end"), 99, 0);
    assert_float_equal(sim_metric_get(&t->run, "frag_gpu_pct_mean"), (25 + 50 + 12.5 + 0) / 4.0, 1e-12);
    assert_float_equal(sim_metric_get(&t->run, "frag_gpu_pct_end"), 10, 1e-12);
    assert_float_equal(sim_metric_get(&t->run, "frag_ratio_pct_mean"), (50 + 62.5 + 50 + 0) / 4.0, 1e-12);
    assert_float_equal(sim_metric_get(&t->run, "stranded_gpus_mean"), (0 + 1 + 0.5 + 0) / 4.0, 1e-12);
    assert_float_equal(sim_metric_get(&t->run, "stranded_gpus_max"), 2, 0);
    assert_float_equal(sim_metric_get(&t->run, "nodes_fit_1_min"), 0, 0);
    assert_float_equal(sim_metric_get(&t->run, "nodes_fit_1_end"), 1, 0);
    assert_float_equal(sim_metric_get(&t->run, "nodes_fit_2_min"), 0, 0);
    assert_float_equal(sim_metric_get(&t->run, "nodes_fit_2_end"), 0, 0);
    assert_float_equal(sim_metric_get(&t->run, "nodes_fit_8_end"), 0, 0);
    /* MIG: samples 1..4 only (-1 = not measured): (10 + 20 + 30) / 3, the last has no weight */
    assert_float_equal(sim_metric_get(&t->run, "frag_mig_pct_mean"), 20, 1e-12);
    assert_float_equal(sim_metric_get(&t->run, "frag_mig_pct_end"), 40, 0);

    char path[] = "/tmp/drasim-test-store-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    store st;
    strbuf err = {0};
    assert_int_equal(store_open(&st, path, &err), 0);
    assert_int_equal(store_write_run(&st, &t->run, NULL, "tiny.yaml", &err, NULL), 1);
    assert_int_equal(store_commit(&st, &err), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char buf[256];
    q_text(db, "SELECT frag_gpus || ' ' || frag_gpu_pct || ' ' || frag_ratio_pct || ' ' || stranded_gpus || ' ' ||"
               " nodes_fit_1 || ' ' || nodes_fit_2 || ' ' || nodes_fit_4 || ' ' || nodes_fit_8 || ' ' || frag_mig_pct"
               " FROM samples WHERE time_ms = 5000", buf, sizeof buf);
    assert_string_equal(buf, "1.0 50.0 62.5 1.0 1 1 0 0 10.0");
    q_text(db, "SELECT coalesce(frag_mig_pct, 'NULL') || ' ' || frag_gpu_pct FROM samples WHERE time_ms = 0", buf, sizeof buf);
    assert_string_equal(buf, "NULL 25.0");
    assert_int_equal(q_int(db, "SELECT count(*) FROM samples WHERE frag_gpus IS NOT NULL"), 5);
    assert_float_equal(q_double(db, "SELECT value FROM summary WHERE metric = 'stranded_gpus_mean'"), 0.375, 0);
    sqlite3_close(db);
    unlink(path);
    sb_free(&err);
    sim_free(&t->run);
    test_free(t);
}

/* store_rows_insert: the rows a cursor hands out land in order, with their
 * types (integer, text, NULL) as bound parameters would give them, after
 * rows already in the table; an unknown table is an error. */
typedef struct three_rows {
    int at;
} three_rows;

static bool three_next(void *ctx) { return ++((three_rows *)ctx)->at <= 3; }

static void three_column(void *ctx, sqlite3_context *out, int col) {
    int at = ((three_rows *)ctx)->at;
    static const char *const names[] = {"a", "bb", "ccc"};
    if (col == 0) sqlite3_result_int64(out, 10 * at);
    else if (at == 2) sqlite3_result_null(out);
    else sqlite3_result_text(out, names[at - 1], -1, SQLITE_STATIC);
}

static void test_rows_insert(void **state) {
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(n INTEGER NOT NULL, s TEXT); INSERT INTO t VALUES(1,'x');", NULL,
                                  NULL, NULL),
                     SQLITE_OK);
    three_rows cur = {0};
    store_rows rows = {.ncols = 2, .ctx = &cur, .next = three_next, .column = three_column};
    assert_int_equal(store_rows_insert(db, "t", &rows), 0);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT rowid, n, typeof(s), coalesce(s,'-') FROM t ORDER BY rowid", -1, &s,
                                        NULL),
                     SQLITE_OK);
    static const char *const want[] = {"1 1 text x", "2 10 text a", "3 20 null -", "4 30 text ccc"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(sqlite3_step(s), SQLITE_ROW);
        char got[64];
        snprintf(got, sizeof got, "%lld %lld %s %s", (long long)sqlite3_column_int64(s, 0),
                 (long long)sqlite3_column_int64(s, 1), sqlite3_column_text(s, 2), sqlite3_column_text(s, 3));
        assert_string_equal(got, want[i]);
    }
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    cur.at = 0;
    assert_int_equal(store_rows_insert(db, "no_such_table", &rows), -1);
    sqlite3_close(db);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_run_tables),
        cmocka_unit_test(test_abort_keeps_old_file),
        cmocka_unit_test(test_quality_samples),
        cmocka_unit_test(test_rows_insert),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
