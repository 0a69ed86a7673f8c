/* attach.c -- a scenario's workload as engine sources (see attach.h). */
#include "workload/attach.h"

#include "engine/sim.h"
#include "workload/faults.h"
#include "workload/lua_source.h"

void workload_attach(sim_run *r) {
    const scenario *sc = r->sc;
    if (sc->trace) {
        trace_source_attach(r);
        return;
    }
    if (sc->ngroups) groups_source_attach(r);
    if (sc->lua) lua_source_attach(r, sc->lua);
    faults_attach(r);   /* faults, or spot pools that interrupt (issue 30); nothing without them */
}

int workload_execute(sim_run *r, volatile sig_atomic_t *interrupt) {
    workload_attach(r);
    return sim_execute(r, interrupt);
}
