/*
 * fleet.c -- the scale benchmark of fleet.h: the scenario in both modes, one
 * run per child process, medians over the runs.
 */
#include "fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/cost_spec.h"
#include "model/scenario_faults.h"
#include "store/store.h"
#include "util/intern.h"
#include "bench_util.h"

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* Everything the scenario points into (it lives in the child until exit). */
typedef struct fleet {
    scenario sc;
    pod_group_spec groups[4];
    k8s_resource_amount req[4][2], dp[4];
    dra_pod_claim claim[4];
    k8s_device_request dreq[4];
    node_pool_spec pool;
    k8s_node *nodes;                  /* device-plugin mode: hand-built */
    k8s_resource_amount alloc[4];
    k8s_kv label;
    gpu_failure_spec gpu_faults;      /* DRASIM_BENCH_FAULTS: GPU failures per GPU-day */
    fault_spec faults;
    pool_price price;                 /* DRASIM_BENCH_COST: prices and power (issue 30) */
    pool_power power;
    cluster_power site;
    inv_node *info;
} fleet;

/* DRASIM_BENCH_COST=1 (device-plugin mode): the fleet priced (on demand, half
 * of it reserved) and powered (PUE, node base, GPU idle and max), so the
 * run does all the cost and energy accounting (engine/sim_cost.c). */
static void fleet_cost(fleet *f, long nnodes) {
    const char *e = getenv("DRASIM_BENCH_COST");
    if (!e || atoi(e) != 1) return;
    node_pool_spec *p = &f->pool;
    p->name = intern("gpu");
    p->count = (int)nnodes;
    p->gpus = 8;
    f->price = (pool_price){.on_demand = 98.32, .reserved = (int)(nnodes / 2), .reserved_price = 52};
    f->power = (pool_power){.gpu_idle_w = -1, .gpu_max_w = 700, .node_base_w = -1};
    f->site = (cluster_power){.pue = 1.3, .envelope_w = 8e6, .node_base_w = 2000, .gpu_idle_w = 70};
    p->price = &f->price;
    p->power = &f->power;
    f->sc.cluster.pools = p;
    f->sc.cluster.npools = 1;
    f->sc.cluster.power = &f->site;
    f->info = calloc((size_t)nnodes, sizeof *f->info);
    for (long i = 0; i < nnodes; i++) f->info[i] = (inv_node){.pool = p, .gpus = 8};
}

/* DRASIM_BENCH_FAULTS=R: fatal-XID GPU failures at R per GPU-day, repaired
 * after 24 h; in DRA mode an administrator's NoExecute rule evicts the pod
 * on a failed GPU 5 minutes later (docs/DYNAMICS.md). */
static void fleet_faults(fleet *f) {
    const char *e = getenv("DRASIM_BENCH_FAULTS");
    double rate = e ? atof(e) : 0;
    if (!(rate > 0)) return;
    f->gpu_faults = (gpu_failure_spec){.rate_per_gpu_ms = rate / 86400000.0, .kind = GPU_FAULT_FATAL_XID, .xid = 79,
                                       .has_repair = true, .repair = {.kind = DIST_FIXED, .a = SIM_SECONDS(86400)},
                                       .evict = true, .evict_after = SIM_SECONDS(300)};
    f->faults = (fault_spec){.gpu = &f->gpu_faults, .ngpu = 1};
    f->sc.faults = &f->faults;
}

int fleet_preemption;

/* The workload: four job sizes sharing ~80 % offered GPU load. */
const struct gpu_usage *fleet_usage;

