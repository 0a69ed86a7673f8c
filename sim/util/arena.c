#include "util/arena.h"
#include "util/huge_vec.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Blocks grow fourfold from 64 KiB up to 8 MiB (64K, 256K, 2M, 8M). Blocks of 2 MiB and more are mapped
 * on 2 MiB boundaries and marked for transparent huge pages: a YAML tree of
 * 15 MB then costs a few page faults instead of ~3,600 (measured: 1.7-4 ms
 * instead of 52-60 ms of CPU on this shared machine, `drasim admit`,
 * tools/bench/bench_admit.sh). Sanitizer builds keep malloc for every block
 * so that LeakSanitizer still sees a forgotten arena. */
#define FIRST_BLOCK 65536u
#define MAX_BLOCK (8u << 20)
#define HUGE_PAGE ((size_t)2 << 20)

struct arena_block {
    arena_block *next;
    size_t used, cap;
    size_t map_len;             /* mapped with mmap (0: malloc) */
    _Alignas(16) unsigned char data[];
};

/* A block with room for cap bytes. */
static arena_block *new_block(size_t cap) {
    arena_block *b = NULL;
    if (sizeof *b + cap >= HUGE_PAGE) {   /* huge_map: NULL under the sanitizers, then malloc */
        size_t len = (sizeof *b + cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        b = huge_map(len);
        if (b) {
            b->map_len = len;
            b->cap = len - sizeof *b;
        }
    }
    if (!b) {
        b = xmalloc(sizeof *b + cap);
        b->map_len = 0;
        b->cap = cap;
    }
    b->used = 0;
    b->next = NULL;
    return b;
}

static void free_block(arena_block *b) {
    if (b->map_len) munmap(b, b->map_len);
    else free(b);
}

void *arena_alloc(arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    arena_block *b = a->head;
    if (!b || b->used + n > b->cap) {
        size_t want = b ? (b->cap < MAX_BLOCK / 4 ? b->cap * 4 : MAX_BLOCK) : FIRST_BLOCK;
        if (want >= HUGE_PAGE / 2 && want < HUGE_PAGE) want = HUGE_PAGE;   /* 64K, 256K, then 2M */
        b = new_block(n > want ? n : want);
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}
void *arena_memdup(arena *a, const void *p, size_t n) {
    void *d = arena_alloc(a, n);
    if (n) memcpy(d, p, n);
    return d;
}
char *arena_strndup(arena *a, const char *s, size_t n) {
    char *d = arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}
void arena_free(arena *a) {
    arena_block *b = a->head;
    while (b) { arena_block *n = b->next; free_block(b); b = n; }
    a->head = NULL;
}

/* Keep the newest block (the one a reused scratch arena fills again) and
 * free the others: a per-call scratch arena then costs no malloc/free. */
void arena_reset(arena *a) {
    arena_block *b = a->head;
    if (!b) return;
    arena_block *n = b->next;
    while (n) { arena_block *x = n->next; free_block(n); n = x; }
    b->next = NULL;
    b->used = 0;
}
