/* test_check_expect.c -- expect files for `drasim check`: strict parsing with
 * FILE:LINE:COL errors, threshold and baseline evaluation on hand-made
 * results databases, and the JUnit XML shape (checked with a small
 * well-formedness parser: nesting, quoting, entities, required attributes). */
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

#include "report/expect.h"
#include "report/rdb.h"
#include "util/intern.h"

static int g_seed0 = 40;               /* seed of the first run */
static const char *g_scenario = "hand"; /* runs.scenario */

/* A results database with `n` runs of (policy, seed) and summary metrics
 * gpu_alloc_pct = alloc[i], wait_p99_s = wait[i], unschedulable = 0. */
static void make_db(const char *path, size_t n, const char *const *policy, const double *alloc, const double *wait) {
    unlink(path);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT, scenario_file TEXT, mode TEXT,"
                                  " policy TEXT, seed INTEGER, stop_ms INTEGER, end_ms INTEGER, nodes INTEGER, pods INTEGER,"
                                  " drasim_version TEXT);"
                                  "CREATE TABLE summary(run_id INTEGER, metric TEXT, value REAL, PRIMARY KEY(run_id, metric));",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    for (size_t i = 0; i < n; i++) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "INSERT INTO runs VALUES(%zu,'%s','hand.yaml','device-plugin','%s',%zu,NULL,3600000,2,10,'t');"
                 "INSERT INTO summary VALUES(%zu,'gpu_alloc_pct',%.17g);"
                 "INSERT INTO summary VALUES(%zu,'wait_p99_s',%.17g);"
                 "INSERT INTO summary VALUES(%zu,'unschedulable',0);",
                 i + 1, g_scenario, policy[i], (size_t)g_seed0 + i, i + 1, alloc[i], i + 1, wait[i], i + 1);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    sqlite3_close(db);
}

static int parse(const char *text, expect_spec *e, strbuf *err) {
    sb_clear(err);
    return expect_parse_mem("e.yaml", text, strlen(text), e, err);
}

static void test_parse_ok(void **state) {
    (void)state;
    expect_spec e;
    strbuf err = {0};
    assert_int_equal(parse("apiVersion: drasim/v1\nkind: Expect\nseeds: 1..3\nset: [a.b=1]\n"
                           "thresholds:\n- gpu_alloc_pct >= 93\n- max(wait_p99_s)<=300\n- min( frag_gpu_pct ) < 7.5\n"
                           "baseline:\n  file: base.db\n  metrics:\n    gpu_alloc_pct: 0.5\n    wait_p99_s: 10%\n"
                           "    events: {tolerance: 3, better: lower}\n",
                           &e, &err),
                     0);
    assert_int_equal(e.nseeds, 3);
    assert_int_equal(e.seeds[2], 3);
    assert_int_equal(e.nsets, 1);
    assert_int_equal(e.nthresholds, 3);
    assert_string_equal(e.thresholds[1].metric, "wait_p99_s");
    assert_int_equal(e.thresholds[1].agg, AGG_MAX);
    assert_int_equal(e.thresholds[1].op, OP_LE);
    assert_true(e.thresholds[1].value == 300);
    assert_int_equal(e.thresholds[2].agg, AGG_MIN);
    assert_int_equal(e.thresholds[2].op, OP_LT);
    assert_true(e.thresholds[2].value == 7.5);
    assert_int_equal(e.nbaseline, 3);
    assert_int_equal(e.baseline[0].better, 1);
    assert_false(e.baseline[0].relative);
    assert_int_equal(e.baseline[1].better, -1);
    assert_true(e.baseline[1].relative);
    assert_true(e.baseline[1].tolerance == 10);
    assert_int_equal(e.baseline[2].better, -1);
    assert_string_equal(e.baseline_file, "base.db");   /* e.yaml has no directory */
    expect_free(&e);
    sb_free(&err);
}

