/* cmd_run.c -- `drasim run SCENARIO [-o results.db] [--seed N | --seeds LIST] [--set K=V]... [--policy P] [--quiet]`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/sim.h"
#include "model/cluster.h"
#include "report/run_groups.h"
#include "report/run_jobs.h"
#include "report/run_queues.h"
#include "report/runner.h"
#include "sched/policies/policy.h"
#include "store/output_path.h"
#include "store/store.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim run SCENARIO [-o RESULTS.db] [--seed N | --seeds LIST] [--set KEY=VALUE]... [--policy NAME]\n"
                 "                  [--force] [--quiet]\n\n"
                 "Simulate the scenario (docs/SCENARIOS.md) and write the results database\n"
                 "(docs/SCHEMA.md). The database is replaced atomically: an error or Ctrl-C\n"
                 "leaves an existing RESULTS.db untouched.\n\n"
                 "  -o, --output FILE  results database (default results.db): a new path or a drasim\n"
                 "                     database (docs/SECURITY.md)\n"
                 "  --force            replace FILE even when it is not a drasim results database\n"
                 "  --seed N           override the scenario's seed\n"
                 "  --seeds LIST       one run per seed into the same database: 42..51, 1,5,9\n"
                 "  --set KEY=VALUE    override a scenario field before validation, e.g.\n"
                 "                     --set scheduling.scoring=MostAllocated\n"
                 "                     --set workload.podGroups.train-8gpu.count=50\n"
                 "                     --set cluster.nodePools[0].count=4   (repeatable)\n"
                 "                     --set scheduling.searchBudget=N: DRA allocator search steps per node\n"
                 "                     and attempt (default 1000000, 0 = no limit; pods the search cannot\n"
                 "                     decide stay pending: 'allocation search budget exhausted')\n"
                 "  --k8s-version V    1.34, 1.35 or 1.36 (--set cluster.kubernetesVersion=V): the\n"
                 "                     allocator's default features and the driver's slice layout of\n"
                 "                     that release (docs/INVENTORY.md)\n"
                 "  --policy NAME      placement policy of a trace workload (scheduling.policy): random,\n"
                 "                     dotprod, gpu-clustering, gpu-packing, bestfit, fgd\n"
                 "  -q, --quiet        print nothing on success but warnings, no progress line\n"
                 "A progress line (events/s, simulated time, ETA) is shown on stderr when it is a terminal.\n"
                 "exit codes: 0 ok, 2 usage or processing error, 3 invalid scenario\n");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Print the one-paragraph summary of a stored run. */
/* One line on failures and the work they cost (docs/DYNAMICS.md), only when
 * something failed: a device-plugin run's crash loops would otherwise show
 * only in the database. */
static void print_failures(const sim_run *run) {
    double gpus = sim_metric_get(run, "fault_gpu_failures"), nodes = sim_metric_get(run, "fault_node_failures");
    double crashes = sim_metric_get(run, "xid_pod_crashes");
    if (!(gpus > 0) && !(nodes > 0) && !(crashes > 0)) return;
    printf("  failures: %.0f GPU, %.0f node; work lost %.2f GPU-hours at evictions, %.2f at fatal XIDs; "
           "%.0f pods crashed, %.0f container restarts, crash loops held %.2f GPU-hours\n",
           gpus, nodes, sim_metric_get(run, "gpu_hours_lost"), sim_metric_get(run, "gpu_hours_lost_xid"), crashes,
           sim_metric_get(run, "xid_container_restarts"), sim_metric_get(run, "gpu_hours_crashloop"));
}

static void print_run(const sim_run *run, size_t nnodes, int64_t run_id, void *ud) {
    (void)ud;
    double arrived = sim_metric_get(run, "pods_arrived"), started = sim_metric_get(run, "pods_scheduled");
    printf("%s: %zu nodes, %.0f pods arrived, %.0f scheduled, %.0f pending at end (%.0f unschedulable)\n"
           "  run %lld, seed %llu: simulated %.1f h; GPU allocation %.1f%% (peak %.1f%%); ",
           run->sc->name, nnodes, arrived, started, sim_metric_get(run, "pods_pending_at_end"),
           sim_metric_get(run, "unschedulable"), (long long)run_id, (unsigned long long)run->sc->seed,
           (double)run->end_time / 3600000.0, sim_metric_get(run, "gpu_alloc_pct"), sim_metric_get(run, "gpu_alloc_peak_pct"));
    /* the waits of started pods alone hide the pods that never started: then the censored ones lead */
    if (arrived > started)
        printf("wait (censored, %.0f never started) mean %.1f s, p99 %.1f s; started pods only: mean %.1f s, p99 %.1f s\n",
               arrived - started, sim_metric_get(run, "wait_censored_mean_s"), sim_metric_get(run, "wait_censored_p99_s"),
               sim_metric_get(run, "wait_mean_s"), sim_metric_get(run, "wait_p99_s"));
    else
        printf("wait mean %.1f s, p99 %.1f s\n", sim_metric_get(run, "wait_mean_s"), sim_metric_get(run, "wait_p99_s"));
    if (run->sc->trace)
        printf("  policy %s: %.0f%% of GPU capacity arrived; %.2f%% of GPUs allocated, %.2f%% fragmented at the end\n",
               run->sc->sched.policy ? run->sc->sched.policy : run->sc->sched.policy_none ? "none" : "fgd", sim_metric_get(run, "arrived_gpu_pct"),
               sim_metric_get(run, "gpu_milli_alloc_pct_end"), sim_metric_get(run, "frag_gpu_pct_end"));
    print_failures(run);
    run_queues_print(run, stdout);
    run_jobs_print(run, stdout);
    run_groups_print(run, stdout, stderr);
}

