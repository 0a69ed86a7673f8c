/*
 * faults_limit.c -- a bound on the fault timeline (issue 25): a run may hold
 * at most faults_max_events() fault events (failures drawn by the processes,
 * timed repairs, drains, rule changes and events-file rows) and as many
 * timeline points (DRASIM_MAX_FAULT_EVENTS overrides the default of
 * FAULTS_MAX_EVENTS_DEFAULT). With a stop time the processes' expected draws
 * are checked before the run starts, naming the process; without one (or
 * from Lua's verbs) the run stops with an error when the count is reached.
 * Either way nothing is written. The per-target rate cap (1e6 per day, also
 * for `mtbf`) is the scenario's (model/scenario_faults.c); this bounds what
 * the rates times the fleet times the run add up to.
 */
#include <stdlib.h>

#include "workload/faults_internal.h"

#define MS_PER_DAY 86400000.0

int64_t faults_max_events(void) {
    const char *env = getenv("DRASIM_MAX_FAULT_EVENTS");
    if (env && *env) {
        char *end;
        long long v = strtoll(env, &end, 10);
        if (*end == 0 && v > 0) return v;
    }
    return FAULTS_MAX_EVENTS_DEFAULT;
}

/* Before the run: the draws each process is expected to make by stop.time. */
static int check_expected(sim_run *r, faults *f) {
    const fault_spec *fs = r->sc->faults;
    sim_time stop = r->sc->stop_time;
    if (stop == SIM_TIME_NEVER) return 0;
    if (!f->max_events) f->max_events = faults_max_events();
    double limit = (double)f->max_events, total = 0;
    for (size_t k = 0; k < f->ngproc + f->nnproc; k++) {
        bool gpu = k < f->ngproc;
        const fproc *p = gpu ? &f->gproc[k] : &f->nproc[k - f->ngproc];
        const ynode *at = gpu ? fs->gpu[k].where : fs->node[k - f->ngproc].where;
        double draws = p->rate_ms * (double)p->n * (double)stop;
        total += draws;
        if (total <= limit) continue;
        sb_clear(&r->error);
        sb_printf(&r->error,
                  "%s:%d:%d: faults.%s: about %.3g failures would be drawn by stop.time (%.3g per %s-day x %zu %ss x "
                  "%.3g days%s), more than the limit of %lld fault events per run: lower the rate or stop earlier "
                  "(DRASIM_MAX_FAULT_EVENTS raises the limit)",
                  at->file, at->line, at->col, gpu ? "gpuFailures" : "nodeFailures", draws, p->rate_ms * MS_PER_DAY,
                  gpu ? "GPU" : "node", p->n, gpu ? "GPU" : "node", (double)stop / MS_PER_DAY,
                  total > draws ? ", with the processes before it" : "", (long long)f->max_events);
        return -1;
    }
    return 0;
}

int faults_limited_start(sim_run *r, void *ctx) {
    faults *f = ctx;
    if (faults_source_start(r, ctx)) return -1;
    return r->sc->faults ? check_expected(r, f) : 0;
}

/* The error once the count is reached (0 before). */
static int over(sim_run *r, faults *f, sim_time t) {
    if (!f->max_events) f->max_events = faults_max_events();   /* (the state may be made by a Lua verb, after start) */
    if (f->nevents <= f->max_events && (int64_t)f->timeline.len <= f->max_events) return 0;
    sb_clear(&r->error);
    const ynode *at = r->sc->faults ? r->sc->faults->where : NULL;
    if (at) sb_printf(&r->error, "%s:%d:%d: ", at->file, at->line, at->col);
    sb_printf(&r->error,
              "faults: more than %lld fault events (failures, repairs, drains, rule changes) by t = %.3f s: lower "
              "the rates of faults.gpuFailures / nodeFailures or stop earlier (DRASIM_MAX_FAULT_EVENTS raises the "
              "limit)",
              (long long)f->max_events, (double)t / 1000.0);
    return -1;
}

int faults_limited_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    faults *f = ctx;
    int kind = (int)(arg >> 48);
    if (kind == FEV_K_GPU_PROC || kind == FEV_K_NODE_PROC || kind == FEV_K_ACTION || kind == FEV_K_SPOT_PROC) f->nevents++;
    if (over(r, f, t)) return -1;
    return faults_source_event(r, ctx, arg, t);
}

int faults_limited_after_pass(sim_run *r, void *ctx, sim_time t) {
    return over(r, ctx, t);   /* Lua's verbs add timeline points too */
}
