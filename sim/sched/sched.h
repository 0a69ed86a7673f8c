/*
 * sched.h -- the scheduler model: kube-scheduler's framework (queue,
 * PreFilter -> Filter -> Score -> Reserve -> Bind) over a set of nodes, with
 * the device-plugin baseline plugins (NodeUnschedulable, TaintToleration,
 * NodeAffinity, NodeResourcesFit, NodeResourcesBalancedAllocation).
 *
 * Speed comes from pod CLASSES: every pod of a pod group has the same
 * requests and constraints, so Filter and Score results are a function of
 * (class, node state). The scheduler caches them per (class, node) -- a
 * "fits" bitmap and a score array -- and recomputes one node's column when
 * that node changes (bind, completion). A scheduling cycle then only walks
 * the cached bitmap from the rotating start index (percentageOfNodesToScore)
 * and picks the best score, ties broken uniformly by the seeded RNG as
 * kube-scheduler's selectHost does. A pod that fits nowhere blocks its whole
 * class (the others would fail the same way) until a node change makes one
 * node fit the class again -- the equivalent of kube-scheduler moving
 * unschedulable pods back to the active queue on a pod deletion.
 *
 * Plugins are function tables (framework.h) so DRA and placement policies
 * can be added; their results must depend only on the class and the node.
 */
#ifndef DRASIM_SCHED_SCHED_H
#define DRASIM_SCHED_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/k8s.h"
#include "model/scenario.h"
#include "sched/policies/gpu_view.h"
#include "util/gorand.h"
#include "util/rng.h"

#define SCHED_MAX_RESOURCES 64
#define SCHED_DIRTY_LIST 64           /* changed nodes a class lists before it scans its dirty bitmap */
#define SCHED_SID_NONE UINT32_MAX     /* a node state without an id (sched_states.c) */
#define SCHED_MEMO_UNKNOWN INT64_MIN  /* pod_class.memo: not computed yet */
#define SCHED_MEMO_NOFIT (INT64_MIN + 1)   /* ... the class does not fit that state */
enum { RES_CPU = 0, RES_MEMORY = 1, RES_PODS = 2 };   /* fixed resource indexes */

/* One resource a pod class asks for (amount in the resource's base unit:
 * millicores for cpu, bytes for memory, units otherwise). */
typedef struct res_demand {
    uint16_t res;
    int64_t amount;
} res_demand;

