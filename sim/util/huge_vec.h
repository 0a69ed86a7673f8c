/*
 * huge_vec.h -- VEC(T) arrays (util/vec.h) that grow big by appending, kept
 * in transparent huge pages once past HUGE_VEC_MAP bytes (1 MiB) (huge_vec.c): each
 * 2 MiB page then costs one page fault instead of 512 (issue 31: a Lua
 * generator's 400k queued pods faulted ~5,000 4 KB pages, each costly on a
 * virtual machine). Such an array grows by doubling into a new mapping (a
 * copy, like realloc's); below the threshold it is malloc'd as a VEC is.
 * Free it with HUGE_VEC_FREE, not VEC_FREE.
 *   VEC(int) v = {0};  HUGE_VEC_PUSH(v, 3);  HUGE_VEC_FREE(v);
 */
#ifndef DRASIM_UTIL_HUGE_VEC_H
#define DRASIM_UTIL_HUGE_VEC_H
#include <stddef.h>
#include "util/vec.h"

#define HUGE_VEC_MAP ((size_t)1 << 20)

/* Grow block p of cap_bytes (used_bytes of it in use) to at least need_bytes;
 * returns it and sets *cap_bytes. Mapped exactly when *cap_bytes >= HUGE_VEC_MAP. */
void *huge_vec_grow(void *p, size_t *cap_bytes, size_t need_bytes, size_t used_bytes);
/* len bytes (a multiple of 2 MiB) of zeroed memory on a 2 MiB boundary, marked for
 * transparent huge pages; free with munmap(p, len). NULL when it fails or under the
 * sanitizers (callers then malloc, so LeakSanitizer sees the block). */
void *huge_map(size_t len);
/* Free a block of cap_bytes made by huge_vec_grow. */
void huge_vec_release(void *p, size_t cap_bytes);

#define HUGE_VEC_RESERVE(v, n) do {                                              \
        if ((n) > (v).cap) {                                                     \
            size_t cb_ = (v).cap * sizeof *(v).data;                             \
            (v).data = huge_vec_grow((v).data, &cb_, (n) * sizeof *(v).data,     \
                                     (v).len * sizeof *(v).data);                \
            (v).cap = cb_ / sizeof *(v).data;                                    \
        }                                                                        \
    } while (0)

#define HUGE_VEC_PUSH(v, x) do {                                                 \
        HUGE_VEC_RESERVE(v, (v).len + 1);                                        \
        (v).data[(v).len++] = (x);                                               \
    } while (0)

#define HUGE_VEC_FREE(v) do {                                                    \
        huge_vec_release((v).data, (v).cap * sizeof *(v).data);                  \
        (v).data = NULL;                                                         \
        (v).len = (v).cap = 0;                                                   \
    } while (0)

#endif
