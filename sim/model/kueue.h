/*
 * kueue.h -- Kueue's API objects (kueue.x-k8s.io v1beta1 and v1beta2) as drasim
 * reads them, exactly as `kubectl get -o yaml` prints them: ResourceFlavor,
 * ClusterQueue, Cohort, LocalQueue, WorkloadPriorityClass and Workload.
 *
 * Followed release: the v0.19 line, kubernetes-sigs/kueue ff69552e79
 * (apis/kueue/v1beta2/ (the *_types.go files); v1beta1 converted as
 * apis/kueue/v1beta1/clusterqueue_conversion.go does: spec.cohort becomes
 * cohortName, whenCanBorrow Borrow and whenCanPreempt Preempt become
 * MayStopSearch). Semantics live in sim/queue/ (docs/QUEUES.md).
 *
 * Quantities are int64 in Kueue's units (pkg/resources: cpu in milli-units,
 * every other resource in whole units, rounded up).
 */
#ifndef DRASIM_MODEL_KUEUE_H
#define DRASIM_MODEL_KUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/k8s.h"
#include "model/k8s_stream.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/vec.h"

#define KQ_QUEUE_LABEL "kueue.x-k8s.io/queue-name"

typedef struct kq_quota {            /* ResourceQuota */
    const char *resource;
    int64_t nominal;
    bool has_borrowing_limit, has_lending_limit;
    int64_t borrowing_limit, lending_limit;
    const ynode *where;
} kq_quota;

typedef struct kq_flavor_quotas {    /* FlavorQuotas */
    const char *flavor;
    kq_quota *resources;
    size_t nresources;
    const ynode *where;
} kq_flavor_quotas;

typedef struct kq_resource_group {
    const char **covered;            /* coveredResources */
    size_t ncovered;
    kq_flavor_quotas *flavors;
    size_t nflavors;
    const ynode *where;
} kq_resource_group;

typedef enum { KQ_NEVER, KQ_LOWER_PRIORITY, KQ_LOWER_OR_NEWER_EQUAL, KQ_ANY } kq_policy;
typedef enum { KQ_PREF_NONE, KQ_BORROWING_OVER_PREEMPTION, KQ_PREEMPTION_OVER_BORROWING } kq_preference;

typedef struct kq_cluster_queue {
    k8s_meta meta;
    const char *cohort;              /* cohortName (v1beta2) or cohort (v1beta1); NULL = none */
    const ynode *cohort_where;
    kq_resource_group *groups;
    size_t ngroups;
    bool strict_fifo;                /* queueingStrategy: StrictFIFO; default BestEffortFIFO */
    kq_policy within_cluster_queue, reclaim_within_cohort;
    bool borrow_within_cohort;       /* borrowWithinCohort.policy LowerPriority */
    bool has_max_priority_threshold;
    int32_t max_priority_threshold;
    bool borrow_try_next;            /* whenCanBorrow TryNextFlavor (default MayStopSearch) */
    bool preempt_try_next;           /* whenCanPreempt TryNextFlavor (the default) */
    kq_preference preference;
    double fair_weight;              /* fairSharing.weight, default 1 */
    bool usage_based_afs;            /* admissionScope.admissionMode: UsageBasedAdmissionFairSharing */
    const ynode *where;
} kq_cluster_queue;

typedef struct kq_cohort {
    k8s_meta meta;
    const char *parent;              /* parentName */
    const ynode *parent_where;
    kq_resource_group *groups;
    size_t ngroups;
    double fair_weight;
    bool implicit;                   /* named by a ClusterQueue or Cohort only (Kueue creates it) */
    const ynode *where;
} kq_cohort;

typedef struct kq_flavor {           /* ResourceFlavor */
    k8s_meta meta;
    k8s_kv *node_labels;
    size_t nnode_labels;
    k8s_taint *node_taints;
    size_t nnode_taints;
    k8s_toleration *tolerations;
    size_t ntolerations;
    const char *topology_name;
} kq_flavor;

typedef struct kq_topology {       /* Topology (kueue.x-k8s.io v1beta1/v1beta2): spec.levels[].nodeLabel */
    k8s_meta meta;
    const char **levels;
    size_t nlevels;
    const ynode *where;
} kq_topology;

typedef struct kq_local_queue {
    k8s_meta meta;
    const char *cluster_queue;
    const ynode *cq_where;
    double fair_weight;
    /* status.fairSharing.admissionFairSharingStatus.consumedResources: the
     * decayed usage admission fair sharing orders by (`drasim admit`) */
    k8s_resource_amount *consumed;
    size_t nconsumed;
} kq_local_queue;

typedef struct kq_priority_class {   /* WorkloadPriorityClass */
    k8s_meta meta;
    int32_t value;
} kq_priority_class;