/* --quiet: only the warnings about groups none of whose pods started. */
static void print_warnings(const sim_run *run, size_t nnodes, int64_t run_id, void *ud) {
    (void)nnodes, (void)run_id, (void)ud;
    run_groups_print(run, NULL, stderr);
}

int cmd_run(int argc, char **argv) {
    const char *path = NULL, *out = "results.db", *policy = NULL;
    bool quiet = false, force = false;
    uint64_t *seeds = NULL;
    size_t nseeds = 0;
    const char **sets = xcalloc((size_t)argc, sizeof *sets);
    size_t nsets = 0;
    int rc = EXIT_OK;
    strbuf err = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto done;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if ((!strcmp(a, "--seed") || !strcmp(a, "--seeds")) && i + 1 < argc) {
            free(seeds);
            if (parse_seed_list(argv[++i], &seeds, &nseeds, &err) ||
                (!strcmp(a, "--seed") && nseeds != 1)) {
                fprintf(stderr, "drasim run: %s: expected %s, found '%s'\n", a,
                        !strcmp(a, "--seed") ? "a non-negative integer" : "N, A..B or a list A,B,C", argv[i]);
                rc = EXIT_ERROR;
                goto done;
            }
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--k8s-version") && i + 1 < argc) {
            int minor;
            const char *v = argv[++i];
            if (k8s_version_parse(v, &minor)) {
                fprintf(stderr, "drasim run: --k8s-version: expected 1.34, 1.35 or 1.36, found '%s'\n", v);
                rc = EXIT_ERROR;
                goto done;
            }
            /* the same as --set cluster.kubernetesVersion=V (a static text: V is one of three) */
            sets[nsets++] = minor == 34 ? "cluster.kubernetesVersion=\"1.34\""
                            : minor == 35 ? "cluster.kubernetesVersion=\"1.35\""
                                          : "cluster.kubernetesVersion=\"1.36\"";
        } else if (!strcmp(a, "--policy") && i + 1 < argc) {
            policy = argv[++i];
            if (!policy_find(policy)) {
                fprintf(stderr, "drasim run: --policy: expected one of %s, found '%s'\n", policy_names(), policy);
                rc = EXIT_ERROR;
                goto done;
            }
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' || path) {
            fprintf(stderr, "drasim run: unexpected argument '%s'\n", a);
            usage(stderr);
            rc = EXIT_ERROR;
            goto done;
        } else {
            path = a;
        }
    }
    if (!path) {
        usage(stderr);
        rc = EXIT_ERROR;
        goto done;
    }

    const char *inputs[] = {path};
    output_target target = {.path = out, .kind = OUTPUT_DATABASE, .force = force, .inputs = inputs, .ninputs = 1};
    if (output_check(&target, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    double t0 = now_s();
    volatile sig_atomic_t *interrupt = cli_catch_interrupts();

    store st = {0};
    if (store_open(&st, out, &err)) {
        store_abort(&st);
        fprintf(stderr, "drasim run: %s; %s left unchanged\n", sb_str(&err), out);
        rc = EXIT_ERROR;
        goto done;
    }
    run_batch b = {.scenario_path = path, .sets = sets, .nsets = nsets, .seeds = seeds, .nseeds = nseeds, .policy = policy,
                   .progress = !quiet && isatty(2), .interrupt = interrupt,
                   .on_run = quiet ? print_warnings : print_run};
    int brc = run_batch_execute(&b, &st, &err);
    if (brc == RUN_OK && *interrupt) {
        sb_clear(&err);
        sb_puts(&err, "interrupted");
        brc = RUN_INTERRUPTED;
    }
    if (brc == RUN_OK && store_commit(&st, &err)) brc = RUN_ERROR;
    if (brc != RUN_OK) {
        store_abort(&st);
        if (brc == RUN_BAD_INPUT) fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        else fprintf(stderr, "drasim run: %s; %s left unchanged\n", sb_str(&err), out);
        rc = brc == RUN_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_ERROR;
        goto done;
    }
    if (!quiet) printf("  wrote %s in %.2f s\n", out, now_s() - t0);
done:
    free(seeds);
    free(sets);
    sb_free(&err);
    intern_reset();
    return rc;
}
