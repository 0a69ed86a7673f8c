/* test_plan_html.c -- `drasim plan --report`'s index.html (plan_html.c) on a
 * plan made by hand: the answer comes before the probes table and the plots,
 * a NOT MONOTONE warning names both points, an undecided probe is listed,
 * and text from the expect file is escaped. */
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

#include "report/plan.h"
#include "report/report.h"

static char *page(const plan_ctx *c, const char *dir) {
    report rp = {.dir = dir};
    strbuf err = {0};
    assert_int_equal(plan_html(c, &rp, false, &err), 0);
    strbuf path = {0};
    sb_printf(&path, "%s/index.html", dir);
    FILE *f = fopen(sb_str(&path), "r");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    unlink(sb_str(&path));
    sb_free(&path);
    sb_free(&err);
    return buf;
}

/* One pool a=1..4: 2 passes, 3 fails (not monotone), 1 fails; 3 undecided. */
static void test_answer_first(void **state) {
    (void)state;
    char dir[] = "/tmp/drasim-plan-html-XXXXXX";
    assert_non_null(mkdtemp(dir));
    expect_threshold th = {.text = "max(wait_s) <= 60 <b>", .op = OP_LE, .value = 60};
    expect_spec e = {.thresholds = &th, .nthresholds = 1};
    plan_dim dim = {.pool = "a", .lo = 1, .hi = 4, .price = 1};
    int64_t x[3] = {2, 3, 1}, best = 2;
    double v[3] = {12, 600, 900};
    plan_probe p[3] = {
        {.x = &x[0], .pass = true, .values = &v[0], .nruns = 2, .nonmonotone = true, .cost = 2},
        {.x = &x[1], .pass = false, .values = &v[1], .nruns = 32, .nonmonotone = true, .undecided = true,
         .undecided_by = "max(wait_s) <= 60 <b>", .cost = 3, .verify = true},
        {.x = &x[2], .pass = false, .values = &v[2], .nruns = 2, .failing = "max(wait_s) <= 60 <b>", .cost = 1},
    };
    plan_ctx c = {.dims = &dim, .k = 1, .scenario = "dir/s.yaml", .expect = &e, .probes = p, .nprobes = 3,
                  .found = true, .nonmonotone = true, .best = &best, .best_cost = 2, .confidence = 0.95,
                  .nseeds = 2, .max_seeds = 32};
    const char *h = page(&c, dir);
    const char *answer = strstr(h, "<strong>a=2 (2 nodes)</strong>"), *probes = strstr(h, "id=\"probes\"");
    const char *plots = strstr(h, "id=\"plots\""), *warn = strstr(h, "NOT MONOTONE");
    assert_non_null(answer);
    assert_non_null(probes);
    assert_non_null(plots);
    assert_non_null(warn);
    assert_true(answer < warn && warn < probes && probes < plots);
    assert_non_null(strstr(h, "pass at a=2 (2 nodes) but FAIL at a=3 (3 nodes);"));
    assert_non_null(strstr(h, "<li>32 seeds: a=3 (3 nodes) (max(wait_s) &lt;= 60 &lt;b&gt;; taken as FAIL)</li>"));
    assert_non_null(strstr(h, "<td class=\"num\">12</td><td>pass</td>"));   /* the answer's SLO value */
    assert_null(strstr(h, "<b>"));   /* the threshold's text is escaped everywhere */
    assert_non_null(strstr(h, "No plots were drawn"));
    /* no answer: said so, the largest point's failing check */
    c.found = false;
    c.nonmonotone = false;
    p[0] = p[2];
    h = page(&c, dir);
    assert_non_null(strstr(h, "No fleet in the ranges meets every expectation: the largest point fails (max(wait_s) &lt;= 60"));
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answer_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
