/* test_report_runner.c -- `--seeds` and `--set` through the runner: several
 * runs in one database, the same seed twice gives the same results, an
 * override changes the run and a bad one names "--set KEY"; and `drasim
 * compare` on two hand-made databases (per-run and per-configuration). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "report/compare.h"
#include "report/rdb.h"
#include "report/runner.h"
#include "util/intern.h"

#define QUICKSTART TEST_DATA_DIR "/../scenarios/quickstart.yaml"

static int run_into(const char *db, const char *const *sets, size_t nsets, const uint64_t *seeds, size_t nseeds,
                    strbuf *err) {
    store st;
    if (store_open(&st, db, err)) return -1;
    run_batch b = {.scenario_path = QUICKSTART, .sets = sets, .nsets = nsets, .seeds = seeds, .nseeds = nseeds};
    int rc = run_batch_execute(&b, &st, err);
    if (rc == RUN_OK && store_commit(&st, err)) rc = RUN_ERROR;
    if (rc != RUN_OK) store_abort(&st);
    return rc;
}

static void test_seed_list(void **state) {
    (void)state;
    uint64_t *s;
    size_t n;
    strbuf err = {0};
    assert_int_equal(parse_seed_list("42..45", &s, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(s[3], 45);
    free(s);
    assert_int_equal(parse_seed_list("1,5..6,9", &s, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(s[0], 1);
    assert_int_equal(s[2], 6);
    assert_int_equal(s[3], 9);
    free(s);
    const char *bad[] = {"", "5..1", "1,", "a", "1..", "-3", "0..200000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse_seed_list(bad[i], &s, &n, &err), -1);
        assert_null(s);
    }
    sb_free(&err);
}

static void test_seeds_and_sets(void **state) {
    (void)state;
    char db[] = "/tmp/test_runner_XXXXXX";
    close(mkstemp(db));
    strbuf err = {0};
    const char *sets[] = {"scheduling.scoring=MostAllocated", "workload.podGroups.cpu-batch.count=50",
                          "stop.time=2h"};
    uint64_t seeds[] = {7, 8, 7};
    if (run_into(db, sets, 3, seeds, 3, &err)) fail_msg("%s", sb_str(&err));
    rdb r;
    assert_int_equal(rdb_open(db, &r, &err), 0);
    assert_int_equal(r.nruns, 3);
    assert_int_equal(r.ngroups, 1);
    assert_int_equal(r.runs[0].seed, 7);
    assert_int_equal(r.runs[1].seed, 8);
    assert_int_equal(r.runs[2].seed, 7);
    assert_string_equal(r.runs[0].policy, "MostAllocated");
    assert_int_equal(r.runs[0].end_ms, 2 * 3600000);
    /* same seed, same results; another seed, other arrivals */
    bool differs = false;
    for (size_t m = 0; m < r.nmetrics; m++) {
        assert_true(rdb_value(&r, 0, (int)m) == rdb_value(&r, 2, (int)m));
        differs |= rdb_value(&r, 0, (int)m) != rdb_value(&r, 1, (int)m);
    }
    assert_true(differs);
    /* the cpu-batch override took effect: its 50 pods at ~1/min all arrive before 2h */
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(r.db, "SELECT count FROM pod_groups WHERE run_id = 1 AND name = 'cpu-batch'",
                                        -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(s, 0), 50);
    sqlite3_finalize(s);
    rdb_close(&r);

    const char *bad[] = {"scheduling.scoring=Sideways"};
    assert_int_equal(run_into(db, bad, 1, NULL, 0, &err), RUN_BAD_INPUT);
    assert_non_null(strstr(sb_str(&err), "--set scheduling.scoring:1:"));
    const char *bad2[] = {"workload.podGroups.nobody.count=3"};
    assert_int_equal(run_into(db, bad2, 1, NULL, 0, &err), RUN_BAD_INPUT);
    assert_non_null(strstr(sb_str(&err), "no list item 'nobody'"));
    const char *bad3[] = {"novalue"};
    assert_int_equal(run_into(db, bad3, 1, NULL, 0, &err), RUN_BAD_INPUT);
    assert_non_null(strstr(sb_str(&err), "expected KEY=VALUE"));
    sb_free(&err);
    unlink(db);
    intern_reset();
}

