/* test_report_data.c -- what `drasim report` draws from a database: the
 * plots present depend on the tables (arrival_curve, placement-quality sample columns,
 * several runs), the data blocks hold mean/min/max over seeds, and
 * index.html without gnuplot still has the tables and a note. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "report/rdb.h"
#include "report/report.h"
#include "report/runner.h"
#include "util/intern.h"

#define QUICKSTART TEST_DATA_DIR "/../scenarios/quickstart.yaml"

static char dir[] = "/tmp/test_report_data_XXXXXX";
static char db[512];

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(dir)) return -1;
    snprintf(db, sizeof db, "%s/r.db", dir);
    char data[600];
    snprintf(data, sizeof data, "%s/data", dir);
    mkdir(data, 0755);
    strbuf err = {0};
    store st;
    const char *sets[] = {"stop.time=1h"};
    uint64_t seeds[] = {1, 2};
    run_batch b = {.scenario_path = QUICKSTART, .sets = sets, .nsets = 1, .seeds = seeds, .nseeds = 2};
    int rc = store_open(&st, db, &err) || run_batch_execute(&b, &st, &err) || store_commit(&st, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    sb_free(&err);
    intern_reset();
    return rc ? -1 : 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static bool has_plot(const report *rp, const char *name) {
    for (size_t i = 0; i < rp->plots.len; i++)
        if (!strcmp(rp->plots.data[i].name, name)) return true;
    return false;
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static void exec_sql(const char *sql) {
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK) fail_msg("%s", sqlite3_errmsg(h));
    sqlite3_close(h);
}

static void test_plots_follow_tables(void **state) {
    (void)state;
    strbuf err = {0};
    rdb r;
    assert_int_equal(rdb_open(db, &r, &err), 0);
    assert_int_equal(r.nruns, 2);
    assert_int_equal(r.ngroups, 1);
    report rp = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp, &err), 0);
    const char *always[] = {"gpu_alloc", "utilization", "wait_cdf", "alloc_by_model", "alloc_by_resource",
                            "compare_gpu_alloc_pct"};
    for (size_t i = 0; i < sizeof always / sizeof *always; i++)
        if (!has_plot(&rp, always[i])) fail_msg("missing plot %s", always[i]);
    /* drawn when some sample is not 0, else left out with a sentence (report_prune.c) */
    static const char *const zero_or_plot[][3] = {
        {"pending_pods", "pending", "no pod was pending in these runs (pending)"},
        {"stranded_gpus", "stranded_gpus", "no GPU was stranded in these runs (stranded_gpus)"},
        {"frag_gpu_pct", "frag_over_time", "no FGD fragmentation in these runs (frag_over_time)"},
        {"frag_mig_pct", "frag_mig_over_time", "no MIG fragmentation in these runs (frag_mig_over_time)"}};
    sqlite3 *q;
    assert_int_equal(sqlite3_open(db, &q), SQLITE_OK);
    for (size_t i = 0; i < sizeof zero_or_plot / sizeof *zero_or_plot; i++) {
        char sql[200];
        sqlite3_stmt *st;
        snprintf(sql, sizeof sql, "SELECT max(abs(%s)) > 0 FROM samples", zero_or_plot[i][0]);
        assert_int_equal(sqlite3_prepare_v2(q, sql, -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        int some = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        if (has_plot(&rp, zero_or_plot[i][1]) != (some != 0)) fail_msg("%s: plot and samples disagree", zero_or_plot[i][1]);
        if (!some && !strstr(sb_str(&rp.empty_note), zero_or_plot[i][2])) fail_msg("no sentence for %s", zero_or_plot[i][1]);
    }
    sqlite3_close(q);
    assert_false(has_plot(&rp, "arrival_gpu_alloc_pct"));
    /* every run measures placement quality: its plots are there (the quickstart has static MIG too),
     * unless every value is 0 (above) */
    assert_true(has_plot(&rp, "nodes_fit"));

    /* gpu_alloc.dat: one block, x in hours, mean between min and max, equal to the samples */
    char path[700];
    snprintf(path, sizeof path, "%s/data/gpu_alloc.dat", dir);
    char *text = slurp(path);
    double x, mean, lo, hi;
    int rows = 0;
    bool spread = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        assert_int_equal(sscanf(line, "%lf %lf %lf %lf", &x, &mean, &lo, &hi), 4);
        assert_true(lo <= mean + 1e-9 && mean <= hi + 1e-9);
        assert_true(x >= 0 && x <= 1.0 + 1e-9);
        spread |= hi > lo;
        rows++;
    }
    free(text);
    assert_int_equal(rows, 61);   /* 1 h sampled every minute, both ends */
    assert_true(spread);          /* two seeds differ somewhere */
    report_free(&rp);
    rdb_close(&r);

    /* tables added by other parts appear as plots once present */
    exec_sql("DROP TABLE IF EXISTS arrival_curve;"
             "CREATE TABLE arrival_curve(run_id INTEGER, arrived_pct INTEGER, gpu_alloc_pct REAL, frag_gpu_pct REAL);"
             "INSERT INTO arrival_curve VALUES(1,10,9,1),(1,20,18,2),(2,10,7,3),(2,20,16,4);"
             "UPDATE samples SET frag_gpu_pct = 2.5, stranded_gpus = 1.5, nodes_fit_1 = 7, nodes_fit_2 = 5,"
             " nodes_fit_4 = 3, nodes_fit_8 = run_id, frag_mig_pct = NULL;");
    assert_int_equal(rdb_open(db, &r, &err), 0);
    report rp2 = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp2, &err), 0);
    assert_true(has_plot(&rp2, "arrival_gpu_alloc_pct"));
    assert_true(has_plot(&rp2, "arrival_frag_gpu_pct"));
    assert_true(has_plot(&rp2, "frag_over_time"));
    assert_true(has_plot(&rp2, "stranded_gpus"));
    assert_true(has_plot(&rp2, "nodes_fit"));
    assert_false(has_plot(&rp2, "frag_mig_over_time"));   /* frag_mig_pct NULL now: no plot */
    /* one configuration: the four lines of its first run (run 1: nodes_fit_8 = 1) */
    snprintf(path, sizeof path, "%s/data/nodes_fit.dat", dir);
    text = slurp(path);
    assert_non_null(strstr(text, "# hour nodes_fit_1 nodes_fit_2 nodes_fit_4 nodes_fit_8\n0.000000 7 5 3 1\n"));
    assert_null(strstr(text, " 3 2\n"));   /* run 2's rows are not in it */
    free(text);
    snprintf(path, sizeof path, "%s/data/frag_over_time.dat", dir);
    text = slurp(path);
    assert_non_null(strstr(text, "0.000000 2.5 2.5 2.5\n"));
    free(text);
    snprintf(path, sizeof path, "%s/data/arrival_gpu_alloc_pct.dat", dir);
    text = slurp(path);
    /* two runs: mean and 95% CI (t = 12.706, standard error 1); a percentage: the band stops at 0 */
    assert_non_null(strstr(text, "10.000000 8 0 20.706\n20.000000 17 4.294 29.706\n"));
    free(text);

    /* no gnuplot: index.html with tables and a note, referencing no image */
    assert_int_equal(setenv("DRASIM_GNUPLOT", "/nonexistent/gnuplot", 1), 0);
    assert_int_equal(report_draw(&rp2, &err), 1);
    unsetenv("DRASIM_GNUPLOT");
    assert_int_equal(report_html(&rp2, &err), 0);
    snprintf(path, sizeof path, "%s/index.html", dir);
    text = slurp(path);
    assert_non_null(strstr(text, "No plots were drawn"));
    assert_null(strstr(text, "<img"));
    assert_non_null(strstr(text, "<h3>run 2: quickstart"));
    assert_non_null(strstr(text, "<th>gpu_alloc_pct</th>"));
    free(text);
    report_free(&rp2);
    rdb_close(&r);
    sb_free(&err);
}

