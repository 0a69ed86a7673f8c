/* test_store_claims.c -- the results database's claim sets (store_dra.c):
 * pod_claim_sets, claim_sets and claim_results for hand-made DRA records,
 * plain ones (kept as words) and ones kept whole (a share ID) mixed, and
 * enough distinct sets and results that the lookup tables grow (rebuilt
 * from the copied keys). Expected rows derived by hand from the rules in
 * store_dra.c: records with equal claim names and equal results (in order)
 * share a set; results with equal claim, request and device share a result;
 * a record kept whole gets a set and results of its own; ids count up in
 * the order the records (then the sets' results) meet them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/dra/dra.h"
#include "sched/dra/dra_internal.h"
#include "store/store_dra.h"
#include "util/intern.h"

#include "scenario_fixture.h"

static const char *const one_node_two_gpus =
    "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 2}}\n"
    "scheduling: {mode: dra}\n"
    "workload:\n  podGroups:\n  - name: a\n    count: 1\n    arrival: {constant: {interval: 1s}}\n    duration: 1h\n"
    "    gpu:\n      dra: {claims: [{name: gpu, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: "
    "gpu.nvidia.com, count: 1}}]}}}]}\n";

/* Add a record of pod `pod`, claim `claim`, with results on gpu-<devs[i]>
 * (n of them, request "g"), all with share ID `share` (NULL: plain). */
static void add(dra_state *d, uint32_t pod, const char *claim, const int *devs, size_t n, const char *share) {
    k8s_device_result res[4];
    char name[16];
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "gpu-%d", devs[i]);
        res[i] = (k8s_device_result){.request = intern("g"), .driver = intern("gpu.nvidia.com"),
                                     .pool = intern("n-0"), .device = intern(name),
                                     .share_id = share ? intern(share) : NULL};
    }
    k8s_allocation al = {.results = res, .nresults = n};
    dra_record r = {.pod = pod, .claim = intern(claim)};
    dra_add_record(d, &r, &al, NULL);
}

/* The rows of `sql` as one text: columns joined by ',', rows by ' '. */
static void rows(sqlite3 *db, const char *sql, char *out, size_t cap) {
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    size_t len = 0;
    out[0] = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const unsigned char *v = sqlite3_column_text(st, c);
            len += (size_t)snprintf(out + len, cap - len, "%s%s", c ? "," : len ? " " : "", v ? (const char *)v : "-");
            assert_true(len < cap);
        }
    }
    sqlite3_finalize(st);
}