static void make_db(const char *path, const char *rows) {
    unlink(path);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT, mode TEXT,"
                                  " policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER, pods INTEGER,"
                                  " drasim_version TEXT);"
                                  "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL, PRIMARY KEY(run_id, metric));",
                                  NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void test_compare(void **state) {
    (void)state;
    char a[] = "/tmp/test_cmp_a_XXXXXX", b[] = "/tmp/test_cmp_b_XXXXXX";
    close(mkstemp(a));
    close(mkstemp(b));
    /* one run per configuration (policies P and Q): one line per run, matched by key although the run ids are swapped */
    make_db(a, "INSERT INTO runs VALUES(1,'s','s.yaml','dra','P',1,NULL,10,1,1,'t');"
               "INSERT INTO runs VALUES(2,'s','s.yaml','dra','Q',1,NULL,10,1,1,'t');"
               "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50),(1,'wait_p99_s',0),(2,'gpu_alloc_pct',60),(2,'wait_p99_s',10);");
    make_db(b, "INSERT INTO runs VALUES(1,'s','s.yaml','dra','Q',1,NULL,10,1,1,'t');"
               "INSERT INTO runs VALUES(2,'s','s.yaml','dra','P',1,NULL,10,1,1,'t');"
               "INSERT INTO summary VALUES(1,'gpu_alloc_pct',66),(1,'wait_p99_s',5),(2,'gpu_alloc_pct',55),(2,'frag_pct',3);");
    rdb ra, rb;
    strbuf err = {0}, out = {0};
    assert_int_equal(rdb_open(a, &ra, &err), 0);
    assert_int_equal(rdb_open(b, &rb, &err), 0);
    compare_dbs(&ra, &rb, true, &out);
    assert_non_null(strstr(sb_str(&out), "run,metric,A,B,delta,delta_pct,A_ci95,B_ci95,delta_ci95,statistic\n"));
    assert_non_null(strstr(sb_str(&out), "s dra P seed=1,gpu_alloc_pct,50,55,+5,+10.00%,-,-,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra Q seed=1,gpu_alloc_pct,60,66,+6,+10.00%,-,-,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra Q seed=1,wait_p99_s,10,5,-5,-50.00%,-,-,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra P seed=1,wait_p99_s,0,-,-,-,-,-,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra P seed=1,frag_pct,-,3,-,-,-,-,-,\n"));
    rdb_close(&ra);
    rdb_close(&rb);
    /* the same two seeds on both sides: one line per configuration, mean and 95% CI half width
     * (A: 50, 60: 12.706 * 7.0711 / sqrt(2) = 63.53; B: 66, 55: 12.706 * 5.5 = 69.883; one value: -) */
    make_db(a, "INSERT INTO runs VALUES(1,'s','s.yaml','dra','MostAllocated',1,NULL,10,1,1,'t');"
               "INSERT INTO runs VALUES(2,'s','s.yaml','dra','MostAllocated',2,NULL,10,1,1,'t');"
               "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50),(1,'wait_p99_s',0),(2,'gpu_alloc_pct',60),(2,'wait_p99_s',10);");
    make_db(b, "INSERT INTO runs VALUES(1,'s','s.yaml','dra','MostAllocated',2,NULL,10,1,1,'t');"
               "INSERT INTO runs VALUES(2,'s','s.yaml','dra','MostAllocated',1,NULL,10,1,1,'t');"
               "INSERT INTO summary VALUES(1,'gpu_alloc_pct',66),(1,'wait_p99_s',5),(2,'gpu_alloc_pct',55),(2,'frag_pct',3);");
    assert_int_equal(rdb_open(a, &ra, &err), 0);
    assert_int_equal(rdb_open(b, &rb, &err), 0);
    sb_clear(&out);
    compare_dbs(&ra, &rb, true, &out);
    assert_null(strstr(sb_str(&out), "seed="));
    assert_non_null(strstr(sb_str(&out), "s dra MostAllocated (mean),gpu_alloc_pct,55,60.5,+5.5,+10.00%,63.53,69.883,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra MostAllocated (mean),wait_p99_s,5,5,+0,0%,63.53,-,-,\n"));
    assert_non_null(strstr(sb_str(&out), "s dra MostAllocated (mean),frag_pct,-,3,-,-,-,-,-,\n"));
    sb_clear(&out);
    compare_dbs(&ra, &rb, false, &out);
    assert_non_null(strstr(sb_str(&out), "gpu_alloc_pct  55 ± 63.5  60.5 ± 69.9"));
    rdb_close(&rb);
    /* other seeds: per configuration, means */
    make_db(b, "INSERT INTO runs VALUES(1,'s','s.yaml','dra','MostAllocated',7,NULL,10,1,1,'t');"
               "INSERT INTO summary VALUES(1,'gpu_alloc_pct',0),(1,'wait_p99_s',5);");
    assert_int_equal(rdb_open(b, &rb, &err), 0);
    sb_clear(&out);
    compare_dbs(&ra, &rb, false, &out);
    const char *line = strstr(sb_str(&out), "s dra MostAllocated (mean)  gpu_alloc_pct");
    assert_non_null(line);
    char ka[64], kh[64], kb[64], kd[64], kp[64];
    assert_int_equal(sscanf(line + strlen("s dra MostAllocated (mean)  gpu_alloc_pct"), "%63s ± %63s %63s %63s %63s", ka,
                            kh, kb, kd, kp), 5);
    assert_string_equal(ka, "55");
    assert_string_equal(kh, "63.5");
    assert_string_equal(kb, "0");   /* one run: no interval */
    assert_string_equal(kd, "-55");
    assert_string_equal(kp, "-100.00%");
    assert_non_null(strstr(sb_str(&out), "wait_p99_s"));
    rdb_close(&ra);
    rdb_close(&rb);
    sb_free(&err);
    sb_free(&out);
    unlink(a);
    unlink(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_list),
        cmocka_unit_test(test_seeds_and_sets),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