static void test_metric_direction(void **state) {
    (void)state;
    assert_int_equal(metric_direction("frag_gpu_pct_mean"), -1);
    assert_int_equal(metric_direction("stranded_gpus_max"), -1);
    assert_int_equal(metric_direction("nodes_fit_8_min"), 1);
    assert_int_equal(metric_direction("nodes_fit_1_end"), 1);
    assert_int_equal(metric_direction("events"), 0);
}

static void test_not_a_results_db(void **state) {
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/empty.db", dir);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    sqlite3_exec(h, "CREATE TABLE t(x);", NULL, NULL, NULL);
    sqlite3_close(h);
    rdb r;
    strbuf err = {0};
    assert_int_equal(rdb_open(path, &r, &err), -1);
    assert_non_null(strstr(sb_str(&err), "not a drasim results database"));
    /* only runs and summary (two configurations): just the comparison plots */
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT,"
                                     " mode TEXT, policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER,"
                                     " pods INTEGER, drasim_version TEXT);"
                                     "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL);"
                                     "INSERT INTO runs VALUES(1,'s','f','dra','A',1,NULL,1,1,1,'v'),(2,'s','f','dra','B',1,NULL,1,1,1,'v');"
                                     "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50),(2,'gpu_alloc_pct',60);",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    assert_int_equal(rdb_open(path, &r, &err), 0);
    assert_int_equal(r.ngroups, 2);
    assert_string_equal(r.groups[0], "A");
    report rp = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp, &err), 0);
    assert_int_equal(rp.plots.len, 1);
    assert_string_equal(rp.plots.data[0].name, "compare_gpu_alloc_pct");
    report_free(&rp);
    rdb_close(&r);
    assert_int_equal(rdb_open("/nonexistent/x.db", &r, &err), -1);
    sb_free(&err);
}

