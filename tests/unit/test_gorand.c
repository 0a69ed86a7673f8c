/* test_gorand.c -- util/gorand against sequences printed by Go 1.19 itself
 * (tests/gorand/sequences.txt, made by tools/gorand/main.go): every call,
 * in order, for several seeds, must give Go's value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/gorand.h"

/* Compare one list result with the expected space-separated values. */
static void expect_list(const int64_t *got, size_t n, const char *want, int line) {
    char *end;
    for (size_t i = 0; i < n; i++) {
        long long v = strtoll(want, &end, 10);
        if (end == want) fail_msg("line %d: expected %zu values", line, n);
        if (v != got[i]) fail_msg("line %d: element %zu is %lld, Go gives %lld", line, i, (long long)got[i], v);
        want = end;
    }
}

static void test_sequences(void **state) {
    (void)state;
    FILE *f = fopen(TEST_DATA_DIR "/gorand/sequences.txt", "r");
    assert_non_null(f);
    static char buf[1 << 16];
    static int64_t list[2048];
    gorand g;
    int line = 0, seeds = 0, calls = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char op[32];
        long long arg;
        int pos = 0;
        if (sscanf(buf, "seed %lld", &arg) == 1) {
            gorand_seed(&g, arg);
            seeds++;
            continue;
        }
        assert_true(sscanf(buf, "%31s %lld = %n", op, &arg, &pos) == 2);
        const char *val = buf + pos;
        calls++;
        if (!strcmp(op, "float64")) {
            double want = strtod(val, NULL), got = gorand_float64(&g);
            if (got != want) fail_msg("line %d: float64 %.17g, Go gives %.17g", line, got, want);
            continue;
        }
        if (!strcmp(op, "perm") || !strcmp(op, "shuffle")) {
            assert_true(arg >= 0 && arg <= 2048);
            if (op[0] == 'p') gorand_perm(&g, list, (size_t)arg);
            else {
                uint32_t a[2048];
                for (long long i = 0; i < arg; i++) a[i] = (uint32_t)i;
                gorand_shuffle_u32(&g, a, (size_t)arg);
                for (long long i = 0; i < arg; i++) list[i] = a[i];
            }
            expect_list(list, (size_t)arg, val, line);
            continue;
        }
        long long want = strtoll(val, NULL, 10), got;
        if (!strcmp(op, "int63")) got = gorand_int63(&g);
        else if (!strcmp(op, "int31")) got = gorand_int31(&g);
        else if (!strcmp(op, "int")) got = gorand_int(&g);
        else if (!strcmp(op, "uint32")) got = gorand_uint32(&g);
        else if (!strcmp(op, "intn")) got = gorand_intn(&g, arg);
        else if (!strcmp(op, "int31n")) got = gorand_int31n(&g, (int32_t)arg);
        else if (!strcmp(op, "int63n")) got = gorand_int63n(&g, arg);
        else fail_msg("line %d: unknown op %s", line, op);
        if (got != want) fail_msg("line %d: %s(%lld) = %lld, Go gives %lld", line, op, arg, got, want);
    }
    fclose(f);
    assert_int_equal(seeds, 9);
    assert_true(calls > 300);
}

/* A different seed must give a different stream (the test above cannot pass by accident). */
static void test_seed_matters(void **state) {
    (void)state;
    gorand a, b;
    gorand_seed(&a, 42);
    gorand_seed(&b, 43);
    assert_true(gorand_int63(&a) != gorand_int63(&b));
    /* seeds equal modulo 2^31-1 give the same stream, as in Go */
    gorand_seed(&a, 5);
    gorand_seed(&b, 5 + 2147483647LL);
    assert_true(gorand_int63(&a) == gorand_int63(&b));
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sequences), cmocka_unit_test(test_seed_matters)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
