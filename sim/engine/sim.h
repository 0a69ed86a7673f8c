/*
 * sim.h -- one simulation run: the discrete-event loop that feeds the
 * workload's pods to the scheduler, completes them, samples the cluster and
 * keeps what the results database needs.
 *
 * The loop, per instant t (events ordered by (time, seq)):
 *   1. handle every event at t (arrivals enqueue pods, completions free
 *      resources and wake blocked pod classes);
 *   2. run scheduling cycles until the queue has nothing to try;
 *   3. if a sample was due at t, record it (after scheduling).
 * Scheduling takes no simulated time.
 */
#ifndef DRASIM_ENGINE_SIM_H
#define DRASIM_ENGINE_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/event_queue.h"
#include "model/scenario.h"
#include "sched/policies/gpu_metrics.h"
#include "sched/sched.h"
#include "util/vec.h"

/* POD_TERMINATING: evicted (engine/sim_evict.h), still holding its resources
 * for its grace period. POD_FAILED: its container failed under restartPolicy
 * Never (engine/sim_crash.h). */
typedef enum { POD_PENDING, POD_RUNNING, POD_SUCCEEDED, POD_DELETED, POD_TERMINATING, POD_FAILED } sim_pod_state;

/* One pod, 48 bytes (issue 31: 10M pods): what scheduling and the results
 * need of every pod. What few pods have is kept beside the array: a source's
 * name for its pods (sim_pod_name) and the pod a replacement replaces
 * (sim_pod_replaces). */
typedef struct sim_pod {
    sim_time arrival, start, end, duration;   /* start/end = -1 while unknown */
    int32_t node;                             /* -1 = never bound */
    uint32_t group;
    uint32_t ordinal;                         /* index within its group */
    uint8_t state;
    uint8_t source;                           /* the workload source that submitted it */
    uint8_t gpus;                             /* the GPUs it took on its node (mask over the GPU view's GPUs) */
    bool dropped;                             /* never tried again (profile openb-artifact) */
} sim_pod;

typedef struct sim_sample {
    sim_time t;
    int64_t pending, running;
    double gpu_equiv;                         /* GPUs in use, MIG slices as fractions */
    int64_t mig_devices;                      /* DRA mode: MIG devices allocated (dra_state.cur_mig_devices) */
} sim_sample;

typedef struct sim_metric {
    const char *name;
    double value;                             /* NAN: stored as NULL */
    const char *group;                        /* NULL: the whole run; else a group's metric (sim_groups.c) */
} sim_metric;

/* A point of a user time series (drasim.sample): table user_samples. */
typedef struct sim_user_sample {
    const char *series;                       /* interned */
    sim_time t;
    double value;
} sim_user_sample;

/* A group of pods: the pod classes with one name (a scenario pod group, a
 * Lua `group`, a trace's shape class); counts at the end of the run. */
typedef struct sim_group {
    const char *name;
    int64_t arrived, scheduled, succeeded, pending, running;
    uint32_t first_class;                     /* its first class (index order) */
    const char *reason;                       /* a pending pod's reason (NULL: none) */
} sim_group;

typedef struct sim_run sim_run;

/* A warning of the run about its outcome (table run_warnings, printed by `drasim run`). */
typedef struct sim_warning {
    const char *group;                        /* interned; NULL: the whole run */
    const char *kind;                         /* static: "scoring-spreads" (engine/sim_hints.c) */
    char *message;                            /* owned */
} sim_warning;

/* A workload source: pod groups, a Lua generator or a trace registers with
 * the engine through this interface (workload/), so the engine does not
 * know its workloads. Each hook is optional and returns 0, or -1 with
 * r->error set, which stops the run (sim_execute returns -2).
 *  start     at time 0, before the first event (sources in attach order);
 *  event     an EV_SOURCE event it scheduled (sim_schedule_source);
 *  started   one of its pods was bound (after the scheduling pass of the
 *            instant, in binding order);
 *  after_pass after the scheduling pass of an instant (and the started
 *            hooks), every instant; keep it cheap when there is nothing to do;
 *  finished  one of its pods ended (after the scheduler released it; not
 *            for a pod deleted with sim_delete);
 *  ended     one of its pods stopped holding its node for any reason
 *            (completion, eviction, deletion, failure), after the
 *            scheduler released it; it must not end or start pods;
 *  summarize after the run's own summary: add the source's metrics. */
