/*
 * sim_evict.h -- evicting pods while the run goes (device faults, preemption,
 * drained nodes), with the owner's reaction and the work it costs.
 *
 * Kubernetes deletes an evicted pod gracefully: it is Terminating and keeps
 * its node's resources (and its claims' devices) for its
 * terminationGracePeriodSeconds, then it is gone and they are free. The
 * owning controller creates a replacement as soon as the pod terminates
 * (Job: podReplacementPolicy TerminatingOrFailed, the default without a
 * podFailurePolicy -- pkg/controller/job/job_controller.go, v1.36; a
 * ReplicaSet counts terminating pods out of its replicas at once --
 * pkg/controller/replicaset/replica_set.go, v1.36), so the replacement
 * arrives at the eviction and may wait for the very resources its
 * predecessor still holds.
 */
#ifndef DRASIM_ENGINE_SIM_EVICT_H
#define DRASIM_ENGINE_SIM_EVICT_H

#include "engine/sim.h"

typedef enum { EVICT_FAULT, EVICT_PREEMPTION, EVICT_DRAIN, EVICT_NCAUSES } evict_cause;

/* One eviction, kept for the summary (and tables of later issues). */
typedef struct sim_eviction {
    uint32_t pod;
    uint32_t replacement;                      /* pod id + 1 of its replacement; 0 = none (lost or was pending) */
    uint8_t cause;                             /* evict_cause */
    uint8_t was;                               /* POD_PENDING or POD_RUNNING */
    sim_time at;
    sim_time lost;                             /* run time whose work is lost (ms) */
    double gpu_equiv;                          /* the GPUs it held */
} sim_eviction;

/* The cause's name in metrics: "fault", "preemption", "drain". */
const char *evict_cause_name(evict_cause c);

/* Evict pod `pod` at time t for `cause` (`reason`: interned or static text,
 * stored in pods.reason). A pending pod is deleted at once. A running pod
 * becomes POD_TERMINATING and keeps its resources until t + grace (grace < 0:
 * its group's terminationGracePeriodSeconds, default 30 s); then it is
 * POD_DELETED and released. Its owner reacts at t (pod_owner, scenario.h):
 * a job's replacement redoes the work since the last checkpoint, a
 * service's serves the rest of the lifetime, a bare pod is lost. Returns the
 * state the pod was in, or -1 when it had ended or was terminating. */
int sim_evict(sim_run *r, uint32_t pod, evict_cause cause, const char *reason, sim_time grace, sim_time t);

/* Pod id's owner creates its replacement at t, which runs for `duration`
 * (named after it when it has a name); returns the replacement's id. */
uint32_t sim_replace(sim_run *r, uint32_t id, sim_time duration, sim_time t);

/* The grace period of a terminating pod ended (the engine's EV_TERMINATED). */
void sim_evict_terminated(sim_run *r, uint32_t pod, sim_time t);

/* Summary metrics of the evictions, whole run and per group (after
 * sim_group_summary, which finds the groups); 0 when none happened (issue 26:
 * a missing counter would fail `max(evictions) <= 0` on a clean run). */
void sim_evict_summary(sim_run *r);

#endif
