/*
 * gate.h -- the queue layer as the engine sees it: an admission gate between
 * the workload sources and the scheduler. The engine hands every arriving pod
 * to the gate; a held pod reaches the scheduler only when the gate admits it
 * (from `cycle`, run once per instant before the scheduling pass, again
 * while it preempts); the gate hears when an admitted pod ends (its quota is
 * free again). The gate never
 * calls the engine, the workload sources or the reports.
 */
#ifndef DRASIM_QUEUE_GATE_H
#define DRASIM_QUEUE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/scenario.h"
#include "util/strbuf.h"
#include "util/vec.h"

struct scheduler;

typedef void (*queue_metric_fn)(void *ud, const char *name, double value, const char *group);

/* A pod the queue preempts: the engine evicts it (engine/sim_evict.h) with
 * `reason` (static text) and tells the gate when its quota is free (`ended`). */
typedef struct queue_victim {
    uint32_t pod;
    const char *reason;
} queue_victim;

/* An admitted pod the queue pins to nodes: Kueue's topology ungater adds
 * `selector` (the assigned domain's level labels; owned by the gate, stable
 * for the run) to the pod's nodeSelector before kube-scheduler sees it. */
typedef struct queue_pin {
    uint32_t pod;
    const k8s_kv *selector;
    size_t nselector;
} queue_pin;

/* What one admission cycle decided: pods admitted (to the scheduler now),
 * pods to evict (Kueue's preemption) and admitted pods pinned to a topology
 * domain (Kueue TAS). The engine empties them before a cycle. */
typedef struct queue_cycle_out {
    VEC(uint32_t) admitted;
    VEC(queue_victim) evict;
    VEC(queue_pin) pins;
} queue_cycle_out;

/* The ClusterQueues over time (tables queue_usage and queue_state,
 * docs/SCHEMA.md): one row per ClusterQueue and (flavor, resource) of its
 * quota, and one per ClusterQueue, at each of the engine's samples. Amounts
 * in the resource's units (cpu in cores, memory in bytes). */
typedef struct queue_usage_row {
    int64_t t;
    const char *cq, *flavor, *resource;
    double nominal, usage, borrowed;
} queue_usage_row;

typedef struct queue_state_row {
    int64_t t;
    const char *cq;
    int64_t pending, admitted, unscheduled;
    int64_t share;                   /* Dominant Resource Share (Kueue's weightedShare) */
    const char *dominant;            /* its dominant resource; NULL when not borrowing */
} queue_state_row;

/* KAI: per Queue and resource, its fair share against its allocation (table
 * queue_fair_share; cpu in cores, memory in bytes, gpu in devices; -1 = unlimited). */
typedef struct queue_share_row {
    int64_t t;
    const char *queue, *resource;
    double deserved, limit, fair_share, allocated, requested;
} queue_share_row;

typedef struct queue_samples {
    VEC(queue_usage_row) usage;
    VEC(queue_state_row) state;
    VEC(queue_share_row) share;      /* KAI only (empty for Kueue) */
} queue_samples;

typedef struct queue_gate {
    void *ctx;
    /* Pod `pod` of class `cls` (spec g) arrives at t: true = held by the queue. */
    bool (*arrive)(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *g, int64_t t);
    /* Pod `victim`, preempted by the gate, was replaced by pod `replacement`
     * (its owner's new pod): the same Workload requeued. */
    void (*requeued)(void *ctx, uint32_t victim, uint32_t replacement);
    /* A pod the gate admitted ended at t (its quota is released). */
    void (*ended)(void *ctx, uint32_t pod, int64_t t);
    /* The admission cycles at t: pods admitted now and pods to preempt. */
    void (*cycle)(void *ctx, int64_t t, queue_cycle_out *out);
    /* An admitted pod was bound to node `node` (the scheduler's index) at t. */
    void (*bound)(void *ctx, uint32_t pod, int32_t node, int64_t t);
    /* Take a sample of every ClusterQueue at t. */
    void (*sample)(void *ctx, int64_t t);
    /* The samples taken so far. */
    const queue_samples *(*samples)(void *ctx);
    /* Why class `cls`'s pods still wait in the queue (NULL: none waits). */
    const char *(*why)(void *ctx, uint32_t cls);
    /* The next instant the gate asked to be woken at (a waitForPodsReady
     * deadline, the end of a requeuing backoff), taken off its list; -1 when
     * none. The engine runs a cycle then (NULL: the gate never asks). */
    int64_t (*take_wake)(void *ctx);
    /* True while an admitted Workload waits for its pods with a deadline:
     * a run stopped by allPodsDone goes on to that deadline (NULL: never). */
    bool (*busy)(void *ctx);
    /* The run ended at `end`: per-queue metrics. */
    void (*summarize)(void *ctx, int64_t end, queue_metric_fn add, void *ud);
    void (*free)(void *ctx);
    /* The scheduler's view of the nodes (read only: allocatable, requested,
     * presence), given once before the run; NULL: the gate needs none. */
    void (*cluster)(void *ctx, const struct scheduler *s);
    /* Pod `pod` of class `cls` runs already at t on node `node` (the
     * scheduler's index) with these labels (a cluster.state dump's running
     * pod): charged to its queue as an admitted, bound Workload (Kueue) or an
     * allocated PodGroup (KAI); `ended` releases it. True = charged. NULL:
     * the gate does not charge running pods. */
    bool (*running)(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *g, int32_t node,
                    const k8s_kv *node_labels, size_t nnode_labels, int64_t t);
    /* The pods the queue holds that its manager has marked unschedulable
     * (their condition PodScheduled=False, reason Unschedulable, which the
     * cluster autoscaler lists as pods to help; autoscale/ca_scaleup.c):
     * fn(ud, their class, their pod ids), possibly several calls per class.
     * NULL: the gate marks none (Kueue holds a Workload's pods suspended or
     * scheduling-gated, which the cluster autoscaler does not list). */
    void (*unschedulable)(void *ctx, void (*fn)(void *ud, uint32_t cls, const uint32_t *pods, size_t n), void *ud);
    /* Every gang the queue holds (complete, not admitted yet): fn(ud, its
     * pods' class, its pods), for the rack measures' smallest waiting gang
     * (engine/sim_topology.c); NULL: the gate holds no gangs. */
    void (*held_gangs)(void *ctx, void (*fn)(void *ud, uint32_t cls, int32_t pods), void *ud);
} queue_gate;

/* The Kueue gate over a scenario's `queues:` (sc->queues); NULL when the
 * scenario has none. */
queue_gate *kq_gate_new(const scenario *sc);
/* The KAI-Scheduler gate over `queues: {manager: kai}` (sc->kai_queues,
 * queue/kai_gate.c); NULL when the scenario has none. */
queue_gate *kai_gate_new(const scenario *sc);
void queue_gate_free(queue_gate *g);

#endif