static void fleet_workload(fleet *f, sched_mode mode, long nnodes, long npods) {
    static const int gpus[4] = {1, 2, 4, 8};
    static const double share[4] = {0.50, 0.25, 0.15, 0.10};
    double mean_gpus = 0;
    for (int k = 0; k < 4; k++) mean_gpus += share[k] * gpus[k];
    double mean_run_ms = 3600e3 * 1.15;   /* lognormal median 1h, sigma 0.5 */
    double rate_per_ms = 0.80 * (double)nnodes * 8 / (mean_gpus * mean_run_ms);
    char name[64];
    for (int k = 0; k < 4; k++) {
        pod_group_spec *g = &f->groups[k];
        snprintf(name, sizeof name, "train-%dgpu", gpus[k]);
        g->name = intern(name);
        g->count = (int64_t)((double)npods * share[k]);
        g->arrival.kind = ARRIVAL_POISSON;
        g->arrival.mean_gap_ms = 1.0 / (rate_per_ms * share[k]);
        g->duration = (duration_dist){.kind = DIST_LOGNORMAL, .a = SIM_SECONDS(3600), .sigma = 0.5};
        g->usage = fleet_usage;
        if (fleet_preemption) g->priority = gpus[k] == 8 ? 100 : gpus[k] == 4 ? 50 : 0;
        f->req[k][0] = amt("cpu", 12 * gpus[k]);
        f->req[k][1] = amt("memory", (96LL << 30) * gpus[k]);
        g->requests = f->req[k];
        g->nrequests = 2;
        if (mode == SCHED_MODE_DEVICE_PLUGIN) {
            f->dp[k] = amt("nvidia.com/gpu", gpus[k]);
            g->dp_resources = &f->dp[k];
            g->ndp_resources = 1;
            g->has_dp = true;
            continue;
        }
        k8s_device_request *r = &f->dreq[k];
        r->name = intern("gpu");
        r->has_exactly = true;
        r->exactly.name = r->name;
        r->exactly.device_class_name = intern("gpu.nvidia.com");
        r->exactly.mode = ALLOC_MODE_EXACT_COUNT;
        r->exactly.mode_text = intern("ExactCount");
        r->exactly.count = gpus[k];
        f->claim[k].name = intern("gpu");
        f->claim[k].spec.requests = r;
        f->claim[k].spec.nrequests = 1;
        g->dra_claims = &f->claim[k];
        g->ndra_claims = 1;
    }
    f->sc.groups = f->groups;
    f->sc.ngroups = 4;
}

/* The scenario (as bench_dp has always run it) and, in DRA mode, the node pool. */
static void fleet_init(fleet *f, sched_mode mode, long nnodes, long npods, const char *policy) {
    memset(f, 0, sizeof *f);
    scenario *sc = &f->sc;
    sc->name = intern(mode == SCHED_MODE_DRA ? "bench-dra-fleet" : "bench-dp");
    sc->seed = 42;
    sc->stop_time = SIM_TIME_NEVER;
    sc->stop_all_pods_done = true;
    sc->sample_interval = SIM_SECONDS(300);
    sc->sched.mode = mode;
    sc->sched.dp.time_slicing_replicas = 1;
    sc->sched.balanced_allocation = true;
    sc->sched.policy = policy ? intern(policy) : NULL;
    sc->sched.preemption = fleet_preemption != 0;
    fleet_workload(f, mode, nnodes, npods);
    fleet_faults(f);
    if (mode == SCHED_MODE_DRA) {
        node_pool_spec *p = &f->pool;
        p->name = intern("gpu");
        p->count = (int)nnodes;
        p->cpu_milli = 128000;
        p->memory_bytes = 1024LL << 30;
        p->cpu_quantity = quantity_from_int64(128, QF_DECIMAL_SI);
        p->memory_quantity = quantity_from_int64(1024LL << 30, QF_BINARY_SI);
        p->max_pods = 110;
        p->gpu_model = intern("H100-80GB");
        p->gpus = 8;
        sc->cluster.pools = p;
        sc->cluster.npools = 1;
        return;
    }
    f->nodes = calloc((size_t)nnodes, sizeof *f->nodes);
    f->alloc[0] = amt("cpu", 128);
    f->alloc[1] = amt("memory", 1024LL << 30);
    f->alloc[2] = amt("pods", 110);
    f->alloc[3] = amt("nvidia.com/gpu", 8);
    f->label = (k8s_kv){intern("nvidia.com/gpu.product"), intern("NVIDIA-H100-80GB-HBM3")};
    char name[64];
    for (long i = 0; i < nnodes; i++) {
        snprintf(name, sizeof name, "gpu-%ld", i);
        f->nodes[i].meta.name = intern(name);
        f->nodes[i].meta.labels = &f->label;
        f->nodes[i].meta.nlabels = 1;
        f->nodes[i].allocatable = f->alloc;
        f->nodes[i].nallocatable = 4;
    }
    fleet_cost(f, nnodes);
}

