/*
 * fleet.h -- the scale benchmark shared by bench_dp and bench_dra_fleet:
 * NODES identical 8-GPU nodes (128 CPUs, 1 TiB) and PODS training pods of
 * 1/2/4/8 GPUs (shares 50/25/15/10 %, Poisson arrivals, log-normal run times
 * with median 1 h and sigma 0.5, ~80 % offered GPU load), with arrivals and
 * departures, then the SQLite results. The only difference between the
 * modes is how the GPUs are asked for and published:
 *  - device plugin: `nvidia.com/gpu: N` on hand-built nodes;
 *  - DRA: the nodes of an H100-80GB node pool with their ResourceSlices
 *    (driver gpu.nvidia.com) and one ResourceClaim template per pod with one
 *    request of N devices of DeviceClass gpu.nvidia.com.
 * Each run is a child process (its peak RSS is its own); fleet_bench prints
 * the medians of REPEAT runs.
 */
#ifndef DRASIM_BENCH_FLEET_H
#define DRASIM_BENCH_FLEET_H

#include "model/scenario.h"

/* Median figures of one mode: wall seconds per phase, peak RSS. */
typedef struct fleet_result {
    double inventory_s, simulate_s, sqlite_s, total_s, cpu_s, rss_mb;
} fleet_result;

/* Run the benchmark REPEAT times in `mode` with placement policy `policy`
 * (NULL = none; sets scheduling.policy only) and print each run and the
 * medians under the name `what`. Returns 0, or 2 when a run failed. */
int fleet_bench(const char *what, sched_mode mode, long nodes, long pods, const char *policy, int repeat,
                fleet_result *out);

/* Command line shared by the fleet benchmarks:
 *   NAME [NODES [PODS [POLICY [REPEAT]]]]   (POLICY "-" or "none" = none)
 * defaults 10,000 nodes, 1,000,000 pods, no policy, 5 runs. */
void fleet_args(int argc, char **argv, long *nodes, long *pods, const char **policy, int *repeat);

/* A usage profile every pod group of the fleet gets (bench_usage; NULL = none). */
extern const struct gpu_usage *fleet_usage;

/* bench_preempt: the same workload with priorities (8-GPU jobs 100, 4-GPU 50,
 * the rest 0) and DefaultPreemption on; the runs print their preemptions. */
extern int fleet_preemption;

/* The 1-minute load average, or -1. */
double fleet_load(void);

#endif
