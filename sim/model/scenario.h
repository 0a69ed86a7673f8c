/*
 * scenario.h -- a simulation scenario (`apiVersion: drasim/v1`, `kind:
 * Scenario`, see docs/SCENARIOS.md) in memory: the cluster, the scheduling
 * mode and options, the workload's pod groups, the seed and the stop rule.
 *
 * Simulated time is an integer number of MILLISECONDS since the start of the
 * run (sim_time). Every duration in a scenario ("90s", "5m", "1h30m") is
 * converted to it.
 *
 * Parsing is split in two so that later `--set key=value` overrides can edit
 * the YAML tree before it is interpreted: scenario_load() reads the file,
 * scenario_from_tree() interprets a root node. Every error is
 * "FILE:LINE:COL: message"; unknown keys are errors.
 */
#ifndef DRASIM_MODEL_SCENARIO_H
#define DRASIM_MODEL_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cluster.h"
#include "model/k8s.h"
#include "model/usage.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

typedef int64_t sim_time;            /* milliseconds */
#define SIM_TIME_NEVER INT64_MAX
#define SIM_MS(x) ((sim_time)(x))
#define SIM_SECONDS(x) ((sim_time)(x) * 1000)

/* ---- workload ------------------------------------------------------------------ */

typedef enum { ARRIVAL_POISSON, ARRIVAL_CONSTANT, ARRIVAL_TIMES } arrival_kind;

typedef struct arrival_spec {
    arrival_kind kind;
    sim_time start;                  /* offset of the first arrival window */
    double mean_gap_ms;              /* POISSON: 1 / rate */
    sim_time interval;               /* CONSTANT */
    sim_time *times;                 /* TIMES: ascending, `count` entries */
} arrival_spec;

typedef enum { DIST_FIXED, DIST_UNIFORM, DIST_EXPONENTIAL, DIST_LOGNORMAL } dist_kind;

typedef struct duration_dist {
    dist_kind kind;
    sim_time a;                      /* FIXED value, UNIFORM min, EXPONENTIAL mean, LOGNORMAL median */
    sim_time b;                      /* UNIFORM max */
    double sigma;                    /* LOGNORMAL */
} duration_dist;

/* A pod's DRA claim (`gpu.dra.claims[]`): from a ResourceClaimTemplate spec
 * (one claim per pod, created and deleted with it) or a shared claim named by
 * `resourceClaimName` (one of `workload.resourceClaims`). See scenario_dra.c. */
typedef struct dra_pod_claim {
    const char *name;                /* the pod's name for the claim */
    const char *shared;              /* resourceClaimName, or NULL for a template claim */
    const char *template_name;       /* resourceClaimTemplateName: a ComputeDomain's channel template */
    uint32_t compute_domain;         /* with template_name: index + 1 into scenario.cds (0 = none) */
    k8s_claim_spec spec;             /* template claims: the ResourceClaimTemplate's spec.spec */
    gpu_sharing sharing;             /* its GpuConfig sharing (model/gpu_sharing.c); SHARE_NONE = none */
    const ynode *where;
} dra_pod_claim;

/* A claim defined once in the scenario (`workload.resourceClaims[]`). */
typedef struct dra_shared_claim {
    const char *name;
    k8s_claim_spec spec;
    gpu_sharing sharing;             /* its GpuConfig sharing (model/gpu_sharing.c) */
    const ynode *where;
} dra_shared_claim;

/* A container of a pod group (`containers:`, `initContainers:`; model/scenario_containers.c). */
typedef enum { CONTAINER_APP, CONTAINER_INIT, CONTAINER_SIDECAR } container_kind;
typedef struct pod_container {
    const char *name;
    container_kind kind;             /* SIDECAR: an init container with restartPolicy: Always */
    k8s_resource_amount *requests;   /* resources.requests (limits fill what requests omit) */
    size_t nrequests;
    const char **claims;             /* resources.claims[].name: the pod's claims it uses */
    size_t nclaims;
    const ynode *where;
} pod_container;

