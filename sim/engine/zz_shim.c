/* TEMPORARY SHIM (not committed) */
#include "engine/sim_evict.h"
#include "sched/framework.h"
int sim_evict(sim_run *r, uint32_t pod, evict_cause cause, const char *reason, sim_time grace, sim_time t) {
    (void)cause; (void)grace;
    return sim_delete(r, pod, reason, t);
}
void sim_schedule_background(sim_run *r, int src, sim_time t, uint64_t arg) {
    sim_schedule_source(r, src, t, arg);
    r->live_events--;
}
void sched_node_changed(scheduler *s, size_t node) {
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        pod_class *c = &s->classes[ci];
        bool ok = c->prefiltered;
        for (size_t p = 0; p < s->nplugins && ok; p++)
            if (s->plugins[p]->filter_static) ok = s->plugins[p]->filter_static(s, c, node, NULL);
        if (ok) c->eligible[node >> 6] |= (uint64_t)1 << (node & 63);
        else c->eligible[node >> 6] &= ~((uint64_t)1 << (node & 63));
        sched_refresh_class(s, (uint32_t)ci);
    }
}
