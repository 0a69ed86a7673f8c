/* event_queue.c -- 4-ary min-heap keyed by (time, seq): half the depth of a
 * binary heap, and the four children share a cache line or two. */
#include "engine/event_queue.h"

#include <stdlib.h>

#include "util/xalloc.h"

static inline bool before(const event *a, const event *b) {
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void evq_init(event_queue *q) {
    q->heap = NULL;
    q->len = q->cap = 0;
    q->next_seq = 0;
}

void evq_free(event_queue *q) {
    free(q->heap);
    evq_init(q);
}

uint64_t evq_push(event_queue *q, int64_t time, uint32_t kind, uint64_t arg) {
    if (q->len == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 64;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    }
    event e = {.time = time, .seq = q->next_seq++, .kind = kind, .arg = arg};
    size_t i = q->len++;
    while (i > 0) {   /* sift up */
        size_t parent = (i - 1) / 4;
        if (!before(&e, &q->heap[parent])) break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
    return e.seq;
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
        for (size_t k = first + 1; k < end; k++)
            if (before(&q->heap[k], &q->heap[c])) c = k;
        if (!before(&q->heap[c], &last)) break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n) q->heap[i] = last;
    return top;
}
