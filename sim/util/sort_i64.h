/*
 * sort_i64.h -- ascending in-place sort of int64 values (introsort: 3-way
 * quicksort, heapsort past a depth limit, insertion sort for short runs).
 * Unlike qsort (glibc's merge sort takes a copy of the array), it needs no
 * memory: the summaries sort a wait per pod, 80 MB at 10M pods (issue 31).
 */
#ifndef DRASIM_UTIL_SORT_I64_H
#define DRASIM_UTIL_SORT_I64_H
#include <stddef.h>
#include <stdint.h>
void sort_i64(int64_t *v, size_t n);
/* Order statistics without a full sort: afterwards v[k] holds what it would
 * hold after sort_i64 for every k in ranks[0..nr) (ascending, each < n);
 * the other elements are only partitioned. The percentiles of a run's waits
 * need a handful of ranks of up to 10M values. */
void select_ranks_i64(int64_t *v, size_t n, const size_t *ranks, size_t nr);
#endif
