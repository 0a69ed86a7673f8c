/*
 * sim_cost.h -- what a run's fleet costs and draws (issue 30, docs/COST.md).
 *
 * Off (r->cost NULL) unless a node pool has `price:` or the cluster has
 * `power:` (model/cost_spec.h): runs without them take none of this path.
 * On, it follows
 *   - per node pool the nodes billed (a fixed pool's count all along; a node
 *     group's nodes not absent, told by the autoscaler) and the integral of
 *     the nodes beyond the reserved ones (billed on demand);
 *   - per node the time it was present (powered);
 *   - per pod class and pool the GPU-ms allocated (GPU-equivalents: MIG N/7,
 *     device-plugin replicas 1/replicas; with the usage model a shared
 *     device's time split among its tenants) and used (allocated x busy);
 *   - with power, the fleet's power at every sample (power_samples).
 * and at the end writes the cost, chargeback and energy metrics.
 */
#ifndef DRASIM_ENGINE_SIM_COST_H
#define DRASIM_ENGINE_SIM_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/sim.h"

typedef struct sim_cost sim_cost;

/* A power sample: the fleet's facility power (IT x PUE) at t. */
typedef struct sim_power_sample {
    sim_time t;
    double watts;
} sim_power_sample;

/* The accounting when the scenario prices a pool or sets power, else NULL. */
sim_cost *sim_cost_new(sim_run *r);
void sim_cost_free(sim_cost *c);
/* Node `node` became billed (present) or absent at t (the autoscaler). */
void sim_cost_node_present(sim_run *r, size_t node, bool present, sim_time t);
/* Pod `id` started / ended at t (without the usage model it books its
 * GPU-time itself; with it, sim_cost_book does). */
void sim_cost_pod_start(sim_run *r, uint32_t id, sim_time t);
void sim_cost_pod_end(sim_run *r, uint32_t id, sim_time t);
/* The usage model's GPU-ms allocated and used of pod `id` (engine/sim_usage.c). */
void sim_cost_book(sim_run *r, uint32_t id, double alloc_ms, double used_ms);
/* A sample at t: the fleet's power. */
void sim_cost_sample(sim_run *r, sim_time t);
/* Summary metrics (docs/SCHEMA.md, docs/COST.md). */
void sim_cost_summary(sim_run *r);

/* Per pool results for the store (table cost_pools); index = pool. */
typedef struct sim_cost_pool {
    const char *name;
    double node_hours, reserved_nodes, cost_reserved, cost_on_demand;
    double gpu_hours_allocated, gpu_hours_used, energy_kwh;
} sim_cost_pool;
size_t sim_cost_pools(const sim_cost *c, const sim_cost_pool **out);
size_t sim_cost_power_samples(const sim_cost *c, const sim_power_sample **out);

/* engine/sim_usage.c: per node, the GPU-equivalents busy at t (running pods'
 * share x busy fraction). */
void sim_usage_node_busy(sim_run *r, sim_time t, double *busy);

#endif
