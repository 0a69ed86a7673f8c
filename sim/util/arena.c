#include "util/arena.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

struct arena_block { arena_block *next; size_t used, cap; _Alignas(16) unsigned char data[]; };

void *arena_alloc(arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    arena_block *b = a->head;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        b = xmalloc(sizeof *b + cap);
        b->cap = cap;
        b->used = 0;
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
    while (b) { arena_block *n = b->next; free(b); b = n; }
    a->head = NULL;
}

/* Keep the newest block (the one a reused scratch arena fills again) and
 * free the others: a per-call scratch arena then costs no malloc/free. */
void arena_reset(arena *a) {
    arena_block *b = a->head;
    if (!b) return;
    arena_block *n = b->next;
    while (n) { arena_block *x = n->next; free(n); n = x; }
    b->next = NULL;
    b->used = 0;
}