typedef struct sim_source {
    void *ctx;
    int (*start)(sim_run *r, void *ctx);
    int (*event)(sim_run *r, void *ctx, uint64_t arg, sim_time t);
    int (*finished)(sim_run *r, void *ctx, uint32_t pod, sim_time t);
    int (*started)(sim_run *r, void *ctx, uint32_t pod, sim_time t);
    void (*ended)(sim_run *r, void *ctx, uint32_t pod, sim_time t);
    int (*after_pass)(sim_run *r, void *ctx, sim_time t);
    void (*summarize)(sim_run *r, void *ctx);
    void (*free)(void *ctx);
} sim_source;

#define SIM_MAX_SOURCES 8

/* A pod class added while the run goes: its spec (owned by the source;
 * `count` grows with every pod) and the device units its pods took. */
typedef struct sim_late_class {
    pod_group_spec *spec;
    VEC(uint64_t) units;                      /* [ordinal * class.next + k] */
} sim_late_class;

/* Progress callback: called from sim_execute about every 0.5 s of wall time
 * with the current simulated time (for progress lines; must not modify r). */
typedef void (*sim_progress_fn)(const struct sim_run *r, sim_time now, void *ud);
/* One row of the arrival curve (trace runs, see docs/SCHEMA.md arrival_curve). */
typedef struct sim_curve_point {
    int arrived_pct;
    double gpu_alloc_pct, frag_gpu_pct, frag_ratio_pct;
} sim_curve_point;

