/* test_openb.c -- OpenB CSV readers (values, FILE:LINE errors), GPU-model
 * constraints, the artifact's workload inflation and the arrival curve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/openb_trace.h"
#include "workload/openb_run.h"

static const char *write_tmp(const char *name, const char *text) {
    static char path[256];
    snprintf(path, sizeof path, "/tmp/drasim-test-openb-%d-%s", (int)getpid(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_read_nodes(void **state) {
    (void)state;
    const char *p = write_tmp("n.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,32000,1024,0,\n");
    arena a = {0};
    strbuf err = {0};
    openb_node *nodes;
    size_t n;
    assert_int_equal(openb_load_nodes(p, &a, &nodes, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(nodes[0].name, "n0");
    assert_int_equal(nodes[0].cpu_milli, 64000);
    assert_int_equal(nodes[0].memory_mib, 262144);
    assert_int_equal(nodes[0].gpus, 2);
    assert_string_equal(nodes[0].model, "P100");
    assert_int_equal(nodes[1].gpus, 0);
    assert_string_equal(nodes[1].model, "");
    unlink(p);
    arena_free(&a);
    sb_free(&err);
}

/* Each bad file gives one error naming the file and the line. */
static void test_node_errors(void **state) {
    (void)state;
    static const struct { const char *text, *expect; } cases[] = {
        {"sn,cpu_milli,memory_mib,gpu\nn0,1,1,1\n", ":1: missing column 'model'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,1,T4\nn1,x,1,1,T4\n", ":3: column cpu_milli: expected an integer, found 'x'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,9,T4\n", ":2: column gpu: expected 0 to 8, found 9"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,2,\n", ":2: column model: a node with GPUs needs a GPU model"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,2,T4\nn0,1,1,2,T4\n", ":3: duplicate node name 'n0'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn0,,1,2,T4\n", ":2: column cpu_milli: expected an integer, found an empty cell"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *p = write_tmp("bad.csv", cases[i].text);
        arena a = {0};
        strbuf err = {0};
        openb_node *nodes;
        size_t n;
        assert_int_equal(openb_load_nodes(p, &a, &nodes, &n, &err), -1);
        assert_non_null(strstr(sb_str(&err), p));
        assert_non_null(strstr(sb_str(&err), cases[i].expect));
        unlink(p);
        arena_free(&a);
        sb_free(&err);
    }
}

static void test_read_pods(void **state) {
    (void)state;
    const char *p = write_tmp("p.csv",
                              "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
                              "p0,12000,16384,1,1000,,LS,Running,0,12537496,0\n"
                              "p1,6000,12288,1,460,V100M16|V100M32,LS,Running,427061,,\n"
                              "p2,8000,30517,0,0,,BE,Running,5,9,5\n");
    arena a = {0};
    strbuf err = {0};
    openb_pod *pods;
    size_t n;
    assert_int_equal(openb_load_pods(p, &a, &pods, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(pods[0].num_gpu, 1);
    assert_int_equal(pods[0].gpu_milli, 1000);
    assert_int_equal(pods[0].deletion_s, 12537496);
    assert_int_equal(pods[1].gpu_milli, 460);
    assert_string_equal(pods[1].gpu_spec, "V100M16|V100M32");
    assert_int_equal(pods[1].creation_s, 427061);
    assert_int_equal(pods[1].deletion_s, -1);
    assert_int_equal(openb_pod_gpu_milli(&pods[2]), 0);
    unlink(p);
    /* the five-column multigpu files have no spec and no times */
    p = write_tmp("p5.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,10,8,1000\n");
    assert_int_equal(openb_load_pods(p, &a, &pods, &n, &err), 0);
    assert_string_equal(pods[0].gpu_spec, "");
    assert_int_equal(pods[0].creation_s, -1);
    assert_int_equal(openb_pod_gpu_milli(&pods[0]), 8000);
    unlink(p);
    arena_free(&a);
    sb_free(&err);
}

static void test_pod_errors(void **state) {
    (void)state;
    static const struct { const char *text, *expect; } cases[] = {
        {"name,cpu_milli,memory_mib,num_gpu\np,1,1,1\n", ":1: missing column 'gpu_milli'"},
        {"name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,2,500\n",
         ":2: a GPU-sharing pod (gpu_milli 500 < 1000) must ask for exactly 1 GPU, not 2"},
        {"name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,1,1000\nq,1,1,1,0\n",
         ":3: num_gpu 1 with gpu_milli 0: both must be 0 or both positive"},
        {"name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,1,1500\n", ":2: column gpu_milli: expected 0 to 1000, found 1500"},
        {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time\np,1,1,0,0,10,5\n",
         ":2: deletion_time 5 is before creation_time 10"},
        {"name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,-5,1,0,0\n", ":2: column cpu_milli: expected 0 to"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *p = write_tmp("badp.csv", cases[i].text);
        arena a = {0};
        strbuf err = {0};
        openb_pod *pods;
        size_t n;
        assert_int_equal(openb_load_pods(p, &a, &pods, &n, &err), -1);
        assert_non_null(strstr(sb_str(&err), cases[i].expect));
        unlink(p);
        arena_free(&a);
        sb_free(&err);
    }
    strbuf err = {0};
    arena a = {0};
    openb_pod *pods;
    size_t n;
    assert_int_equal(openb_load_pods("/nonexistent/pods.csv", &a, &pods, &n, &err), -1);
    assert_non_null(strstr(sb_str(&err), "/nonexistent/pods.csv"));
    sb_free(&err);
}

static void test_spec_allows(void **state) {
    (void)state;
    assert_true(openb_spec_allows("", "T4"));
    assert_true(openb_spec_allows("", ""));
    assert_true(openb_spec_allows("T4", "T4"));
    assert_false(openb_spec_allows("T4", "T4X"));
    assert_true(openb_spec_allows("V100M16|V100M32", "V100M32"));
    assert_false(openb_spec_allows("V100M16|V100M32", "V100"));
    assert_false(openb_spec_allows("T4", ""));      /* a CPU node */
    assert_true(openb_spec_allows("|", "G2"));      /* only separators: no constraint */
}

/* Inflation keeps every trace pod, adds sampled ones while the demand stays
 * within ratio x capacity, stops at the first draw that would overshoot,
 * shuffles, and depends only on the seed. */
static void test_inflate(void **state) {
    (void)state;
    openb_pod pods[4] = {
        {.name = "a", .num_gpu = 1, .gpu_milli = 500},
        {.name = "b", .num_gpu = 2, .gpu_milli = 1000},
        {.name = "c", .num_gpu = 0, .gpu_milli = 0},
        {.name = "d", .num_gpu = 1, .gpu_milli = 250},
    };
    int64_t cap = 8000;   /* 8 GPUs; the trace asks for 2.75 */
    size_t n, n2;
    uint32_t *seq = openb_inflate(pods, 4, cap, 1.3, 42, &n);
    uint32_t *again = openb_inflate(pods, 4, cap, 1.3, 42, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(seq, again, n * sizeof *seq);
    int64_t total = 0;
    int seen[4] = {0};
    for (size_t i = 0; i < n; i++) {
        assert_true(seq[i] < 4);
        seen[seq[i]]++;
        total += openb_pod_gpu_milli(&pods[seq[i]]);
    }
    for (int k = 0; k < 4; k++) assert_true(seen[k] >= 1);
    assert_true(total <= 10400);
    assert_true(total > 10400 - 2000);   /* the next draw overshot: at most one 2-GPU pod short */
    assert_true(n > 4);
    /* not left in trace order: the first four are not exactly a, b, c, d */
    assert_false(seq[0] == 0 && seq[1] == 1 && seq[2] == 2 && seq[3] == 3 && seq[4] == 0);
    uint32_t *other = openb_inflate(pods, 4, cap, 1.3, 43, &n2);
    assert_true(n2 != n || memcmp(seq, other, n * sizeof *seq) != 0);
    free(other);
    free(again);
    free(seq);
    /* a ratio below the trace's demand removes random pods */
    seq = openb_inflate(pods, 4, cap, 0.2, 1, &n);   /* target 1600 milli */
    total = 0;
    for (size_t i = 0; i < n; i++) total += openb_pod_gpu_milli(&pods[seq[i]]);
    assert_true(total <= 1600);
    assert_true(n < 4);
    free(seq);
}

/* Curve: half-to-even rounding of the arrival, mean per column, fallback to
 * [X-1, X+1] when no event rounds to X, no row when even that is empty. */
static void test_arrival_curve(void **state) {
    (void)state;
    openb_event ev[] = {
        {.arrived_pct = 0.4, .alloc_pct = 0.4, .frag_pct = 1.0, .frag_ratio_pct = 10.0},    /* -> 0 */
        {.arrived_pct = 0.5, .alloc_pct = 0.5, .frag_pct = 2.0, .frag_ratio_pct = 20.0},    /* -> 0 (half to even) */
        {.arrived_pct = 1.5, .alloc_pct = 1.234, .frag_pct = 3.0, .frag_ratio_pct = 30.0},  /* -> 2 (half to even) */
        {.arrived_pct = 2.4, .alloc_pct = 2.0, .frag_pct = 4.0, .frag_ratio_pct = 40.0},    /* -> 2 */
        {.arrived_pct = 6.0, .alloc_pct = 6.0, .frag_pct = 5.0, .frag_ratio_pct = 50.0},    /* -> 6; columns 3..4 empty; 5 falls back to [4, 6] */
    };
    sim_run r;
    memset(&r, 0, sizeof r);
    openb_arrival_curve(ev, sizeof ev / sizeof *ev, &r);
    /* columns 0, 1 (fallback [0,2]: events 0.4, 0.5, 1.5), 2, 3 (fallback [2,4]: 2.4), 5 (fallback: 6.0), 6 */
    assert_int_equal(r.curve.len, 6);
    assert_int_equal(r.curve.data[0].arrived_pct, 0);
    assert_float_equal(r.curve.data[0].gpu_alloc_pct, (0.4 + 0.5) / 2, 1e-9);
    assert_float_equal(r.curve.data[0].frag_gpu_pct, 1.5, 1e-9);
    assert_float_equal(r.curve.data[0].frag_ratio_pct, 15.0, 1e-9);
    assert_int_equal(r.curve.data[1].arrived_pct, 1);
    assert_float_equal(r.curve.data[1].gpu_alloc_pct, (0.4 + 0.5 + 1.23) / 3, 1e-9);   /* rounded to 2 decimals */
    assert_int_equal(r.curve.data[2].arrived_pct, 2);
    assert_float_equal(r.curve.data[2].gpu_alloc_pct, (1.23 + 2.0) / 2, 1e-9);
    assert_int_equal(r.curve.data[3].arrived_pct, 3);
    assert_float_equal(r.curve.data[3].gpu_alloc_pct, 2.0, 1e-9);
    assert_int_equal(r.curve.data[4].arrived_pct, 5);
    assert_int_equal(r.curve.data[5].arrived_pct, 6);
    VEC_FREE(r.curve);
}

/* A list read twice gives equal rows, each in its caller's arena (a batch of
 * seeds reads it once per seed; the second read comes from the cache); the
 * same path with other bytes gives the new rows; a duplicate name late in a
 * long list is found at its line, and an earlier bad row still comes first. */
static void test_list_cache(void **state) {
    (void)state;
    const char *p = write_tmp("cache.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,32000,1024,0,\n");
    arena a = {0}, b = {0};
    strbuf err = {0};
    openb_node *x, *y;
    size_t nx, ny;
    assert_int_equal(openb_load_nodes(p, &a, &x, &nx, &err), 0);
    assert_int_equal(openb_load_nodes(p, &b, &y, &ny, &err), 0);
    assert_int_equal(nx, 2);
    assert_int_equal(ny, 2);
    assert_ptr_not_equal(x, y);
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(x[i].name, y[i].name);
        assert_string_equal(x[i].model, y[i].model);
        assert_int_equal(x[i].cpu_milli, y[i].cpu_milli);
        assert_int_equal(x[i].memory_mib, y[i].memory_mib);
        assert_int_equal(x[i].gpus, y[i].gpus);
    }
    y[0].gpus = 7;   /* the caller's copy: the cache keeps its own (read again below) */
    arena_free(&a);
    p = write_tmp("cache.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,4,T4\n");
    assert_int_equal(openb_load_nodes(p, &a, &x, &nx, &err), 0);
    assert_int_equal(nx, 1);
    assert_int_equal(x[0].gpus, 4);
    assert_string_equal(x[0].model, "T4");
    p = write_tmp("cache.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,32000,1024,0,\n");
    assert_int_equal(openb_load_nodes(p, &a, &x, &nx, &err), 0);
    assert_int_equal(nx, 2);
    assert_int_equal(x[0].gpus, 2);
    strbuf big = {0};
    sb_puts(&big, "sn,cpu_milli,memory_mib,gpu,model\n");
    for (int i = 0; i < 3000; i++) sb_printf(&big, "node-%d,1000,1,1,T4\n", i);
    sb_puts(&big, "node-17,1000,1,1,T4\n");   /* line 3002 */
    p = write_tmp("dup.csv", sb_str(&big));
    assert_int_equal(openb_load_nodes(p, &a, &x, &nx, &err), -1);
    assert_non_null(strstr(sb_str(&err), ":3002: duplicate node name 'node-17'"));
    sb_clear(&big);
    sb_puts(&big, "sn,cpu_milli,memory_mib,gpu,model\nnode-0,1000,1,1,T4\nnode-1,1000,1,9,T4\nnode-0,1000,1,1,T4\n");
    p = write_tmp("dup.csv", sb_str(&big));
    assert_int_equal(openb_load_nodes(p, &a, &x, &nx, &err), -1);
    assert_non_null(strstr(sb_str(&err), ":3: column gpu: expected 0 to 8, found 9"));
    unlink(p);
    sb_free(&big);
    arena_free(&a);
    arena_free(&b);
    sb_free(&err);
}

/* Python's round(x, 2) against printf's %.2f read back, bit for bit: every
 * allocation the curve rounds (used milli / GPUs / 10) for a few cluster
 * sizes, exact ties (0.125), -0.00 and values too large for the short way. */
static void test_py_round2(void **state) {
    (void)state;
    static const int gpus[] = {1, 7, 1213, 6212};
    char buf[64];
    for (size_t k = 0; k < sizeof gpus / sizeof *gpus; k++)
        for (int64_t u = -3000; u <= (int64_t)gpus[k] * 1400; u++) {
            double x = (double)u / gpus[k] / 10, got = openb_py_round2(x);
            snprintf(buf, sizeof buf, "%.2f", x);
            double want = strtod(buf, NULL);
            assert_memory_equal(&got, &want, sizeof got);
        }
    static const double edge[] = {0.125, 0.375, -0.125, -0.004, -0.0, 0.0, 2.675, 1e12 + 0.125, 5e15, -7.005, 0.005};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        double got = openb_py_round2(edge[i]);
        snprintf(buf, sizeof buf, "%.2f", edge[i]);
        double want = strtod(buf, NULL);
        assert_memory_equal(&got, &want, sizeof got);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_cache),   cmocka_unit_test(test_py_round2),
        cmocka_unit_test(test_read_nodes),   cmocka_unit_test(test_node_errors), cmocka_unit_test(test_read_pods),
        cmocka_unit_test(test_pod_errors),   cmocka_unit_test(test_spec_allows), cmocka_unit_test(test_inflate),
        cmocka_unit_test(test_arrival_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