/* Sweep legends name the swept item: a key of two segments is shortened,
 * a longer one (a pool's count) stays whole. */
static void test_sweep_labels(void **state) {
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/sweep-labels.db", dir);
    unlink(path);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT,"
                                     " mode TEXT, policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER,"
                                     " pods INTEGER, drasim_version TEXT);"
                                     "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL);"
                                     "CREATE TABLE sweep(run_id INTEGER, param TEXT, value TEXT);"
                                     "INSERT INTO runs VALUES(1,'s','f','dra','A',1,NULL,1,1,1,'v'),(2,'s','f','dra','A',1,NULL,1,1,1,'v');"
                                     "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50),(2,'gpu_alloc_pct',60);"
                                     "INSERT INTO sweep VALUES(1,'cluster.nodePools.h100.count','4'),"
                                     "(1,'scheduling.scoring','MostAllocated'),"
                                     "(2,'cluster.nodePools.h100.count','8'),(2,'scheduling.scoring','MostAllocated');",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    rdb r;
    strbuf err = {0};
    assert_int_equal(rdb_open(path, &r, &err), 0);
    assert_int_equal(r.ngroups, 2);
    assert_string_equal(r.groups[0], "cluster.nodePools.h100.count=4 scoring=MostAllocated");
    assert_string_equal(r.groups[1], "cluster.nodePools.h100.count=8 scoring=MostAllocated");
    rdb_close(&r);
    sb_free(&err);
}

/* Percentage bands are clamped to [0, 100]: gpu_alloc_pct at time 0 is 100
 * (seed 1) and 90 (seed 2): mean 95, half width 12.706 * 7.0711 / sqrt(2) =
 * 63.53 (12.706 * 5): lo 31.47, hi 158.53 -> 100. Pending pods (not a percentage): not clamped. */
static void test_percentage_band_clamped(void **state) {
    (void)state;
    exec_sql("UPDATE samples SET gpu_alloc_pct = CASE run_id WHEN 1 THEN 100 ELSE 90 END WHERE time_ms = 0;"
             "UPDATE samples SET pending_pods = CASE run_id WHEN 1 THEN 0 ELSE 2 END WHERE time_ms = 0;");
    strbuf err = {0};
    rdb r;
    assert_int_equal(rdb_open(db, &r, &err), 0);
    report rp = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp, &err), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/data/gpu_alloc.dat", dir);
    char *s = slurp(path);
    if (!strstr(s, "\n0.000000 95 31.47 100\n")) fail_msg("gpu_alloc.dat: %.300s", s);
    free(s);
    snprintf(path, sizeof path, "%s/data/pending.dat", dir);
    s = slurp(path);
    if (!strstr(s, "\n0.000000 1 -11.706 13.706\n")) fail_msg("pending.dat: %.300s", s);
    free(s);
    report_free(&rp);
    rdb_close(&r);
    sb_free(&err);
}

/* Per-group wait distributions: every arrived pod counts, a pod that never
 * started adds no step (censored), so group a ends at 3 of 4. */