/* A pod class: what every pod of one pod group asks for and tolerates. */
typedef struct pod_class {
    const char *name;
    int32_t priority;
    res_demand *demand;               /* cpu and memory first when requested, then extended */
    size_t ndemand;
    size_t next;                      /* extended resources among demand: get device units */
    int64_t nz_cpu, nz_mem;           /* non-zero requests used by scoring (100m / 200Mi defaults) */
    int64_t req_cpu, req_mem;         /* the requests themselves (0 when not asked; BalancedAllocation) */
    k8s_kv *node_selector;
    size_t nnode_selector;
    const k8s_node_selector *affinity;/* required node affinity or NULL */
    const k8s_toleration *tolerations;
    size_t ntolerations;
    /* GPU demand as the GPU view sees it (gpu_view.h); gpu_res < 0: none */
    gs_pod shape;                     /* cpu (non-zero), memory MiB, GPUs, milli per GPU, allowed models */
    int gpu_res;                      /* the resource that carries the GPU demand (device-plugin mode) */
    int64_t gpu_units;                /* its amount */
    int64_t typical_count;            /* pods of this class the typical pods count (the pod group's count) */
    const char *gpu_spec;             /* GPU-model constraint text (trace shapes; part of a typical pod's identity) */
    bool dra_gpus;                    /* DRA mode: the claims' allocation takes GPUs (shape probed, dra_probe_shape) */
    bool dra_mig;                     /* ... dynamic-MIG devices (under fgd place_mig.h chooses them) */
    /* caches, one bit / entry per node */
    uint64_t *eligible;               /* passes every state-independent filter */
    uint64_t *fits;                   /* eligible and fits now (after sched_flush_class) */
    uint64_t *dirty;                  /* nodes changed since this class's entry was computed (lazy refresh) */
    uint32_t *dirty_list;             /* the first SCHED_DIRTY_LIST of them (unordered) */
    size_t ndirty;
    int32_t *score;                   /* weighted score sum where fits, INT32_MIN elsewhere */
    int32_t *wmax;                    /* per word of 64 nodes: its largest score (find_best) ... */
    uint64_t *wbest;                  /* ... and the nodes that have it (kept by refresh); 0 = unknown */
    uint8_t *choice;                  /* placement policy: the GPUs (mask) it chose per node, NULL without */
    int64_t *memo;                    /* s->plain: per node state id its score, SCHED_MEMO_NOFIT or _UNKNOWN (sched_states.c); NULL = none */
    size_t nfit;
    /* queue state */
    uint32_t *pending;                /* pod ids in arrival order; [head, len) are waiting */
    size_t head, len, cap;
    bool blocked;                     /* last attempt found no node; waits for a node change */
    bool backing_off;                 /* woken during the head pod's back-off: retried at backoff_until */
    uint32_t head_failures;           /* failed attempts of the head pod */
    int64_t backoff_until;            /* the head pod's back-off end (ms) */
    bool in_heap;
    bool prefiltered;                 /* PreFilter passed (else no node is ever eligible) */
    uint64_t attempts, failures;
    /* preemption (preempt.h) */
    bool preempt_never;               /* preemptionPolicy: Never */
    bool one_per_node;                /* DRA mode, a ComputeDomain channel claim: a node's one channel-0 (model/compute_domain.h) */
    bool has_pdb, pdb_max;            /* disruption budget: maxUnavailable (else minAvailable) */
    int32_t pdb_value;
    int32_t nominated;                /* the head pod's nominated node, -1 = none */
    uint32_t nominated_pod;           /* ... for this pod */
} pod_class;

typedef struct sched_plugin sched_plugin;
struct sched_reasons;

/* Nodes of one word tied for the best score (find_best): all of mask. */
typedef struct sched_tie {
    uint64_t mask;
    uint32_t word;
} sched_tie;
struct dra_state;

typedef struct sched_config {
    score_strategy strategy;
    const score_resource *score_resources;   /* NULL = cpu 1, memory 1 */
    size_t nscore_resources;
    int percentage_of_nodes_to_score;        /* 0 = adaptive, 100 = all */
    bool balanced_allocation;
    const shape_point *shape;                /* RequestedToCapacityRatio shape */
    size_t nshape;
    bool weights_set;                        /* else every score plugin weighs 1 */
    int64_t fit_weight, balanced_weight, dra_weight;   /* 0 = score disabled */
    int64_t backoff_initial_ms;              /* podInitialBackoffSeconds (0 = no back-off) */
    int64_t backoff_max_ms;                  /* podMaxBackoffSeconds */
    struct dra_state *dra;                   /* DRA mode: the DynamicResources plugin's state (sched/dra/dra.h) */
    /* GPU view and placement policy (gpu_view.h, policy.h) */
    const gpu_view_node *gpu_nodes;          /* per node: GPUs and model (NULL: from allocatable) */
    int time_slicing_replicas;               /* device-plugin mode: replicas per GPU */
    const struct policy *policy;             /* Score plugin (plugin_policy.c) or NULL */
    int64_t policy_weight;                   /* its weight */
    bool openb_filter;                       /* the artifact's Open-Gpu-Share filter (plugin_policy.c) */
    bool drop_unschedulable;                 /* profile openb-artifact: a pod that fits nowhere is dropped, not retried */
    const uint32_t *tie_rank;                /* ties go to the smallest rank (name order), NULL = random (selectHost) */
    gorand *go;                              /* artifact: Go's math/rand stream for the cycle's draws, NULL = none */
    bool trace_norm;                         /* policies normalise by the artifact's 128 CPUs / 8 GPUs */
    struct dra_openb *trace_dra;             /* DRA mode, trace shapes: the allocator binds the devices (dra_openb.h) */
    bool device_by_allocator;                /* ... taking its own first fit, not the policy's GPUs */
    double typical_pct;                      /* typical pods: popularity threshold, percent (95) */
    bool typical_artifact;                   /* typical pods in the artifact's float order (frag.h) */
    bool preemption;                         /* DefaultPreemption as PostFilter (preempt.h) */
    bool dra_preemption;                     /* KEP-5690: the dry run frees victims' node-local devices */
    const sched_plugin *extra;               /* one more Score plugin the run adds (TopologyPack), NULL = none */
    int64_t extra_weight;
    void *extra_state;                       /* its state (the plugin reads s->cfg.extra_state) */
} sched_config;

