/* ca_drain.c -- a pod on a node the autoscaler removes is evicted (drain):
 * graceful termination (its group's grace period, at most
 * max-graceful-termination-sec as CA's drain caps it), its owner replaces it
 * (engine/sim_evict.h). */
#include "autoscale/ca.h"
#include "engine/sim_evict.h"

void ca_evict(ca_run *ca, uint32_t pod, sim_time t);
void ca_evict(ca_run *ca, uint32_t pod, sim_time t) {
    sim_run *r = ca->r;
    const pod_group_spec *g = sim_class_spec(r, r->pods.data[pod].group);
    sim_time grace = g->has_grace ? g->grace : SIM_SECONDS(30);   /* the Kubernetes default */
    if (grace > ca->cfg->max_graceful_termination) grace = ca->cfg->max_graceful_termination;
    (void)sim_evict(r, pod, EVICT_DRAIN, "drained by cluster-autoscaler scale-down", grace, t);
}