static void test_wait_cdf_by_group(void **state) {
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/groups.db", dir);
    unlink(path);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT,"
                                     " mode TEXT, policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER,"
                                     " pods INTEGER, drasim_version TEXT);"
                                     "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL);"
                                     "CREATE TABLE pod_groups(run_id INTEGER, group_id INTEGER, name TEXT);"
                                     "CREATE TABLE pods(run_id INTEGER, pod_id INTEGER, group_id INTEGER, wait_ms INTEGER);"
                                     "INSERT INTO runs VALUES(1,'s','f','dra','A',1,NULL,600000,1,5,'v');"
                                     "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50);"
                                     "INSERT INTO pod_groups VALUES(1,0,'a'),(1,1,'b');"
                                     "INSERT INTO pods VALUES(1,0,0,0),(1,1,0,60000),(1,2,0,NULL),(1,3,0,60000),(1,4,1,120000);",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    rdb r;
    strbuf err = {0};
    assert_int_equal(rdb_open(path, &r, &err), 0);
    report rp = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp, &err), 0);
    assert_true(has_plot(&rp, "wait_cdf_by_group"));
    snprintf(path, sizeof path, "%s/data/wait_cdf_by_group.dat", dir);
    char *s = slurp(path);
    /* each curve from (0, 0), one point per distinct wait, then flat to the longest wait (2 min) */
    assert_string_equal(s, "# a (1 of 4 never started): 3 of 4 pods started\n0 0\n0 0.250000\n1 0.750000\n2 0.750000\n\n\n"
                           "# b: 1 of 1 pods started\n0 0\n2 1.000000\n2 1.000000\n\n\n");
    free(s);
    report_free(&rp);
    rdb_close(&r);
    sb_free(&err);
}

/* A summary metric against a numeric swept parameter: mean and 95% CI over
 * the seeds at each value (t = 12.706 for 2 seeds), clamped to [0, 100] for
 * percentages and at 0 below; the axis and the series name the parameter. */
static void test_sweep_metric_plot(void **state) {
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/sweep-metric.db", dir);
    unlink(path);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT,"
                                     " mode TEXT, policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER,"
                                     " pods INTEGER, drasim_version TEXT);"
                                     "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL);"
                                     "CREATE TABLE sweep(run_id INTEGER, param TEXT, value TEXT);"
                                     "INSERT INTO runs VALUES(1,'s','f','dra','A',1,NULL,1,1,1,'v'),(2,'s','f','dra','A',2,NULL,1,1,1,'v'),"
                                     "(3,'s','f','dra','A',1,NULL,1,1,1,'v'),(4,'s','f','dra','A',2,NULL,1,1,1,'v');"
                                     "INSERT INTO summary VALUES(1,'gpu_alloc_pct',50),(2,'gpu_alloc_pct',60),"
                                     "(3,'gpu_alloc_pct',70),(4,'gpu_alloc_pct',72),(1,'wait_p99_s',10),(2,'wait_p99_s',20),"
                                     "(3,'wait_p99_s',5),(4,'wait_p99_s',5);"
                                     "INSERT INTO sweep VALUES(1,'cluster.nodePools.h100.count','8'),(2,'cluster.nodePools.h100.count','8'),"
                                     "(3,'cluster.nodePools.h100.count','16'),(4,'cluster.nodePools.h100.count','16');",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    rdb r;
    strbuf err = {0};
    assert_int_equal(rdb_open(path, &r, &err), 0);
    report rp = {.r = &r, .dir = dir};
    assert_int_equal(report_collect(&rp, &err), 0);
    assert_true(has_plot(&rp, "sweep_gpu_alloc_pct"));
    assert_true(has_plot(&rp, "sweep_wait_p99_s"));
    assert_false(has_plot(&rp, "sweep_wait_mean_s"));   /* not in the database */
    snprintf(path, sizeof path, "%s/data/sweep_gpu_alloc_pct.dat", dir);
    char *s = slurp(path);
    assert_string_equal(s, "# cluster.nodePools.h100.count\n8 55 0 100\n16 71 58.294 83.706\n\n\n");
    free(s);
    snprintf(path, sizeof path, "%s/data/sweep_wait_p99_s.dat", dir);
    s = slurp(path);
    assert_string_equal(s, "# cluster.nodePools.h100.count\n8 15 0 78.53\n16 5 5 5\n\n\n");
    free(s);
    for (size_t i = 0; i < rp.plots.len; i++)
        if (!strcmp(rp.plots.data[i].name, "sweep_gpu_alloc_pct"))
            assert_non_null(strstr(sb_str(&rp.plots.data[i].vars), "xlabel_text = 'cluster.nodePools.h100.count'"));
    report_free(&rp);
    rdb_close(&r);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plots_follow_tables),
        cmocka_unit_test(test_not_a_results_db),
        cmocka_unit_test(test_sweep_labels),
        cmocka_unit_test(test_percentage_band_clamped),
        cmocka_unit_test(test_wait_cdf_by_group),
        cmocka_unit_test(test_sweep_metric_plot),
        cmocka_unit_test(test_metric_direction),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
