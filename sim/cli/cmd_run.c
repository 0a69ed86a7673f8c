/* cmd_run.c -- `drasim run SCENARIO [-o results.db] [--seed N] [--quiet]`. */
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
#include "util/intern.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *out) {
    fprintf(out, "usage: drasim run SCENARIO [-o RESULTS.db] [--seed N] [--quiet]\n\n"
                 "Simulate the scenario (docs/SCENARIOS.md) and write the results database\n"
                 "(docs/SCHEMA.md). The database is replaced atomically: an error or Ctrl-C\n"
                 "leaves an existing RESULTS.db untouched.\n\n"
                 "  -o, --output FILE  results database (default results.db)\n"
                 "  --seed N           override the scenario's seed\n"
                 "  -q, --quiet        print nothing on success\n"
                 "exit codes: 0 ok, 2 usage or processing error, 3 invalid scenario\n");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_run(int argc, char **argv) {
    const char *path = NULL, *out = "results.db";
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
    if (sc.sched.mode == SCHED_MODE_DRA) {
        fprintf(stderr, "drasim run: %s: scheduling.mode dra is not available in this build yet "
                        "(use device-plugin)\n", path);
        rc = EXIT_ERROR;
        goto done;
    }
    if (catalog_load(NULL, &cat, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    have_cat = true;
    if (inventory_build_ex(&sc.cluster, &cat, &sc.sched.dp, INV_NO_SLICES, &inv, &err)) {
        fprintf(stderr, "drasim run: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    have_inv = true;
    if (inv.nnodes == 0) {
        fprintf(stderr, "drasim run: %s: the cluster has no nodes\n", path);
        rc = EXIT_BAD_INPUT;
        goto done;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    sim_init(&run, &sc, inv.nodes, inv.nnodes);
    have_sim = true;
    if (run.sched.res_overflow) {
        fprintf(stderr, "drasim run: %s: more than %d distinct resource names in nodes and pod groups\n", path,
                SCHED_MAX_RESOURCES);
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    int ex = sim_execute(&run, &interrupted);
    if (ex == -2) {   /* the Lua workload failed: script, line and traceback in run.error */
        fprintf(stderr, "drasim run: %s\n%s left unchanged\n", sb_str(&run.error), out);
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    if (ex) {
        fprintf(stderr, "drasim run: interrupted; %s left unchanged\n", out);
        rc = EXIT_ERROR;
        goto done;
    }
    if (store_open(&st, out, &err) || store_write_run(&st, &run, inv.info, path, &err, &interrupted) < 0 ||
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
               sc.name, inv.nnodes, sim_metric_get(&run, "pods_arrived"), sim_metric_get(&run, "pods_scheduled"),
               sim_metric_get(&run, "pods_pending_at_end"), sim_metric_get(&run, "unschedulable"),
               (double)run.end_time / 3600000.0, sim_metric_get(&run, "gpu_alloc_pct"),
               sim_metric_get(&run, "gpu_alloc_peak_pct"), sim_metric_get(&run, "wait_mean_s"),
               sim_metric_get(&run, "wait_p99_s"), out, now_s() - t0);
done:
    if (have_sim) sim_free(&run);
    if (have_inv) inventory_free(&inv);
    if (have_cat) catalog_free(&cat);
    scenario_free(&sc);
    sb_free(&err);
    intern_reset();
    return rc;
}
