/* faults_internal.h -- the fault state shared by faults_state.c (what a
 * fault does), faults_evict.c (when pods go) and faults_source.c (when
 * faults happen). See faults.h. */
#ifndef DRASIM_WORKLOAD_FAULTS_INTERNAL_H
#define DRASIM_WORKLOAD_FAULTS_INTERNAL_H

#include "engine/sim.h"
#include "util/rng.h"
#include "util/vec.h"
#include "workload/faults.h"

typedef VEC(uint32_t) u32list;

/* A taint on a device, where it came from and since when. */
typedef struct ftaint {
    k8s_taint taint;
    sim_time added;                  /* timeAdded */
    const char *origin;              /* NULL: the driver's health taint; else the DeviceTaintRule's name */
} ftaint;

/* The taints of one device now: entries, and the same as a k8s_taint array for the allocator. */
typedef struct ftlist {
    VEC(ftaint) e;
    VEC(k8s_taint) arr;
} ftlist;

/* A node-local DRA device. */
typedef struct fdev {
    const char *driver, *pool, *name;   /* interned */
    int16_t gpu;                     /* its GPU in the node's GPU view, -1 none */
    uint32_t tl;                     /* 1 + index into faults.tl, 0 = untainted */
} fdev;

typedef struct frule {
    const char *name, *driver, *pool, *device;
    k8s_taint taint;
    bool active;
} frule;

/* Event kinds (bits 48..55 of an event's arg; the low 48 bits are the payload). */
enum {
    FEV_K_GPU_PROC = 1,              /* payload: GPU failure process */
    FEV_K_NODE_PROC,                 /* payload: node failure process */
    FEV_K_ACTION,                    /* payload: index into faults.actions */
    FEV_K_EVICT_CHECK,               /* payload: pod id */
    FEV_K_RESTART,                   /* payload: pod id; kubelet starts its crashed container (faults_crash.c) */
    FEV_K_SPOT_PROC                  /* payload: node pool whose spot nodes the cloud reclaims (issue 30) */
};

/* A timed action. */
typedef enum {
    FA_GPU_REPAIR, FA_GPU_ADMIN_EVICT, FA_NODE_REPAIR, FA_UNCORDON, FA_RULE_ADD, FA_RULE_REMOVE, FA_EVENT,
    FA_MAINTENANCE, FA_SPOT_RECLAIM, FA_SPOT_RETURN
} faction_kind;
typedef struct faction {
    uint8_t kind;
    int16_t gpu;
    uint32_t node;
    uint32_t idx;                    /* rule / event / maintenance index */
    uint32_t epoch;                  /* the failure it belongs to (repairs of an older failure do nothing) */
} faction;

/* A target's next failure (a min-heap entry of its process). */
typedef struct fdue {
    sim_time t;
    uint64_t key;                    /* the target's identity: ties at one millisecond */
    uint32_t j;                      /* index into the process's targets */
} fdue;

/* A failure process over a set of GPUs or nodes: every target fails by a
 * Poisson process of its own, drawn from its own stream (common random
 * numbers: faults_source.c); the process's one engine event is its earliest
 * target's next failure. */
typedef struct fproc {
    uint32_t *targets;               /* global GPU indexes / node indexes */
    size_t n;
    double rate_ms;                  /* per target */
    rng *trng;                       /* per target: its stream (seed, node name, GPU, process) */
    fdue *due;                       /* min-heap of the targets' next failures */
    size_t ndue;
} fproc;

enum { GPU_OK = 0, GPU_FAILED = 1, GPU_DEGRADED = 2 };   /* a non-fatal XID: tainted None */
enum { NODE_DOWN = 1, NODE_CORDONED = 2 };
enum { CAT_HEALTHY = 0, CAT_TAINTED = 1, CAT_FAILED = 2 };