static void test_parse_errors(void **state) {
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds: [gpu_alloc_pct => 93]\n",
         "e.yaml:3:14: threshold 'gpu_alloc_pct => 93': expected a comparison"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- gpu_alloc_pct >= lots\n",
         "e.yaml:4:3: threshold 'gpu_alloc_pct >= lots': expected a number"},
        {"apiVersion: drasim/v1\nkind: Expect\nthreshold: []\n", "e.yaml:3:1: unknown field 'threshold'"},
        {"kind: Expect\nthresholds: [a > 1]\n", "e.yaml:1:1: missing field 'apiVersion'"},
        {"apiVersion: drasim/v1\nkind: Scenario\nthresholds: [a > 1]\n", "e.yaml:2:7: kind: expected Expect"},
        {"apiVersion: drasim/v1\nkind: Expect\n", "nothing to check"},
        {"apiVersion: drasim/v1\nkind: Expect\nbaseline: {file: b.db, metrics: {events: 1}}\n",
         "e.yaml:3:34: baseline metric 'events' has no known better direction"},
        {"apiVersion: drasim/v1\nkind: Expect\nbaseline: {file: b.db, metrics: {wait_p99_s: -1}}\n",
         "e.yaml:3:46: baseline tolerance"},
        {"apiVersion: drasim/v1\nkind: Expect\nseeds: 5..1\nthresholds: [a > 1]\n", "e.yaml:3:8: seeds"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds: [max(a > 1]\n", "expected ')'"},
    };
    strbuf err = {0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        expect_spec e;
        assert_int_equal(parse(cases[i].text, &e, &err), -1);
        if (!strstr(sb_str(&err), cases[i].msg)) fail_msg("case %zu: got '%s', want '%s'", i, sb_str(&err), cases[i].msg);
    }
    sb_free(&err);
}

static const char *pol2[] = {"LeastAllocated", "LeastAllocated"};

static void test_evaluate(void **state) {
    (void)state;
    char res[] = "/tmp/test_check_res_XXXXXX", base[] = "/tmp/test_check_base_XXXXXX";
    close(mkstemp(res));
    close(mkstemp(base));
    make_db(res, 2, pol2, (double[]){90, 96}, (double[]){100, 400});
    make_db(base, 2, pol2, (double[]){93.2, 93.8}, (double[]){200, 200});
    strbuf err = {0};
    expect_spec e;
    /* mean alloc 93 passes >= 93; max wait 400 fails <= 300; mean wait 250 passes;
     * baseline alloc 93.5 - 0.5 = 93.0: 93 passes (equal); wait 250 vs 200 + 10% = 220 is worse, but
     * the paired differences (-100, +200: mean +50, 95% CI +-12.706 * 212.13 / sqrt(2) = 1906) include 0:
     * noise, it passes (docs/CI.md, "Baselines and noise") */
    assert_int_equal(parse("apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- gpu_alloc_pct >= 93\n"
                           "- max(wait_p99_s) <= 300\n- wait_p99_s <= 300\n- unschedulable == 0\n- missing_metric > 1\n"
                           "baseline:\n  file: x.db\n  metrics: {gpu_alloc_pct: 0.5, wait_p99_s: 10%}\n",
                           &e, &err),
                     0);
    rdb r, b;
    assert_int_equal(rdb_open(res, &r, &err), 0);
    assert_int_equal(rdb_open(base, &b, &err), 0);
    assert_int_equal(r.ngroups, 1);
    check_report c;
    expect_evaluate(&e, &r, &b, &c);
    assert_int_equal(c.n, 7);
    bool want[] = {true, false, true, true, false, true, true};
    for (size_t i = 0; i < c.n; i++)
        if (c.items[i].pass != want[i]) fail_msg("check %zu (%s): pass=%d", i, c.items[i].name, c.items[i].pass);
    assert_int_equal(c.failures, 2);
    assert_true(c.items[1].value == 400);
    assert_true(isnan(c.items[4].value));
    assert_string_equal(c.items[6].expected, "<= 220 (baseline 200 + 20), diff +50 ± 1.91e+03 (95% CI, paired)");
    strbuf t = {0};
    check_report_table(&c, &t);
    assert_non_null(strstr(sb_str(&t), "FAIL"));
    assert_non_null(strstr(sb_str(&t), "7 checks, 2 failed (2 runs)"));
    sb_free(&t);
    check_report_free(&c);
    rdb_close(&r);
    rdb_close(&b);
    expect_free(&e);
    sb_free(&err);
    unlink(res);
    unlink(base);
}

