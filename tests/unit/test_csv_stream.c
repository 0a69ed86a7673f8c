/* test_csv_stream.c -- the streamed CSV reader refuses a NUL byte at
 * FILE:LINE:COL exactly like the whole-file reader (csv.c) does (issue 25:
 * "node/a\0b" was read as "node/a"), in an unquoted field, in a quoted field
 * after a line break, and in the header; rows around it read as text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/csv.h"
#include "util/csv_stream.h"

/* Write `len` bytes to a new temporary file; its name in `path`. */
static void write_file(char *path, size_t n, const char *data, size_t len) {
    snprintf(path, n, "/tmp/drasim-test-csv-stream-%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* The streamed reader's first error over the whole file (header, then rows). */
static void stream_error(const char *path, strbuf *err) {
    csv_stream *s = NULL;
    sb_clear(err);
    if (csv_stream_open(path, &s, err)) return;
    int r;
    while ((r = csv_stream_next(s, err)) == 1) {}
    csv_stream_close(s);
    if (r == 0) sb_puts(err, "(no error)");
}

static void check_nul(const char *data, size_t len, const char *expected_tail) {
    char path[128];
    write_file(path, sizeof path, data, len);
    strbuf se = {0}, we = {0};
    stream_error(path, &se);
    csv_table t;
    assert_int_equal(csv_parse(path, data, len, &t, &we), -1);
    unlink(path);
    const char *tail = strchr(sb_str(&se), ':');   /* after the path */
    assert_non_null(tail);
    assert_string_equal(tail, expected_tail);
    assert_string_equal(sb_str(&se), sb_str(&we));   /* one message for both readers */
    sb_free(&se);
    sb_free(&we);
}

static void test_nul_unquoted(void **state) {
    (void)state;
    /* row 2: "p1,node/a" fills columns 1-9, so the NUL is column 10 */
    static const char data[] = "pod,target\np1,node/a\0b\np2,node/c\n";
    check_nul(data, sizeof data - 1, ":2:10: a NUL byte in a field (expected text)");
}

static void test_nul_quoted_after_newline(void **state) {
    (void)state;
    /* the quoted field opens on line 2 and holds a line break: the NUL is line 3, column 3 */
    static const char data[] = "pod,note\np1,\"first\nab\0c\"\n";
    check_nul(data, sizeof data - 1, ":3:3: a NUL byte in a field (expected text)");
}

static void test_nul_in_header(void **state) {
    (void)state;
    static const char data[] = "po\0d,x\n1,2\n";
    check_nul(data, sizeof data - 1, ":1:3: a NUL byte in a field (expected text)");
}

static void test_text_without_nul(void **state) {
    (void)state;
    char path[128];
    static const char data[] = "pod,target\np1,\"node/a,b\"\n";
    write_file(path, sizeof path, data, sizeof data - 1);
    csv_stream *s = NULL;
    strbuf err = {0};
    assert_int_equal(csv_stream_open(path, &s, &err), 0);
    assert_int_equal(csv_stream_next(s, &err), 1);
    assert_string_equal(csv_stream_cell(s, 1), "node/a,b");
    assert_int_equal(csv_stream_next(s, &err), 0);
    csv_stream_close(s);
    unlink(path);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nul_unquoted),
        cmocka_unit_test(test_nul_quoted_after_newline),
        cmocka_unit_test(test_nul_in_header),
        cmocka_unit_test(test_text_without_nul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
