/* test_labels.c -- pods' label sets (engine/sim_labels.h): equal sets are
 * stored once and shared, a pod keeps only its set's id, giving one pod other
 * labels leaves the pods that shared its set alone, and the results store
 * each set once (label_sets), a set id per labelled pod (pod_label_sets) and
 * the view pod_labels with one row per label of each labelled pod
 * (store/store_labels.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "engine/sim.h"
#include "engine/sim_labels.h"
#include "store/store_labels.h"
#include "util/intern.h"

static k8s_kv kv(const char *k, const char *v) { return (k8s_kv){intern(k), intern(v)}; }

static void test_equal_sets_are_shared(void **state) {
    (void)state;
    sim_run r = {0};
    k8s_kv a[2] = {kv("app", "chat"), kv("tier", "gold")};
    k8s_kv b[2] = {kv("app", "chat"), kv("tier", "gold")};
    k8s_kv c[2] = {kv("app", "chat"), kv("tier", "silver")};
    uint32_t sa = sim_label_set_id(&r, a, 2);
    assert_true(sa > 0);
    assert_int_equal(sim_label_set_id(&r, b, 2), sa);        /* same labels: the same set */
    uint32_t sc = sim_label_set_id(&r, c, 2);
    assert_int_not_equal(sc, sa);
    assert_int_not_equal(sim_label_set_id(&r, a, 1), sa);   /* a subset is another set */
    for (int i = 0; i < 5000; i++) {                         /* grows the table: ids stay */
        char v[16];
        snprintf(v, sizeof v, "v%d", i);
        k8s_kv x = kv("n", v);
        assert_true(sim_label_set_id(&r, &x, 1) > sc);
    }
    assert_int_equal(sim_label_set_id(&r, b, 2), sa);
    assert_int_equal(sim_label_set_id(&r, c, 2), sc);
    assert_int_equal(r.labels->sets.len, 5003);
    assert_int_equal(r.labels->kv.len, 2 + 2 + 1 + 5000);    /* each set's labels stored once */
    sim_labels_free(&r);
    assert_null(r.labels);
}

static void test_pods_share_and_change(void **state) {
    (void)state;
    sim_run r = {0};
    const k8s_kv *got;
    assert_int_equal(sim_pod_labels(&r, 0, &got), 0);        /* no labels at all */
    assert_null(got);
    sim_pod_set_labels(&r, 3, 0);                            /* none: nothing kept */
    assert_null(r.labels);
    k8s_kv a[2] = {kv("app", "chat"), kv("tier", "gold")};
    uint32_t s = sim_label_set_id(&r, a, 2);
    for (uint32_t p = 0; p < 1000; p++) sim_pod_set_labels(&r, p, s);
    assert_int_equal(r.labels->npods, 1000);
    assert_int_equal(r.labels->sets.len, 1);                 /* a thousand pods, one set */
    /* pod 7 gets other labels: its neighbours keep theirs */
    k8s_kv b[1] = {kv("app", "batch")};
    sim_pod_set_labels(&r, 7, sim_label_set_id(&r, b, 1));
    assert_int_equal(sim_pod_labels(&r, 7, &got), 1);
    assert_ptr_equal(got[0].value, intern("batch"));
    for (uint32_t p = 0; p < 1000; p++) {
        if (p == 7) continue;
        assert_int_equal(sim_pod_labels(&r, p, &got), 2);
        assert_ptr_equal(got[0].value, intern("chat"));
        assert_ptr_equal(got[1].value, intern("gold"));
    }
    sim_pod_set_labels(&r, 8, 0);                            /* pod 8 loses its labels */
    assert_int_equal(sim_pod_labels(&r, 8, &got), 0);
    assert_int_equal(sim_pod_labels(&r, 9, &got), 2);
    assert_int_equal(r.labels->npods, 999);
    assert_int_equal(sim_pod_labels(&r, 5000, &got), 0);     /* beyond the pods with sets */
    sim_labels_free(&r);
}

static int count_cb(void *ud, int n, char **v, char **c) {
    (void)n, (void)c;
    *(int *)ud = atoi(v[0]);
    return 0;
}

static int count(sqlite3 *db, const char *sql) {
    int n = -1;
    sqlite3_exec(db, sql, count_cb, &n, NULL);
    return n;
}

/* Each set once in label_sets, a set id per labelled pod in pod_label_sets,
 * and the view pod_labels with a row per label of each labelled pod. */
