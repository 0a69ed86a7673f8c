/*
 * cluster_state.h -- `cluster.state:` (docs/STATE.md): the run starts from a
 * recorded cluster instead of an empty one. The files are `kubectl get
 * pods,resourceclaims -A -o yaml` dumps (a v1 List) or a KAI-Scheduler
 * snapshot's snapshot.json; their Pods and ResourceClaims are decoded here
 * (model/k8s_decode.h), and the run's source (workload/state_source.c) puts
 * the running pods on their nodes with their allocated devices at time 0 and
 * queues the pending ones.
 *
 *   cluster:
 *     inventory: inventory.yaml
 *     state:                                  # or a file name, or a list of them
 *       files: [pods.yaml]
 *       remaining: {exponential: {mean: 2h}}  # running pods without drasim.io/remaining
 *       duration: 1h                          # pending pods without drasim.io/duration
 */
#ifndef DRASIM_MODEL_CLUSTER_STATE_H
#define DRASIM_MODEL_CLUSTER_STATE_H

#include <stdbool.h>

#include "model/k8s_decode.h"
#include "model/scenario.h"

/* Per-pod overrides of the distributions (Go durations, e.g. "90m"). */
#define STATE_ANNOTATION_REMAINING "drasim.io/remaining"
#define STATE_ANNOTATION_DURATION "drasim.io/duration"

struct kai_objects;

/* What became of a KAI snapshot's Queues (model/cluster_state_kai.c). */
typedef enum {
    STATE_KAI_NONE,                  /* no Queues in the state files */
    STATE_KAI_ADOPTED,               /* they are the run's queues (the scenario has no `queues:`) */
    STATE_KAI_SCENARIO_QUEUES,       /* the scenario's KAI Queues are used instead */
    STATE_KAI_IGNORED,               /* the scenario's queues are Kueue's */
} state_kai_use;

typedef struct cluster_state {
    const char **files;              /* resolved against the scenario's folder */
    size_t nfiles;
    bool has_remaining, has_duration;
    duration_dist remaining;         /* a running pod's time left */
    duration_dist duration;          /* a pending pod's run time once started */
    k8s_objects objs;                /* the decoded Pods and ResourceClaims (and a snapshot's other kinds) */
    const ynode *where;              /* the `state:` node */
    /* a KAI snapshot among the files (model/cluster_state_kai.c) */
    bool snapshot;                   /* a file is a KAI snapshot (rawObjects) */
    struct kai_objects *kai;         /* its Queues, PodGroups, PriorityClasses (NULL when none, or adopted) */
    state_kai_use kai_use;
    size_t kai_adopted;              /* Queues adopted as the run's */
    size_t pods_in_groups, pods_without_group, gang_pods;   /* pods with a pod-group-name annotation */
} cluster_state;

/* Parse `cluster.state` (n) and decode its files into s->state. Returns 0, or
 * -1 with err = "FILE:LINE:COL: ..." (the scenario's key or the dump's object). */
int cluster_state_parse(const ynode *n, scenario *s, strbuf *err);
void cluster_state_free(cluster_state *st);

/* A KAI snapshot's Queues, PodGroups and PriorityClasses (rawObjects) into
 * st->kai, checked (kai_objects_check). FILE:LINE:COL errors. */
int cluster_state_read_kai(cluster_state *st, strbuf *err);
/* Pods of a snapshot PodGroup (annotation pod-group-name) take its Queue,
 * priority class and preemptibility as the labels KAI's model reads. */
void cluster_state_apply_groups(cluster_state *st);
/* After `queues:` is parsed: the snapshot's Queues become the run's when the
 * scenario has none (docs/STATE.md). */
int cluster_state_adopt_queues(scenario *s, strbuf *err);

/* Does a pod of the dump hold resources (bound to a node and not finished:
 * phase Running, or Pending/unknown with spec.nodeName set)? */
bool cluster_state_pod_running(const k8s_pod *p);
/* Is it waiting for a node (no nodeName, phase Pending or unset)? */
bool cluster_state_pod_pending(const k8s_pod *p);

#endif