/* Seed aggregators: quantiles (the inverse of the empirical distribution, no
 * interpolation) and pass fractions over 10 runs with waits 10, 20, ..., 100. */
static void test_seed_aggregators(void **state) {
    (void)state;
    static const char *pol[10] = {"p", "p", "p", "p", "p", "p", "p", "p", "p", "p"};
    double alloc[10], wait[10];
    for (int i = 0; i < 10; i++) alloc[i] = 50, wait[i] = 10.0 * (10 - i);   /* out of order: 100 .. 10 */
    char res[] = "/tmp/test_check_res_XXXXXX";
    close(mkstemp(res));
    make_db(res, 10, pol, alloc, wait);
    strbuf err = {0};
    expect_spec e;
    /* p50: ceil(0.5 * 10) = 5th smallest = 50; p90: 9th = 90; quantile(0.91): ceil(9.1) = 10th = 100;
     * quantile(0.05): ceil(0.5) = 1st = 10; pass_fraction(wait <= 70) = 7/10 */
    assert_int_equal(parse("apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- p50(wait_p99_s) <= 50\n"
                           "- p90(wait_p99_s) <= 89.9\n- quantile(0.91, wait_p99_s) >= 100\n"
                           "- quantile( 0.05 , wait_p99_s) == 10\n- pass_fraction(wait_p99_s <= 70) >= 0.7\n"
                           "- pass_fraction(wait_p99_s<70) >= 0.7\n",
                           &e, &err),
                     0);
    assert_int_equal(e.thresholds[1].agg, AGG_QUANTILE);
    assert_true(e.thresholds[1].q == 0.9);
    assert_int_equal(e.thresholds[4].agg, AGG_PASS_FRACTION);
    assert_int_equal(e.thresholds[4].inner_op, OP_LE);
    assert_true(e.thresholds[4].inner_value == 70);
    rdb r;
    assert_int_equal(rdb_open(res, &r, &err), 0);
    check_report c;
    expect_evaluate(&e, &r, NULL, &c);
    double want_v[] = {50, 90, 100, 10, 0.7, 0.6};
    bool want_p[] = {true, false, true, true, true, false};
    for (size_t i = 0; i < c.n; i++) {
        if (c.items[i].value != want_v[i] || c.items[i].pass != want_p[i])
            fail_msg("check %zu (%s): value %g pass %d", i, c.items[i].name, c.items[i].value, c.items[i].pass);
    }
    assert_string_equal(c.items[5].message, "pass_fraction(wait_p99_s < 70) = 0.6 over 10 runs, expected >= 0.7");
    assert_string_equal(c.items[1].message, "quantile(0.9, wait_p99_s) = 90 over 10 runs, expected <= 89.9");
    check_report_free(&c);
    rdb_close(&r);
    expect_free(&e);
    /* bad input: an unknown aggregator, quantiles outside (0, 1), a fraction compared with 2 */
    static const struct { const char *text, *msg; } bad[] = {
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- median(wait_p99_s) <= 5\n",
         "e.yaml:4:3: threshold 'median(wait_p99_s) <= 5': unknown aggregator 'median'"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- quantile(1, wait_p99_s) <= 5\n",
         "e.yaml:4:3: threshold 'quantile(1, wait_p99_s) <= 5': quantile 1 is outside (0, 1)"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- quantile(0, wait_p99_s) <= 5\n", "quantile 0 is outside (0, 1)"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- quantile(-0.5, wait_p99_s) <= 5\n", "quantile -0.5 is outside"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- p0(wait_p99_s) <= 5\n", "e.yaml:4:3: threshold 'p0(wait_p99_s) <= 5': quantile p0 is outside (0, 1)"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- p100(wait_p99_s) <= 5\n", "quantile p100 is outside (0, 1)"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- quantile(0.5 wait_p99_s) <= 5\n", "expected ','"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- pass_fraction(wait_p99_s) >= 0.9\n",
         "expected pass_fraction(METRIC OP NUMBER)"},
        {"apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- pass_fraction(wait_p99_s < 5) >= 2\n",
         "compare it with a number in [0, 1]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse(bad[i].text, &e, &err), -1);
        if (!strstr(sb_str(&err), bad[i].msg)) fail_msg("bad %zu: got '%s', want '%s'", i, sb_str(&err), bad[i].msg);
    }
    sb_free(&err);
    unlink(res);
}

