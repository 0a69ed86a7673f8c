/* runner.c -- one scenario, several seeds, one database (see runner.h). */
#include "report/runner.h"
#include "queue/gate.h"
#include "workload/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "autoscale/ca.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "report/overrides.h"
#include "util/intern.h"
#include "workload/openb_run.h"
#include "util/xalloc.h"
#include "model/trace_fleet.h"

int parse_seed_list(const char *text, uint64_t **out, size_t *n, strbuf *err) {
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    const char *p = text;
    while (1) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9') goto bad;
        unsigned long long a = strtoull(p, &end, 10), b = a;
        if (errno) goto bad;
        p = end;
        if (p[0] == '.' && p[1] == '.') {
            p += 2;
            if (*p < '0' || *p > '9') goto bad;
            b = strtoull(p, &end, 10);
            if (errno || b < a) goto bad;
            p = end;
        }
        if (b - a >= 100000 || *n + (b - a + 1) > 100000) {
            sb_clear(err);
            sb_printf(err, "--seeds %s: more than 100000 seeds", text);
            goto fail;
        }
        for (unsigned long long s = a;; s++) {
            if (*n == cap) *out = xrealloc(*out, (cap = cap ? cap * 2 : 16) * sizeof **out);
            (*out)[(*n)++] = s;
            if (s == b) break;
        }
        if (!*p) return 0;
        if (*p++ != ',') goto bad;
    }
bad:
    sb_clear(err);
    sb_printf(err, "--seeds %s: expected N, A..B (A <= B) or a comma-separated list of them", text);
fail:
    free(*out);
    *out = NULL;
    *n = 0;
    return -1;
}

static double wall_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct progress_state {
    double t0;
    size_t index, count;
    uint64_t seed;
} progress_state;

/* "\r[seed 42, 1/10] 1234567 events (350000/s), simulated 3.20 h of 8.00 h, ETA 12 s" */
static void print_progress(const sim_run *r, sim_time now, void *ud) {
    const progress_state *ps = ud;
    double el = wall_s() - ps->t0;
    double rate = el > 0 ? (double)r->nevents / el : 0;
    fprintf(stderr, "\r\033[K[seed %llu, run %zu/%zu] %llu events (%.0f/s), simulated %.2f h",
            (unsigned long long)ps->seed, ps->index + 1, ps->count, (unsigned long long)r->nevents, rate,
            (double)now / 3600000.0);
    if (r->sc->stop_time != SIM_TIME_NEVER && now > 0) {
        double eta = el * (double)(r->sc->stop_time - now) / (double)now;
        fprintf(stderr, " of %.2f h, ETA %.0f s", (double)r->sc->stop_time / 3600000.0, eta);
    } else {
        /* no stop time: estimate from the share of pods that arrived so far */
        int64_t total = 0;
        for (size_t g = 0; g < r->sc->ngroups; g++) total += r->sc->groups[g].count;
        double frac = total > 0 ? (double)r->pods.len / (double)total : 0;
        if (frac > 0)
            fprintf(stderr, ", %.0f%% of pods arrived, ETA ~%.0f s", 100.0 * frac, el * (1 - frac) / frac);
    }
    fflush(stderr);
}

/* Load the scenario file, apply the overrides to its tree, interpret it. */
static int load_scenario(const run_batch *b, scenario *sc, override_set *keep, strbuf *err) {
    memset(sc, 0, sizeof *sc);
    if (scenario_file_load_sets(b->scenario_path, b->sets, b->nsets, &sc->file, err)) return -1;
    sc->has_file = true;
    if (sc->file.ndocs != 1) {
        sb_clear(err);
        sb_printf(err, "%s: expected exactly one YAML document, found %zu", b->scenario_path, sc->file.ndocs);
        return -1;
    }
    for (size_t i = 0; i < b->nsets; i++)
        if (override_apply_from(sc->file.docs[0], b->sets[i], b->set_origins ? b->set_origins[i] : NULL, keep, err))
            return -1;
    if (trace_fleet_inline(sc->file.docs[0], &sc->file.a, err)) return -1;   /* a fleet the overrides set */
    return scenario_from_tree(sc->file.docs[0], sc, err);
}

