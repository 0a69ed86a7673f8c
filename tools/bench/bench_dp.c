/*
 * bench_dp.c -- device-plugin scheduling at scale: 10,000 nodes x 8 GPUs,
 * 1,000,000 pods (1/2/4/8-GPU jobs, Poisson arrivals, log-normal run times,
 * ~80% offered GPU load) with arrivals and departures, then the SQLite
 * results written to a temporary file. Prints wall times and peak RSS.
 *
 *   bench_dp [NODES [PODS [OUT.db]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "store/store.h"
#include "util/intern.h"
#include "bench_util.h"

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

int main(int argc, char **argv) {
    size_t nnodes = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    int64_t npods = argc > 2 ? strtoll(argv[2], NULL, 10) : 1000000;
    const char *out = argc > 3 ? argv[3] : "/tmp/drasim-bench-dp.db";

    /* the cluster: identical 8-GPU nodes */
    k8s_node *nodes = calloc(nnodes, sizeof *nodes);
    k8s_resource_amount alloc[4] = {amt("cpu", 128), amt("memory", 1024LL << 30), amt("pods", 110),
                                    amt("nvidia.com/gpu", 8)};
    k8s_kv label = {intern("nvidia.com/gpu.product"), intern("NVIDIA-H100-80GB-HBM3")};
    char name[64];
    for (size_t i = 0; i < nnodes; i++) {
        snprintf(name, sizeof name, "gpu-%zu", i);
        nodes[i].meta.name = intern(name);
        nodes[i].meta.labels = &label;
        nodes[i].meta.nlabels = 1;
        nodes[i].allocatable = alloc;
        nodes[i].nallocatable = 4;
    }

    /* the workload: four job sizes sharing the offered load */
    static const int gpus[4] = {1, 2, 4, 8};
    static const double share[4] = {0.50, 0.25, 0.15, 0.10};
    double mean_gpus = 0;
    for (int k = 0; k < 4; k++) mean_gpus += share[k] * gpus[k];
    double mean_run_ms = 3600e3 * 1.15;   /* lognormal median 1h, sigma 0.5 */
    double rate_per_ms = 0.80 * (double)nnodes * 8 / (mean_gpus * mean_run_ms);
    scenario sc;
    memset(&sc, 0, sizeof sc);
    sc.name = intern("bench-dp");
    sc.seed = 42;
    sc.stop_time = SIM_TIME_NEVER;
    sc.stop_all_pods_done = true;
    sc.sample_interval = SIM_SECONDS(300);
    sc.sched.mode = SCHED_MODE_DEVICE_PLUGIN;
    sc.sched.dp.time_slicing_replicas = 1;
    sc.sched.balanced_allocation = true;
    pod_group_spec groups[4];
    k8s_resource_amount req[4][2], dp[4];
    memset(groups, 0, sizeof groups);
    for (int k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "train-%dgpu", gpus[k]);
        groups[k].name = intern(name);
        groups[k].count = (int64_t)((double)npods * share[k]);
        groups[k].arrival.kind = ARRIVAL_POISSON;
        groups[k].arrival.mean_gap_ms = 1.0 / (rate_per_ms * share[k]);
        groups[k].duration = (duration_dist){.kind = DIST_LOGNORMAL, .a = SIM_SECONDS(3600), .sigma = 0.5};
        req[k][0] = amt("cpu", 12 * gpus[k]);
        req[k][1] = amt("memory", (96LL << 30) * gpus[k]);
        groups[k].requests = req[k];
        groups[k].nrequests = 2;
        dp[k] = amt("nvidia.com/gpu", gpus[k]);
        groups[k].dp_resources = &dp[k];
        groups[k].ndp_resources = 1;
        groups[k].has_dp = true;
    }
    sc.groups = groups;
    sc.ngroups = 4;

    double t0 = now_s(), c0 = cpu_s();
    sim_run run;
    sim_init(&run, &sc, nodes, nnodes);
    if (workload_execute(&run, NULL)) return 2;
    double t1 = now_s(), c1 = cpu_s();
    store st;
    strbuf err = {0};
    if (store_open(&st, out, &err) || store_write_run(&st, &run, NULL, NULL, &err, NULL) < 0 ||
        store_commit(&st, &err)) {
        fprintf(stderr, "bench_dp: %s\n", sb_str(&err));
        store_abort(&st);
        return 2;
    }
    double t2 = now_s(), c2 = cpu_s();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("bench_dp: %zu nodes x 8 GPUs, %.0f pods (%.0f scheduled, %.0f cycles), simulated %.1f h, "
           "GPU alloc %.1f%%, wait p99 %.0f s\n",
           nnodes, sim_metric_get(&run, "pods_arrived"), sim_metric_get(&run, "pods_scheduled"),
           sim_metric_get(&run, "scheduling_cycles"), (double)run.end_time / 3600e3,
           sim_metric_get(&run, "gpu_alloc_pct"), sim_metric_get(&run, "wait_p99_s"));
    printf("bench_dp: wall: simulate %.2f s, write SQLite %.2f s, total %.2f s; CPU: %.2f + %.2f s; peak RSS %.0f MB\n",
           t1 - t0, t2 - t1, t2 - t0, c1 - c0, c2 - c1, ru.ru_maxrss / 1024.0);
    sim_free(&run);
    sb_free(&err);
    free(nodes);
    unlink(out);
    intern_reset();
    return 0;
}
