/*
 * gate.h -- the queue layer as the engine sees it: an admission gate between
 * the workload sources and the scheduler. The engine hands every arriving pod
 * to the gate; a held pod reaches the scheduler only when the gate admits it
 * (from `cycle`, run once per instant before the scheduling pass); the gate
 * hears when an admitted pod ends (its quota is free again). The gate never
 * calls the engine, the workload sources or the reports.
 */
#ifndef DRASIM_QUEUE_GATE_H
#define DRASIM_QUEUE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/scenario.h"
#include "util/strbuf.h"

typedef void (*queue_metric_fn)(void *ud, const char *name, double value, const char *group);

typedef struct queue_gate {
    void *ctx;
    /* Pod `pod` of class `cls` (spec g) arrives at t: true = held by the queue. */
    bool (*arrive)(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *g, int64_t t);
    /* A pod the gate admitted ended at t (its quota is released). */
    void (*ended)(void *ctx, uint32_t pod, int64_t t);
    /* The admission cycle at t: pods admitted now, appended to *out (len/cap grown). */
    void (*cycle)(void *ctx, int64_t t, uint32_t **out, size_t *len, size_t *cap);
    /* Why class `cls`'s pods still wait in the queue (NULL: none waits). */
    const char *(*why)(void *ctx, uint32_t cls);
    /* The run ended at `end`: per-queue metrics. */
    void (*summarize)(void *ctx, int64_t end, queue_metric_fn add, void *ud);
    void (*free)(void *ctx);
} queue_gate;

/* The Kueue gate over a scenario's `queues:` (sc->queues); NULL when the
 * scenario has none. */
queue_gate *kq_gate_new(const scenario *sc);
void queue_gate_free(queue_gate *g);

#endif
