/* test_fileio.c -- the whole-file reader: size limit, directories, devices,
 * pipes (issue 10: /dev/zero as an input file, "read error" for a directory). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/fileio.h"

static char dir[] = "/tmp/drasim-fileio-XXXXXX";

static void test_refusals(void **state) {
    strbuf out = {0}, err = {0};
    assert_int_equal(file_read_all("/dev/zero", &out, &err), -1);
    assert_string_equal(sb_str(&err), "/dev/zero: is not a regular file (a character device)");
    assert_int_equal(file_read_all(dir, &out, &err), -1);
    char want[256];
    snprintf(want, sizeof want, "%s: is a directory", dir);
    assert_string_equal(sb_str(&err), want);
    assert_int_equal(file_read_all("/nonexistent/x.yaml", &out, &err), -1);
    assert_string_equal(sb_str(&err), "/nonexistent/x.yaml: cannot open: No such file or directory");
    assert_int_equal(out.len, 0);
    sb_free(&out);
    sb_free(&err);
}

static void test_size_limit(void **state) {
    char path[256];
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static char block[1 << 16];
    memset(block, '#', sizeof block);
    for (int i = 0; i < 24; i++) fwrite(block, 1, sizeof block, f);   /* 1.5 MiB */
    fclose(f);
    strbuf out = {0}, err = {0};
    assert_int_equal(file_max_input_bytes(), (size_t)FILE_MAX_INPUT_MIB_DEFAULT << 20);
    assert_int_equal(file_read_all(path, &out, &err), 0);
    assert_int_equal(out.len, 24u << 16);
    sb_clear(&out);
    setenv("DRASIM_MAX_INPUT_MIB", "1", 1);
    assert_int_equal(file_read_all(path, &out, &err), -1);
    char want[400];
    snprintf(want, sizeof want, "%s: larger than the 1 MiB input limit (set DRASIM_MAX_INPUT_MIB to raise it)", path);
    assert_string_equal(sb_str(&err), want);
    assert_int_equal(out.len, 0);
    unsetenv("DRASIM_MAX_INPUT_MIB");
    unlink(path);
    sb_free(&out);
    sb_free(&err);
}

/* A pipe is read to its end, and cut off at the limit when it does not end. */
static void test_fifo(void **state) {
    char path[256];
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    for (int endless = 0; endless < 2; endless++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            FILE *w = fopen(path, "w");
            if (!w) _exit(1);
            if (!endless) fputs("a: 1\n", w);
            else for (;;) if (fputs("0123456789abcdef", w) < 0) break;   /* until the reader leaves */
            fclose(w);
            _exit(0);
        }
        strbuf out = {0}, err = {0};
        if (endless) setenv("DRASIM_MAX_INPUT_MIB", "1", 1);
        int rc = file_read_all(path, &out, &err);
        unsetenv("DRASIM_MAX_INPUT_MIB");
        if (!endless) {
            assert_int_equal(rc, 0);
            assert_string_equal(sb_str(&out), "a: 1\n");
        } else {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(sb_str(&err), "larger than the 1 MiB input limit"));
        }
        int st;
        waitpid(pid, &st, 0);
        sb_free(&out);
        sb_free(&err);
    }
    unlink(path);
}

static int setup(void **state) { return mkdtemp(dir) ? 0 : -1; }
static int teardown(void **state) { return rmdir(dir); }

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_fifo),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
