/*
 * kq_ready.c -- waitForPodsReady's requeuing backoff and the gate's timers
 * (queue/kq_ready.h).
 */
#include <math.h>
#include <stdlib.h>

#include "queue/kq_ready.h"
#include "util/xalloc.h"

#define KQ_MS_MAX ((int64_t)9.0e15)   /* ~285 years: far from overflow, as scenario durations */

int64_t kq_requeue_backoff_ms(int64_t base_s, int64_t max_s, int64_t count, double u) {
    /* apimachinery delay(): returns the current duration, then doubles it,
     * and a doubled duration above the cap becomes the cap for good;
     * Kueue's WaitTime steps `count` times (wait.Backoff with Steps MaxInt). */
    int64_t cap = max_s > 0 ? max_s * 1000 : KQ_MS_MAX;
    int64_t d = base_s * 1000, got = d;
    for (int64_t i = 0; i < count; i++) {
        got = d;
        if (d > KQ_MS_MAX / 2) d = KQ_MS_MAX;
        else d *= 2;
        if (d > cap) d = cap;
        if (got == cap) break;   /* WaitTime: no need to go on at the cap */
    }
    /* Jitter(duration, 0.0001): duration + rand.Float64() * 0.0001 * duration */
    return got + (int64_t)floor(u * 0.0001 * (double)got);
}

static bool less(const kq_timer *a, const kq_timer *b) { return a->t != b->t ? a->t < b->t : a->seq < b->seq; }

void kq_timers_push(kq_timers *q, int64_t t, uint32_t id, uint32_t what) {
    if (q->n == q->cap) q->h = xrealloc(q->h, (q->cap = q->cap ? q->cap * 2 : 16) * sizeof *q->h);
    size_t i = q->n++;
    kq_timer x = {t, q->seq++, id, what};
    while (i > 0 && less(&x, &q->h[(i - 1) / 2])) {
        q->h[i] = q->h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->h[i] = x;
}

bool kq_timers_pop_due(kq_timers *q, int64_t now, kq_timer *out) {
    if (!q->n || q->h[0].t > now) return false;
    *out = q->h[0];
    kq_timer last = q->h[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n) break;
        if (c + 1 < q->n && less(&q->h[c + 1], &q->h[c])) c++;
        if (!less(&q->h[c], &last)) break;
        q->h[i] = q->h[c];
        i = c;
    }
    if (q->n) q->h[i] = last;
    return true;
}

void kq_timers_free(kq_timers *q) {
    free(q->h);
    *q = (kq_timers){0};
}
