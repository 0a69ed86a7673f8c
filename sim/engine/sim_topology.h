/*
 * sim_topology.h -- measures of rack fragmentation (issue 28, docs/TOPOLOGY.md).
 * On when some node carries a rack label (model/topology_spec.h:
 * cloud.provider.com/topology-rack, else nvidia.com/gpu.clique); runs without
 * one pay nothing. At every sample, over the racks (domains):
 *  - whole free: every node of the rack idle (no GPU taken, no CPU requested);
 *  - broken: some node in use, some GPU free; full: no GPU free;
 *  - free GPUs in broken racks, and of them the stranded ones: in racks with
 *    fewer free GPUs than the smallest waiting gang needs (minCount x GPUs per
 *    pod), while a gang waits;
 * and per started gang the racks its pods span; per rack the GPUs in use
 * (tables topology_racks, topology_rack_usage). Rows: table topology_samples;
 * summary metrics topo_* and gang_domains_spanned_* (docs/SCHEMA.md).
 */
#ifndef DRASIM_ENGINE_SIM_TOPOLOGY_H
#define DRASIM_ENGINE_SIM_TOPOLOGY_H

#include "engine/sim.h"
#include "sched/topology/topo_domains.h"

typedef struct sim_topo_sample {
    sim_time t;
    int32_t whole_free, broken, full;
    int64_t free_gpus_broken, stranded_gpus;
} sim_topo_sample;

typedef struct sim_topo {
    topo_domains d;                   /* the rack level measured */
    VEC(sim_topo_sample) samples;
    VEC(int32_t) spanned;             /* racks spanned, per started gang, in start order */
    VEC(uint16_t) used;               /* per sample, per domain: GPUs not wholly free (the report's rack heat map) */
    int32_t *gpus;                    /* per domain: its GPUs */
    uint8_t *seen;                    /* scratch: per domain */
} sim_topo;

/* Turn the measures on when a node carries a rack label (after sched_prepare). */
void sim_topo_init(sim_run *r);
void sim_topo_free(sim_run *r);
/* A sample at t (engine/sim.c take_sample). */
void sim_topo_take_sample(sim_run *r, sim_time t);
/* A gang started with these pods bound (engine/sim_gang.c). */
void sim_topo_gang_started(sim_run *r, const uint32_t *pods, size_t n);
/* Summary metrics (after the run). */
void sim_topo_summary(sim_run *r);

#endif
