/*
 * gen_helios_month.c -- a synthetic month of a GPU cluster in SenseTime
 * Helios's cluster_log.csv format (docs/TRACES.md, format helios), for the
 * job-trace benchmark (tools/bench/bench_jobs.sh):
 *
 *   gen_helios_month [JOBS [DAYS [SEED]]] > cluster_log.csv   (600000 30 1)
 *
 * The mix: 47 % of jobs use GPUs (Helios README: 1,580,464 GPU jobs of
 * 3,362,981); the rest are CPU jobs (skipped by the reader, counted). GPU
 * jobs ask for 1 (60 %), 2 (10 %), 4 (12 %), 8 (13 %), 16 (3 %), 32 (1.5 %)
 * or 64 (0.5 %) GPUs, 8 per node (node_num = ceil(gpus / 8)), 4 CPUs per
 * GPU; run times are lognormal (median 10 min, sigma 2.5, at most 7 days);
 * 25 virtual clusters with Zipf-like weights (1/k), 400 users; states 60 %
 * COMPLETED, 20 % CANCELLED, 20 % FAILED. These shares are ASSUMPTIONS shaped
 * after the SC '21 paper's description (most GPU jobs single-GPU, heavy-
 * tailed run times), not fitted to the dataset (its data.zip was not
 * available): a load of the right shape and scale, not Helios's numbers.
 * Arrivals: Poisson over DAYS, in submit order; start = submit (queue 0).
 * Deterministic: splitmix64 from SEED.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state;

static uint64_t next_u64(void) {   /* splitmix64 */
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double uniform(void) { return (double)(next_u64() >> 11) * 0x1.0p-53; }

static double normal(void) {   /* Box-Muller, one draw */
    double u = uniform(), v = uniform();
    return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static void put_time(int64_t t) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    printf("%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
           tm.tm_sec);
}

int main(int argc, char **argv) {
    long jobs = argc > 1 ? atol(argv[1]) : 600000;
    long days = argc > 2 ? atol(argv[2]) : 30;
    state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (jobs <= 0 || days <= 0) {
        fprintf(stderr, "usage: gen_helios_month [JOBS [DAYS [SEED]]]\n");
        return 2;
    }
    static const int gpu_sizes[] = {1, 2, 4, 8, 16, 32, 64};
    static const double gpu_cum[] = {0.60, 0.70, 0.82, 0.95, 0.98, 0.995, 1.0};
    static const char *const states[] = {"COMPLETED", "CANCELLED", "FAILED"};
    double vc_w[25], vc_sum = 0;
    for (int k = 0; k < 25; k++) vc_sum += vc_w[k] = 1.0 / (k + 1);
    const int64_t t0 = 1598918400;   /* 2020-09-01 00:00:00 UTC */
    double mean_gap = (double)days * 86400.0 / (double)jobs, t = 0;
    printf("job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n");
    for (long i = 0; i < jobs; i++) {
        t += -log(1.0 - uniform()) * mean_gap;
        int64_t submit = t0 + (int64_t)t;
        int gpus = 0, cpus, nodes = 1;
        if (uniform() < 0.47) {
            double u = uniform();
            int k = 0;
            while (gpu_cum[k] < u) k++;
            gpus = gpu_sizes[k];
            nodes = (gpus + 7) / 8;
            cpus = 4 * gpus;
        } else {
            cpus = 1 + (int)(uniform() * 16);
        }
        double d = 600.0 * exp(2.5 * normal());
        int64_t dur = d < 1 ? 1 : d > 7 * 86400 ? 7 * 86400 : (int64_t)d;
        double u = uniform() * vc_sum;
        int vc = 0;
        while (vc < 24 && (u -= vc_w[vc]) > 0) vc++;
        int user = (int)(uniform() * 400);
        double s = uniform();
        const char *st = states[s < 0.6 ? 0 : s < 0.8 ? 1 : 2];
        printf("%ld,u%03d,vc%02d,%d,%d,%d,%s,", 1000000 + i, user, vc, gpus, cpus, nodes, st);
        put_time(submit);
        putchar(',');
        put_time(submit);
        putchar(',');
        put_time(submit + dur);
        printf(",%lld,0\n", (long long)dur);
    }
    return 0;
}
