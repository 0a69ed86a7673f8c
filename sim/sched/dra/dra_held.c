/* dra_held.c -- allocations made before the run (cluster.state, docs/STATE.md):
 * a recorded claim's devices taken from the allocator and counted among the
 * live allocations, without a pod class or a record of the plugin. */
#include "sched/dra/dra.h"
#include "sched/dra/dra_internal.h"

void dra_hold(dra_state *d, const k8s_allocation *al, int sign) {
    if (sign > 0) allocator_commit(d->A, al);
    else allocator_release(d->A, al);
    d->cur_gpu_equiv += sign * dra_allocation_gpu_equiv(d, al);
    d->cur_mig_devices += sign * dra_allocation_mig_devices(d, al);
    if (d->cur_gpu_equiv < 1e-9) d->cur_gpu_equiv = d->cur_gpu_equiv > -1e-9 ? 0 : d->cur_gpu_equiv;
    if (d->cur_gpu_equiv > d->peak_gpu_equiv) d->peak_gpu_equiv = d->cur_gpu_equiv;
}
