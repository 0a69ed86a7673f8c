/*
 * autoscaler_spec.h -- the cluster-autoscaler settings of a scenario
 * (docs/AUTOSCALER.md): `autoscaling:` on a node pool makes it a node group,
 * the top-level `autoscaler:` map holds cluster-autoscaler's flags under
 * their own names (cluster-autoscaler 1.36, FAQ.md "What are the parameters
 * to CA?"), so a user can paste the values their deployment runs with.
 *
 *   cluster:
 *     nodePools:
 *     - name: h100
 *       count: 0                     # nodes at the start (min <= count <= max)
 *       autoscaling: {min: 0, max: 16, price: 98.3, provisioningTime: {uniform: {min: 3m, max: 6m}},
 *                     driverReadyDelay: 30s}
 *   autoscaler:
 *     scan-interval: 10s
 *     expander: priority,least-waste
 *     expander-priorities: {50: [".*-spot"], 10: [".*"]}
 *     cores-total: "0:320000"
 */
#ifndef DRASIM_MODEL_AUTOSCALER_SPEC_H
#define DRASIM_MODEL_AUTOSCALER_SPEC_H

#include "model/scenario.h"

/* `autoscaling:` of one node pool (a cluster-autoscaler node group, `--nodes=min:max:name`). */
typedef struct pool_autoscaling {
    int min, max;
    double price;                     /* per node-hour (price expander, cost metrics); 0 = not priced */
    duration_dist provisioning;       /* from the scale-up request until the node registers (default fixed 0) */
    sim_time driver_ready_delay;      /* from registration until its driver published its slices (node ready) */
    const ynode *where;
} pool_autoscaling;

typedef enum { EXP_RANDOM, EXP_MOST_PODS, EXP_LEAST_WASTE, EXP_PRICE, EXP_PRIORITY, EXP_LEAST_NODES } ca_expander;

/* One line of the priority expander's ConfigMap: a priority and its node-group name regexes. */
typedef struct ca_priority {
    int64_t priority;
    const char **regex;               /* Go RE2 syntax read as POSIX extended (the usual subset) */
    size_t nregex;
} ca_priority;

/* The top-level `autoscaler:` map; every field a cluster-autoscaler flag. */
typedef struct autoscaler_spec {
    sim_time scan_interval;                   /* scan-interval 10s */
    sim_time max_node_provision_time;         /* max-node-provision-time 15m */
    sim_time scale_down_unneeded_time;        /* scale-down-unneeded-time 10m */
    sim_time scale_down_delay_after_add;      /* scale-down-delay-after-add 10m */
    sim_time scale_down_delay_after_delete;   /* scale-down-delay-after-delete 0s */
    sim_time scale_down_delay_after_failure;  /* scale-down-delay-after-failure 3m */
    sim_time initial_backoff, max_backoff;    /* initial-node-group-backoff-duration 5m, max-... 30m */
    sim_time backoff_reset;                   /* node-group-backoff-reset-timeout 3h */
    sim_time new_pod_scale_up_delay;          /* new-pod-scale-up-delay 0s */
    sim_time max_graceful_termination;        /* max-graceful-termination-sec 600 */
    double utilization_threshold;             /* scale-down-utilization-threshold 0.5 */
    double gpu_utilization_threshold;         /* scale-down-gpu-utilization-threshold 0.5 */
    bool scale_down_enabled;                  /* scale-down-enabled true */
    int64_t max_nodes_per_scaleup;            /* max-nodes-per-scaleup 1000 */
    int64_t max_scale_down_parallelism;       /* max-scale-down-parallelism 10 */
    int64_t max_drain_parallelism;            /* max-drain-parallelism 1 */
    int64_t non_empty_candidates;             /* scale-down-non-empty-candidates-count 30 */
    int64_t expendable_priority_cutoff;       /* expendable-pods-priority-cutoff -10 */
    int64_t cores_min, cores_max;             /* cores-total 0:320000 */
    int64_t memory_min_gib, memory_max_gib;   /* memory-total 0:6400000 (GiB) */
    int64_t gpu_min, gpu_max;                 /* gpu-total [type:]min:max (all types together), default 0:unlimited */
    ca_expander expanders[8];                 /* expander least-waste (a comma list is a chain) */
    size_t nexpanders;
    ca_priority *priorities;                  /* expander-priorities (the priority expander's ConfigMap) */
    size_t npriorities;
    const ynode *where;
} autoscaler_spec;

/* Defaults of every flag (cluster-autoscaler 1.36). */
void autoscaler_spec_defaults(autoscaler_spec *a);
/* Parse a pool's `autoscaling:` map into p->autoscaling (allocated in `a`);
 * checks min <= count <= max. 0 or -1 with err = "FILE:LINE:COL: ...". */
int pool_autoscaling_parse(const ynode *n, arena *a, node_pool_spec *p, strbuf *err);
/* Parse the top-level `autoscaler:` map (n may be NULL: defaults) into
 * s->autoscaler when some pool autoscales; an `autoscaler:` map without an
 * autoscaled pool is an error. 0 or -1 with err set. */
int autoscaler_spec_parse(const ynode *n, scenario *s, strbuf *err);
/* Expander names as the flag spells them. */
const char *ca_expander_name(ca_expander e);

#endif
