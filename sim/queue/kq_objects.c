/*
 * kq_objects.c -- Kueue Workload objects as the semantics' workloads: the
 * admitted ones charged to their ClusterQueue (status.admission, as Kueue's
 * cache does), a pending one resolved through its LocalQueue
 * (spec.queueName in its namespace -> spec.clusterQueue) and its priority
 * (spec.priority, else the WorkloadPriorityClass's value, else 0).
 */
#include <stdlib.h>
#include <string.h>

#include "queue/kq_objects.h"
#include "util/xalloc.h"

static int32_t wl_priority(const kq_objects *o, const kq_workload *w) {
    if (w->has_priority) return w->priority;
    const kq_priority_class *p = w->priority_class ? kq_find_wpc(o, w->priority_class) : NULL;
    return p ? p->value : 0;
}

static void wl_common(const kq_objects *o, const kq_workload *w, kq_wl *out, uint64_t seq) {
    memset(out, 0, sizeof *out);
    out->obj = w;
    out->name = w->meta.name;
    out->priority = wl_priority(o, w);
    out->queue_order_time = w->created ? w->created : "";
    out->reserved_at = w->reserved_at;
    out->reserved_ms = -1;
    out->evicted = w->evicted;
    out->seq = seq;
}

/* An admitted workload's usage per (flavor, resource): resourceUsage when
 * given, else the per-pod request times the admitted count. */
static void admitted_usage(kq_snapshot *s, const kq_workload *w, kq_wl *out) {
    size_t cap = 0;
    for (size_t i = 0; i < w->npod_sets; i++) cap += w->pod_sets[i].nflavors;
    out->usage = xmalloc((cap ? cap : 1) * sizeof *out->usage);
    for (size_t i = 0; i < w->npod_sets; i++) {
        const kq_pod_set *ps = &w->pod_sets[i];
        for (size_t k = 0; k < ps->nflavors; k++) {
            const char *res = ps->flavors[k].resource;
            int64_t amt = -1;
            for (size_t u = 0; u < ps->nusage; u++)
                if (ps->usage[u].name == res) amt = kq_resource_value(res, &ps->usage[u].value);
            if (amt < 0) {
                amt = 0;
                for (size_t r = 0; r < ps->spec.nrequests; r++)
                    if (ps->spec.requests[r].name == res)
                        amt = kq_resource_value(res, &ps->spec.requests[r].value) * ps->admitted_count;
            }
            uint32_t fr = kq_fr_index(s, ps->flavors[k].flavor, res);
            size_t j = 0;
            while (j < out->nusage && out->usage[j].fr != fr) j++;
            if (j == out->nusage) out->usage[out->nusage++] = (kq_usage){fr, 0};
            out->usage[j].amount = kq_sat_add(out->usage[j].amount, amt);
        }
    }
}

void kq_load_admitted(kq_loaded *l, const kq_objects *o) {
    memset(l, 0, sizeof *l);
    kq_snapshot_build(&l->s, o);
    l->wls = xcalloc(o->workloads.len ? o->workloads.len : 1, sizeof *l->wls);
    for (size_t i = 0; i < o->workloads.len; i++) {
        const kq_workload *w = o->workloads.data[i];
        if (!w->admitted_cq) continue;
        kq_wl *x = &l->wls[l->nwls++];
        wl_common(o, w, x, i);
        x->cq = kq_snapshot_cq(&l->s, w->admitted_cq);
        admitted_usage(&l->s, w, x);
        kq_admit_wl(&l->s, x);
    }
}

void kq_loaded_free(kq_loaded *l) {
    for (size_t i = 0; i < l->nwls; i++) free(l->wls[i].usage);
    free(l->wls);
    kq_snapshot_free(&l->s);
    memset(l, 0, sizeof *l);
}

int kq_pending_from(kq_loaded *l, const kq_objects *o, const kq_workload *w, kq_pending *p, strbuf *why) {
    memset(p, 0, sizeof *p);
    wl_common(o, w, &p->wl, o->workloads.len);
    if (!w->queue_name) {
        sb_printf(why, "Workload %s has no spec.queueName: Kueue does not manage it", w->meta.name);
        return 1;
    }
    const kq_local_queue *lq = kq_find_lq(o, w->meta.namespace_, w->queue_name);
    if (!lq) {   /* Kueue: the workload stays pending, "LocalQueue X doesn't exist" */
        sb_printf(why, "LocalQueue %s doesn't exist", w->queue_name);
        return 1;
    }
    p->cq = kq_snapshot_cq(&l->s, lq->cluster_queue);
    p->wl.cq = p->cq;
    p->npod_sets = w->npod_sets;
    p->ps_names = xmalloc(w->npod_sets * sizeof *p->ps_names);
    p->ps_counts = xmalloc(w->npod_sets * sizeof *p->ps_counts);
    p->ps_specs = xmalloc(w->npod_sets * sizeof *p->ps_specs);
    p->ps_tas = xmalloc(w->npod_sets * sizeof *p->ps_tas);
    for (size_t i = 0; i < w->npod_sets; i++) {
        p->ps_tas[i] = w->pod_sets[i].tas.has ? &w->pod_sets[i].tas : NULL;
        p->ps_names[i] = w->pod_sets[i].name;
        p->ps_counts[i] = w->pod_sets[i].count;
        p->ps_specs[i] = &w->pod_sets[i].spec;
    }
    return 0;
}

void kq_pending_free(kq_pending *p) {
    free(p->ps_names);
    free(p->ps_counts);
    free(p->ps_specs);
    free(p->ps_tas);
    memset(p, 0, sizeof *p);
}
