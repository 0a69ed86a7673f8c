/*
 * bench_dra_sched.c -- DRA-mode scheduling speed: microseconds per scheduled
 * pod (simulation only, no SQLite), median of 5 runs, on
 *   (a) scenarios/examples/dra-quickstart.yaml (44 nodes, static and dynamic MIG), and
 *   (b) a generated 1,000-node cluster: 600 H100 x8 nodes, 400 H100 x8 dynamic-MIG
 *       nodes, 20,000 pods (1/2/8-GPU template claims, MIG claims by CEL).
 *
 *   bench_dra_sched [NODES]       (run from the source root)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "bench_util.h"

/* One run of the scenario in `text`; returns µs per scheduled pod, prints counts once. */
static double run_once(const char *name, const char *text, bool print) {
    yfile f;
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    strbuf err = {0};
    memset(&sc, 0, sizeof sc);
    if (yfile_load_mem(name, text, strlen(text), &f, &err) || scenario_from_tree(f.docs[0], &sc, &err) ||
        catalog_load(NULL, &cat, &err) || inventory_build_ex(&sc.cluster, &cat, NULL, 0, &inv, &err)) {
        fprintf(stderr, "bench_dra_sched: %s\n", sb_str(&err));
        exit(2);
    }
    sim_run r;
    double t0 = now_s();
    if (sim_init_inv(&r, &sc, &inv, &err) || workload_execute(&r, NULL)) {
        fprintf(stderr, "bench_dra_sched: %s\n", sb_str(&err));
        exit(2);
    }
    double dt = now_s() - t0, pods = sim_metric_get(&r, "pods_scheduled");
    if (print) {   /* the alternative design: a fresh allocator snapshot per scheduling cycle */
        double s0 = now_s();
        for (int i = 0; i < 5; i++) dra_free(dra_new(&sc, &inv, &err));
        printf("  %s: building one allocator snapshot over the inventory: %.0f us (a per-cycle snapshot would pay "
               "this for every pod)\n", name, (now_s() - s0) * 1e6 / 5);
    }
    if (print)
        printf("  %s: %zu nodes, %.0f pods scheduled, %.0f allocator calls, GPU allocation %.1f%%\n", name, inv.nnodes,
               pods, sim_metric_get(&r, "dra_allocate_calls"), sim_metric_get(&r, "gpu_alloc_pct"));
    sim_free(&r);
    inventory_free(&inv);
    catalog_free(&cat);
    scenario_free(&sc);
    yfile_free(&f);
    sb_free(&err);
    intern_reset();
    return pods > 0 ? dt * 1e6 / pods : 0;
}

static void bench(const char *name, const char *text) {
    double us[5];
    for (int i = 0; i < 5; i++) us[i] = run_once(name, text, i == 0);
    qsort(us, 5, sizeof *us, cmp_d);
    printf("  %s: %.1f us per scheduled pod (median of 5; min %.1f, max %.1f)\n", name, us[2], us[0], us[4]);
}

static char *read_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "bench_dra_sched: cannot open %s (run from the source root)\n", path);
        exit(2);
    }
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    buf[fread(buf, 1, (size_t)n, fp)] = 0;
    fclose(fp);
    return buf;
}

#define CLAIM(count, sel)                                                                                          \
    "    gpu: {dra: {claims: [{name: g, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: "           \
    "gpu.nvidia.com, count: " #count sel "}}]}}}]}}\n"
#define MIG(profile)                                                                                               \
    "    gpu: {dra: {claims: [{name: m, spec: {devices: {requests: [{name: m, exactly: {deviceClassName: "           \
    "mig.nvidia.com, selectors: [{cel: {expression: \"device.attributes['gpu.nvidia.com'].profile == '" profile     \
    "'\"}}]}}]}}}]}}\n"

int main(int argc, char **argv) {
    int nodes = argc > 1 ? atoi(argv[1]) : 1000;
    char *quick = read_file("scenarios/examples/dra-quickstart.yaml");
    bench("dra-quickstart", quick);
    free(quick);
    char big[8192];
    int full = nodes * 6 / 10, mig = nodes - full;
    snprintf(big, sizeof big,
             "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: dra-1000}\nseed: 1\nstop: {time: 24h}\n"
             "cluster:\n  nodePools:\n"
             "  - {name: full, count: %d, cpu: '192', memory: 2Ti, gpu: {model: H100-80GB, count: 8}}\n"
             "  - {name: mig, count: %d, cpu: '192', memory: 2Ti, gpu: {model: H100-80GB, count: 8, mig: dynamic}}\n"
             "scheduling: {mode: dra}\n"
             "workload:\n  podGroups:\n"
             "  - name: one\n    count: 8000\n    arrival: {poisson: {ratePerMinute: 8}}\n"
             "    duration: {lognormal: {median: 2h, sigma: 0.8}}\n    requests: {cpu: '8', memory: 64Gi}\n" CLAIM(1, "")
             "  - name: two\n    count: 4000\n    arrival: {poisson: {ratePerMinute: 3}}\n"
             "    duration: {lognormal: {median: 3h, sigma: 0.8}}\n    requests: {cpu: '16', memory: 128Gi}\n" CLAIM(2, "")
             "  - name: eight\n    count: 1000\n    arrival: {poisson: {ratePerMinute: 0.7}}\n"
             "    duration: {lognormal: {median: 4h, sigma: 0.6}}\n    requests: {cpu: '64', memory: 512Gi}\n" CLAIM(8, "")
             "  - name: mig1g\n    count: 5000\n    arrival: {poisson: {ratePerMinute: 4}}\n"
             "    duration: {exponential: {mean: 90m}}\n    requests: {cpu: '2', memory: 16Gi}\n" MIG("1g.10gb")
             "  - name: mig3g\n    count: 2000\n    arrival: {poisson: {ratePerMinute: 1.5}}\n"
             "    duration: {exponential: {mean: 2h}}\n    requests: {cpu: '8', memory: 64Gi}\n" MIG("3g.40gb"),
             full, mig);
    bench("dra-1000-nodes", big);
    return 0;
}