/* One baseline check of gpu_alloc_pct (tolerance 1 point, higher is better)
 * of `now` (seeds now_seed0..) against `base` (seeds 40..): pass? */
static bool baseline_pass(size_t nn, const double *now, int now_seed0, size_t nb, const double *base, char **expected) {
    static const char *pol[] = {"p", "p", "p", "p"};
    char res[] = "/tmp/test_check_res_XXXXXX", bas[] = "/tmp/test_check_base_XXXXXX";
    close(mkstemp(res));
    close(mkstemp(bas));
    g_seed0 = 40;
    make_db(bas, nb, pol, base, base);
    g_seed0 = now_seed0;
    make_db(res, nn, pol, now, now);
    g_seed0 = 40;
    strbuf err = {0};
    expect_spec e;
    assert_int_equal(parse("apiVersion: drasim/v1\nkind: Expect\nbaseline:\n  file: x.db\n  metrics: {gpu_alloc_pct: 1}\n",
                           &e, &err),
                     0);
    rdb r, b;
    assert_int_equal(rdb_open(res, &r, &err), 0);
    assert_int_equal(rdb_open(bas, &b, &err), 0);
    check_report c;
    expect_evaluate(&e, &r, &b, &c);
    assert_int_equal(c.n, 1);
    bool pass = c.items[0].pass;
    if (expected) *expected = strdup(c.items[0].expected);
    check_report_free(&c);
    rdb_close(&r);
    rdb_close(&b);
    expect_free(&e);
    sb_free(&err);
    unlink(res);
    unlink(bas);
    return pass;
}

/* The rule: fail when the mean is worse than the baseline's by more than the
 * tolerance AND the 95% CI of the difference excludes 0. Baseline 50, 52, 54
 * (mean 52, limit 51). */
static void test_baseline_rule(void **state) {
    (void)state;
    const double base[] = {50, 52, 54};
    char *x = NULL;
    /* paired differences -3, -3, -3: mean 49 < 51, CI -3 +- 0: fails */
    assert_false(baseline_pass(3, (double[]){47, 49, 51}, 40, 3, base, &x));
    assert_string_equal(x, ">= 51 (baseline 52 - 1), diff -3 ± 0 (95% CI, paired)");
    free(x);
    /* mean 49 < 51 but differences -10, +3, -2: mean -3, sd sqrt(43), CI half
     * 4.303 * 6.557 / sqrt(3) = 16.3 includes 0: passes (noise) */
    assert_true(baseline_pass(3, (double[]){40, 55, 52}, 40, 3, base, &x));
    assert_string_equal(x, ">= 51 (baseline 52 - 1), diff -3 ± 16.3 (95% CI, paired)");
    free(x);
    /* significant (-0.5 each) but within the tolerance: 51.5 >= 51 passes */
    assert_true(baseline_pass(3, (double[]){49.5, 51.5, 53.5}, 40, 3, base, NULL));
    /* other seeds (50..52): Welch, diff -3, se sqrt(4/3 + 4/3), df 4, half
     * 2.776 * 1.633 = 4.53: passes; 3 points further down (-6) fails */
    assert_true(baseline_pass(3, (double[]){47, 49, 51}, 50, 3, base, &x));
    assert_string_equal(x, ">= 51 (baseline 52 - 1), diff -3 ± 4.53 (95% CI, Welch)");
    free(x);
    assert_false(baseline_pass(3, (double[]){44, 46, 48}, 50, 3, base, NULL));
    /* one run each: no interval, the means decide */
    assert_false(baseline_pass(1, (double[]){48.9}, 40, 1, base, &x));   /* baseline 50: limit 49 */
    assert_string_equal(x, ">= 49 (baseline 50 - 1)");
    free(x);
    assert_true(baseline_pass(1, (double[]){49}, 40, 1, base, NULL));
}

