/*
 * bench_usage.c -- what the usage and contention model (issue 17,
 * engine/sim_usage.h) adds to the fleet benchmark (fleet.h): the same
 * 1,000,000-pod run without and with a usage profile on every pod group
 * (busy fractions drawn from the shipped pai-2020 profile, in two phases, so
 * every pod draws and is accounted). Goal: at most +30 % time. The goal is
 * judged on the median CPU time of the runs (each run is a child process):
 * on a shared, loaded machine wall time measures the neighbours.
 *
 *   bench_usage [dp|dra [NODES [PODS [REPEAT]]]]     default dp 10000 1000000 5
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "model/usage.h"

int main(int argc, char **argv) {
    sched_mode mode = argc > 1 && !strcmp(argv[1], "dra") ? SCHED_MODE_DRA : SCHED_MODE_DEVICE_PLUGIN;
    long nodes = argc > 2 ? atol(argv[2]) : 10000, pods = argc > 3 ? atol(argv[3]) : 1000000;
    int repeat = argc > 4 ? atoi(argv[4]) : 5;
    static const char text[] = "usage: {phases: [{work: 0.2, busy: {profile: pai-2020}}, "
                               "{work: 0.8, busy: {profile: pai-2020}}], memory: 8Gi}\n";
    yfile f;
    arena a = {0};
    strbuf err = {0};
    const gpu_usage *u;
    if (yfile_load_mem("bench_usage", text, strlen(text), &f, &err) ||
        usage_parse(ymap_get(f.docs[0], "usage"), &a, &u, &err)) {
        fprintf(stderr, "bench_usage: %s\n", sb_str(&err));
        return 2;
    }
    fleet_result base, with;
    fleet_usage = NULL;
    if (fleet_bench("bench_usage (no profile)", mode, nodes, pods, NULL, repeat, &base)) return 2;
    fleet_usage = u;
    if (fleet_bench("bench_usage (usage profile)", mode, nodes, pods, NULL, repeat, &with)) return 2;
    double add = 100.0 * (with.cpu_s / base.cpu_s - 1), wall = 100.0 * (with.total_s / base.total_s - 1);
    printf("bench_usage: %s mode, median CPU %.2f s without, %.2f s with the usage model: %+.1f %% "
           "(goal at most +30 %%: %s); wall %.2f -> %.2f s (%+.1f %%, load average %.2f); peak RSS %.0f -> %.0f MB\n",
           mode == SCHED_MODE_DRA ? "DRA" : "device-plugin", base.cpu_s, with.cpu_s, add, add <= 30 ? "met" : "NOT met",
           base.total_s, with.total_s, wall, fleet_load(), base.rss_mb, with.rss_mb);
    yfile_free(&f);
    arena_free(&a);
    sb_free(&err);
    return 0;
}
