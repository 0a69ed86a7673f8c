/*
 * dra_uid.c -- per device (the allocator's uid), what Reserve and Unreserve
 * read for every plain device result (issue 31): GPU-equivalents, the MIG
 * flag, the GPU of the view it takes and how much. Looking these up by
 * name per result (attribute runs, the node's device list, the allocator's
 * name index) cost a scattered memory walk per pod at 10,000 nodes; a
 * device's attributes never change, so the answers are kept by uid. The
 * GPU entry depends on the node asked for (a device published for several
 * nodes is a GPU of none of them), so it is kept with that node.
 */
#include <string.h>

#include "sched/dra/dra_internal.h"
#include "util/xalloc.h"

const dra_uid_facts *dra_uid_facts_of(dra_state *d, uint32_t uid, size_t node) {
    if (uid >= d->nfacts) {
        size_t n = d->nfacts ? d->nfacts : 1024;
        while (n <= uid) n *= 2;
        d->facts = xrealloc(d->facts, n * sizeof *d->facts);
        memset(d->facts + d->nfacts, 0, (n - d->nfacts) * sizeof *d->facts);
        d->nfacts = n;
    }
    dra_uid_facts *f = &d->facts[uid];
    if (f->node1 == node + 1) return f;
    f->present = dra_uid_device_facts(d, uid, &f->equiv, &f->mig);
    const alloc_device_id *id = allocator_uid_device(d->A, uid);
    const dra_gpu_device *gd = dra_node_gpu_device(d, node, id->pool, id->device);
    f->gpu = gd ? gd->gpu : -1;
    f->milli = gd ? gd->milli : 0;
    f->node1 = (uint32_t)node + 1;
    return f;
}

bool dra_plain_uids(const dra_state *d, const k8s_allocation *al, uint32_t *uids, size_t max) {
    if (al->nresults > max) return false;
    for (size_t k = 0; k < al->nresults; k++) {
        const k8s_device_result *r = &al->results[k];
        if (r->admin_access || r->share_id || r->nconsumed) return false;
        if (!allocator_result_uid(d->A, r, &uids[k])) return false;
        const alloc_device_id *id = allocator_uid_device(d->A, uids[k]);
        if (id->pool != r->pool || id->device != r->device) return false;   /* names not as the snapshot's */
    }
    return true;
}