/* The baseline must come from the same scenario and seeds. */
static void test_baseline_identity(void **state) {
    (void)state;
    static const char *pol[] = {"p", "p", "p"};
    char res[] = "/tmp/test_check_res_XXXXXX", bas[] = "/tmp/test_check_base_XXXXXX";
    close(mkstemp(res));
    close(mkstemp(bas));
    double v[] = {1, 2, 3};
    strbuf err = {0};
    expect_spec e = {.file = "e.yaml"};
    rdb r, b;
    make_db(bas, 3, pol, v, v);
    make_db(res, 3, pol, v, v);
    assert_int_equal(rdb_open(res, &r, &err), 0);
    assert_int_equal(rdb_open(bas, &b, &err), 0);
    assert_int_equal(expect_check_baseline(&e, &r, &b, &err), 0);
    rdb_close(&r);
    g_seed0 = 41;   /* seeds 41..43 against 40..42 */
    make_db(res, 3, pol, v, v);
    assert_int_equal(rdb_open(res, &r, &err), 0);
    assert_int_equal(expect_check_baseline(&e, &r, &b, &err), -1);
    assert_non_null(strstr(sb_str(&err), " holds scenario hand seeds 40,41,42, the results scenario hand seeds 41,42,43: "
                                          "a baseline must come from the same scenario and seeds"));
    rdb_close(&r);
    g_seed0 = 40;
    g_scenario = "other";
    make_db(res, 3, pol, v, v);
    g_scenario = "hand";
    assert_int_equal(rdb_open(res, &r, &err), 0);
    assert_int_equal(expect_check_baseline(&e, &r, &b, &err), -1);
    assert_non_null(strstr(sb_str(&err), "scenario hand seeds 40,41,42, the results scenario other seeds 40,41,42"));
    assert_non_null(strstr(sb_str(&err), "--allow-other-baseline"));
    rdb_close(&r);
    rdb_close(&b);
    sb_free(&err);
    unlink(res);
    unlink(bas);
}

/* ---- a minimal XML well-formedness checker ------------------------------------- */

typedef struct xml_el {
    char name[32];
    char attrs[16][32];
    char vals[16][256];
    int nattrs;
    int parent;
} xml_el;

typedef struct xml_doc {
    xml_el el[256];
    int n;
} xml_doc;

static const char *xml_attr(const xml_el *e, const char *name) {
    for (int i = 0; i < e->nattrs; i++)
        if (!strcmp(e->attrs[i], name)) return e->vals[i];
    return NULL;
}

/* Text and attribute values may only use the five predefined entities and
 * decimal references to characters XML 1.0 allows (tab, LF, CR, >= 0x20). */
