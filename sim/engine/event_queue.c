/* event_queue.c -- 4-ary min-heap keyed by (time, seq): half the depth of a
 * binary heap, and the four children share a cache line or two. */
#include "engine/event_queue.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* (time, seq) as one 128-bit unsigned number (time's sign bit flipped so
 * negative times stay first): one comparison without branches, so picking
 * the least of four children does not mispredict. */
static inline unsigned __int128 key(const event *e) {
    return (unsigned __int128)((uint64_t)e->time ^ ((uint64_t)1 << 63)) << 64 | e->order;
}

static inline bool before(const event *a, const event *b) { return key(a) < key(b); }

void evq_init(event_queue *q) {
    q->heap = NULL;
    q->len = q->cap = 0;
    q->next_seq = 0;
}

void evq_free(event_queue *q) {
    free(q->heap);
    evq_init(q);
}

/* Sift event (time, seq, kind, arg) up into the heap. */
static inline void push_at(event_queue *q, int64_t time, uint32_t kind, uint64_t arg, uint64_t seq) {
    if (q->len == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 64;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    }
    event e = {.time = time, .order = seq << EV_KIND_BITS | (kind & ((1u << EV_KIND_BITS) - 1)), .arg = arg};
    size_t i = q->len++;
    while (i > 0) {   /* sift up */
        size_t parent = (i - 1) / 4;
        if (!before(&e, &q->heap[parent])) break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
}

uint64_t evq_push(event_queue *q, int64_t time, uint32_t kind, uint64_t arg) {
    uint64_t seq = q->next_seq++;
    push_at(q, time, kind, arg, seq);
    return seq;
}

uint64_t evq_reserve(event_queue *q) { return q->next_seq++; }

void evq_push_seq(event_queue *q, int64_t time, uint32_t kind, uint64_t arg, uint64_t seq) {
    push_at(q, time, kind, arg, seq);
}

bool evq_empty(const event_queue *q) { return q->len == 0; }

const event *evq_peek(const event_queue *q) { return &q->heap[0]; }

event evq_pop(event_queue *q) {
    event top = q->heap[0];
    event last = q->heap[--q->len];
    size_t i = 0, n = q->len;
    for (;;) {   /* sift the last element down from the root */
        size_t first = 4 * i + 1, c = first;
        if (first >= n) break;
        size_t end = first + 4 < n ? first + 4 : n;
        size_t gc = 4 * first + 1;   /* the children's children: 16 events in a row, fetched while this level is compared */
        if (gc < n) {
            const char *g = (const char *)&q->heap[gc];
            for (size_t off = 0; off < 16 * sizeof(event); off += 64) __builtin_prefetch(g + off);
        }
        unsigned __int128 best = key(&q->heap[c]);
        for (size_t k = first + 1; k < end; k++) {   /* the least child, without branches */
            unsigned __int128 x = key(&q->heap[k]);
            bool lt = x < best;
            best = lt ? x : best;
            c = lt ? k : c;
        }
        if (!(best < key(&last))) break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n) q->heap[i] = last;
    return top;
}
