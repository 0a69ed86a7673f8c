/* test_csv.c -- RFC 4180 parsing, positions in errors, integer cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/csv.h"

static void test_basic_and_quotes(void **state) {
    const char *src = "name,cpu_milli,gpu_spec\r\np1,1000,\"T4|P100\"\np2,,\"a \"\"b\"\",\nc\"\n";
    csv_table t;
    strbuf err = {0};
    assert_int_equal(csv_parse("t.csv", src, strlen(src), &t, &err), 0);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(csv_col(&t, "gpu_spec"), 2);
    assert_int_equal(csv_col(&t, "nope"), -1);
    assert_string_equal(csv_cell(&t, 0, 2), "T4|P100");
    assert_string_equal(csv_cell(&t, 1, 2), "a \"b\",\nc");
    int64_t v;
    assert_int_equal(csv_int(&t, 0, 1, -1, &v, &err), 0);
    assert_int_equal(v, 1000);
    assert_int_equal(csv_int(&t, 1, 1, -1, &v, &err), 0);
    assert_int_equal(v, -1);
    assert_int_equal(csv_int(&t, 0, 0, 0, &v, &err), -1);
    assert_string_equal(sb_str(&err), "t.csv:2: column name: expected an integer, found 'p1'");
    csv_free(&t);
    sb_free(&err);
}

static void test_errors(void **state) {
    csv_table t;
    strbuf err = {0};
    const char *ragged = "a,b\n1,2\n3\n";
    assert_int_equal(csv_parse("r.csv", ragged, strlen(ragged), &t, &err), -1);
    assert_string_equal(sb_str(&err), "r.csv:3:1: row has 1 fields, the header has 2");
    const char *open = "a,b\n1,\"x\n";
    assert_int_equal(csv_parse("o.csv", open, strlen(open), &t, &err), -1);
    assert_string_equal(sb_str(&err), "o.csv:2:3: unterminated quoted field");
    const char *stray = "a,b\n1,x\"y\n";
    assert_int_equal(csv_parse("s.csv", stray, strlen(stray), &t, &err), -1);
    assert_string_equal(sb_str(&err), "s.csv:2:4: quote inside an unquoted field");
    assert_int_equal(csv_parse("e.csv", "", 0, &t, &err), -1);
    sb_free(&err);
}

static void test_no_trailing_newline(void **state) {
    csv_table t;
    strbuf err = {0};
    const char *src = "a,b\n1,2";
    assert_int_equal(csv_parse("n.csv", src, strlen(src), &t, &err), 0);
    assert_int_equal(t.nrows, 1);
    assert_string_equal(csv_cell(&t, 0, 1), "2");
    csv_free(&t);
}


/* Parse src and compare every cell with the '|'-separated rows in want (header included). */
static void expect_table(const char *src, size_t len, size_t ncols, const char *const *want, size_t nwant) {
    csv_table t;
    strbuf err = {0};
    assert_int_equal(csv_parse("edge.csv", src, len, &t, &err), 0);
    assert_int_equal(t.ncols, ncols);
    assert_int_equal(t.nrows + 1, nwant / ncols);
    for (size_t k = 0; k < nwant; k++) assert_string_equal(t.cells[k], want[k]);
    csv_free(&t);
    sb_free(&err);
}

/* Regression (issue 10): a last row ending in ',' without a newline lost the row. */
static void test_last_row_edges(void **state) {
    static const char *const ab_1e[] = {"a", "b", "1", ""};
    expect_table("a,b\n1,", strlen("a,b\n1,"), 2, ab_1e, 4);                 /* empty last field, no newline */
    expect_table("a,b\n1,\n", strlen("a,b\n1,\n"), 2, ab_1e, 4);              /* empty last field, LF */
    expect_table("a,b\r\n1,\r\n", strlen("a,b\r\n1,\r\n"), 2, ab_1e, 4);        /* empty last field, CRLF */
    expect_table("a,b\r\n1,", strlen("a,b\r\n1,"), 2, ab_1e, 4);              /* CRLF header, no newline */
    expect_table("a,b\r1,\r", strlen("a,b\r1,\r"), 2, ab_1e, 4);              /* lone CR line ends */
    static const char *const ab_ee[] = {"a", "b", "", ""};
    expect_table("a,b\n,", strlen("a,b\n,"), 2, ab_ee, 4);                  /* only a comma */
    static const char *const ab_1q[] = {"a", "b", "1", "x,y"};
    expect_table("a,b\n1,\"x,y\"", strlen("a,b\n1,\"x,y\""), 2, ab_1q, 4);        /* quoted last field, no newline */
    static const char *const ab_eq[] = {"a", "b", "", ""};
    expect_table("a,b\n\"\",\"\"", strlen("a,b\n\"\",\"\""), 2, ab_eq, 4);          /* quoted empty fields, no newline */
    static const char *const abc[] = {"a", "b", "c", "", "", "", "1", "", ""};
    expect_table("a,b,c\n,,\n1,,", strlen("a,b,c\n,,\n1,,"), 3, abc, 9);          /* several empty fields */
    static const char *const h[] = {"a", "b"};
    expect_table("a,b", strlen("a,b"), 2, h, 2);                          /* header only */
    /* one field too many at the end of the data is still an error */
    csv_table t;
    strbuf err = {0};
    assert_int_equal(csv_parse("x.csv", "a,b\n1,2,", strlen("a,b\n1,2,"), &t, &err), -1);
    assert_string_equal(sb_str(&err), "x.csv:2:1: row has 3 fields, the header has 2");
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_and_quotes),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_trailing_newline),
        cmocka_unit_test(test_last_row_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
