/*
 * event_queue.h -- the discrete-event engine's agenda: a 4-ary min-heap of
 * events ordered by (time, sequence). The sequence number is assigned at
 * push time, so events at the same instant fire in the order they were
 * scheduled and every run with the same inputs replays identically.
 */
#ifndef DRASIM_ENGINE_EVENT_QUEUE_H
#define DRASIM_ENGINE_EVENT_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    EV_ARRIVAL,        /* next pod of pod group `arg` arrives */
    EV_COMPLETION,     /* pod `arg` finishes and frees its resources */
    EV_SAMPLE,         /* record a time-series sample */
    EV_STOP,           /* stop.time reached */
    EV_SOURCE,         /* an event of the run's workload source (Lua timers and arrivals); arg is its own */
    EV_KIND_USER       /* first free kind: node failures, node changes, Lua timers ... */
} event_kind;

/* 24 bytes (issue 31: tens of thousands of queued completions are walked
 * per pop): the sequence number and the kind share one word, seq in the
 * high 56 bits, so (time, order) compares as (time, seq); seq is unique,
 * so the kind never decides. Read the kind and seq with ev_kind / ev_seq. */
typedef struct event {
    int64_t time;
    uint64_t order;    /* seq << EV_KIND_BITS | kind */
    uint64_t arg;
} event;

enum { EV_KIND_BITS = 8 };   /* kinds < 256 */

static inline uint32_t ev_kind(const event *e) { return (uint32_t)(e->order & ((1u << EV_KIND_BITS) - 1)); }
static inline uint64_t ev_seq(const event *e) { return e->order >> EV_KIND_BITS; }

typedef struct event_queue {
    event *heap;
    size_t len, cap;
    uint64_t next_seq;
} event_queue;

void evq_init(event_queue *q);
void evq_free(event_queue *q);
/* Schedule an event (kind < 256); returns its sequence number. */
uint64_t evq_push(event_queue *q, int64_t time, uint32_t kind, uint64_t arg);
/* Take the next sequence number now for an event pushed later with
 * evq_push_seq: it then fires exactly where evq_push would have put it
 * today (a source that holds many future events itself and hands the
 * queue only its earliest keeps the order of pushing them all). */
uint64_t evq_reserve(event_queue *q);
void evq_push_seq(event_queue *q, int64_t time, uint32_t kind, uint64_t arg, uint64_t seq);
bool evq_empty(const event_queue *q);
/* The earliest event (smallest time, then smallest sequence); q must be non-empty. */
const event *evq_peek(const event_queue *q);
event evq_pop(event_queue *q);

#endif