static int64_t q_int(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void test_sets_plain_and_whole(void **state) {
    (void)state;
    fixture x;
    setup(&x, one_node_two_gpus);
    dra_state *d = x.run.dra;
    const int g0[] = {0}, g1[] = {1}, g01[] = {0, 1}, g10[] = {1, 0};
    add(d, 10, "c", g0, 1, NULL);    /* set 1: result 1 (c, gpu-0) */
    add(d, 11, "c", g1, 1, NULL);    /* set 2: result 2 (c, gpu-1) */
    add(d, 12, "c", g0, 1, NULL);    /* set 1 again */
    add(d, 13, "c", g0, 1, "s1");   /* kept whole: set 3, result 3 (its own, though c/gpu-0) */
    add(d, 14, "c", g01, 2, NULL);   /* set 4: results 1, 2 */
    add(d, 15, "d", g0, 1, NULL);    /* another claim name: set 5, result 4 */
    add(d, 16, "c", g1, 1, NULL);    /* set 2 again */
    add(d, 17, "c", g0, 1, "s2");   /* kept whole: set 6, result 5 */
    add(d, 18, "c", g10, 2, NULL);   /* the order counts: set 7, results 2, 1 */
    add(d, 19, "c", g01, 2, NULL);   /* set 4 again */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(store_write_claims(db, 1, &x.run), 0);
    char buf[1024];
    rows(db, "SELECT pod_id, set_id FROM pod_claim_sets ORDER BY rowid", buf, sizeof buf);
    assert_string_equal(buf, "10,1 11,2 12,1 13,3 14,4 15,5 16,2 17,6 18,7 19,4");
    rows(db, "SELECT set_id, n, result_id FROM claim_sets", buf, sizeof buf);
    assert_string_equal(buf, "1,0,1 2,0,2 3,0,3 4,0,1 4,1,2 5,0,4 6,0,5 7,0,2 7,1,1");
    rows(db, "SELECT result_id, claim, request, driver, pool, device, share_id FROM claim_results", buf, sizeof buf);
    assert_string_equal(buf, "1,c,g,gpu.nvidia.com,n-0,gpu-0,- 2,c,g,gpu.nvidia.com,n-0,gpu-1,- "
                             "3,c,g,gpu.nvidia.com,n-0,gpu-0,s1 4,d,g,gpu.nvidia.com,n-0,gpu-0,- "
                             "5,c,g,gpu.nvidia.com,n-0,gpu-0,s2");
    /* the view gives each pod's devices back in order */
    rows(db, "SELECT pod_id, device, share_id FROM claim_allocations WHERE pod_id IN (13, 18)", buf, sizeof buf);
    assert_string_equal(buf, "13,gpu-0,s1 18,gpu-1,- 18,gpu-0,-");
    sqlite3_close(db);
    teardown(&x);
}

/* 3,000 records: claims c-0 .. c-1499 on gpu-0, then the same again
 * (sets 1..1500 met twice), with a record kept whole every 100th of the
 * second pass (a set and result of its own each): the set table grows past
 * 1,024 slots, the result table too, both rebuilt from the keys. */
static void test_sets_tables_grow(void **state) {
    (void)state;
    fixture x;
    setup(&x, one_node_two_gpus);
    dra_state *d = x.run.dra;
    const int g0[] = {0};
    char claim[16];
    for (uint32_t i = 0; i < 3000; i++) {
        snprintf(claim, sizeof claim, "c-%u", i % 1500);
        add(d, 100 + i, claim, g0, 1, i >= 1500 && i % 100 == 0 ? "s" : NULL);
    }
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(store_write_claims(db, 7, &x.run), 0);
    assert_int_equal(q_int(db, "SELECT count(*) FROM pod_claim_sets WHERE run_id = 7"), 3000);
    /* first pass: set i + 1; second pass: the same set, or a new one (1501, 1502, ...) when kept whole */
    assert_int_equal(q_int(db, "SELECT count(*) FROM pod_claim_sets WHERE pod_id < 1600 AND set_id = pod_id - 99"),
                     1500);
    assert_int_equal(q_int(db, "SELECT count(*) FROM pod_claim_sets WHERE pod_id >= 1600 AND (pod_id - 1600) % 100 != 0"
                               " AND set_id = (pod_id - 1600) % 1500 + 1"),
                     1485);
    assert_int_equal(q_int(db, "SELECT group_concat(set_id) = '1501,1502,1503,1504,1505,1506,1507,1508,1509,1510,"
                               "1511,1512,1513,1514,1515' FROM (SELECT set_id FROM pod_claim_sets WHERE pod_id >= 1600"
                               " AND (pod_id - 1600) % 100 = 0 ORDER BY rowid)"),
                     1);
    /* one result per set, in set order; the whole ones keep their share ID */
    assert_int_equal(q_int(db, "SELECT count(*) FROM claim_sets WHERE n = 0 AND result_id = set_id"), 1515);
    assert_int_equal(q_int(db, "SELECT count(*) FROM claim_results WHERE result_id <= 1500 AND claim = 'c-' || "
                               "(result_id - 1) AND device = 'gpu-0' AND share_id IS NULL"),
                     1500);
    assert_int_equal(q_int(db, "SELECT count(*) FROM claim_results WHERE result_id > 1500 AND share_id = 's'"), 15);
    sqlite3_close(db);
    teardown(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_plain_and_whole),
        cmocka_unit_test(test_sets_tables_grow),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