static void test_rows_per_label(void **state) {
    (void)state;
    sim_run r = {0};
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(store_write_pod_labels(db, 1, &r), 0);  /* no labels: no table, no view */
    assert_int_equal(count(db, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%label%'"), 0);
    k8s_kv a[2] = {kv("app", "chat"), kv("tier", "gold")}, b[1] = {kv("app", "batch")};
    uint32_t sa = sim_label_set_id(&r, a, 2), sb = sim_label_set_id(&r, b, 1);
    sim_pod_set_labels(&r, 0, sa);
    sim_pod_set_labels(&r, 2, sb);
    sim_pod_set_labels(&r, 3, sa);
    assert_int_equal(store_write_pod_labels(db, 1, &r), 0);
    assert_int_equal(store_write_pod_labels(db, 2, &r), 0);  /* a second run: the tables and the view exist already */
    assert_int_equal(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'pod_labels'"), 1);
    assert_int_equal(count(db, "SELECT count(*) FROM label_sets"), 6);       /* 2 + 1 labels, per run */
    assert_int_equal(count(db, "SELECT count(*) FROM pod_label_sets"), 6);   /* 3 pods, per run */
    assert_int_equal(count(db, "SELECT count(*) FROM pod_labels"), 10);      /* 2 + 1 + 2, per run */
    assert_int_equal(count(db, "SELECT count(*) FROM pod_labels WHERE run_id = 2 AND key = 'app' AND value = 'chat' "
                               "AND pod_id IN (0, 3)"),
                     2);
    assert_int_equal(count(db, "SELECT count(*) FROM pod_labels WHERE run_id = 1 AND pod_id = 2 AND key = 'app' "
                               "AND value = 'batch'"),
                     1);
    /* pod 2 relabelled: set b is no pod's any more and is left out of run 3's label_sets */
    sim_pod_set_labels(&r, 2, sa);
    assert_int_equal(store_write_pod_labels(db, 3, &r), 0);
    assert_int_equal(count(db, "SELECT count(*) FROM label_sets WHERE run_id = 3"), 2);
    assert_int_equal(count(db, "SELECT count(*) FROM pod_labels WHERE run_id = 3 AND key = 'app' AND value = 'chat'"), 3);
    sqlite3_close(db);
    sim_labels_free(&r);
}

/* store_label_view: a database built by copying tables gets the view; one
 * holding an older database's pod_labels table gets the sets' rows in it. */
static void test_view_after_copy(void **state) {
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(store_label_view(db), 0);   /* no label tables: nothing */
    assert_int_equal(count(db, "SELECT count(*) FROM sqlite_master"), 0);
    assert_int_equal(sqlite3_exec(db,
                                  "CREATE TABLE label_sets(run_id, set_id, key, value);"
                                  "CREATE TABLE pod_label_sets(run_id, pod_id, set_id);"
                                  "INSERT INTO label_sets VALUES(1, 1, 'app', 'x'), (1, 1, 'tier', 'y');"
                                  "INSERT INTO pod_label_sets VALUES(1, 0, 1), (1, 5, 1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(store_label_view(db), 0);
    assert_int_equal(count(db, "SELECT count(*) FROM pod_labels WHERE key = 'tier' AND pod_id IN (0, 5)"), 2);
    assert_int_equal(store_label_view(db), 0);   /* the view exists: nothing to do */
    sqlite3 *old;
    assert_int_equal(sqlite3_open(":memory:", &old), SQLITE_OK);
    assert_int_equal(sqlite3_exec(old,
                                  "CREATE TABLE pod_labels(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL, key TEXT NOT NULL,"
                                  " value TEXT NOT NULL, PRIMARY KEY(run_id, pod_id, key)) WITHOUT ROWID;"
                                  "INSERT INTO pod_labels VALUES(1, 0, 'app', 'old');"
                                  "CREATE TABLE label_sets(run_id, set_id, key, value);"
                                  "CREATE TABLE pod_label_sets(run_id, pod_id, set_id);"
                                  "INSERT INTO label_sets VALUES(2, 1, 'app', 'new');"
                                  "INSERT INTO pod_label_sets VALUES(2, 0, 1), (2, 1, 1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(store_label_view(old), 0);
    assert_int_equal(count(old, "SELECT count(*) FROM pod_labels"), 3);
    assert_int_equal(count(old, "SELECT count(*) FROM pod_labels WHERE run_id = 2 AND value = 'new'"), 2);
    sqlite3_close(old);
    sqlite3_close(db);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_sets_are_shared),
        cmocka_unit_test(test_pods_share_and_change),
        cmocka_unit_test(test_rows_per_label),
        cmocka_unit_test(test_view_after_copy),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
