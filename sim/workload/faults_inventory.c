/*
 * faults_inventory.c -- the cluster as it stands now (drasim inventory --at):
 * the run's fault state written back into its inventory: node taints and
 * cordons, the devices' taints with their timeAdded, and in device-plugin
 * mode the allocatable GPU resources without the unhealthy GPUs.
 */
#include <time.h>

#include "model/cluster.h"
#include "workload/faults_internal.h"

/* timeAdded of simulated time t: the run starts at the Unix epoch. */
static const char *time_text(arena *a, sim_time t) {
    time_t s = (time_t)(t / 1000);
    struct tm tm;
    char buf[48];
    gmtime_r(&s, &tm);
    size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return arena_strndup(a, buf, n);
}

void faults_patch_inventory(sim_run *r, inventory *inv, arena *a) {
    faults *f = r->faults;
    if (!f) return;
    for (size_t i = 0; i < f->nnodes && i < inv->nnodes; i++) {
        k8s_node *n = &inv->nodes[i];
        n->taints = f->nodes[i].taints;
        n->ntaints = f->nodes[i].ntaints;
        n->unschedulable = f->nodes[i].unschedulable;
        if (!r->sched.units_off) continue;
        /* device plugin: allocatable counts the healthy devices only */
        k8s_resource_amount *al = ARENA_NEW(a, k8s_resource_amount, n->nallocatable ? n->nallocatable : 1);
        for (size_t k = 0; k < n->nallocatable; k++) {
            al[k] = n->allocatable[k];
            int res = sched_res_index(&r->sched, al[k].name);
            if (res > RES_PODS) al[k].value = quantity_from_int64(r->sched.alloc[i * r->sched.nres + (size_t)res], QF_DECIMAL_SI);
        }
        n->allocatable = al;
    }
    if (!f->dev) return;
    size_t k = 0;   /* the devices in index_devices' order */
    for (size_t i = 0; i < f->nnodes; i++)
        for (size_t s = 0; s < inv->info[i].nslices; s++) {
            k8s_resource_slice *sl = &inv->slices[inv->info[i].first_slice + s];
            for (size_t j = 0; j < sl->ndevices; j++, k++) {
                const fdev *d = &f->dev[k];
                if (!d->tl || !f->tl.data[d->tl - 1].e.len) continue;
                const ftlist *l = &f->tl.data[d->tl - 1];
                k8s_device *dev = &sl->devices[j];
                k8s_taint *t = ARENA_NEW(a, k8s_taint, dev->ntaints + l->e.len);
                for (size_t x = 0; x < dev->ntaints; x++) t[x] = dev->taints[x];
                for (size_t x = 0; x < l->e.len; x++) {
                    t[dev->ntaints + x] = l->e.data[x].taint;
                    t[dev->ntaints + x].time_added = time_text(a, l->e.data[x].added);
                }
                dev->taints = t;
                dev->ntaints += l->e.len;
            }
        }
}