typedef struct kq_assigned {         /* status.admission.podSetAssignments[].flavors */
    const char *resource;
    const char *flavor;
} kq_assigned;

/* A pod set's topology request (Kueue TAS): spec.podSets[].topologyRequest or
 * the pod template's annotations kueue.x-k8s.io/podset-{required,preferred,
 * unconstrained}-topology, podset-slice-required-topology, podset-slice-size
 * (apis/kueue/v1beta2/workload_types.go PodSetTopologyRequest;
 * pkg/controller/constants). NULL / 0 when absent. */
typedef struct kq_topology_request {
    const char *required, *preferred;
    bool unconstrained;
    const char *slice_level;         /* podSetSliceRequiredTopology */
    int32_t slice_size;              /* podSetSliceSize */
    bool has;                        /* any of the above given */
    const ynode *where;
} kq_topology_request;

/* A topology request from a pod's annotations (kv, n) as Kueue's job and pod
 * integrations read them (pkg/controller/jobframework/tas.go, validation.go):
 * 0 (r->has false when none is given), or -1 with the webhook's message. */
int kq_tas_request_from_kv(const k8s_kv *kv, size_t n, kq_topology_request *r, strbuf *msg);

/* One domain of an admitted pod set's topologyAssignment (v1beta1 form). */
typedef struct kq_topology_domain {
    const char **values;
    size_t nvalues;
    int32_t count;
} kq_topology_domain;

typedef struct kq_pod_set {
    const char *name;
    kq_topology_request tas;
    const char **ta_levels;          /* admitted: status.admission.podSetAssignments[].topologyAssignment */
    size_t nta_levels;
    kq_topology_domain *ta_domains;
    size_t nta_domains;
    int32_t count;
    k8s_pod spec;                    /* the template's requests (per pod), selector, tolerations */
    kq_assigned *flavors;            /* admitted workloads only */
    size_t nflavors;
    int32_t admitted_count;          /* podSetAssignments[].count, or count */
    k8s_resource_amount *usage;      /* podSetAssignments[].resourceUsage (whole pod set), optional */
    size_t nusage;
} kq_pod_set;

typedef struct kq_workload {
    k8s_meta meta;
    const char *queue_name;          /* spec.queueName */
    bool has_priority;
    int32_t priority;                /* spec.priority */
    const char *priority_class;      /* priorityClassName (v1beta1) / priorityClassRef.name (v1beta2) */
    kq_pod_set *pod_sets;
    size_t npod_sets;
    const char *admitted_cq;         /* status.admission.clusterQueue; NULL = pending */
    const char *created;             /* metadata.creationTimestamp (RFC 3339) */
    const char *reserved_at;         /* QuotaReserved condition's lastTransitionTime */
    bool evicted;                    /* condition Evicted True */
    bool pods_ready;                 /* condition PodsReady True (waitForPodsReady) */
    const ynode *where;
} kq_workload;

/* Kueue's Configuration (config.kueue.x-k8s.io v1beta1/v1beta2; model/kueue_config.c):
 * the parts drasim models. fairSharing: v1beta2 turns it on by being there,
 * v1beta1 by `enable: true`; preemptionStrategies default to both. */
typedef enum { KQ_FS_LE_FINAL = 1, KQ_FS_LT_INITIAL = 2 } kq_fs_strategy;

/* A counter source of a deviceClassMappings entry (apis/config/v1beta2
 * DeviceClassCounterSource; feature KueueDRAIntegrationPartitionableDevices,
 * beta and on since v0.19): the claim is charged the counter `name` that
 * matching devices of `driver` consume, under the mapping's resource. */
typedef struct kq_dc_counter {
    const char *name, *driver;
    const char *selector;              /* deviceSelector.cel.expression */
    const ynode *where;
} kq_dc_counter;

typedef struct kq_dc_mapping {     /* resources.deviceClassMappings: a DeviceClass -> a quota resource */
    const char *device_class, *resource;
    const kq_dc_counter *counters;     /* the mapping's counter sources (arena); none: counted per device */
    size_t ncounters;
} kq_dc_mapping;

/* waitForPodsReady (kueue ff69552e79 apis/config/v1beta2/configuration_types.go,
 * defaults.go): on by default in a v1beta2 Configuration (timeout 30 min),
 * by `enable: true` in v1beta1 (there blockAdmission defaults to true). */
typedef struct kq_wait_ready {
    bool on;
    bool block_admission;
    bool creation_timestamp;           /* requeuingStrategy.timestamp Creation (default Eviction) */
    int64_t timeout_ms;
    int64_t recovery_ms;               /* recoveryTimeout (default: timeout; 0 = off); read, not modelled */
    int64_t backoff_limit;             /* backoffLimitCount; -1 = none (requeued endlessly) */
    int64_t backoff_base_s, backoff_max_s;   /* defaults 60, 3600; max 0 = no cap */
} kq_wait_ready;