struct faults {
    sim_run *r;
    int src;
    rng rng;                         /* the faults' own stream (seed, "faults") */
    size_t nnodes;
    /* GPUs: global index gpu_first[node] + g */
    uint32_t *gpu_first;             /* nnodes + 1 */
    uint8_t *gpu_state;              /* GPU_* */
    uint8_t *gpu_cat;                /* CAT_* now, | 4 when out of use (failed or on a cordoned node) */
    uint32_t *gpu_epoch;
    uint8_t *gpus_out;               /* per node: mask of GPUs out of use (sim_run.gpus_out) */
    /* DRA devices of each node: dev[dev_first[node] .. dev_first[node + 1]) */
    fdev *dev;
    uint32_t *dev_first;
    VEC(ftlist) tl;
    VEC(frule) rules;
    /* nodes: the scheduler reads them from this copy (taints, unschedulable) */
    k8s_node *nodes;
    uint8_t *node_state;             /* NODE_* */
    sim_time *node_down_since;
    uint32_t *node_epoch;
    arena a;                         /* node taint arrays */
    u32list *on_node;                /* pods bound per node (pruned as they end) */
    uint32_t *node_noexec;           /* NoExecute device taints per node */
    /* processes and timed actions */
    fproc *gproc, *nproc;
    size_t ngproc, nnproc;
    fproc *sproc;                    /* per node pool: spot interruptions (none: n = 0) */
    size_t nsproc;
    int64_t spot_interruptions;
    VEC(faction) actions;
    /* accounting */
    int32_t count[3];                /* GPUs per CAT_* */
    int32_t nodes_down, unavail;     /* unavail: failed + on cordoned nodes */
    double unavail_area;             /* GPU-ms */
    sim_time last_t;
    int64_t gpu_failures, gpu_repairs, node_failures, node_repairs, drains, rules_added;
    VEC(fault_point) timeline;
    strbuf err;
    const char *k_xid, *k_lost, *k_unreachable, *k_unschedulable, *o_admin;   /* interned keys */
    int64_t nevents, max_events;     /* fault events so far and their limit (faults_limit.c) */
};

/* faults_state.c */
void faults_note(faults *f, sim_time t);                          /* a timeline point after changes at t */
void faults_recount_node(faults *f, size_t node, sim_time t);     /* categories of node's GPUs again */
sim_time faults_schedule_action(faults *f, const faction *a, sim_time t);
/* faults_verbs.c */
void faults_gpu_admin_evict(faults *f, size_t node, int gpu, sim_time t);
/* faults_evict.c */
void faults_check_node(faults *f, size_t node, bool devices_only, sim_time t);   /* time evictions of node's pods */
void faults_evict_check(faults *f, uint32_t pod, sim_time t);    /* an EVICT_CHECK event */
void faults_on_bind(sim_run *r, void *ctx, uint32_t pod, sim_time t);
/* faults_crash.c: a fatal XID kills the pods' processes on the GPU; restart attempts; a repair */
void faults_crash_gpu(faults *f, size_t node, int gpu, sim_time t);
void faults_crash_restart(faults *f, uint32_t pod, sim_time t);
void faults_crash_repaired(faults *f, size_t node, int gpu, sim_time t);
/* faults_source.c */
int faults_source_start(sim_run *r, void *ctx);
int faults_source_event(sim_run *r, void *ctx, uint64_t arg, sim_time t);

/* faults_limit.c: the source's hooks, counting fault events against the limit */
#define FAULTS_MAX_EVENTS_DEFAULT 1000000
int64_t faults_max_events(void);   /* DRASIM_MAX_FAULT_EVENTS, else the default */
int faults_limited_start(sim_run *r, void *ctx);
int faults_limited_event(sim_run *r, void *ctx, uint64_t arg, sim_time t);
int faults_limited_after_pass(sim_run *r, void *ctx, sim_time t);

#define FAULT_ARG(kind, payload) (((uint64_t)(kind) << 48) | (uint64_t)(payload))

#endif
