/*
 * bench_dp.c -- device-plugin scheduling at scale (fleet.h): 10,000 nodes x
 * 8 GPUs, 1,000,000 pods (1/2/4/8-GPU jobs, Poisson arrivals, log-normal run
 * times, ~80% offered GPU load) with arrivals and departures, then the
 * SQLite results written to a temporary file. Prints each run's wall times
 * and peak RSS, then the medians of REPEAT runs (default 5). With POLICY
 * (e.g. fgd) the scenario's scheduling.policy is set (issue 11 goal: fgd in
 * device-plugin mode < 10 s).
 *
 *   bench_dp [NODES [PODS [POLICY [REPEAT]]]]      POLICY "-" = none
 */
#include <stdio.h>

#include "fleet.h"

int main(int argc, char **argv) {
    long nodes, pods;
    const char *policy;
    int repeat;
    fleet_args(argc, argv, &nodes, &pods, &policy, &repeat);
    fleet_result r;
    if (fleet_bench("bench_dp", SCHED_MODE_DEVICE_PLUGIN, nodes, pods, policy, repeat, &r)) return 2;
    if (policy) printf("bench_dp: policy %s: goal < 10 s: %s\n", policy, r.total_s < 10 ? "met" : "NOT met");
    return 0;
}