struct sim_run {
    const scenario *sc;
    const k8s_node *nodes;
    const inv_node *info;                     /* parallel to nodes (NULL: not known) */
    size_t nnodes;
    scheduler sched;
    event_queue q;
    int64_t *class_arrived;                   /* pods arrived per scenario pod group (their ordinals) */
    VEC(sim_pod) pods;
    /* names of pods by id (sim_pod_name): only up to the last named pod, empty when no source names its pods */
    VEC(const char *) pod_names;
    /* replacement pods (sim_evict.h) in id order, each with the pod id + 1 it replaces (sim_pod_replaces) */
    VEC(struct sim_replaced { uint32_t pod; uint32_t replaces; }) replaced;
    uint64_t *units;                          /* device units taken, per pod: [pod_units_base + k] */
    size_t *units_base;                       /* per group, into `units`, sized count * class.next */
    VEC(sim_sample) samples;
    VEC(int64_t) sample_used;                 /* [sample * nres + r] */
    VEC(gpu_metrics) sample_gpu;              /* placement quality per sample (parallel to samples; empty = not measured) */
    double *res_equiv;                        /* GPU equivalents of one unit of each resource */
    int64_t *tot_used;                        /* cluster-wide requested, per resource */
    int64_t *tot_alloc;                       /* cluster-wide allocatable, per resource */
    double *area;                             /* integral of tot_used over time, per resource */
    double total_gpu_equiv, peak_gpu_equiv, cur_gpu_equiv;
    sim_time last_t, end_time;
    int64_t running, live_events;
    uint64_t nevents;
    char **class_reason;                      /* FitError text per class for pods pending at the end */
    int64_t *class_running;                   /* pods running per class (drasim.running reads it) */
    size_t class_cap;                         /* room in class_reason and class_running for late classes */
    struct dra_state *dra;                    /* DRA mode: claims and allocations (sched/dra/dra.h), owned */
    double dra_area;                          /* integral of the GPUs DRA allocations take */
    VEC(sim_metric) summary;
    VEC(sim_user_sample) user_samples;        /* drasim.sample, in call order */
    struct sim_labels *labels;                /* labels of pods, as shared sets (engine/sim_labels.h); NULL = none */
    VEC(sim_group) groups;                    /* filled with the summary (sim_groups.c) */
    sim_progress_fn progress;                 /* optional, set after sim_init */
    void *progress_ud;
    double progress_last;                     /* wall clock of the last call */
    VEC(sim_curve_point) curve;               /* trace runs: per integer % of arrived GPU demand */
    /* workload sources; classes index sc->ngroups + k are late[k] (added while the run goes) */
    sim_source sources[SIM_MAX_SOURCES];
    size_t nsources;
    VEC(sim_late_class) late;
    bool has_mig_resources;                   /* device-plugin MIG resources: samples measure static-MIG fragmentation */
    uint32_t *tie_rank;                       /* per node, when ties go to name order (trace runs); owned */
    struct gorand *go;                        /* the artifact's random stream for the run (trace runs); owned */
    strbuf error;                             /* why a source stopped the run */
    VEC(uint32_t) started;                    /* pods bound in this instant's pass whose source has a started hook */
    VEC(struct sim_deleted { uint32_t pod; const char *reason; }) deleted;   /* sim_delete's pods, in order */
    volatile sig_atomic_t *interrupt;         /* sim_execute's flag (NULL: none), polled by sources too */
    /* a pod was bound on (sign +1) or left (-1) `node`; NULL = nobody listens (the autoscaler's per-node pods) */
    void (*pod_node)(struct sim_run *r, uint32_t pod, int32_t node, int sign);
    struct ca_run *ca;                        /* the cluster autoscaler (autoscale/ca.h), NULL = none; freed by its source */
    /* a spot node of a node group was reclaimed at t: its cloud node group replaces it
     * (autoscale/ca_run.c, set by ca_attach); NULL = no autoscaler */
    void (*spot_replace)(struct sim_run *r, size_t node, sim_time t);
    /* a recorded cluster's running pod (cluster.state) is on `node` at t: its node group
     * brings it up, ready, at once (autoscale/ca_run.c); false = not a node group's node;
     * NULL = no autoscaler */
    bool (*node_recorded)(struct sim_run *r, size_t node, sim_time t);
    VEC(struct sim_eviction) evictions;       /* engine/sim_evict.h, in order */
    VEC(uint64_t) *extra_units;               /* per scenario group: units of pods beyond its count (replacements) */
    struct sim_usage *usage;                  /* usage and contention model (engine/sim_usage.h), NULL = off */
    struct sim_cost *cost;                    /* prices, energy, power (engine/sim_cost.h), NULL = off */
    struct sim_gangs *gangs;                  /* gang scheduling (sim_gang.h), NULL without gangs */
    /* called for every pod as it is bound (cluster dynamics, workload/faults.h; it must not change the
     * scheduler, only note the pod or time an event); NULL = none */
    void (*on_bind)(sim_run *r, void *ctx, uint32_t pod, sim_time t);
    void *on_bind_ctx;
    struct faults *faults;                    /* the run's fault state (workload/faults.h), owned by its source */
    struct sim_topo *topo;                    /* rack fragmentation measures (engine/sim_topology.h), NULL = off */
    /* per node: mask of its view's GPUs out of use (failed, node down or cordoned), kept by the faults
     * (owned by them); the unavailable part of idle capacity (sim_capacity.c); NULL = none */
    const uint8_t *gpus_out;
    VEC(sim_warning) warnings;                /* engine/sim_hints.c */
    struct queue_gate *gate;                  /* the queue manager in front of the scheduler (queue/gate.h), owned; NULL = none */
    struct sim_crash *crash;                  /* pods a GPU failure killed (engine/sim_crash.h), owned; NULL = none yet */
    struct sim_cd *cd;                        /* one ComputeDomain per node (engine/sim_cd.h), NULL = off */
    struct sim_pins *pins;                    /* classes of pods the queue pinned (engine/sim_pin.h), NULL = none */
};