/* admissionFairSharing (apis/config/v1beta2/configuration_types.go
 * AdmissionFairSharing; feature AdmissionFairSharing, beta and on since
 * v0.15): on when present. */
typedef struct kq_afs_config {
    bool on;
    int64_t half_life_ms;              /* usageHalfLifeTime (0: usage reset at once) */
    int64_t sampling_ms;               /* usageSamplingInterval, default 5 min */
    const char **weight_names;         /* resourceWeights (arena); a resource not named weighs 1 */
    double *weights;
    size_t nweights;
} kq_afs_config;

typedef struct kq_config {
    kq_wait_ready wait_ready;
    kq_afs_config afs;
    kq_dc_mapping *dc_mappings;        /* resources.deviceClassMappings (arena) */
    size_t ndc_mappings;
    bool fair_sharing;
    kq_fs_strategy fs_strategies[2];   /* LessThanOrEqualToFinalShare, LessThanInitialShare */
    size_t nfs_strategies;
    const ynode *where;                /* the Configuration object or queues.fairSharing */
} kq_config;

/* Everything of one manager, in input order per kind. */
typedef struct kq_objects {
    kq_config config;
    arena a;
    yfile_list files;
    VEC(kq_flavor *) flavors;
    VEC(kq_cluster_queue *) cqs;
    VEC(kq_cohort *) cohorts;
    VEC(kq_local_queue *) lqs;
    VEC(kq_priority_class *) wpcs;
    VEC(kq_workload *) workloads;
    VEC(kq_topology *) topologies;
    struct k8s_objects *nodes;       /* Nodes of the snapshot (TAS), NULL when none */
} kq_objects;

void kq_objects_init(kq_objects *o);
void kq_objects_free(kq_objects *o);

/* Decode one document root (an object or a List of them). Kinds other than
 * Kueue's are refused unless `skip_other` (then ignored). 0 or -1 with err. */
int kq_decode_node(kq_objects *o, const ynode *root, bool skip_other, strbuf *err);
/* Load a YAML file or text and decode every document; the file is kept. */
int kq_decode_file(kq_objects *o, const char *path, bool skip_other, strbuf *err);
int kq_decode_mem(kq_objects *o, const char *name, const char *data, size_t len, bool skip_other, strbuf *err);
/* The same for a file loaded already (heap-allocated): O keeps it, whatever
 * the result (drasim admit parses a snapshot once, to tell KAI from Kueue too). */
int kq_decode_yfile(kq_objects *o, yfile *f, bool skip_other, strbuf *err);

/* A Configuration document (decoded by kq_decode_node) or a scenario's
 * queues.fairSharing map: fairSharing.{enable, preemptionStrategies} with
 * Kueue's validation (pkg/config/validation.go validateFairSharing: one of
 * [LessThanOrEqualToFinalShare], [LessThanInitialShare] or both in that order).
 * Without `enable`, on when default_on (v1beta2 and scenarios), off for v1beta1. */
int kq_decode_fair_sharing(kq_config *c, const ynode *fs, bool default_on, strbuf *err);
int kq_decode_configuration(kq_objects *o, const ynode *root, bool v1beta1, strbuf *err);

/* The quota resource a DeviceClass is charged as (NULL: not mapped). */
const char *kq_dc_resource(const kq_config *c, const char *device_class);

/* Cross-object checks Kueue's webhooks and cache make (kq_check.c): a flavor
 * or cohort that does not exist, a cohort cycle, a LocalQueue naming a missing
 * ClusterQueue, quotas on resources not in coveredResources, a resource or
 * flavor in two groups, duplicate names. Adds the implicit cohorts (named by
 * a ClusterQueue or a Cohort's parentName but not declared: Kueue creates
 * them) when `implicit_cohorts`, else refuses them. FILE:LINE:COL errors. */
int kq_objects_check(kq_objects *o, bool implicit_cohorts, strbuf *err);

/* Lookups (NULL when absent). */
const kq_flavor *kq_find_flavor(const kq_objects *o, const char *name);
kq_cluster_queue *kq_find_cq(const kq_objects *o, const char *name);
kq_cohort *kq_find_cohort(const kq_objects *o, const char *name);
const kq_local_queue *kq_find_lq(const kq_objects *o, const char *ns, const char *name);
const kq_priority_class *kq_find_wpc(const kq_objects *o, const char *name);
const kq_topology *kq_find_topology(const kq_objects *o, const char *name);

/* A quantity in Kueue's units for `resource` (cpu: milli, else value). */
int64_t kq_resource_value(const char *resource, const quantity *q);

#endif
