/*
 * bench_dra_fleet.c -- DRA mode on bench_dp's fleet and workload (fleet.h):
 * 10,000 nodes x 8 H100 published as ResourceSlices of gpu.nvidia.com,
 * 1,000,000 pods each with a ResourceClaim template of N GPUs (exact count,
 * DeviceClass gpu.nvidia.com); inventory, simulation and SQLite, medians of
 * REPEAT runs (default 5). Issue 11 goals:
 *  - without a policy: at most 4x the device-plugin run of the same scenario
 *    (also run here, same REPEAT, for the ratio);
 *  - with POLICY fgd: < 60 s and < 2 GB.
 *
 *   bench_dra_fleet [NODES [PODS [POLICY [REPEAT]]]]    POLICY "-" = none
 */
#include <stdio.h>

#include "fleet.h"

int main(int argc, char **argv) {
    long nodes, pods;
    const char *policy;
    int repeat;
    fleet_args(argc, argv, &nodes, &pods, &policy, &repeat);
    fleet_result dra, dp;
    if (fleet_bench("bench_dra_fleet", SCHED_MODE_DRA, nodes, pods, policy, repeat, &dra)) return 2;
    if (policy) {
        printf("bench_dra_fleet: policy %s: median %.2f s, peak RSS %.0f MB; goal < 60 s, < 2048 MB: %s\n", policy,
               dra.total_s, dra.rss_mb, dra.total_s < 60 && dra.rss_mb < 2048 ? "met" : "NOT met");
        return 0;
    }
    if (fleet_bench("device plugin, same scenario", SCHED_MODE_DEVICE_PLUGIN, nodes, pods, NULL, repeat, &dp)) return 2;
    double ratio = dp.total_s > 0 ? dra.total_s / dp.total_s : 0;
    /* CPU time as well: on a shared machine wall time also measures the neighbours */
    printf("bench_dra_fleet: DRA %.2f s / device plugin %.2f s = %.1fx (simulation only: %.2f / %.2f s = %.1fx; "
           "CPU: %.2f / %.2f s = %.1fx); goal <= 4x: %s (load average %.2f)\n",
           dra.total_s, dp.total_s, ratio, dra.simulate_s, dp.simulate_s,
           dp.simulate_s > 0 ? dra.simulate_s / dp.simulate_s : 0, dra.cpu_s, dp.cpu_s,
           dp.cpu_s > 0 ? dra.cpu_s / dp.cpu_s : 0, ratio <= 4 ? "met" : "NOT met", fleet_load());
    return 0;
}