typedef struct pod_group_spec {
    const char *name;
    int64_t count;
    arrival_spec arrival;
    duration_dist duration;
    int32_t priority;
    k8s_resource_amount *requests;   /* cpu, memory, ... (as written) */
    size_t nrequests;
    k8s_kv *node_selector;
    size_t nnode_selector;
    bool has_affinity;
    k8s_node_selector required_affinity;
    k8s_toleration *tolerations;
    size_t ntolerations;
    /* device-plugin demand: extended resources + nodeSelector merged in that mode */
    bool has_dp;
    k8s_resource_amount *dp_resources;
    size_t ndp_resources;
    k8s_kv *dp_node_selector;
    size_t ndp_node_selector;
    /* DRA demand: `gpu.dra` kept as YAML, checked only for shape (claims: [{name, spec}]) */
    const ynode *dra;
    dra_pod_claim *dra_claims;       /* decoded gpu.dra.claims */
    size_t ndra_claims;
    /* typical pods (sched/policies/frag.h): the shape's GPU-model constraint text and its
     * weight (0 = count); set for trace shapes */
    const char *gpu_spec;
    int64_t typical_count;
    /* containers (init and sidecars first, in order, then app containers); NULL = none: the
     * group's requests and gpu demand are the pod's; else they were computed from these */
    pod_container *containers;
    size_t ncontainers;
    const struct gpu_usage *usage;   /* `usage:` profile (issue 17), NULL = fully busy, no contention model */
    /* preemption and gangs (scenario_dynamics.c, docs/PREEMPTION.md) */
    bool preempt_never;              /* preemptionPolicy: Never */
    bool has_pdb;                    /* disruptionBudget given */
    bool pdb_max;                    /* ... as maxUnavailable (else minAvailable) */
    int32_t pdb_value;               /* its number */
    int32_t gang_min;                /* gang.minCount, 0 = not a gang */
    sim_time gang_timeout;           /* gang.timeout (0 = 5m, the Permit timeout of 1.35/1.36) */
    const char *gang_topology;       /* gang.topology.level: KEP-5732 label key (interned), NULL = none */
    const ynode *where;
    /* lifecycle (model/scenario_lifecycle.c; engine/sim_evict.c): who replaces an
     * evicted pod and how much of its work survives */
    uint8_t owner;                   /* pod_owner */
    bool has_grace;                  /* terminationGracePeriodSeconds given (else 30 s) */
    sim_time checkpoint;             /* a job's checkpoint interval; 0 = none */
    sim_time grace;                  /* terminationGracePeriodSeconds */
    uint8_t restart;                 /* restartPolicy: pod_restart (0: the owner's default, pod_restart_policy) */
    /* Kueue (issue 27, model/scenario_queues.c): the pods' namespace and labels
     * (kueue.x-k8s.io/queue-name names their LocalQueue) */
    const char *namespace_;          /* NULL = "default" */
    k8s_kv *labels;
    size_t nlabels;
    k8s_kv *annotations;             /* the pods' annotations (Kueue TAS: kueue.x-k8s.io/podset-*-topology) */
    size_t nannotations;
    uint32_t compute_domain;         /* its channel claim's ComputeDomain: index + 1 into scenario.cds, 0 = none */
} pod_group_spec;

/* What owns a pod group's pods, i.e. what happens when one is evicted:
 * nothing (a bare pod is lost), a Job (a replacement pod redoes the work since
 * the last checkpoint) or a Deployment-like service (a replacement serves the
 * rest of the lifetime). */
typedef enum { POD_OWNER_NONE, POD_OWNER_JOB, POD_OWNER_SERVICE } pod_owner;
/* A pod's restartPolicy (core/v1 PodSpec): what kubelet does when its
 * container exits with an error, e.g. after a fatal XID killed its CUDA
 * process (workload/faults_crash.c). RESTART_DEFAULT: the owner's default,
 * pod_restart_policy (scenario_lifecycle.c). */
typedef enum { RESTART_DEFAULT, RESTART_ALWAYS, RESTART_ON_FAILURE, RESTART_NEVER } pod_restart;
/* Kubernetes' default terminationGracePeriodSeconds (core/v1 PodSpec). */
#define POD_DEFAULT_GRACE SIM_SECONDS(30)

/* ---- trace workloads (`workload.trace`, model/scenario_trace.c) ------------------ */

struct openb_node;
struct openb_pod;

typedef enum { TRACE_INFLATE, TRACE_REPLAY } trace_mode;

/* A workload read from a trace (format openb: the Alibaba OpenB CSVs). The
 * trace also lists the nodes. Its pods become one pod group per distinct
 * shape (requests and GPU-model constraint); `seq` is the arrival order,
 * rebuilt by scenario_trace_expand() whenever the seed changes. */
