/*
 * kq_tas_run.h -- Kueue's Topology-Aware Scheduling inside a run (the gate's
 * TAS step, queue/kq_gate.c): the TopologyAssignment of a Workload at
 * admission from the run's live nodes, and the pods pinned to it.
 *
 * Followed release: kubernetes-sigs/kueue ff69552e79 (v0.19 line).
 *  - Capacity (pkg/cache/scheduler/tas_flavor_snapshot.go freeCapacity,
 *    tas_non_tas_pod_cache.go, tas_flavor.go addUsage): a node's allocatable
 *    minus the requests of the pods bound to it that are not TAS pods
 *    (the scheduler's view), minus the TAS usage of admitted Workloads by
 *    their assignments. Pods of an assignment are charged to their domain
 *    from admission; once bound they are in the scheduler's view instead
 *    (the ungater pins them to that domain, so the sum is the same).
 *  - Assignment: the search of queue/kq_tas.c over that capacity, in the
 *    admission order of the flavor assigner (queue/kq_tas_admit.c).
 *  - Pods (pkg/controller/tas/topology_ungater.go
 *    assignGatedPodsToDomainsGreedy, podsToUngateInfo): the Workload's pods
 *    in order fill the assignment's domains in order; each gets the
 *    domain's values of the assignment's levels as nodeSelector.
 *  - DRA claims: a pod is counted by its pod spec's requests only, not the
 *    devices its claims take nor the quota resource deviceClassMappings
 *    charge them as (tas_flavorassigner.go "Use PodSpec directly for TAS
 *    placement", resources.NewRequestsFromPodSpec; kueue#10548 is open).
 *  - Preemption (preemption.go workloadFits with the TAS check): a
 *    candidate's pods leave the domains they were assigned, bound or not;
 *    pods outside Kueue and Workloads admitted without an assignment stay
 *    (Kueue's non-TAS usage).
 * Not modelled: node replacement, a node's readiness (the run's presence is
 * used instead).
 */
#ifndef DRASIM_QUEUE_KQ_TAS_RUN_H
#define DRASIM_QUEUE_KQ_TAS_RUN_H

#include "queue/gate.h"
#include "queue/kq_tas_admit.h"
#include "sched/sched.h"

typedef struct kq_tas_run kq_tas_run;

/* NULL when `o` has no Topology: runs without TAS take no new path. */
kq_tas_run *kq_tas_run_new(const kq_objects *o, const scheduler *s);
void kq_tas_run_free(kq_tas_run *t);

/* The TAS step of pending Workload `lead` after its quota check (r from
 * kq_try_admit on `s`): may turn r into not admitted with Kueue's reason,
 * and in Preempt mode choose its victims with the TAS check (the admitted
 * Workloads' pods leave their domains: kq_tas_admit.h); an assignment found
 * is kept for kq_tas_run_commit. */
void kq_tas_run_step(kq_tas_run *t, kq_snapshot *s, uint32_t lead, const kq_pending *p, kq_result *r);
/* `lead`'s Workload was admitted with pods[0..n) of `spec`: charge its
 * assignment and pin each pod to its domain (out->pins). No effect without
 * an assignment. */
void kq_tas_run_commit(kq_tas_run *t, uint32_t lead, const uint32_t *pods, size_t n, const k8s_pod *spec,
                       queue_cycle_out *out);
/* An admission changed the TAS usage since the cycle began: evaluate again. */
bool kq_tas_run_changed(const kq_tas_run *t);
/* A new cycle: assignments found are forgotten, no change yet. */
void kq_tas_run_cycle(kq_tas_run *t);
/* Pod `pod` was bound (its usage is now the scheduler's) or ended. */
void kq_tas_run_bound(kq_tas_run *t, uint32_t pod);
void kq_tas_run_ended(kq_tas_run *t, uint32_t pod);
/* The run's nodes with flavor fl's nodeLabels that lack a level of its
 * Topology (0 for a flavor without one). */
size_t kq_tas_run_unlabelled(const kq_tas_run *t, const kq_flavor *fl);

#endif
