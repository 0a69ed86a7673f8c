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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_and_quotes),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_trailing_newline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
