/*
 * sim_cd.c -- one ComputeDomain per node at a time: the IMEX daemon's tenure
 * per node and the pods held in ContainerCreating while the previous one
 * leaves (sim_cd.h).
 */
#include "engine/sim_cd.h"

#include <stdlib.h>

#include "util/xalloc.h"

void sim_cd_init(sim_run *r) {
    const scenario *sc = r->sc;
    if (!sc->ncds || sc->sched.mode != SCHED_MODE_DRA) return;
    bool used = false;
    for (size_t g = 0; g < sc->ngroups && !used; g++) used = sc->groups[g].compute_domain != 0;
    used |= sc->lua != NULL;   /* a Lua pod may name a ComputeDomain's channel template (workload/lua_pods.c) */
    if (!used) return;
    sim_cd *C = xcalloc(1, sizeof *C);
    size_t n = r->nnodes ? r->nnodes : 1;
    C->holder = xcalloc(n, sizeof *C->holder);
    C->users = xcalloc(n, sizeof *C->users);
    C->handover = sc->cluster.publish.imex_handover_set ? sc->cluster.publish.imex_handover_ms : SIM_CD_HANDOVER_DEFAULT;
    r->cd = C;
}

void sim_cd_free(sim_run *r) {
    sim_cd *C = r->cd;
    if (!C) return;
    free(C->holder);
    free(C->users);
    VEC_FREE(C->daemons);
    free(C);
    r->cd = NULL;
}

/* The pod's ComputeDomain index + 1 (0: none). */
static uint32_t pod_cd(const sim_run *r, uint32_t id) {
    const sim_pod *p = &r->pods.data[id];
    return sim_class_spec(r, p->group)->compute_domain;
}

static void new_daemon(sim_cd *C, uint32_t cd, int32_t node, int32_t prev, sim_time bound, sim_time ready) {
    sim_cd_daemon d = {.cd = cd, .node = node, .prev_cd = prev, .bound = bound, .ready = ready, .released = -1};
    VEC_PUSH(C->daemons, d);
    C->holder[node] = (uint32_t)C->daemons.len;
}

sim_time sim_cd_pod_start(sim_run *r, uint32_t id, sim_time t) {
    sim_cd *C = r->cd;
    uint32_t cd = pod_cd(r, id);
    if (!cd) return 0;
    int32_t n = r->pods.data[id].node;
    sim_time wait = 0;
    sim_cd_daemon *d = C->holder[n] ? &C->daemons.data[C->holder[n] - 1] : NULL;
    if (d && C->users[n] > 0 && d->cd == cd - 1) {
        /* another pod of the same ComputeDomain (a shared claim): its daemon runs */
    } else if (d && C->users[n] == 0 && t < d->released) {
        /* the last daemon is still leaving: Prepare fails until it is gone (same ComputeDomain too: the
         * label left with the last pod's Unprepare, so the DaemonSet deleted its daemon) */
        wait = d->released - t;
        C->waits++;
        C->wait_ms += wait;
        if (d->cd != cd - 1) {
            C->conflicts++;
            C->conflict_ms += wait;
        }
        new_daemon(C, cd - 1, n, (int32_t)d->cd, t, d->released);
    } else if (!d || C->users[n] == 0) {
        new_daemon(C, cd - 1, n, -1, t, t);
    }
    /* else: a pod of another ComputeDomain while one runs there cannot pass the allocator (channel-0) */
    C->users[n]++;
    return wait;
}

void sim_cd_pod_end(sim_run *r, uint32_t id, sim_time t) {
    sim_cd *C = r->cd;
    if (!pod_cd(r, id)) return;
    int32_t n = r->pods.data[id].node;
    if (n < 0 || !C->holder[n] || C->users[n] <= 0) return;
    if (--C->users[n]) return;
    sim_cd_daemon *d = &C->daemons.data[C->holder[n] - 1];
    sim_time from = t > d->ready ? t : d->ready;   /* a pod that ended while it waited */
    d->released = from + C->handover;
}

void sim_cd_summary(sim_run *r) {
    const sim_cd *C = r->cd;
    if (!C) return;
    sim_metric_add(r, "cd_daemons", (double)C->daemons.len);
    sim_metric_add(r, "cd_setup_conflicts", (double)C->conflicts);
    sim_metric_add(r, "cd_conflict_seconds", (double)C->conflict_ms / 1000.0);
    sim_metric_add(r, "cd_setup_waits", (double)C->waits);
    sim_metric_add(r, "cd_wait_seconds", (double)C->wait_ms / 1000.0);
}