typedef struct scheduler {
    /* nodes */
    const k8s_node *nodes;
    size_t nnodes, nwords;
    const char *res_names[SCHED_MAX_RESOURCES];
    size_t nres;
    bool res_overflow;                /* more distinct resource names than SCHED_MAX_RESOURCES */
    int64_t *alloc;                   /* [node * nres + r] allocatable */
    int64_t *used;                    /* [node * nres + r] requested by bound pods */
    int64_t *nz_used;                 /* [node * 2 + {0,1}] non-zero cpu/memory requested */
    uint64_t *units_free;             /* [node * nres + r] free device units (resources with <= 64 units) */
    uint64_t *units_off, *units_off_idle;   /* unhealthy GPUs' units, and those no pod holds (sched_health.c); NULL = none */
    int16_t *unit_milli;              /* [node * nres + r] GPU resources: milli-GPU of one unit (0 = not a GPU) */
    int32_t *per_gpu;                 /* [node * nres + r] GPU resources: units per GPU */
    /* classes and plugins */
    pod_class *classes;
    size_t nclasses, classes_cap;     /* classes grow geometrically (a script may add thousands one by one) */
    const sched_plugin **plugins;
    size_t nplugins;
    int64_t weights[16];              /* score weight per plugin (profile), 0 = not scored */
    sched_config cfg;
    int64_t score_weights[SCHED_MAX_RESOURCES];  /* NodeResourcesFit weights per resource, 0 = not scored */
    /* the plugins' Filter hooks in order, and the Score hooks that weigh (refresh) */
    bool (*filters[16])(const struct scheduler *s, const pod_class *c, size_t node, struct sched_reasons *why);
    size_t nfilters;
    int64_t (*scorers[16])(const struct scheduler *s, const pod_class *c, size_t node);
    int64_t scorer_weights[16];
    size_t nscorers;
    bool monotone;                    /* NodeResourcesFit is the only Filter on node state (node_changed) */
    bool plain, plain_most;           /* ... and it and BalancedAllocation the only Scores (cpu, memory): refresh
                                         inlines them (plugins/resources_plain.h), MostAllocated or LeastAllocated */
    int64_t plain_wf, plain_wb;       /* their weights (0 = not scored) */
    /* s->plain: node states interned (sched_states.c); node_sid NULL = not kept */
    uint32_t *node_sid;               /* per node: its state's id, SCHED_SID_NONE = none (table full) */
    uint64_t *node_ahash;             /* per node: its allocatable row's hash */
    int64_t *st_keys;                 /* [id * st_klen]: a state's allocatable row, requested row, non-zero sums */
    uint32_t *st_hash;                /* open addressing over the keys: id + 1, 0 = empty */
    size_t nstates, st_cap, st_hmask, st_klen;
    /* queue: binary heap of class indexes with waiting pods, not blocked */
    uint32_t *heap;
    size_t heap_len, heap_cap;
    const int64_t *pod_arrival_seq;   /* pods' queue order key (the simulator's pod ids are in arrival order) */
    /* selection state */
    size_t next_start;                /* rotating start index (nextStartNodeIndex) */
    rng rng;
    uint32_t *scratch;                /* per node scratch (PostFilter's potential nodes) */
    struct sched_tie *ties;           /* find_best: where the best-scored nodes are, one entry per word part */
    uint64_t cycles;
    struct dra_state *dra;            /* NULL outside DRA mode; not owned */
    int64_t now;                      /* simulated time (ms), set by the engine before each step */
    uint32_t *retry;                  /* classes that started backing off, for the engine to time */
    size_t nretry;
    gpu_view gv;                      /* per-GPU state of every node (gpu_view.h) */
    frag_typical typical;             /* typical pods of the pod groups (owned; replaced by sched_set_typical) */
    const frag_typical *typical_in;   /* the typical pods in use */
    uint64_t policy_score_calls;
    uint64_t dropped;                 /* pods dropped without retry (profile openb-artifact) */
    uint64_t dra_moved;               /* trace DRA: placements whose devices differ from the policy's GPUs */
    uint64_t *absent;                 /* nodes not in the cluster now (autoscaler node groups), NULL = none; owned */
    struct preempt_state *pre;        /* DefaultPreemption's state (preempt.h), NULL when off */
} scheduler;

