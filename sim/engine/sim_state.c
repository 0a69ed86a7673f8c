/* sim_state.c -- pods that run already when the run starts (cluster.state,
 * docs/STATE.md): bound where the recorded cluster had them. */
#include "engine/sim.h"
#include "queue/gate.h"

int64_t sim_place_running(sim_run *r, int src, uint32_t c, const char *name, sim_time duration, size_t node,
                          sim_time t, void (*bound)(sim_run *r, void *ctx, uint32_t pod), void *ctx) {
    /* admitted and placed long ago: the queue layer and the gangs do not see it arrive; a
     * queue charges its usage (gate->running) */
    struct queue_gate *gate = r->gate;
    struct sim_gangs *gangs = r->gangs;
    r->gate = NULL;
    r->gangs = NULL;
    uint32_t id = sim_arrive(r, src, c, name, duration, t);
    placement pl;
    sched_take_class(&r->sched, c);
    bool ok = sched_bind_head_at(&r->sched, c, node, &pl) && pl.pod == id;
    if (ok) {
        sim_pod_bound(r, c, id, &pl);
        if (bound) bound(r, ctx, id);   /* what it holds besides its class's demand, before anyone counts it */
        sim_pod_start(r, id, t);
        if (gate && gate->running)   /* admitted long ago: its quota is in use (Kueue's cache, KAI's proportion count it) */
            gate->running(gate->ctx, id, c, sim_class_spec(r, c), (int32_t)node, r->nodes[node].meta.labels,
                          r->nodes[node].meta.nlabels, t);
    } else {
        sched_remove(&r->sched, c, id);
        r->pods.data[id].state = POD_DELETED;
        r->pods.data[id].end = t;
    }
    r->gate = gate;
    r->gangs = gangs;
    return ok ? (int64_t)id : -1;
}