static bool entities_ok(const char *s, const char *end) {
    for (; s < end; s++) {
        if (*s == '<') return false;
        if (*s != '&') continue;
        static const char *const ents[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
        bool ok = false;
        for (int k = 0; k < 5; k++) ok |= !strncmp(s, ents[k], strlen(ents[k]));
        if (!ok && s[1] == '#') {
            char *e;
            long c = strtol(s + 2, &e, 10);
            ok = e > s + 2 && *e == ';' && (c == 9 || c == 10 || c == 13 || (c >= 0x20 && c <= 0xD7FF) ||
                                            (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF));
        }
        if (!ok) return false;
    }
    return true;
}

/* Every byte is a character XML 1.0 allows, in valid UTF-8 (Char production:
 * tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF). */
static bool chars_ok(const char *text) {
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned long c;
        int n;
        if (*p < 0x80) c = *p, n = 1;
        else if ((*p & 0xE0) == 0xC0) c = *p & 0x1F, n = 2;
        else if ((*p & 0xF0) == 0xE0) c = *p & 0x0F, n = 3;
        else if ((*p & 0xF8) == 0xF0) c = *p & 0x07, n = 4;
        else return false;
        for (int i = 1; i < n; i++) {
            if ((p[i] & 0xC0) != 0x80) return false;
            c = c << 6 | (p[i] & 0x3F);
        }
        static const unsigned long min[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < min[n]) return false;   /* overlong */
        if (!(c == 9 || c == 10 || c == 13 || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
              (c >= 0x10000 && c <= 0x10FFFF)))
            return false;
        p += n;
    }
    return true;
}

/* Parse: one prolog, properly nested elements, quoted attributes. 0 or -1. */
static int xml_parse(const char *s, xml_doc *d) {
    int stack[64], depth = 0;
    d->n = 0;
    if (!chars_ok(s)) return -1;
    if (strncmp(s, "<?xml ", 6)) return -1;
    s = strstr(s, "?>");
    if (!s) return -1;
    s += 2;
    bool root_done = false;
    while (*s) {
        const char *lt = strchr(s, '<');
        if (!lt) {
            while (*s == '\n' || *s == ' ') s++;
            return *s || depth ? -1 : 0;
        }
        if (!entities_ok(s, lt) || (depth == 0 && strspn(s, " \n") < (size_t)(lt - s))) return -1;
        s = lt + 1;
        if (*s == '/') {
            const char *gt = strchr(s, '>');
            if (!gt || !depth) return -1;
            xml_el *open = &d->el[stack[depth - 1]];
            if ((size_t)(gt - s - 1) != strlen(open->name) || strncmp(s + 1, open->name, strlen(open->name))) return -1;
            depth--;
            if (!depth) root_done = true;
            s = gt + 1;
            continue;
        }
        if (root_done || d->n == 256) return -1;
        xml_el *e = &d->el[d->n];
        memset(e, 0, sizeof *e);
        e->parent = depth ? stack[depth - 1] : -1;
        size_t n = strcspn(s, " />");
        if (!n || n >= sizeof e->name) return -1;
        memcpy(e->name, s, n);
        s += n;
        while (1) {
            while (*s == ' ') s++;
            if (*s == '/' && s[1] == '>') {
                s += 2;
                d->n++;
                if (!depth) root_done = true;
                break;
            }
            if (*s == '>') {
                s++;
                stack[depth++] = d->n++;
                break;
            }
            size_t an = strcspn(s, "= />");
            if (!an || an >= 32 || s[an] != '=' || s[an + 1] != '"' || e->nattrs == 16) return -1;
            memcpy(e->attrs[e->nattrs], s, an);
            for (int k = 0; k < e->nattrs; k++)
                if (!strcmp(e->attrs[k], e->attrs[e->nattrs])) return -1;   /* duplicate attribute */
            const char *v = s + an + 2, *q = strchr(v, '"');
            if (!q || !entities_ok(v, q) || (size_t)(q - v) >= 256) return -1;
            memcpy(e->vals[e->nattrs], v, (size_t)(q - v));
            e->nattrs++;
            s = q + 1;
            if (*s != ' ' && *s != '/' && *s != '>') return -1;
        }
    }
    return depth ? -1 : 0;
}