/* One seed (index i of the batch, or the scenario's own seed). */
static int run_one(const run_batch *b, const gpu_catalog *cat, size_t i, size_t count, store *st, strbuf *err) {
    scenario sc;
    override_set keep = {0};
    inventory inv = {0};
    bool have_inv = false, have_sim = false;
    sim_run run;
    int rc = RUN_OK;
    if (load_scenario(b, &sc, &keep, err)) {
        rc = RUN_BAD_INPUT;
        goto done;
    }
    if (b->nseeds) sc.seed = b->seeds[i];
    sc.cluster.seed = sc.seed;
    if (b->policy) {
        sc.sched.policy = intern(b->policy);
    }
    /* a trace's inflated sample depends on the seed: draw it again for an overridden seed */
    if (b->nseeds && sc.trace && scenario_trace_expand(&sc, err)) {
        rc = RUN_BAD_INPUT;
        goto done;
    }
    const k8s_node *nodes;
    size_t nnodes;
    const inv_node *info = NULL;
    if (sc.trace) {   /* a trace lists its own nodes */
        k8s_node *tn;
        inv_node *ti;
        openb_k8s_nodes(sc.trace, &sc.a, &tn, &nnodes);
        openb_node_info(sc.trace, &sc.a, &ti);
        nodes = tn;
        info = ti;
    } else {
        bool dra = sc.sched.mode == SCHED_MODE_DRA;   /* DRA: slices and classes, no device-plugin resources */
        if (inventory_build_ex(&sc.cluster, cat, dra ? NULL : &sc.sched.dp, dra ? 0 : INV_NO_SLICES, &inv, err)) {
            rc = RUN_BAD_INPUT;
            goto done;
        }
        have_inv = true;
        nodes = inv.nodes;
        nnodes = inv.nnodes;
        info = inv.info;
    }
    if (nnodes == 0 && b->no_nodes) {
        *b->no_nodes = true;
        goto done;
    }
    if (nnodes == 0) {
        sb_clear(err);
        sb_printf(err, "%s: the cluster has no nodes", b->scenario_path);
        rc = RUN_BAD_INPUT;
        goto done;
    }
    if (sc.trace) {
        sim_init_info(&run, &sc, nodes, info, nnodes);
    } else if (sim_init_inv(&run, &sc, &inv, err)) {
        rc = RUN_BAD_INPUT;
        goto done;
    }
    have_sim = true;
    if (run.sched.res_overflow) {
        sb_clear(err);
        sb_printf(err, "%s: more than %d distinct resource names in nodes and pod groups", b->scenario_path,
                  SCHED_MAX_RESOURCES);
        rc = RUN_BAD_INPUT;
        goto done;
    }
    progress_state ps = {wall_s(), i, count, sc.seed};
    if (b->progress) {
        run.progress = print_progress;
        run.progress_ud = &ps;
    }
    run.gate = sc.kai_queues ? kai_gate_new(&sc) : kq_gate_new(&sc);   /* Kueue or KAI in front of the scheduler (queue/gate.h), NULL without queues */
    if (run.gate && run.gate->cluster) run.gate->cluster(run.gate->ctx, &run.sched);   /* Kueue TAS reads the nodes */
    workload_attach(&run);
    if (sc.autoscaler && info) ca_attach(&run, info);   /* after the workload: its scans follow the arrivals of an instant */
    int ex = sim_execute(&run, b->interrupt);
    if (b->progress) fputs("\r\033[K", stderr);
    if (ex == -2) {   /* the workload source (Lua) failed: script, line and traceback in run.error */
        sb_clear(err);
        sb_puts(err, sb_str(&run.error));
        rc = RUN_BAD_INPUT;
        goto done;
    }
    if (ex) {
        sb_clear(err);
        sb_puts(err, "interrupted");
        rc = RUN_INTERRUPTED;
        goto done;
    }
    int64_t id = store_write_run(st, &run, info, b->scenario_path, err, b->interrupt);
    if (id < 0 || (b->interrupt && *b->interrupt)) {
        if (id >= 0) {
            sb_clear(err);
            sb_puts(err, "interrupted");
        }
        rc = b->interrupt && *b->interrupt ? RUN_INTERRUPTED : RUN_ERROR;
        goto done;
    }
    if (b->on_run) b->on_run(&run, nnodes, id, b->ud);
done:
    if (rc == RUN_BAD_INPUT && b->interrupt && *b->interrupt) {   /* a loop that polls Ctrl-C stopped (util/interrupt.h) */
        sb_clear(err);
        sb_puts(err, "interrupted");
        rc = RUN_INTERRUPTED;
    }
    if (have_sim) sim_free(&run);
    if (have_inv) inventory_free(&inv);
    scenario_free(&sc);
    overrides_free(&keep);
    return rc;
}

int run_batch_execute(const run_batch *b, store *st, strbuf *err) {
    gpu_catalog cat;
    if (catalog_load(NULL, &cat, err)) return RUN_ERROR;
    size_t count = b->nseeds ? b->nseeds : 1;
    int rc = RUN_OK;
    for (size_t i = 0; i < count && rc == RUN_OK && !(b->no_nodes && *b->no_nodes); i++)
        rc = run_one(b, &cat, i, count, st, err);
    catalog_free(&cat);
    return rc;
}
