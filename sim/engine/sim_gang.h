/*
 * sim_gang.h -- gang scheduling (docs/PREEMPTION.md): a Kubernetes Workload's
 * PodGroup with policy gang {minCount} (KEP-4671), as a pod group's `gang:`
 * or a Lua drasim.submit_gang{all_or_nothing = true}.
 *
 * Quorum (PreEnqueue): a gang's pods enter the queue only once minCount of
 * them exist. Then, by cluster.kubernetesVersion:
 *  - 1.35/1.36: each pod is scheduled on its own and waits at Permit holding
 *    what it reserved (devices included) until minCount are waiting; then all
 *    bind. When the first waiting pod's Permit timeout (5 min upstream:
 *    gangscheduling.go permitTimeoutDuration; `timeout` here) ends first,
 *    every waiting pod is rejected and releases what it holds;
 *  - 1.37+: the workload scheduling cycle places the group as one unit from
 *    one snapshot, pod after pod with the usual Filter and Score (DRA first fit,
 *    no backtracking), stopping as soon as placed + remaining < minCount; at
 *    least minCount placed: they bind; else all are released.
 * A rejected gang leaves the queue and comes back after a group back-off
 * (podInitialBackoffSeconds doubling up to podMaxBackoffSeconds). Once a gang
 * has started, its later pods bind as soon as they fit.
 *
 * Metrics: gang waits (quorum to start), GPU-seconds held by pods waiting at
 * Permit for a gang that had not reached minCount, rejected attempts.
 */
#ifndef DRASIM_ENGINE_SIM_GANG_H
#define DRASIM_ENGINE_SIM_GANG_H

#include "engine/sim.h"

#define SIM_GANG_PERMIT_TIMEOUT SIM_SECONDS(300)   /* gangscheduling.go: permitTimeoutDuration */

/* Called when an attempt of gang g was rejected at its Permit timeout (Lua on_timeout). */
typedef int (*sim_gang_timeout_fn)(sim_run *r, void *ctx, uint32_t gang, sim_time t);

/* The gangs of the scenario's pod groups (`gang:`), after their classes exist. */
void sim_gang_init(sim_run *r);
void sim_gang_free(sim_run *r);
/* A new gang of `size` pods still to arrive (named with sim_gang_expect),
 * shown as group `group` in the metrics; timeout <= 0: 5 minutes. */
uint32_t sim_gang_new(sim_run *r, const char *group, int32_t min, int32_t size, sim_time timeout);
/* The pod that will arrive named `name` (interned or outliving the run) is a member of gang g. */
void sim_gang_expect(sim_run *r, uint32_t g, const char *name);
void sim_gang_on_timeout(sim_run *r, uint32_t g, sim_gang_timeout_fn fn, void *ctx);
/* sim_arrive: true when pod `pod` is a gang's and waits for its quorum. */
bool sim_gang_hold(sim_run *r, uint32_t pod, sim_time t);
/* schedule_pass: the head pod `pod` of class c; true when it was a gang's
 * pod and the gang model scheduled it (Permit or the workload cycle). */
bool sim_gang_cycle(sim_run *r, uint32_t c, uint32_t pod, sim_time t);
/* Pod `pod` waits at Permit: reject its gang's attempt (a preemption victim,
 * as upstream's waitingPod.Preempt); true when it did. */
bool sim_gang_reject_waiting(sim_run *r, uint32_t pod, sim_time t);
/* End of the run: pending gang pods whose class has no reason yet (out of the
 * queue during the group back-off, or before the quorum) get their gang's:
 * why its last attempt was rejected, or that it waits for its quorum. */
void sim_gang_reasons(sim_run *r);
/* Summary metrics (after sim_group_summary); nothing without gangs. */
void sim_gang_summary(sim_run *r);
/* GPUs the smallest waiting gang (quorum reached, not started) of the
 * scenario's pod groups needs: minCount x GPUs per pod; 0 when none waits. */
int64_t sim_gang_waiting_gpus(const sim_run *r);
/* The gang's state for Lua drasim.pod / tests: members arrived, waiting at Permit, started. */
void sim_gang_counts(const sim_run *r, uint32_t g, int32_t *arrived, int32_t *waiting, bool *started);

#endif