typedef struct trace_spec {
    const char *format;                  /* "openb" */
    const char *nodes_file, *pods_file;  /* resolved against the scenario's folder */
    trace_mode mode;
    double ratio;                        /* inflate: requested GPUs / cluster GPUs (1.3) */
    double typical_pct;                  /* typical pods: popularity threshold, percent (95) */
    bool artifact;                       /* profile openb-artifact: the FGD artifact's run (model/openb_artifact.h) */
    uint32_t *node_rank;                 /* artifact: per node, its tie-break rank (the "%04d-" prefix) */
    struct gorand *go_after;             /* artifact: Go's random stream after the run construction */
    const struct openb_node *nodes;
    size_t nnodes;
    const struct openb_pod *pods;
    size_t npods;
    uint32_t *pod_group;                 /* per trace pod: its pod group (shape) */
    uint32_t *group_pod;                 /* per pod group: one trace pod of that shape */
    size_t nseq;                         /* arrivals */
    uint32_t *seq;                       /* trace pod of each arrival, in arrival order */
    sim_time *seq_time;                  /* arrival time */
    sim_time *seq_duration;              /* run time, SIM_TIME_NEVER = never leaves */
    const ynode *where;
} trace_spec;

/* A Lua workload generator (`workload: {lua: {script: gen.lua, args: {...}}}`,
 * docs/LUA.md). The script runs in a sandbox with the limits below. */
typedef struct lua_source_spec {
    const char *script;              /* as written */
    const char *path;                /* resolved against the scenario file's directory */
    const ynode *args;               /* map passed to the script as drasim.args, or NULL */
    const ynode *where;
    int64_t instruction_limit;       /* per callback (and for the main chunk); default 100,000,000 */
    int64_t memory_limit;            /* bytes for the whole Lua state; default 256 MiB */
    sim_time time_limit;             /* wall-clock ms per callback; 0 = default (60 s) */
} lua_source_spec;

/* ---- scheduling ------------------------------------------------------------------ */

typedef enum { SCHED_MODE_DEVICE_PLUGIN, SCHED_MODE_DRA } sched_mode;
typedef enum { SCORE_LEAST_ALLOCATED, SCORE_MOST_ALLOCATED, SCORE_REQUESTED_TO_CAPACITY_RATIO } score_strategy;

/* A RequestedToCapacityRatio shape point: utilization 0..100 -> score 0..10. */
typedef struct shape_point {
    int64_t utilization, score;
} shape_point;

typedef struct score_resource {
    const char *name;
    int64_t weight;
    const ynode *where;              /* its entry (errors); NULL when built in code */
} score_resource;

typedef struct scheduling_spec {
    sched_mode mode;
    device_plugin_opts dp;
    score_strategy strategy;
    score_resource *score_resources; /* default: cpu 1, memory 1 (kube-scheduler) */
    size_t nscore_resources;
    int percentage_of_nodes_to_score;/* 0 = kube-scheduler's adaptive default; 100 = all */
    bool balanced_allocation;        /* NodeResourcesBalancedAllocation score plugin (default on) */
    int64_t backoff_initial_ms;      /* podInitialBackoffSeconds (default 1 s; 0 = no back-off) */
    int64_t backoff_max_ms;          /* podMaxBackoffSeconds (default 10 s) */
    shape_point *shape;              /* RequestedToCapacityRatio */
    size_t nshape;
    int64_t fit_weight, balanced_weight, dra_weight;   /* score plugin weights (profile); 0 = disabled */
    const char *policy;              /* placement policy (sched/policies/policy.h), NULL = none */
    int64_t policy_weight;           /* its Score weight (0 = 1000: the policy decides, other scores break ties) */
    bool openb_profile;              /* profile: openb-artifact (the FGD artifact's scheduler, docs/PLACEMENT.md) */
    bool device_by_allocator;        /* devicePlacement: allocator (DRA: first fit, not the policy's choice) */
    bool has_search_budget;          /* searchBudget given; else the allocator's default (alloc.h) */
    uint64_t search_budget;          /* searchBudget: allocator search steps per Filter call (0 = no limit) */
    bool dra_preemption;             /* features.DRAPreemption: KEP-5690's dry run frees victims' devices */
    bool preemption;                 /* features.DefaultPreemption: true (the PostFilter; off unless asked) */
    const char *topology_pack;       /* topologyPack.level: the TopologyPack score's label key (issue 28), NULL = off */
    int64_t topology_pack_weight;    /* topologyPack.weight (default 1000, a placement policy's) */
    bool policy_none;                /* policy: none -- kube-scheduler's own scoring, also for traces (no fgd default) */
} scheduling_spec;