/* Prepare a run of scenario `sc` on `nodes` (both must outlive it). */
void sim_init(sim_run *r, const scenario *sc, const k8s_node *nodes, size_t nnodes);
/* The same with the nodes' GPU count and model (inventory info, parallel to nodes; NULL = from allocatable). */
void sim_init_info(sim_run *r, const scenario *sc, const k8s_node *nodes, const inv_node *info, size_t nnodes);
/* The same from an inventory; in DRA mode also sets up the DynamicResources
 * plugin over its ResourceSlices and DeviceClasses. Returns 0, or -1 with err
 * set ("FILE:LINE:COL: ...") when the scenario cannot run on it. */
int sim_init_inv(sim_run *r, const scenario *sc, const inventory *inv, strbuf *err);
/* Run to the stop condition. `interrupt` (may be NULL) is polled; returns 0,
 * -1 when interrupted, -2 when the workload source failed (r->error says
 * why). Fills the summary. */
int sim_execute(sim_run *r, volatile sig_atomic_t *interrupt);
void sim_free(sim_run *r);

/* GPU-equivalent of one unit of an extended resource: nvidia.com/gpu 1
 * (1/replicas with time-slicing), nvidia.com/mig-<N>g.* N/7, others 0. */
double sim_gpu_equiv(const char *resource, int time_slicing_replicas);
double sim_metric_get(const sim_run *r, const char *name);   /* NAN if absent */

/* Add a summary metric (sources' summarize hooks). */
void sim_metric_add(sim_run *r, const char *name, double value);
/* Per-group metrics and the whole run's censored waits and GPU-hours: engine/sim_groups.c. */
void sim_group_summary(sim_run *r);
/* Summary metrics of the placement-quality samples (sample_gpu), if any: engine/sim_quality.c. */
void sim_quality_summary(sim_run *r);
/* engine/sim_capacity.c: node i's GPUs as gpu_total counts them (static-MIG
 * GPUs whole), one pod's GPU-equivalents (NAN: DRA pod never started), and
 * the idle-capacity breakdown of *m (after gpu_view_metrics filled it). */
double sim_node_gpus(const sim_run *r, size_t i);
/* GPUs of static-MIG nodes their MIG devices do not cover (physical - sum of N/7). */
double sim_mig_uncut_gpus(const sim_run *r);
double sim_pod_gpu_equiv(const sim_run *r, uint32_t id);
void sim_capacity_breakdown(const sim_run *r, gpu_metrics *m);
/* engine/sim_counters.c: the fault counters as 0 when the run had no fault state; run rows before group rows. */
void sim_counters_zero(sim_run *r);
/* engine/sim_hints.c: groups starved by spreading (warnings). */
void sim_scoring_hints(sim_run *r);

/* ---- for workload sources ---- */
/* Register a source (copied); returns its id, or -1 when there are too many. */
int sim_add_source(sim_run *r, const sim_source *src);
/* Add a pod class for `spec` (which must outlive the run); returns its index,
 * or -1 when it asks for a resource no node offers. */
int sim_add_class(sim_run *r, pod_group_spec *spec);
/* The same for a class of pods the queue pinned to nodes (engine/sim_pin.h):
 * not a new shape, so the typical pods do not change. */
int sim_add_pinned_class(sim_run *r, pod_group_spec *spec);
/* A pod of class c (a scenario pod group or an added class) from source
 * `src` arrives now, at time t; `name` (may be NULL) must outlive the run.
 * Returns its pod id. */
uint32_t sim_arrive(sim_run *r, int src, uint32_t c, const char *name, sim_time duration, sim_time t);
/* Run the scheduling cycles due now (a source that needs each pod tried at
 * its arrival, before the next one arrives: trace replays). */
void sim_schedule_now(sim_run *r, sim_time t);
/* Schedule an EV_SOURCE event for source `src` with `arg` (< 2^56) at time t (>= now). */
void sim_schedule_source(sim_run *r, int src, sim_time t, uint64_t arg);
/* A source that holds its own future events in time order (Lua's arrivals,
 * workload/lua_arrivals.c) takes each one's place in the event order when it
 * makes it (sim_reserve_source_seq) and schedules only its earliest, with
 * that place (sim_schedule_source_seq): the events fire exactly as if each
 * had been scheduled when it was made, and the engine's queue stays small. */
