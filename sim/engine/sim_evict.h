/* TEMPORARY SHIM (not committed): the lead's sim_evict contract. */
#ifndef DRASIM_ENGINE_SIM_EVICT_H
#define DRASIM_ENGINE_SIM_EVICT_H
#include "engine/sim.h"
typedef enum { EVICT_FAULT, EVICT_PREEMPTION, EVICT_DRAIN, EVICT_NCAUSES } evict_cause;
int sim_evict(sim_run *r, uint32_t pod, evict_cause cause, const char *reason, sim_time grace, sim_time t);
void sim_schedule_background(sim_run *r, int src, sim_time t, uint64_t arg);
#endif