static void test_junit_shape(void **state) {
    (void)state;
    check_report c = {0};
    check_result items[] = {
        {"gpu_alloc_pct >= 93", 95, ">= 93", true, NULL},
        {"max(wait_p99_s) <= 300", 400, "<= 300", false, "max(wait_p99_s) = 400 over 2 runs, expected <= 300"},
        {"baseline: wait & \"tail\"", 250, "<= 220", false, "worse <by> 30"},
    };
    c.items = items;
    c.n = 3;
    c.failures = 2;
    strbuf x = {0};
    check_report_junit(&c, "quick<start>", 1.5, &x);
    xml_doc *d = calloc(1, sizeof *d);
    if (xml_parse(sb_str(&x), d)) fail_msg("not well-formed XML:\n%s", sb_str(&x));
    /* testsuites > testsuite > testcase (> failure) */
    assert_string_equal(d->el[0].name, "testsuites");
    int suites = 0, cases = 0, failures = 0;
    for (int i = 0; i < d->n; i++) {
        const xml_el *e = &d->el[i];
        if (!strcmp(e->name, "testsuite")) {
            suites++;
            assert_int_equal(e->parent, 0);
            assert_string_equal(xml_attr(e, "name"), "quick&lt;start&gt;");
            assert_string_equal(xml_attr(e, "tests"), "3");
            assert_string_equal(xml_attr(e, "failures"), "2");
            assert_non_null(xml_attr(e, "errors"));
            assert_non_null(xml_attr(e, "time"));
        } else if (!strcmp(e->name, "testcase")) {
            cases++;
            assert_string_equal(d->el[e->parent].name, "testsuite");
            assert_non_null(xml_attr(e, "name"));
            assert_non_null(xml_attr(e, "classname"));
        } else if (!strcmp(e->name, "failure")) {
            failures++;
            assert_string_equal(d->el[e->parent].name, "testcase");
            assert_non_null(xml_attr(e, "message"));
            assert_non_null(xml_attr(e, "type"));
        } else if (i) {
            fail_msg("unexpected element <%s>", e->name);
        }
    }
    assert_int_equal(suites, 1);
    assert_int_equal(cases, 3);
    assert_int_equal(failures, 2);
    /* the checker itself rejects broken XML */
    assert_int_equal(xml_parse("<?xml version=\"1.0\"?>\n<a><b></a></b>\n", d), -1);
    assert_int_equal(xml_parse("<?xml version=\"1.0\"?>\n<a x=\"1 & 2\"/>\n", d), -1);
    free(d);
    sb_free(&x);
}

/* Names and messages with control characters, invalid UTF-8 and markup
 * (an expect file's metric name reaches both): still well-formed XML 1.0. */
static void test_junit_control_chars(void **state) {
    (void)state;
    check_report c = {0};
    check_result items[] = {
        {"gpu\x01alloc\x1b[31m >= 93", 95, ">= 93", false, "metric 'gpu\x01alloc\x1b[31m' is not in the results"},
        {"bad \xff\xfe utf-8 \xc0\xaf\xed\xa0\x80", 1, "<= \x7f\x0b\x0c", false, "line1\nline2\r\ttab ]]> <![CDATA["},
    };
    c.items = items;
    c.n = 2;
    c.failures = 2;
    strbuf x = {0};
    check_report_junit(&c, "suite\x02\nname", 0.5, &x);
    xml_doc *d = calloc(1, sizeof *d);
    if (xml_parse(sb_str(&x), d)) fail_msg("not well-formed XML:\n%s", sb_str(&x));
    assert_string_equal(xml_attr(&d->el[1], "name"), "suite\xEF\xBF\xBD&#10;name");
    assert_non_null(strstr(sb_str(&x), "line1&#10;line2&#13;&#9;tab ]]&gt; &lt;![CDATA["));
    /* the checker itself rejects what the old escaping let through */
    assert_int_equal(xml_parse("<?xml version=\"1.0\"?>\n<a x=\"\x01\"/>\n", d), -1);
    assert_int_equal(xml_parse("<?xml version=\"1.0\"?>\n<a x=\"\xff\"/>\n", d), -1);
    assert_int_equal(xml_parse("<?xml version=\"1.0\"?>\n<a x=\"&#1;\"/>\n", d), -1);
    free(d);
    sb_free(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_ok),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_seed_aggregators),
        cmocka_unit_test(test_baseline_rule),
        cmocka_unit_test(test_baseline_identity),
        cmocka_unit_test(test_junit_shape),
        cmocka_unit_test(test_junit_control_chars),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
