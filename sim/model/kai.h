/*
 * kai.h -- NVIDIA KAI-Scheduler's API objects as drasim reads them, exactly as
 * `kubectl get -o yaml` prints them: scheduling.run.ai/v2 Queue,
 * scheduling.run.ai/v2alpha2 PodGroup, scheduling.k8s.io/v1 PriorityClass,
 * plus the core and DRA objects of a snapshot (Node, Pod, ResourceClaim,
 * ResourceClaimTemplate, ResourceSlice; model/k8s_decode.h).
 *
 * Followed release: NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74):
 *   pkg/apis/scheduling/v2/queue_types.go, resources.go (QueueResource:
 *     quota, overQuotaWeight, limit as float64; absent = 0)
 *   pkg/apis/scheduling/v2alpha2/podgroup_types.go (queue, priorityClassName,
 *     preemptibility, minMember)
 *   pkg/common/constants/constants.go (DefaultQueueLabel kai.scheduler/queue,
 *     pod-group-name, gpu-fraction, gpu-memory, DefaultQueuePriority 100,
 *     DefaultPodGroupPriority 50)
 * Units as KAI's proportion plugin uses them (proportion.go
 * createQueueResourceAttrs): cpu millicores, memory MB (10^6 bytes, turned
 * into bytes here), gpu devices (fractions allowed); -1 = unlimited.
 * Semantics live in sim/queue/kai*.c (docs/QUEUES.md).
 */
#ifndef DRASIM_MODEL_KAI_H
#define DRASIM_MODEL_KAI_H

#include <stdbool.h>
#include <stddef.h>

#include "model/k8s.h"
#include "model/k8s_decode.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/vec.h"

#define KAI_QUEUE_LABEL "kai.scheduler/queue"
#define KAI_POD_GROUP_ANNOTATION "pod-group-name"
#define KAI_SCHEDULER_NAME "kai-scheduler"
#define KAI_UNLIMITED (-1.0)

typedef enum { KAI_GPU, KAI_CPU, KAI_MEM, KAI_NRES } kai_res;   /* rs.AllResources order */

typedef struct kai_quota {           /* QueueResource of one resource */
    double quota, limit, weight;     /* in KAI's units (memory: bytes) */
    bool has_limit;                  /* limit written */
    const ynode *where;
} kai_quota;

typedef struct kai_queue {
    k8s_meta meta;
    const char *parent;              /* spec.parentQueue; NULL = top queue */
    const ynode *parent_where;
    kai_quota res[KAI_NRES];
    int priority;                    /* spec.priority, default 100 */
    const char *created;             /* metadata.creationTimestamp (RFC 3339) */
    const ynode *where;
} kai_queue;

typedef enum { KAI_PREEMPT_UNSET, KAI_PREEMPTIBLE, KAI_NON_PREEMPTIBLE } kai_preemptibility;

typedef struct kai_pod_group {
    k8s_meta meta;
    const char *queue;               /* spec.queue */
    const ynode *queue_where;
    const char *priority_class;      /* spec.priorityClassName */
    kai_preemptibility preemptibility;
    int32_t min_member;
    const char *created;
    const ynode *where;
} kai_pod_group;

typedef struct kai_pod {             /* a Pod of the snapshot */
    k8s_pod pod;                     /* requests, claims, priority, schedulerName */
    const char *node_name;           /* spec.nodeName: bound (allocated) */
    const char *phase;               /* status.phase */
    const char *priority_class;      /* spec.priorityClassName */
    const char *created;
} kai_pod;

typedef struct kai_priority_class {
    k8s_meta meta;
    int32_t value;
} kai_priority_class;

typedef struct kai_topology {        /* kai.scheduler/v1alpha1 Topology (model/kai_decode_topology.c) */
    k8s_meta meta;
    const char **levels;             /* spec.levels[].nodeLabel, top level first */
    size_t nlevels;
    const ynode *where;
} kai_topology;

typedef struct kai_objects {
    arena a;
    yfile_list files;
    VEC(kai_queue *) queues;
    VEC(kai_pod_group *) groups;
    VEC(kai_pod *) pods;
    VEC(kai_priority_class *) classes;
    VEC(kai_topology *) topologies;  /* topology-aware placement (queue/kai_topology.h) */
    k8s_objects k;                   /* Nodes, ResourceClaims, templates, slices */
} kai_objects;

void kai_objects_init(kai_objects *o);
void kai_objects_free(kai_objects *o);

/* True when a YAML document root is one of KAI's own kinds (apiVersion
 * scheduling.run.ai/...), so a snapshot is KAI's rather than Kueue's. */
bool kai_is_kai_doc(const ynode *root);
/* The same for a file's documents (0 = not KAI, 1 = KAI, -1 = unreadable). */
int kai_file_is_kai(const char *path);
/* The same for a file loaded already. */
bool kai_yfile_is_kai(const yfile *f);

/* Decode one document root (an object or a List). Kinds other than the ones
 * above are refused unless `skip_other`. With `queues_only` (a scenario's
 * `queues:`), only Queues and PriorityClasses are accepted. 0 or -1 with err. */
int kai_decode_node(kai_objects *o, const ynode *root, bool skip_other, bool queues_only, strbuf *err);
int kai_decode_file(kai_objects *o, const char *path, bool skip_other, bool queues_only, strbuf *err);
int kai_decode_mem(kai_objects *o, const char *name, const char *data, size_t len, bool skip_other, strbuf *err);

/* One item of a KAI snapshot's rawObjects list, which has no apiVersion and
 * kind: KIND is "Queue", "PodGroup" or "PriorityClass" (the list it is in). */
int kai_decode_raw(kai_objects *o, const char *kind, const ynode *root, strbuf *err);

/* Cross-object checks: a parent Queue that does not exist, a parent cycle,
 * duplicate names, limit < quota (both given and not -1), a PodGroup naming a
 * non-leaf Queue. FILE:LINE:COL errors. (A PodGroup naming a missing Queue is
 * not an error: KAI keeps it pending, cluster_info.go validatePodgroupQueue.) */
int kai_objects_check(const kai_objects *o, strbuf *err);

/* One Topology document (FILE:LINE:COL errors): 1..16 unique levels,
 * kubernetes.io/hostname only as the lowest (KAI v0.13.0
 * pkg/apis/kai/v1alpha1/topology_types.go validation rules). */
struct dctx;
int kai_decode_topology(struct dctx *c, kai_objects *o, const ynode *root);
const kai_topology *kai_find_topology(const kai_objects *o, const char *name);

const kai_queue *kai_find_queue(const kai_objects *o, const char *name);
const kai_pod_group *kai_find_group(const kai_objects *o, const char *ns, const char *name);
/* PriorityClass value; KAI's predefined classes (docs/priority/README.md:
 * train 50, build-preemptible 75, build 100, inference 125) when not in the
 * snapshot; `found` false (and 50, DefaultPodGroupPriority) otherwise. */
int32_t kai_priority_value(const kai_objects *o, const char *name, bool *found);

#endif
