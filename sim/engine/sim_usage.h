/*
 * sim_usage.h -- allocated versus used GPU capacity and the contention of
 * pods that share a GPU (issue 17, docs/SHARING.md).
 *
 * Off (r->usage NULL) unless a pod group has a `usage:` profile: then the
 * engine's path is the one it always had. On, a running pod is a stream of
 * work: `done` milliseconds of its dedicated run time, progressing at speed
 * 1 / stretch. Pods that share a GPU ("slot": a physical GPU of a node whose
 * pool time-slices or runs MPS with the device plugin; a DRA device, so the
 * tenants of one shared claim, of one consumable-capacity device, of one MIG
 * device) stretch each other. When a tenant comes, goes or changes phase,
 * the other tenants' progress is brought up to date, their speed recomputed
 * and their completion rescheduled (the old event is stale: it no longer
 * matches the pod's `due` time and is ignored).
 *
 * The model is processor sharing of the GPU's busy time. A tenant with busy
 * fraction b (SM activity when it runs alone) caps its share at b, under MPS
 * also at its active-thread share p. The slot's capacity is
 *   time-slicing: 1 / (1 + c * (n - 1))   c: the switch cost of its interval,
 *                                          n: the tenants;
 *   MPS:          1 / (1 + beta * max(0, D - 1))   beta: the memory-bandwidth
 *                                          penalty, D: the tenants' busy sum;
 * and is shared max-min fairly (water-filling: the smallest caps are met,
 * the rest split what is left evenly). A tenant that gets share r runs at
 * speed r / b: its stretch is b / r (1 when it gets its whole cap b). The
 * GPU is never more than fully used (the shares add up to at most 1).
 * MIG: a MIG device is a slot of its own, isolated from its siblings.
 * A pod on several slots runs at the pace of its slowest one. A pod of a
 * group without a profile counts as fully busy (b = 1).
 */
#ifndef DRASIM_ENGINE_SIM_USAGE_H
#define DRASIM_ENGINE_SIM_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/sim.h"
#include "model/usage.h"

typedef struct sim_usage sim_usage;

/* The model when some class of r has a usage profile, else NULL (classes
 * added later: sim_usage_class). */
sim_usage *sim_usage_new(sim_run *r);
void sim_usage_free(sim_usage *u);
/* A class was added while the run goes: switch the model on if it has a profile. */
void sim_usage_class(sim_run *r, uint32_t c);
/* Pod `id` was bound at t: its work, slots and completion event. */
void sim_usage_start(sim_run *r, uint32_t id, sim_time t);
/* Pod `id` ends at t (completed or deleted): its co-tenants speed up. */
void sim_usage_stop(sim_run *r, uint32_t id, sim_time t);
/* An EV_COMPLETION of running pod `id` at t: true when the pod is done now;
 * false for a stale event or a phase change (handled here). */
bool sim_usage_due(sim_run *r, uint32_t id, sim_time t);
/* Pod `id` will not complete (deleted, evicted): its queued completion is no
 * longer live. False when the pod is not on a shared GPU (the engine's own
 * accounting applies). */
bool sim_usage_cancel(sim_run *r, uint32_t id);
/* The next event is a stale completion (its pod was rescheduled or ended):
 * drop it, so it neither counts nor moves the clock. */
bool sim_usage_skip_stale(sim_run *r);
/* Summary metrics (run and groups) once the run ended: GPU-hours allocated,
 * used and idle while allocated, slowdowns. Nothing when the model is off. */
void sim_usage_summary(sim_run *r);

/* engine/sim_sharing.c: per group with containers, the GPUs a pod took
 * (gpus_per_pod); per group, the device-plugin pods whose multi-GPU request
 * landed on fewer physical GPUs (time-slicing / MPS replicas of one GPU:
 * pods_on_fewer_gpus, only when some did). */
void sim_sharing_summary(sim_run *r);
/* GPU-equivalents of device-plugin GPU units when node pools set their own
 * sharing (replicas per GPU from the first node that offers the resource). */
void sim_sharing_equiv(sim_run *r, const inv_node *info);

/* A slot's capacity (see above) and tenant i's max-min fair share of it
 * given every tenant's cap (n of them). */
double sim_usage_capacity(share_strategy s, int n, double D, double switch_cost, double bandwidth_penalty);
double sim_usage_fair_share(const double *cap, size_t n, double capacity, size_t i);

/* Per node: GPU-milliseconds allocated and used so far (store_usage.c). */
const double *sim_usage_node_alloc(const sim_usage *u);
const double *sim_usage_node_used(const sim_usage *u);

#endif
