/*
 * sim_preempt.h -- the engine's side of preemption (docs/PREEMPTION.md): it
 * turns DefaultPreemption on for a run, evicts the victims the scheduler's
 * PostFilter chose (sched/plugins/preempt.h) and adds the preemption metrics.
 */
#ifndef DRASIM_ENGINE_SIM_PREEMPT_H
#define DRASIM_ENGINE_SIM_PREEMPT_H

#include "engine/sim.h"

/* DefaultPreemption is on with scheduling.features.DefaultPreemption: true,
 * where it can act: some pod group has a priority (or a Lua generator may
 * give one); never for trace replays (the FGD artifact's scheduler runs
 * without it). */
void sim_preempt_config(const scenario *sc, sched_config *cfg);
/* Evict the victims of the last PostFilter at t, with their grace period. */
void sim_preempt_evict(sim_run *r, sim_time t);
/* Summary: preemption_attempts, preemptions, preemption_victims; per group
 * preemptions (made by its pods) and preempted (its pods evicted); 0 when
 * no pod preempted (issue 26: no silent zeros). */
void sim_preempt_summary(sim_run *r);

#endif
