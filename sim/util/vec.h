/*
 * vec.h -- growable arrays as plain (pointer, count, capacity) triples.
 *   VEC(int) v = {0};  VEC_PUSH(v, 3);  v.data[0]; v.len;  VEC_FREE(v);
 */
#ifndef DRASIM_UTIL_VEC_H
#define DRASIM_UTIL_VEC_H
#include <stddef.h>
#include <stdlib.h>
#include "util/xalloc.h"

#define VEC(T) struct { T *data; size_t len, cap; }

#define VEC_RESERVE(v, n) do {                                              \
        if ((n) > (v).cap) {                                                \
            size_t nc_ = (v).cap ? (v).cap * 2 : 8;                         \
            while (nc_ < (n)) nc_ *= 2;                                     \
            (v).data = xrealloc((v).data, nc_ * sizeof *(v).data);          \
            (v).cap = nc_;                                                  \
        }                                                                   \
    } while (0)

#define VEC_PUSH(v, x) do {                                                 \
        VEC_RESERVE(v, (v).len + 1);                                        \
        (v).data[(v).len++] = (x);                                          \
    } while (0)

#define VEC_FREE(v) do { free((v).data); (v).data = NULL; (v).len = (v).cap = 0; } while (0)

#endif
