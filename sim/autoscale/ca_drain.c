/* ca_drain.c -- a pod on a node the autoscaler removes is evicted (drain). */
#include "autoscale/ca.h"

void ca_evict(ca_run *ca, uint32_t pod, sim_time t);
void ca_evict(ca_run *ca, uint32_t pod, sim_time t) {
    (void)sim_delete(ca->r, pod, "drained by cluster-autoscaler scale-down", t);
}
