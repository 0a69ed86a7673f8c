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
#endif