/* ---- the scenario ------------------------------------------------------------------- */

typedef struct scenario {
    arena a;
    yfile file;                      /* the tree the scenario points into */
    bool has_file;
    const char *name;
    const char *description;
    uint64_t seed;
    sim_time stop_time;              /* SIM_TIME_NEVER when not set */
    bool stop_all_pods_done;
    sim_time sample_interval;        /* output.sampleInterval, default 60s */
    cluster_spec cluster;
    scheduling_spec sched;
    pod_group_spec *groups;
    size_t ngroups;
    dra_shared_claim *shared_claims; /* workload.resourceClaims */
    size_t nshared_claims;
    trace_spec *trace;               /* workload.trace, or NULL */
    lua_source_spec *lua;            /* NULL when the workload has no Lua generator */
    struct jobs_spec *jobs;          /* workload.jobs: job traces (model/scenario_jobs.h) */
    size_t njobs;
    contention_params *contention;   /* workload.contention (model/usage.h), NULL = the defaults */
    struct autoscaler_spec *autoscaler; /* cluster-autoscaler (model/autoscaler_spec.h), NULL = no pool autoscales */
    struct fault_spec *faults;       /* `faults:` (model/scenario_faults.h), or NULL */
    struct kq_objects *queues;       /* `queues:` Kueue objects (model/kueue.h), or NULL */
    struct kai_objects *kai_queues;  /* `queues: {manager: kai}` KAI Queues (model/kai.h), or NULL */
    struct compute_domain_spec *cds; /* workload.computeDomains (model/compute_domain.h) */
    size_t ncds;
    struct cluster_state *state;     /* cluster.state (model/cluster_state.h), or NULL */
} scenario;

/* Limits on memory-hungry settings (scenario_limits.c, docs/SCENARIOS.md). */
#define SCENARIO_MAX_PODS_DEFAULT 5000000        /* pods per run; DRASIM_MAX_PODS overrides */
#define SCENARIO_MIN_SAMPLE_INTERVAL SIM_SECONDS(1)
#define SCENARIO_MAX_SAMPLES 1000000             /* stop.time / output.sampleInterval */
int64_t scenario_max_pods(void);
/* Check the limits once the scenario is read; error at the field at fault. */
int scenario_check_limits(const ynode *root, const scenario *s, strbuf *err);

/* Read and interpret a scenario file. Returns 0, or -1 with err set. */
int scenario_load(const char *path, scenario *out, strbuf *err);
/* Interpret a parsed root node into a zeroed `out` (`out->file` is left
 * untouched); call scenario_free afterwards, also on failure. */
int scenario_from_tree(const ynode *root, scenario *out, strbuf *err);
void scenario_free(scenario *s);

/* "90s", "5m", "1h30m", "250ms", "1.5h", "0": Go-style duration -> ms.
 * Returns 0 or -1 with err set at n. */
int scenario_parse_duration(const ynode *n, const char *what, sim_time *out, strbuf *err);
/* A non-empty file name, resolved against the directory of the YAML file holding it. */
int scenario_parse_path(const ynode *n, const char *what, const char **out, strbuf *err);
/* The text form of the same parser (no position): 0 or -1. */
int parse_duration_text(const char *s, sim_time *out);

/* Parts of the parser, shared by scenario*.c files. */
int scenario_parse_workload(const ynode *workload, scenario *s, strbuf *err);
int scenario_parse_lua_source(const ynode *n, scenario *s, strbuf *err);
/* `duration:`-shaped distributions: D, {fixed|uniform|exponential|lognormal: ...}. */
int scenario_parse_duration_dist(const ynode *n, duration_dist *d, strbuf *err);
/* A pod group's namespace is a Namespace name (RFC 1123 label), as the API
 * server checks it; 0, or -1 with err at its `namespace:` (groups written by
 * a user: scenario files and Lua; job traces keep their tenants' names). */