typedef struct child_report {
    double inventory_s, simulate_s, sqlite_s, cpu_s;
    double arrived, scheduled, cycles, hours, gpu_alloc, wait_p99, alloc_calls, preemptions, gpu_failures, evictions;
} child_report;

static double cpu_now(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* One run (in a child): inventory (DRA), simulation, SQLite. */
static int run_child(sched_mode mode, long nnodes, long npods, const char *policy, child_report *rep) {
    fleet f;
    strbuf err = {0};
    fleet_init(&f, mode, nnodes, npods, policy);
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    double t0 = now_s(), c0 = cpu_now();
    if (mode == SCHED_MODE_DRA) {
        if (catalog_load(NULL, &cat, &err) || inventory_build_ex(&f.sc.cluster, &cat, NULL, 0, &inv, &err)) goto fail;
    }
    double t1 = now_s();
    if (mode == SCHED_MODE_DRA) {
        if (sim_init_inv(&run, &f.sc, &inv, &err)) goto fail;
    } else {
        sim_init_info(&run, &f.sc, f.nodes, f.info, (size_t)nnodes);   /* info: NULL unless DRASIM_BENCH_COST */
    }
    if (workload_execute(&run, NULL)) {
        sb_puts(&err, "simulation failed");
        goto fail;
    }
    double t2 = now_s();
    if (f.sc.cluster.power)   /* DRASIM_BENCH_COST: show the accounting ran */
        fprintf(stderr, "    cost_total %.0f, energy_kwh %.0f, power_peak_kw %.0f\n", sim_metric_get(&run, "cost_total"),
                sim_metric_get(&run, "energy_kwh"), sim_metric_get(&run, "power_peak_kw"));
    char out[64];
    snprintf(out, sizeof out, "/tmp/drasim-bench-fleet-%d.db", (int)getpid());
    store st;
    if (store_open(&st, out, &err) ||
        store_write_run(&st, &run, mode == SCHED_MODE_DRA ? inv.info : NULL, NULL, &err, NULL) < 0 ||
        store_commit(&st, &err)) {
        store_abort(&st);
        goto fail;
    }
    /* DRASIM_BENCH_KEEP_DB=PATH keeps the run's results as PATH.dp or
     * PATH.dra (to compare databases before and after a change, e.g. with
     * sqlite3 .dump) */
    const char *keep = getenv("DRASIM_BENCH_KEEP_DB");
    char kept[4096];
    if (!keep || !*keep || snprintf(kept, sizeof kept, "%s.%s", keep, mode == SCHED_MODE_DRA ? "dra" : "dp") >= (int)sizeof kept ||
        rename(out, kept))
        unlink(out);
    *rep = (child_report){t1 - t0, t2 - t1, now_s() - t2, cpu_now() - c0,
                          sim_metric_get(&run, "pods_arrived"), sim_metric_get(&run, "pods_scheduled"),
                          sim_metric_get(&run, "scheduling_cycles"), (double)run.end_time / 3600e3,
                          sim_metric_get(&run, "gpu_alloc_pct"), sim_metric_get(&run, "wait_p99_s"),
                          mode == SCHED_MODE_DRA ? sim_metric_get(&run, "dra_allocate_calls") : 0,
                          sim_metric_get(&run, "preemptions"),
                          f.sc.faults ? sim_metric_get(&run, "fault_gpu_failures") : 0,
                          f.sc.faults && !isnan(sim_metric_get(&run, "evictions")) ? sim_metric_get(&run, "evictions") : 0};
    sim_free(&run);
    if (mode == SCHED_MODE_DRA) {
        inventory_free(&inv);
        catalog_free(&cat);
    }
    free(f.nodes);
    free(f.info);
    sb_free(&err);
    intern_reset();
    return 0;
fail:
    fprintf(stderr, "fleet: %s\n", sb_str(&err));
    return 2;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

double fleet_load(void) {
    double load[3];
    return getloadavg(load, 3) < 0 ? -1 : load[0];
}

int fleet_bench(const char *what, sched_mode mode, long nodes, long pods, const char *policy, int repeat,
                fleet_result *out) {
    enum { MAXR = 16 };
    double inv[MAXR], sim[MAXR], sql[MAXR], tot[MAXR], cpu[MAXR], rss[MAXR];
    if (repeat < 1) repeat = 1;
    if (repeat > MAXR) repeat = MAXR;
    const char *faults = getenv("DRASIM_BENCH_FAULTS");
    printf("  %s: %ld nodes x 8 GPUs, %ld pods, %s mode, policy %s, %d runs%s%s%s (load average %.2f)\n", what, nodes,
           pods, mode == SCHED_MODE_DRA ? "DRA" : "device-plugin", policy ? policy : "none", repeat,
           faults && atof(faults) > 0 ? ", GPU failures " : "", faults && atof(faults) > 0 ? faults : "",
           faults && atof(faults) > 0 ? "/GPU-day" : "", fleet_load());
    fflush(stdout);
    for (int i = 0; i < repeat; i++) {
        int fd[2];
        if (pipe(fd)) return 2;
        pid_t pid = fork();
        if (pid == 0) {
            close(fd[0]);
            child_report rep;
            int rc = run_child(mode, nodes, pods, policy, &rep);
            if (!rc && write(fd[1], &rep, sizeof rep) != (ssize_t)sizeof rep) rc = 2;
            _exit(rc);
        }
        close(fd[1]);
        child_report rep;
        ssize_t got = pid > 0 ? read(fd[0], &rep, sizeof rep) : -1;
        close(fd[0]);
        int status;
        struct rusage ru;
        if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
            got != (ssize_t)sizeof rep) {
            fprintf(stderr, "%s: run failed\n", what);
            return 2;
        }
        inv[i] = rep.inventory_s, sim[i] = rep.simulate_s, sql[i] = rep.sqlite_s, cpu[i] = rep.cpu_s;
        tot[i] = rep.inventory_s + rep.simulate_s + rep.sqlite_s;
        rss[i] = ru.ru_maxrss / 1024.0;
        if (i == 0 && fleet_preemption)
            printf("    preemptions %.0f\n", rep.preemptions == rep.preemptions ? rep.preemptions : 0);
        if (i == 0)
            printf("    %.0f pods (%.0f scheduled, %.0f cycles, %.0f allocator calls), simulated %.1f h, "
                   "GPU alloc %.1f%%, wait p99 %.0f s; %.0f GPU failures, %.0f evictions\n",
                   rep.arrived, rep.scheduled, rep.cycles, rep.alloc_calls, rep.hours, rep.gpu_alloc, rep.wait_p99,
                   rep.gpu_failures, rep.evictions);
        printf("    run %d: inventory %.2f s, simulate %.2f s, SQLite %.2f s, total %.2f s; CPU %.2f s; peak RSS %.0f MB\n",
               i + 1, inv[i], sim[i], sql[i], tot[i], cpu[i], rss[i]);
        fflush(stdout);
    }
    fleet_result r = {median(inv, repeat), median(sim, repeat), median(sql, repeat), median(tot, repeat),
                      median(cpu, repeat), median(rss, repeat)};
    printf("  %s: median of %d: inventory %.2f s, simulate %.2f s, SQLite %.2f s, total %.2f s; CPU %.2f s; "
           "peak RSS %.0f MB (load average %.2f)\n",
           what, repeat, r.inventory_s, r.simulate_s, r.sqlite_s, r.total_s, r.cpu_s, r.rss_mb, fleet_load());
    fflush(stdout);
    if (out) *out = r;
    return 0;
}

void fleet_args(int argc, char **argv, long *nodes, long *pods, const char **policy, int *repeat) {
    *nodes = argc > 1 ? atol(argv[1]) : 10000;
    *pods = argc > 2 ? atol(argv[2]) : 1000000;
    *policy = argc > 3 && strcmp(argv[3], "-") && strcmp(argv[3], "none") ? argv[3] : NULL;
    *repeat = argc > 4 ? atoi(argv[4]) : 5;
}
