/*
 * kq_ahead.c -- the pending Workloads Kueue would admit before the asked one
 * in `drasim admit` (queue/kq_ahead.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq_afs.h"
#include "queue/kq_ahead.h"
#include "util/xalloc.h"

typedef struct entry {
    const kq_workload *w;
    kq_pending p;
    int lq;                          /* index in o->lqs, -1 none */
    bool done;
} entry;

/* baseCompareFunc: higher priority, earlier queue-order timestamp, then uid. */
static int base_cmp(const entry *a, const entry *b) {
    if (a->p.wl.priority != b->p.wl.priority) return a->p.wl.priority > b->p.wl.priority ? -1 : 1;
    int c = strcmp(a->p.wl.queue_order_time, b->p.wl.queue_order_time);
    if (c) return c;
    const char *ua = a->w->meta.uid ? a->w->meta.uid : a->w->meta.name;
    const char *ub = b->w->meta.uid ? b->w->meta.uid : b->w->meta.name;
    return strcmp(ua, ub);
}

/* queueOrderingFunc: with AFS, the lower LocalQueue usage first. */
static int order_cmp(const kq_afs *afs, const entry *a, const entry *b) {
    if (afs) {
        double ua = a->lq >= 0 ? kq_afs_usage(afs, (size_t)a->lq) : 0;
        double ub = b->lq >= 0 ? kq_afs_usage(afs, (size_t)b->lq) : 0;
        if (ua != ub) return ua < ub ? -1 : 1;
    }
    return base_cmp(a, b);
}

/* The admitted Workload's usage per (flavor, resource): each pod set's
 * request per pod times its count, on the flavor chosen (as the gate's
 * charge_of, for several pod sets). */
static kq_wl *charge(kq_snapshot *s, const kq_pending *p, const kq_result *r) {
    kq_wl *w = xcalloc(1, sizeof *w + (r->nchoices ? r->nchoices : 1) * sizeof(kq_usage));
    *w = p->wl;
    w->usage = (kq_usage *)(w + 1);
    w->nusage = 0;
    for (size_t i = 0; i < r->nchoices; i++) {
        const kq_choice *c = &r->choices[i];
        const k8s_pod *spec = p->ps_specs[c->pod_set];
        int64_t amt = 0;
        for (size_t k = 0; k < spec->nrequests; k++)
            if (!strcmp(spec->requests[k].name, c->resource)) amt = kq_resource_value(c->resource, &spec->requests[k].value);
        if (!strcmp(c->resource, "pods")) amt = 1;
        int64_t total = 0;
        for (int32_t n = 0; n < p->ps_counts[c->pod_set]; n++) total = kq_sat_add(total, amt);
        uint32_t fr = kq_fr_index(s, c->flavor, c->resource);
        size_t j = 0;
        while (j < w->nusage && w->usage[j].fr != fr) j++;
        if (j == w->nusage) w->usage[w->nusage++] = (kq_usage){fr, 0};
        w->usage[j].amount = kq_sat_add(w->usage[j].amount, total);
    }
    w->cq = p->cq;
    w->reserved_ms = 0;
    return w;
}

/* The entry penalty of an admission (CalculateEntryPenalty; amounts as
 * AsApproximateFloat64: cpu in cores, flavors summed). */
static void penalize(kq_afs *afs, const kq_snapshot *s, int lq, const kq_wl *w) {
    if (lq < 0 || !afs->lqs[lq].on) return;
    double *amt = xcalloc(afs->nres ? afs->nres : 1, sizeof *amt);
    for (size_t i = 0; i < w->nusage; i++) {
        const char *res = s->frs[w->usage[i].fr].resource;
        int k = kq_afs_res(afs, res);
        if (k >= 0) amt[k] += strcmp(res, "cpu") ? (double)w->usage[i].amount : (double)w->usage[i].amount / 1000.0;
    }
    kq_afs_admitted(afs, (size_t)lq, amt, afs->lqs[lq].last_update);
    free(amt);
}

void kq_admit_ahead(kq_loaded *l, const kq_objects *o, const kq_workload *asked, const kq_pending *ap, kq_ahead *out) {
    memset(out, 0, sizeof *out);
    if (!ap->cq) return;
    VEC(entry) es = {0};
    entry me = {.w = asked, .p = *ap, .lq = -1};
    for (size_t i = 0; i < o->workloads.len; i++) {
        const kq_workload *w = o->workloads.data[i];
        if (w == asked || w->admitted_cq) continue;
        entry e = {.w = w, .lq = -1};
        strbuf why = {0};
        int rc = kq_pending_from(l, o, w, &e.p, &why);
        sb_free(&why);
        if (rc || e.p.cq != ap->cq) {
            if (!rc) kq_pending_free(&e.p);
            continue;
        }
        VEC_PUSH(es, e);
    }
    /* admission fair sharing (ClusterQueue admissionScope UsageBasedAdmissionFairSharing) */
    kq_afs afs_state, *afs = NULL;
    const kq_cluster_queue *cq = ap->cq->cq;
    if (o->config.afs.on && cq && cq->usage_based_afs) {
        kq_afs_init(&afs_state, o);
        afs = &afs_state;
        out->afs = true;
        for (size_t i = 0; i < o->lqs.len; i++) {   /* the LocalQueues' status consumedResources */
            const kq_local_queue *lq = o->lqs.data[i];
            for (size_t k = 0; k < lq->nconsumed; k++) {
                int r = kq_afs_res(afs, lq->consumed[k].name);
                if (r >= 0) afs->lqs[i].consumed[r] = quantity_approx_float(&lq->consumed[k].value);
            }
        }
    }
    for (size_t i = 0; i <= es.len; i++) {
        entry *e = i < es.len ? &es.data[i] : &me;
        const kq_local_queue *lq = kq_find_lq(o, e->w->meta.namespace_, e->w->queue_name);
        for (size_t k = 0; lq && k < o->lqs.len; k++)
            if (o->lqs.data[k] == lq) e->lq = (int)k;
    }
    out->wls = xcalloc(es.len ? es.len : 1, sizeof *out->wls);
    for (;;) {   /* one head per cycle, the queue re-ordered after each admission */
        entry *head = &me;
        for (size_t i = 0; i < es.len; i++)
            if (!es.data[i].done && order_cmp(afs, &es.data[i], head) < 0) head = &es.data[i];
        if (head == &me) break;
        head->done = true;
        kq_result r = {0};
        kq_try_admit(&l->s, &head->p, &r);
        if (r.admitted) {
            kq_wl *w = charge(&l->s, &head->p, &r);
            kq_admit_wl(&l->s, w);
            out->wls[out->admitted++] = w;
            if (afs) penalize(afs, &l->s, head->lq, w);
        } else if (cq && cq->strict_fifo) {
            out->blocker = head->w->meta.name;   /* StrictFIFO: the head stays and blocks */
            kq_result_free(&r);
            break;
        }
        kq_result_free(&r);
    }
    for (size_t i = 0; i < es.len; i++) kq_pending_free(&es.data[i].p);
    VEC_FREE(es);
    if (afs) kq_afs_free(afs);
}

void kq_ahead_free(kq_ahead *a) {
    for (size_t i = 0; i < a->admitted; i++) free(a->wls[i]);
    free(a->wls);
    memset(a, 0, sizeof *a);
}
