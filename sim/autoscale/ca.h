/*
 * ca.h -- a model of cluster-autoscaler 1.36 inside a run (docs/AUTOSCALER.md).
 *
 * Node pools with `autoscaling:` are node groups. The inventory holds every
 * node a group may ever have (its max); the scheduler sees only the present
 * ones (sched_set_present). Each node moves through
 *   ABSENT -> PROVISIONING (scale-up; provisioningTime) -> UNREADY (registered;
 *   driverReadyDelay: its driver publishes the ResourceSlices) -> READY ->
 *   DRAINING (scale-down of a node with pods, its pods evicted) -> ABSENT,
 * or PROVISIONING -> ABSENT when max-node-provision-time runs out (the group
 * backs off). A scan every scan-interval (an engine source of its own,
 * scheduled as background: it does not keep `stop: allPodsDone` alive) runs
 * scale-up (ca_scaleup.c) and scale-down (ca_scaledown.c) as
 * core/static_autoscaler.go RunOnce does.
 */
#ifndef DRASIM_AUTOSCALE_CA_H
#define DRASIM_AUTOSCALE_CA_H

#include "engine/sim.h"
#include "model/autoscaler_spec.h"
#include "sched/dra/dra_trial.h"
#include "util/rng.h"
#include "util/vec.h"

enum { CA_ABSENT, CA_PROVISIONING, CA_UNREADY, CA_READY, CA_DRAINING };

/* What happened, one row of autoscaler_events. */
typedef enum { CAE_SCALE_UP, CAE_NODE_READY, CAE_PROVISION_FAILED, CAE_SCALE_DOWN, CAE_NODE_REMOVED, CAE_NO_SCALE_UP } ca_event_kind;

/* An event of no single group (no-scale-up) has group CA_NO_GROUP. */
#define CA_NO_GROUP UINT32_MAX

typedef struct ca_event {
    sim_time t;
    uint32_t group;
    uint8_t kind;
    int32_t nodes;                    /* nodes it concerns (scale-up: added) */
    int32_t node;                     /* the node (node events), -1 = several */
    const char *reason;               /* interned */
} ca_event;

/* The size of a group after a change: one row of autoscaler_nodes. */
typedef struct ca_point {
    sim_time t;
    uint32_t group;
    int32_t size;                     /* nodes not absent (what the cloud bills) */
    int32_t ready;                    /* of those, ready for pods */
} ca_point;

typedef VEC(uint32_t) ca_podvec;

typedef struct ca_group {
    const node_pool_spec *pool;
    const pool_autoscaling *as;
    size_t first, n;                  /* its nodes: [first, first + n) */
    size_t absent_hint;               /* no absent node below it */
    int size, ready;
    int64_t cpu_milli, mem_bytes;     /* one node's allocatable */
    double gpus;                      /* one node's GPUs */
    sim_time backoff_until, backoff_len, last_failure;
    double node_ms;                   /* integral of size over time */
    int peak;                         /* largest size over the run */
    sim_time last_t;
    int64_t scale_ups, nodes_added, nodes_removed, failures;
} ca_group;

typedef struct ca_run {
    sim_run *r;
    const autoscaler_spec *cfg;
    int src;
    ca_group *groups;
    size_t ngroups;
    int32_t *node_group;              /* per node: its group, -1 = a fixed pool */
    uint8_t *state;                   /* per node (CA_*) */
    sim_time *since;                  /* per node: when it entered its state */
    sim_time *unneeded;               /* per node: unneeded since, -1 = not */
    ca_podvec *pods;                  /* per node: pods bound there (running or terminating) */
    rng rng;                          /* the autoscaler's own stream (expander random, provisioning times) */
    sim_time last_scale_up, last_delete, last_failure;
    VEC(ca_event) events;
    VEC(ca_point) series;
    dra_trial trial;
    uint32_t trial_pods;              /* what-if pod ids handed out in this scan (pods.len + k) */
    rng sched_rng;                    /* the scheduler's stream, kept across what-if placements */
    int64_t scans;
    double cores, gib, gpus;          /* totals of the nodes not absent (cores-total, memory-total, gpu-total) */
    VEC(uint32_t) upcoming;           /* nodes provisioning or unready */
    int64_t ndraining;
    double *util;                     /* per node: utilization (ca_node_utilization) when util_ok */
    uint8_t *util_ok;
    VEC(uint8_t) no_scale_up;          /* per class: a no-scale-up event was recorded for it */
    bool any_unneeded;
    /* per node: a held pod the scan's filter placed there (CA keeps it in its
     * snapshot, so scale-down counts it); allocated on first use, NULL before */
    uint8_t *hint;
    VEC(uint32_t) hinted;             /* the nodes with hint set */
    bool busy;                        /* the last scan left work that needs more scans (keeps the run alive) */
} ca_run;

/* Attach the autoscaler to a run of a scenario with s->autoscaler (after
 * sim_init_inv, before sim_execute): nodes beyond each group's initial count
 * are made absent. `info` is the inventory's per-node info (pools). */
void ca_attach(sim_run *r, const inv_node *info);

/* ---- for ca_*.c ---- */
void ca_set_state(ca_run *ca, size_t node, int state, sim_time t);
void ca_event_add(ca_run *ca, sim_time t, uint32_t group, ca_event_kind kind, int32_t nodes, int32_t node,
                  const char *reason);
/* A what-if pod id (see dra_trial.h), and the trial bracket. */
uint32_t ca_trial_pod(ca_run *ca);
void ca_trial_begin(ca_run *ca);
void ca_trial_end(ca_run *ca);
void ca_scale_up(ca_run *ca, sim_time t);
void ca_provision(ca_run *ca, size_t node, sim_time t);
void ca_scale_down(ca_run *ca, sim_time t);
/* Node utilization as cluster-autoscaler computes it (ca_util.c); *gpu: the GPU threshold applies. */
double ca_node_utilization(const ca_run *ca, size_t node, bool *gpu);
/* The same, kept per node until a pod binds or leaves there. */
double ca_node_utilization_cached(ca_run *ca, size_t node, bool *gpu);
const char *ca_event_kind_name(ca_event_kind k);

#endif
