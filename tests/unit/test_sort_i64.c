/* test_sort_i64.c -- sort_i64 against qsort on shapes that break naive
 * quicksorts: all equal, sorted, reversed, organ pipe, few distinct values,
 * random, extremes; and a hand-checked small case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/sort_i64.h"

static int cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 17;
}

/* sort_i64 and qsort agree on v[0..n). */
static void check(const int64_t *v, size_t n) {
    int64_t *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    memcpy(a, v, n * sizeof *a);
    memcpy(b, v, n * sizeof *b);
    sort_i64(a, n);
    qsort(b, n, sizeof *b, cmp);
    assert_memory_equal(a, b, n * sizeof *a);
    free(a);
    free(b);
}

static void test_small(void **state) {
    (void)state;
    int64_t v[] = {5, -3, 5, 0, INT64_MAX, INT64_MIN, 2};
    sort_i64(v, 7);
    int64_t want[] = {INT64_MIN, -3, 0, 2, 5, 5, INT64_MAX};
    assert_memory_equal(v, want, sizeof want);
    sort_i64(v, 0);   /* nothing to do, nothing touched */
    assert_memory_equal(v, want, sizeof want);
}

static void test_shapes(void **state) {
    (void)state;
    enum { N = 100003 };
    int64_t *v = malloc(N * sizeof *v);
    uint64_t seed = 42;
    for (int shape = 0; shape < 7; shape++) {
        for (size_t i = 0; i < N; i++) {
            switch (shape) {
            case 0: v[i] = 0; break;                                          /* all equal */
            case 1: v[i] = (int64_t)i; break;                                 /* sorted */
            case 2: v[i] = (int64_t)(N - i); break;                           /* reversed */
            case 3: v[i] = (int64_t)(i < N / 2 ? i : N - i); break;           /* organ pipe */
            case 4: v[i] = (int64_t)(lcg(&seed) % 3); break;                  /* few distinct */
            case 5: v[i] = (int64_t)lcg(&seed) - (int64_t)(1ULL << 46); break; /* random */
            default: v[i] = (i & 1) ? INT64_MAX : INT64_MIN; break;            /* extremes */
            }
        }
        check(v, N);
        check(v, 17);   /* just past the insertion-sort cut-off */
    }
    free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
