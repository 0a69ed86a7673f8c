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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_run_tables),
        cmocka_unit_test(test_abort_keeps_old_file),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
