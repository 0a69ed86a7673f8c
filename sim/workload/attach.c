/* attach.c -- a scenario's workload as engine sources (see attach.h). */
#include "workload/attach.h"

#include "engine/sim.h"
#include "workload/faults.h"
#include "workload/lua_source.h"
#include "model/scenario_jobs.h"

void workload_attach(sim_run *r) {
    const scenario *sc = r->sc;
    if (sc->state) state_source_attach(r);   /* first: the recorded pods take their places at time 0 */
    if (sc->trace) {
        trace_source_attach(r);
        return;
    }
    if (sc->ngroups) groups_source_attach(r);
    if (sc->lua) lua_source_attach(r, sc->lua);
    for (size_t i = 0; i < sc->njobs; i++) jobs_source_attach(r, &sc->jobs[i]);
    faults_attach(r);   /* faults, or spot pools that interrupt (issue 30); nothing without them */
}

int workload_execute(sim_run *r, volatile sig_atomic_t *interrupt) {
    workload_attach(r);
    return sim_execute(r, interrupt);
}
