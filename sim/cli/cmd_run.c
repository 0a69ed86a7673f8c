/* cmd_run.c -- `drasim run SCENARIO [-o results.db] [--seed N] [--policy NAME] [--quiet]`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "engine/sim.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "store/store.h"
#include "sched/policy.h"
#include "util/intern.h"
#include "workload/openb_run.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *out) {
    fprintf(out, "usage: drasim run SCENARIO [-o RESULTS.db] [--seed N] [--policy NAME] [--quiet]\n\n"
                 "Simulate the scenario (docs/SCENARIOS.md) and write the results database\n"
                 "(docs/SCHEMA.md). The database is replaced atomically: an error or Ctrl-C\n"
                 "leaves an existing RESULTS.db untouched.\n\n"
                 "  -o, --output FILE  results database (default results.db)\n"
                 "  --seed N           override the scenario's seed\n"
                 "  --policy NAME      override scheduling.policy (trace workloads): random, dotprod,\n"
                 "                     gpu-clustering, gpu-packing, bestfit, fgd\n"
                 "  -q, --quiet        print nothing on success\n"
                 "exit codes: 0 ok, 2 usage or processing error, 3 invalid scenario\n");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_run(int argc, char **argv) {
    const char *path = NULL, *out = "results.db", *policy = NULL;
    bool quiet = false, has_seed = false;
    unsigned long long seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--seed") && i + 1 < argc) {
            char *end;
            seed = strtoull(argv[++i], &end, 10);
            if (*end || !*argv[i] || argv[i][0] == '-') {
                fprintf(stderr, "drasim run: --seed: expected a non-negative integer, found '%s'\n", argv[i]);
                return EXIT_ERROR;
            }
            has_seed = true;
        } else if (!strcmp(a, "--policy") && i + 1 < argc) {
            policy = argv[++i];
            if (!policy_find(policy)) {
                fprintf(stderr, "drasim run: --policy: expected one of %s, found '%s'\n", policy_names(), policy);
                return EXIT_ERROR;
            }
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-' || path) {
            fprintf(stderr, "drasim run: unexpected argument '%s'\n", a);
            usage(stderr);
            return EXIT_ERROR;
        } else {
            path = a;
        }
    }
    if (!path) {
        usage(stderr);
        return EXIT_ERROR;
    }

    double t0 = now_s();
    int rc = EXIT_OK;
    strbuf err = {0};
    scenario sc;
    gpu_catalog cat = {0};
    inventory inv = {0};
    bool have_cat = false, have_inv = false, have_sim = false;
    sim_run run;
    store st = {0};

    if (scenario_load(path, &sc, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    if (has_seed) sc.seed = seed;
    if (policy) {
        if (!sc.trace) {
            fprintf(stderr, "drasim run: --policy: %s has no trace workload (workload.trace)\n", path);
            rc = EXIT_BAD_INPUT;
            goto done;
        }
        sc.sched.policy = intern(policy);
    }
    if (has_seed && sc.trace && scenario_trace_expand(&sc, &err)) {   /* the sample depends on the seed */
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    k8s_node *run_nodes = NULL;
    size_t run_nnodes = 0;
    const inv_node *run_info = NULL;
    if (sc.trace) {   /* the trace lists the nodes */
        openb_k8s_nodes(sc.trace, &sc.a, &run_nodes, &run_nnodes);
        goto have_nodes;
    }
    if (catalog_load(NULL, &cat, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    have_cat = true;
    bool dra = sc.sched.mode == SCHED_MODE_DRA;   /* DRA: slices and classes, no device-plugin resources */
    if (inventory_build_ex(&sc.cluster, &cat, dra ? NULL : &sc.sched.dp, dra ? 0 : INV_NO_SLICES, &inv, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    have_inv = true;
    run_nodes = inv.nodes;
    run_nnodes = inv.nnodes;
    run_info = inv.info;
have_nodes:
    if (run_nnodes == 0) {
        fprintf(stderr, "drasim run: %s: the cluster has no nodes\n", path);
        rc = EXIT_BAD_INPUT;
        goto done;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    if (sc.trace) {
        sim_init(&run, &sc, run_nodes, run_nnodes);
    } else if (sim_init_inv(&run, &sc, &inv, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    have_sim = true;
    if (run.sched.res_overflow) {
        fprintf(stderr, "drasim run: %s: more than %d distinct resource names in nodes and pod groups\n", path,
                SCHED_MAX_RESOURCES);
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    if (sim_execute(&run, &interrupted)) {
        fprintf(stderr, "drasim run: interrupted; %s left unchanged\n", out);
        rc = EXIT_ERROR;
        goto done;
    }
    if (store_open(&st, out, &err) || store_write_run(&st, &run, run_info, path, &err, &interrupted) < 0 ||
        (interrupted && (sb_clear(&err), sb_puts(&err, "interrupted"), 1)) || store_commit(&st, &err)) {
        store_abort(&st);
        fprintf(stderr, "drasim run: %s; %s left unchanged\n", sb_str(&err), out);
        rc = EXIT_ERROR;
        goto done;
    }
    if (!quiet)
        printf("%s: %zu nodes, %.0f pods arrived, %.0f scheduled, %.0f pending at end (%.0f unschedulable)\n"
               "  simulated %.1f h; GPU allocation %.1f%% (peak %.1f%%); wait mean %.1f s, p99 %.1f s\n"
               "  wrote %s in %.2f s\n",
               sc.name, run_nnodes, sim_metric_get(&run, "pods_arrived"), sim_metric_get(&run, "pods_scheduled"),
               sim_metric_get(&run, "pods_pending_at_end"), sim_metric_get(&run, "unschedulable"),
               (double)run.end_time / 3600000.0, sim_metric_get(&run, "gpu_alloc_pct"),
               sim_metric_get(&run, "gpu_alloc_peak_pct"), sim_metric_get(&run, "wait_mean_s"),
               sim_metric_get(&run, "wait_p99_s"), out, now_s() - t0);
    if (!quiet && sc.trace)
        printf("  policy %s: %.0f%% of GPU capacity arrived; %.2f%% of GPUs allocated, %.2f%% fragmented at the end\n",
               sc.sched.policy ? sc.sched.policy : "fgd", sim_metric_get(&run, "arrived_gpu_pct"),
               sim_metric_get(&run, "gpu_milli_alloc_pct_end"), sim_metric_get(&run, "frag_gpu_pct_end"));
done:
    if (have_sim) sim_free(&run);
    if (have_inv) inventory_free(&inv);
    if (have_cat) catalog_free(&cat);
    scenario_free(&sc);
    sb_free(&err);
    intern_reset();
    return rc;
}