int scenario_check_namespace(const pod_group_spec *g, strbuf *err);
int scenario_parse_pod_group(const ynode *g, arena *a, pod_group_spec *out, strbuf *err);
/* A resource map {cpu: "8", nvidia.com/gpu: 2}: quantities, extended ones whole. */
int scenario_parse_resources(const ynode *m, const char *what, bool extended_only, arena *a,
                             k8s_resource_amount **out, size_t *nout, strbuf *err);
/* A pod group's `owner`, `checkpoint` and `terminationGracePeriodSeconds` (scenario_lifecycle.c). */
int scenario_parse_lifecycle(const ynode *g, pod_group_spec *out, strbuf *err);
/* Its restartPolicy, the owner's default resolved: Always for a bare pod (the
 * Pod default) and a service (a ReplicaSet allows only Always), OnFailure
 * for a job (a Job's template must say OnFailure or Never). */
pod_restart pod_restart_policy(const pod_group_spec *g);
/* "Always", "OnFailure", "Never". */
const char *pod_restart_name(pod_restart r);
int scenario_parse_tolerations(const ynode *n, arena *a, k8s_toleration **out, size_t *nout, strbuf *err);
int scenario_parse_string_map(const ynode *n, const char *what, arena *a, k8s_kv **out, size_t *nout, strbuf *err);
/* scenario_dra.c: `gpu.dra` of a pod group, `workload.resourceClaims`, and the
 * check that every resourceClaimName names one of them. */
int scenario_parse_dra(const ynode *dra, arena *a, pod_group_spec *g, strbuf *err);
int scenario_parse_shared_claims(const ynode *seq, scenario *s, strbuf *err);
int scenario_check_claim_refs(const scenario *s, strbuf *err);
/* Decode a claim spec map as object `kind` named `name` (the API server's checks). */
int scenario_decode_claim_spec(const ynode *spec, arena *a, const char *kind, const char *name, k8s_claim_spec *out,
                               strbuf *err);
/* `workload.computeDomains` and the pod claims naming their channel templates (model/scenario_cd.c). */
int scenario_parse_compute_domains(const ynode *seq, scenario *s, strbuf *err);
int scenario_resolve_cd_claims(scenario *s, strbuf *err);
/* The same for one group made later (a Lua pod's shape, workload/lua_pods.c). */
int scenario_resolve_group_cd_claims(const scenario *s, pod_group_spec *g, strbuf *err);
/* scenario_containers.c: `containers:`/`initContainers:` of pod group m into g
 * (after its gpu section): the pod's effective requests as Kubernetes computes
 * them, the device-plugin demand, the containers' claim references. */
int scenario_parse_containers(const ynode *m, arena *a, pod_group_spec *g, strbuf *err);
/* scenario_profile.c: KubeSchedulerConfiguration-shaped settings. */
int scenario_parse_scoring_strategy(const ynode *n, scenario *s, const char *what, strbuf *err);
/* DRA mode: a GPU resource (nvidia.com/...) in the scoring resources is refused
 * at its entry (kube-scheduler's NodeResourcesFit does not score DRA devices;
 * KEP-4970, still open). Returns 0, or -1 with err set. */
int scenario_check_dra_scoring(const scenario *s, strbuf *err);
int scenario_parse_profile(const ynode *m, scenario *s, strbuf *err);
int scenario_parse_backoff(const ynode *scheduling, scenario *s, strbuf *err);
int scenario_parse_node_affinity(const ynode *n, arena *a, k8s_node_selector *out, strbuf *err);
int scenario_parse_trace(const ynode *trace, scenario *s, strbuf *err);
/* scenario_dynamics.c: a pod group's preemptionPolicy, disruptionBudget and
 * gang; scheduling.features and cluster.kubernetesVersion. */
int scenario_parse_group_dynamics(const ynode *m, pod_group_spec *g, strbuf *err);
int scenario_parse_sched_dynamics(const ynode *scheduling, scenario *s, strbuf *err);
/* (Re)build a trace workload's pod groups and arrival sequence for s->seed. */
int scenario_trace_expand(scenario *s, strbuf *err);

/* `queues:` (model/scenario_queues.c): manager kueue or kai, its objects inline or in files. */
int scenario_parse_queues(const ynode *q, scenario *s, strbuf *err);
void scenario_free_queues(scenario *s);

#endif
