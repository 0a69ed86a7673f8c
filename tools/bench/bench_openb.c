/*
 * bench_openb.c -- speed of the OpenB reproduction (scenarios/openb/default.yaml:
 * 1,213 GPU nodes, ~10,900 pods at 130 % GPU demand), in process, without
 * SQLite: per policy the median wall time of 5 runs (seed 42), then the full
 * 6 policies x seeds 42-51 matrix, then the peak RSS of the process.
 *   bench_openb [SCENARIO]      (run from the source root)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/scenario.h"
#include "sched/policies/policy.h"
#include "util/intern.h"
#include "workload/openb_run.h"
#include "bench_util.h"

/* One run; returns its wall time and the GPU allocation at 130 %. */
static double run(scenario *sc, const char *policy, uint64_t seed, double *alloc) {
    strbuf err = {0};
    double t0 = now_s();
    sc->seed = seed;
    sc->sched.policy = intern(policy);
    if (scenario_trace_expand(sc, &err)) {
        fprintf(stderr, "%s\n", sb_str(&err));
        exit(2);
    }
    k8s_node *nodes;
    size_t n;
    openb_k8s_nodes(sc->trace, &sc->a, &nodes, &n);
    sim_run r;
    sim_init(&r, sc, nodes, n);
    workload_execute(&r, NULL);
    *alloc = 0;
    for (size_t i = 0; i < r.curve.len; i++)
        if (r.curve.data[i].arrived_pct == 130) *alloc = r.curve.data[i].gpu_alloc_pct;
    sim_free(&r);
    sb_free(&err);
    return now_s() - t0;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "scenarios/openb/default.yaml";
    static const char *const pols[] = {"random", "dotprod", "gpu-clustering", "gpu-packing", "bestfit", "fgd"};
    scenario sc;
    strbuf err = {0};
    double t0 = now_s();
    if (scenario_load(path, &sc, &err)) {
        fprintf(stderr, "bench_openb: %s\n", sb_str(&err));
        return 2;
    }
    printf("load %s (CSV parse, shapes, inflation): %.3f s; %zu arrivals, %zu pod shapes\n", path, now_s() - t0,
           sc.trace->nseq, sc.ngroups);
    for (size_t p = 0; p < 6; p++) {
        double w[5], a = 0;
        for (int i = 0; i < 5; i++) w[i] = run(&sc, pols[p], 42, &a);
        qsort(w, 5, sizeof *w, cmp_d);
        printf("%-15s seed 42: median of 5 %.3f s (min %.3f, max %.3f); GPU allocated at 130%%: %.2f%%\n", pols[p], w[2],
               w[0], w[4], a);
    }
    t0 = now_s();
    for (size_t p = 0; p < 6; p++)
        for (uint64_t seed = 42; seed <= 51; seed++) {
            double a;
            run(&sc, pols[p], seed, &a);
        }
    printf("matrix 6 policies x 10 seeds: %.2f s\n", now_s() - t0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS: %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    scenario_free(&sc);
    sb_free(&err);
    intern_reset();
    return 0;
}
