/*
 * bench_gang.c -- rejecting a huge gang (issue 25, finding 8): one node of 8
 * GPUs and one gang of PODS one-GPU pods (minCount = PODS, arriving 1 ms
 * apart), so every attempt places 8 pods and is rejected, which takes every
 * other pod of the gang out of the scheduler's queue. 1.36 (Permit): one
 * rejection, at the 5-minute Permit timeout; 1.37 (workload cycle): one
 * rejection per group back-off (<= 10 s) over 5 minutes. Each is compared
 * with the same pods without a gang (they queue, 8 run, the rest wait), so
 * the difference is the gangs' cost. Simulation only, CPU time, median of
 * REPEAT runs. Goal: a rejection of 1,000,000 pods well under 2 s (it was
 * O(n^2): 170 s at 1M pods).
 *
 *   bench_gang [PODS [REPEAT]]        (default 1000000 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "workload/attach.h"
#include "bench_util.h"

static double cpu_now(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* One simulation: CPU seconds of sim_init + the run; *rejections = failed gang attempts. */
static double run_once(long pods, const char *k8s, bool gang, double *rejections) {
    strbuf y = {0}, err = {0};
    long quorum_s = pods / 1000 + 1;   /* the last pod arrives at pods ms */
    sb_printf(&y,
              "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: bench-gang}\nseed: 1\nstop: {time: %lds}\n"
              "cluster:\n  kubernetesVersion: \"%s\"\n  nodePools:\n"
              "  - {name: g, count: 1, cpu: \"64\", memory: 512Gi, gpu: {model: A100-80GB, count: 8}}\n"
              "scheduling: {mode: device-plugin}\n"
              "workload:\n  podGroups:\n  - name: gang\n    count: %ld\n    arrival: {constant: {interval: 1ms}}\n"
              "    duration: 30m\n    requests: {cpu: 1m, memory: 1Mi}\n    gpu: {devicePlugin: {nvidia.com/gpu: 1}}\n",
              quorum_s + 301, k8s, pods);
    if (gang) sb_printf(&y, "    gang: {minCount: %ld, timeout: 5m}\n", pods);
    scenario sc = {0};
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    if (yfile_load_mem("bench-gang.yaml", y.s, y.len, &sc.file, &err)) goto fail;
    sc.has_file = true;
    if (scenario_from_tree(sc.file.docs[0], &sc, &err) || catalog_load(NULL, &cat, &err) ||
        inventory_build_ex(&sc.cluster, &cat, &sc.sched.dp, INV_NO_SLICES, &inv, &err))
        goto fail;
    double c0 = cpu_now();
    sim_init(&run, &sc, inv.nodes, inv.nnodes);
    if (workload_execute(&run, NULL)) {
        sb_printf(&err, "simulation failed: %s", sb_str(&run.error));
        goto fail;
    }
    double cpu = cpu_now() - c0;
    *rejections = gang ? sim_metric_get(&run, "gang_attempts_failed") : 0;
    sim_free(&run);
    inventory_free(&inv);
    catalog_free(&cat);
    scenario_free(&sc);
    sb_free(&y);
    sb_free(&err);
    intern_reset();
    return cpu;
fail:
    fprintf(stderr, "bench_gang: %s\n", sb_str(&err));
    exit(2);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

int main(int argc, char **argv) {
    long pods = argc > 1 ? atol(argv[1]) : 1000000;
    int repeat = argc > 2 ? atoi(argv[2]) : 3;
    if (pods < 16 || repeat < 1 || repeat > 16) {
        fprintf(stderr, "usage: bench_gang [PODS >= 16 [REPEAT 1..16]]\n");
        return 2;
    }
    static const char *const versions[] = {"1.36", "1.37"};
    bool met = true;
    for (int v = 0; v < 2; v++) {
        double base[16], with[16], rej = 0;
        for (int i = 0; i < repeat; i++) {
            double none;
            base[i] = run_once(pods, versions[v], false, &none);
            with[i] = run_once(pods, versions[v], true, &rej);
        }
        double b = median(base, repeat), g = median(with, repeat);
        double per = rej > 0 ? (g > b ? g - b : 0) / rej : 0;
        met = met && per < 2.0 && rej > 0;
        printf("  %s: %ld pods, %.0f rejections: run %.2f s CPU with the gang, %.2f s without; %.3f s per "
               "rejection (median of %d)\n",
               versions[v], pods, rej, g, b, per, repeat);
    }
    double load[1];
    printf("bench_gang: goal a rejection of %ld pods < 2 s: %s (load average %.2f)\n", pods, met ? "met" : "NOT met",
           getloadavg(load, 1) < 0 ? -1 : load[0]);
    return 0;
}
