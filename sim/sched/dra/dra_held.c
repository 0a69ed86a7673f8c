/* dra_held.c -- allocations made before the run (cluster.state, docs/STATE.md):
 * a recorded claim's devices taken from the allocator and counted among the
 * live allocations, without a pod class or a record of the plugin; and the
 * claim objects behind records, for `drasim state` (cli/state_dump.c). */
#include "sched/dra/dra.h"
#include "sched/dra/dra_internal.h"

#include <string.h>

void dra_hold(dra_state *d, const k8s_allocation *al, int sign) {
    if (sign > 0) allocator_commit(d->A, al);
    else allocator_release(d->A, al);
    d->cur_gpu_equiv += sign * dra_allocation_gpu_equiv(d, al);
    d->cur_mig_devices += sign * dra_allocation_mig_devices(d, al);
    if (d->cur_gpu_equiv < 1e-9) d->cur_gpu_equiv = d->cur_gpu_equiv > -1e-9 ? 0 : d->cur_gpu_equiv;
    if (d->cur_gpu_equiv > d->peak_gpu_equiv) d->peak_gpu_equiv = d->cur_gpu_equiv;
}

const k8s_resource_claim *dra_record_claim(const dra_state *d, uint32_t c, const dra_record *r, bool *extended) {
    *extended = false;
    if (r->shared) {
        for (size_t j = 0; j < d->nshared; j++)
            if (d->shared[j].name == r->claim) return &d->shared[j].claim;
        return NULL;
    }
    if (c >= d->ncls) return NULL;
    const dra_class *k = &d->cls[c];
    for (size_t i = 0; i < k->nown; i++)
        if (k->own_names[i] == r->claim) {
            *extended = !strcmp(k->own_names[i], "<extended-resources>");
            return &k->own[i];
        }
    return NULL;
}

void dra_hold_record(dra_state *d, uint32_t pod, const k8s_resource_claim *claim, bool first) {
    dra_record r = {.pod = pod, .claim = claim->meta.name};
    if (first) {   /* the claim's GPUs are the first reserving pod's, as a shared claim's first user's */
        r.gpu_equiv = dra_allocation_gpu_equiv(d, &claim->allocation);
        r.mig_devices = (uint16_t)dra_allocation_mig_devices(d, &claim->allocation);
    }
    dra_add_record(d, &r, &claim->allocation, NULL);   /* ids looked up by name */
}

void dra_hold_records_end(dra_state *d, uint32_t pod) {
    size_t n;
    dra_record *r = (dra_record *)dra_pod_records(d, pod, &n);
    for (size_t i = 0; i < n; i++) r[i].deleted = true;
}