uint64_t sim_reserve_source_seq(sim_run *r);
/* `total` more pods will arrive, n[c] of them of class c (c < nclasses; n may be
 * NULL), with names when `named`: room for them now, with huge pages (sim.c). */
void sim_expect_arrivals(sim_run *r, size_t total, const size_t *n, size_t nclasses, bool named);
void sim_schedule_source_seq(sim_run *r, int src, sim_time t, uint64_t seq, uint64_t arg);
/* Delete pod `pod` now, at time t (its source's finished hook is not
 * called): a pending pod leaves the queue, a running one ends and frees its
 * resources. It becomes POD_DELETED with `reason` (interned or static; NULL
 * = none). Returns the state it was in, or -1 when it had ended. */
int sim_delete(sim_run *r, uint32_t pod, const char *reason, sim_time t);
/* Like sim_schedule_source, but the event does not keep a `stop: allPodsDone`
 * run alive (fault timelines, autoscaler scans, periodic checks). */
void sim_schedule_background(sim_run *r, int src, sim_time t, uint64_t arg);
/* engine/sim_state.c: a pod of class c that already runs when the run starts
 * (cluster.state) arrives at t and binds on `node` at once, past the queue
 * layer and gangs; it runs for `duration`. `bound` (may be NULL) hears its id
 * between binding and start. Returns its pod id, or -1 when the class does
 * not fit on that node now (the pod is then deleted). */
int64_t sim_place_running(sim_run *r, int src, uint32_t c, const char *name, sim_time duration, size_t node,
                          sim_time t, void (*bound)(sim_run *r, void *ctx, uint32_t pod), void *ctx);
/* ---- engine internals (engine/sim_*.c) ---- */
/* Ask for transparent huge pages on a big array (engine/sim.c): fewer page faults. */
void sim_huge_pages(void *p, size_t bytes);
/* Free running (or terminating) pod `pod`'s resources; it ends at t in `state`. */
void sim_end_pod(sim_run *r, uint32_t pod, sim_time t, uint8_t state);
/* Running pod `pod` will not complete by itself: its queued completion no
 * longer keeps the run alive (call before it leaves POD_RUNNING). */
void sim_stop_completion(sim_run *r, uint32_t pod);
/* The reason pod `pod` was deleted with (NULL: none or not deleted). */
const char *sim_delete_reason(const sim_run *r, uint32_t pod);
/* The spec of class c: a scenario pod group or a source's class. */
const pod_group_spec *sim_class_spec(const sim_run *r, uint32_t c);
/* The steps of binding (schedule_pass; sim_gang.c holds gang pods between
 * them): pod id of class c takes placement pl (it holds the resources); it
 * starts running at t; a bound pod that never started gives them back and
 * is pending again (a gang rejected at Permit). */
void sim_pod_bound(sim_run *r, uint32_t c, uint32_t id, const placement *pl);
void sim_pod_start(sim_run *r, uint32_t id, sim_time t);
void sim_pod_unbind(sim_run *r, uint32_t id);
/* The device unit masks of pod p (class.next of them). */
uint64_t *sim_pod_units(const sim_run *r, const sim_pod *p);
/* Pod id's name as its source named it (interned or owned by the source),
 * NULL: the engine's "<group>-<ordinal>"; set it (NULL: unnamed). */
const char *sim_pod_name(const sim_run *r, uint32_t id);
void sim_pod_set_name(sim_run *r, uint32_t id, const char *name);
/* The pod id + 1 of the evicted pod that pod id replaces (0: none); note
 * that pod `rep` replaces `id + 1`'s pod (sim_evict.c). */
uint32_t sim_pod_replaces(const sim_run *r, uint32_t id);
void sim_pod_set_replaces(sim_run *r, uint32_t rep, uint32_t replaces);

#endif
