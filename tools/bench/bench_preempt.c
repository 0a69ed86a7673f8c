/*
 * bench_preempt.c -- preemption at scale (issue 15): bench_dp's fleet and
 * workload (fleet.h: 10,000 nodes x 8 GPUs, 1,000,000 pods) with priorities
 * (8-GPU jobs 100, 4-GPU 50, 1- and 2-GPU 0) and DefaultPreemption on,
 * against the same scenario without priorities (the device-plugin baseline
 * run). Medians of REPEAT runs (default 5). Goal: at most 2x the baseline.
 *
 *   bench_preempt [NODES [PODS [POLICY [REPEAT]]]]    POLICY "-" = none
 */
#include <stdio.h>

#include "fleet.h"

int main(int argc, char **argv) {
    long nodes, pods;
    const char *policy;
    int repeat;
    fleet_args(argc, argv, &nodes, &pods, &policy, &repeat);
    fleet_result base, pre;
    if (fleet_bench("no priorities", SCHED_MODE_DEVICE_PLUGIN, nodes, pods, policy, repeat, &base)) return 2;
    fleet_preemption = 1;
    if (fleet_bench("priorities + preemption", SCHED_MODE_DEVICE_PLUGIN, nodes, pods, policy, repeat, &pre)) return 2;
    double ratio = base.total_s > 0 ? pre.total_s / base.total_s : 0;
    printf("bench_preempt: with preemption %.2f s / without %.2f s = %.2fx (simulation only: %.2f / %.2f s = %.2fx; "
           "CPU: %.2f / %.2f s = %.2fx); goal <= 2x: %s (load average %.2f)\n",
           pre.total_s, base.total_s, ratio, pre.simulate_s, base.simulate_s,
           base.simulate_s > 0 ? pre.simulate_s / base.simulate_s : 0, pre.cpu_s, base.cpu_s,
           base.cpu_s > 0 ? pre.cpu_s / base.cpu_s : 0, ratio <= 2 ? "met" : "NOT met", fleet_load());
    return 0;
}
