/*
 * kq_ready.h -- Kueue's waitForPodsReady in a run: the requeuing backoff
 * and the gate's timers (deadlines of admitted Workloads, ends of backoffs).
 *
 * Followed: kubernetes-sigs/kueue ff69552e79
 *   pkg/controller/core/workload_controller.go  reconcileNotReadyTimeout,
 *                                  admittedNotReadyWorkload, triggerDeactivation
 *   pkg/workload/workload.go       UpdateRequeueState (wait.NewBackoff(base, max, 2, 0.0001))
 *   pkg/util/wait/backoff.go       WaitTime (Step `count` times, stop at the cap)
 *   k8s.io/apimachinery pkg/util/wait/backoff.go  delay, Jitter
 */
#ifndef DRASIM_QUEUE_KQ_READY_H
#define DRASIM_QUEUE_KQ_READY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The wait before a Workload evicted for the `count`-th time (count >= 1) is
 * requeued, in ms: Kueue's Step `count` times of a backoff starting at
 * base_s seconds, doubling, capped at max_s (0: no cap; the first step is
 * the base even above the cap, as apimachinery's delay() returns it), plus
 * the jitter `u` * 0.0001 * that duration (u in [0, 1): Kueue draws it from
 * math/rand; drasim from a stream per Workload and count, kq_gate.c). */
int64_t kq_requeue_backoff_ms(int64_t base_s, int64_t max_s, int64_t count, double u);

/* A timer of the gate: at `t`, `what` (its kind) for `id`. */
typedef struct kq_timer {
    int64_t t;
    uint64_t seq;                    /* push order: ties fire first in, first out */
    uint32_t id;
    uint32_t what;
} kq_timer;

typedef struct kq_timers {           /* a binary min-heap by (t, seq) */
    kq_timer *h;
    size_t n, cap;
    uint64_t seq;
} kq_timers;

void kq_timers_push(kq_timers *q, int64_t t, uint32_t id, uint32_t what);
/* The earliest timer due at or before `now` into *out (removed); false when none. */
bool kq_timers_pop_due(kq_timers *q, int64_t now, kq_timer *out);
void kq_timers_free(kq_timers *q);

#endif
