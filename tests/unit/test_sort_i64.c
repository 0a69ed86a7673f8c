/* test_sort_i64.c -- sort_i64 and select_ranks_i64 against qsort on shapes
 * that break naive quicksorts: all equal, sorted, reversed, organ pipe, few
 * distinct values, random, extremes; and hand-checked small cases. */
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

/* select_ranks_i64 on v[0..n) with ranks[0..nr): each asked rank holds
 * what qsort puts there, and the array is still a permutation of v. */
static void check_ranks(const int64_t *v, size_t n, const size_t *ranks, size_t nr) {
    int64_t *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    memcpy(a, v, n * sizeof *a);
    memcpy(b, v, n * sizeof *b);
    select_ranks_i64(a, n, ranks, nr);
    qsort(b, n, sizeof *b, cmp);
    for (size_t k = 0; k < nr; k++) assert_true(a[ranks[k]] == b[ranks[k]]);
    qsort(a, n, sizeof *a, cmp);
    assert_memory_equal(a, b, n * sizeof *a);
    free(a);
    free(b);
}

/* The percentile ranks the run summaries ask for (nearest rank of p50, p90,
 * p95, p99 and the maximum), several sets of random ranks with repeats,
 * one rank alone, and none. */
static void check_rank_sets(const int64_t *v, size_t n, uint64_t *seed) {
    size_t pct[] = {(n + 1) / 2 - 1, (9 * n + 9) / 10 - 1, (19 * n + 19) / 20 - 1, (99 * n + 99) / 100 - 1, n - 1};
    check_ranks(v, n, pct, 5);
    for (int t = 0; t < 4; t++) {
        size_t r[6];
        for (int k = 0; k < 6; k++) r[k] = (size_t)(lcg(seed) % n);
        for (int i = 1; i < 6; i++)   /* ascending, repeats allowed */
            for (int j = i; j > 0 && r[j - 1] > r[j]; j--) {
                size_t x = r[j];
                r[j] = r[j - 1];
                r[j - 1] = x;
            }
        check_ranks(v, n, r, 6);
    }
    size_t first = 0;
    check_ranks(v, n, &first, 1);
    check_ranks(v, n, NULL, 0);
}

static void test_select_small(void **state) {
    (void)state;
    int64_t v[] = {9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 9, 1, 8, 2, 7, 3, 6, 4, 5, 0, 42};
    size_t ranks[] = {0, 10, 10, 19, 20};   /* by hand: 0 0 1 1 2 2 ... 9 9 42 */
    select_ranks_i64(v, 21, ranks, 5);
    assert_true(v[0] == 0 && v[10] == 5 && v[19] == 9 && v[20] == 42);
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
        check_rank_sets(v, N, &seed);
        check_rank_sets(v, 17, &seed);
        check_rank_sets(v, 1, &seed);
    }
    free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_select_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