/* Where a pod went: node index and the device units taken per extended
 * resource of its class (bit masks; 0 when the resource has > 64 units). */
typedef struct placement {
    int32_t node;
    uint32_t pod;                     /* the pod's id (plugins keep per-pod state by it) */
    uint64_t units[8];
    uint32_t gpus;                    /* the GPUs it took (mask over the node's GPUs in the view) */
} placement;

/* sched_states.c (refresh's inlined plugins, s->plain): intern every node's
 * state (sched_prepare), node `node`'s again after it changed (node_changed;
 * alloc_changed: its allocatable row too, not only a bind or release),
 * give class c its answers table (sched_prepare, a late class), free. */
void sched_states_init(scheduler *s);
void sched_states_note(scheduler *s, size_t node, bool alloc_changed);
void sched_states_class(scheduler *s, pod_class *c);
void sched_states_free(scheduler *s);

/* Set up over `nodes` (not copied: must outlive the scheduler). */
void sched_init(scheduler *s, const k8s_node *nodes, size_t nnodes, const sched_config *cfg, uint64_t seed);
void sched_free(scheduler *s);
/* Register a class; returns its index. Pointers in the spec must outlive the scheduler.
 * dp_resources/dp_node_selector are the device-plugin demand to merge in. */
int sched_add_class(scheduler *s, const pod_group_spec *g, bool device_plugin_mode);
/* Fill the per-class caches (call once after adding every class). */
void sched_prepare(scheduler *s);
/* Register a class while the run goes (workload sources such as Lua scripts
 * that create new pod shapes): like sched_add_class + its part of
 * sched_prepare. The class may only name resources the scheduler already
 * knows (offered by some node); returns -1 otherwise. */
int sched_add_class_late(scheduler *s, const pod_group_spec *g, bool device_plugin_mode);

/* The queue: a pod of class c waits. Pods must be enqueued in arrival order. */
void sched_enqueue(scheduler *s, uint32_t c, uint32_t pod);
/* Pop the next class whose head pod should be tried; false when nothing to try. */
bool sched_next(scheduler *s, uint32_t *c, uint32_t *pod);
/* Take class c out of the queue as sched_next would (a gang's workload
 * cycle tries several of its pods in a row). */
void sched_take_class(scheduler *s, uint32_t c);
/* A waiting pod of class c leaves the queue (deleted); false when it is not
 * waiting. The class keeps its blocked and back-off state; its place in the
 * queue follows its new head pod. */
bool sched_remove(scheduler *s, uint32_t c, uint32_t pod);
/* Every waiting pod of class c for which drop(ctx, pod) is true leaves the
 * queue, as sched_remove would take each, in one pass; returns how many. */
size_t sched_remove_if(scheduler *s, uint32_t c, bool (*drop)(void *ctx, uint32_t pod), void *ctx);
/* One scheduling cycle for the head pod of class c. On success the pod is
 * removed from the queue, its resources reserved and bound on p->node, and
 * true returned. On failure the class is blocked and false returned; under
 * profile openb-artifact the pod is dropped instead (p->pod names it, p->node
 * is -1: it stays pending and is never tried again, as in the artifact). */
bool sched_schedule_head(scheduler *s, uint32_t c, placement *p);
/* A bound pod of class c ends: free its resources and wake blocked classes. */
void sched_release(scheduler *s, uint32_t c, const placement *p);

