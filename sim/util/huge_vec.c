/* huge_vec.c -- growth of util/huge_vec.h's arrays: malloc below
 * HUGE_VEC_MAP bytes, above it 2 MiB-aligned anonymous mappings marked
 * MADV_HUGEPAGE (a hint: refused when transparent huge pages are off, and
 * then the mapping is an ordinary one), grown with mremap (the kernel moves
 * the pages: no copy, nothing touched twice). Sanitizer builds use malloc for
 * every size, so that LeakSanitizer still sees a forgotten array. */
#define _GNU_SOURCE   /* mremap */
#include "util/huge_vec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define HUGE_VEC_USE_MAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGE_VEC_USE_MAP 0
#endif
#endif
#ifndef HUGE_VEC_USE_MAP
#define HUGE_VEC_USE_MAP 1
#endif

#define HUGE_PAGE ((size_t)2 << 20)

static bool mapped(size_t cap_bytes) { return HUGE_VEC_USE_MAP && cap_bytes >= HUGE_VEC_MAP; }

void *huge_map(size_t len) {
    if (!HUGE_VEC_USE_MAP) return NULL;
    void *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t s = (uintptr_t)m, al = (s + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (al > s) munmap(m, al - s);
    if (s + HUGE_PAGE > al) munmap((void *)(al + len), s + HUGE_PAGE - al);
#ifdef MADV_HUGEPAGE
    (void)madvise((void *)al, len, MADV_HUGEPAGE);
#endif
    return (void *)al;
}

void *huge_vec_grow(void *p, size_t *cap_bytes, size_t need_bytes, size_t used_bytes) {
    size_t cap = *cap_bytes ? *cap_bytes : 64;
    while (cap < need_bytes) cap *= 2;
    if (!mapped(cap)) {   /* then the old block was not mapped either: it was smaller */
        *cap_bytes = cap;
        return xrealloc(p, cap);
    }
    cap = (cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
#if defined(MREMAP_MAYMOVE) && defined(MADV_HUGEPAGE)
    if (mapped(*cap_bytes)) {   /* mapped already: the kernel moves its pages, nothing is copied or touched again */
        void *q = mremap(p, *cap_bytes, cap, MREMAP_MAYMOVE);
        if (q != MAP_FAILED) {
            (void)madvise(q, cap, MADV_HUGEPAGE);   /* the new part too (the same flags: one mapping again) */
            *cap_bytes = cap;
            return q;
        }
    }
#endif
    void *q = huge_map(cap);
    if (!q) {   /* as xalloc.c does */
        fprintf(stderr, "drasim: out of memory (%zu bytes)\n", cap);
        abort();
    }
    if (used_bytes) memcpy(q, p, used_bytes);
    huge_vec_release(p, *cap_bytes);
    *cap_bytes = cap;
    return q;
}

void huge_vec_release(void *p, size_t cap_bytes) {
    if (!p) return;
    if (mapped(cap_bytes)) munmap(p, cap_bytes);
    else free(p);
}