/* Back-off (kube-scheduler's podInitialBackoffSeconds doubling up to
 * podMaxBackoffSeconds per failed attempt): a class woken by a node change
 * while its head pod is still backing off is not tried before backoff_until.
 * The engine takes those classes with sched_take_retry and calls sched_retry
 * for each at its backoff_until. */
bool sched_take_retry(scheduler *s, uint32_t *c, int64_t *at);
void sched_retry(scheduler *s, uint32_t c);

/* Recompute class c's cached Filter/Score results on every node (a plugin's
 * cluster-wide state changed for it, e.g. a shared claim was allocated or
 * freed); a blocked class that now fits somewhere goes back to the queue. */
void sched_refresh_class(scheduler *s, uint32_t c);

/* Node `node` changed outside a bind or release (its taints, readiness or
 * presence): cached Filter/Score columns are recomputed and blocked classes
 * that now fit it are woken. */
void sched_node_changed(scheduler *s, size_t node);

/* Bring class c's cached Filter/Score results up to date on the nodes that
 * changed since (a class that is not blocked is re-evaluated lazily, when it
 * is tried; a blocked one at once, to know when to wake it). */
void sched_flush_class(scheduler *s, uint32_t c);

/* Number of nodes to find feasible before scoring (numFeasibleNodesToFind). */
size_t sched_num_nodes_to_find(const scheduler *s);
/* kube-scheduler's FitError text for class c against the current state:
 * "0/N nodes are available: 2 Insufficient nvidia.com/gpu, 1 node(s) ...". */
void sched_explain(const scheduler *s, uint32_t c, strbuf *out);
int sched_res_index(const scheduler *s, const char *name);   /* -1 if unknown */
/* Class c's GPU shape on `node` (gpu_view.h): the class's, unless the node's
 * GPU resource has other units (MIG devices under the single strategy). */
gs_pod sched_node_shape(const scheduler *s, const pod_class *c, size_t node);
/* Use `t` (not copied; NULL = the pod groups' own) as the typical pods of
 * the fragmentation measure and FGD: F_n is recomputed and every class
 * re-scored. */
void sched_set_typical(scheduler *s, const frag_typical *t);
/* Static-MIG fragmentation now (device-plugin MIG resources; gpu_metrics.h),
 * -1 when no node has MIG resources. O(nodes x profiles). */
double sched_mig_static_pct(const scheduler *s);
/* Derive the typical pods again from every class's typical_count (classes
 * added while the run goes count the pods that arrived so far). */
void sched_rebuild_typical(scheduler *s);
size_t sched_waiting(const scheduler *s, uint32_t c);
/* sched_health.c, device-plugin mode: GPU `gpu` of node `node` becomes
 * unhealthy (or healthy again): its units leave the node's allocatable and
 * are no longer handed out; pods that hold them keep running (NVIDIA device
 * plugin). False when the node has no such GPU or nothing changed. */
bool sched_set_gpu_health(scheduler *s, size_t node, int gpu, bool healthy);
/* Node `node`'s taints or spec.unschedulable changed (s->nodes[node] is
 * read again): the state-independent filters are evaluated again for it,
 * then as sched_node_changed. */
void sched_node_static_changed(scheduler *s, size_t node);

/* Node presence (the cluster autoscaler's node groups, autoscale/): an
 * absent node fits no class; making one present wakes the classes it fits. */
void sched_set_present(scheduler *s, size_t node, bool present);
static inline bool sched_node_present(const scheduler *s, size_t node) {
    return !s->absent || !((s->absent[node >> 6] >> (node & 63)) & 1);
}
/* What-if placement (the autoscaler's simulations): if class c passes every
 * filter on `node` now (present or not), reserve it there for a pod known as
 * `pod` and return true. Undo with sched_release; the DRA plugin's records
 * need dra_trial_begin/_end around it (sched/dra/dra.h). */
bool sched_try_bind(scheduler *s, uint32_t ci, size_t node, uint32_t pod, placement *p);
/* The head pod of class c binds on `node`, chosen by the caller (a pod
 * group's placement, sched/topology/): as sched_schedule_head after its node
 * choice. False (nothing changes) when the class does not fit there now. */
bool sched_bind_head_at(scheduler *s, uint32_t ci, size_t node, placement *p);

#endif
