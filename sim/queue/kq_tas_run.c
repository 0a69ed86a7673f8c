/*
 * kq_tas_run.c -- Kueue TAS inside a run (see kq_tas_run.h; kueue
 * ff69552e79). Our own C re-implementation.
 */
#include "queue/kq_tas_run.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"

typedef struct tas_flavor {
    const kq_flavor *fl;
    bool built;
    kq_tas_snapshot s;
    int32_t *node_leaf;              /* per scheduler node: leaf index, -1 = not in the flavor's tree */
    int *sched_res;                  /* per snapshot resource: the scheduler's index, -1 = none */
    int64_t *pend;                   /* [leaf * nres + r]: admitted TAS pods not bound yet */
    k8s_kv **sel;                    /* per leaf: the ungater's nodeSelector (made on first use) */
    size_t nsel;                     /* entries of each selector */
    /* one evaluation (kq_tas_run_step): the leaves' usage, less the preemption
     * candidates removed so far; every fit check starts from it */
    int64_t *base;                   /* [leaf * nres + r] */
    bool base_ok;
    unsigned seen;                   /* the fit check whose usage was last set from base; UINT_MAX none */
} tas_flavor;

typedef struct tas_pod {             /* per pod id: an admitted pod of an assignment */
    int32_t flavor, leaf;            /* flavor index + 1 (0 = none) and leaf */
    const int64_t *amount;           /* one pod's request per snapshot resource */
    bool bound;
    uint32_t next;                   /* the next pod of its Workload + 1 (0: the last); the lead pod first */
} tas_pod;

typedef struct proposal {            /* the assignment of a pending Workload's last evaluation */
    uint32_t lead;
    int32_t flavor;
    kq_tas_assignment a;
} proposal;

struct kq_tas_run {
    const kq_objects *o;
    const scheduler *sched;
    tas_flavor *f;
    size_t nf;
    int32_t last;                    /* the flavor the last non-empty pass used */
    VEC(tas_pod) pods;
    VEC(proposal) props;
    VEC(int64_t *) amounts;          /* owned request arrays */
    bool changed;
    unsigned pass;                   /* fit checks of TAS-aware preemption */
};

kq_tas_run *kq_tas_run_new(const kq_objects *o, const scheduler *s) {
    if (!o || !o->topologies.len) return NULL;
    kq_tas_run *t = xcalloc(1, sizeof *t);
    t->o = o;
    t->sched = s;
    t->f = xcalloc(o->flavors.len ? o->flavors.len : 1, sizeof *t->f);
    for (size_t i = 0; i < o->flavors.len; i++)
        if (o->flavors.data[i]->topology_name) t->f[t->nf++].fl = o->flavors.data[i];
    return t;
}

/* The flavor's tree over the scheduler's nodes, made on first use. */
static tas_flavor *flavor(kq_tas_run *t, const kq_flavor *fl, int32_t *index) {
    size_t k = 0;
    while (k < t->nf && t->f[k].fl != fl) k++;
    if (k == t->nf) return NULL;
    tas_flavor *f = &t->f[k];
    *index = (int32_t)k;
    if (f->built) return f;
    const kq_topology *topo = kq_find_topology(t->o, fl->topology_name);
    if (!topo) return NULL;
    const scheduler *s = t->sched;
    kq_tas_build_live(&f->s, topo, fl, s->nodes, s->nnodes);
    f->built = true;
    f->node_leaf = xmalloc((s->nnodes ? s->nnodes : 1) * sizeof *f->node_leaf);
    for (size_t i = 0; i < s->nnodes; i++) f->node_leaf[i] = f->s.nleaves ? kq_tas_leaf_of(&f->s, &s->nodes[i]) : -1;
    f->sched_res = xmalloc(f->s.nres * sizeof *f->sched_res);
    for (size_t r = 0; r < f->s.nres; r++) f->sched_res[r] = sched_res_index(s, f->s.res[r]);
    f->pend = xcalloc((f->s.nleaves ? f->s.nleaves : 1) * f->s.nres, sizeof *f->pend);
    f->sel = xcalloc(f->s.nleaves ? f->s.nleaves : 1, sizeof *f->sel);
    size_t cells = f->s.nleaves * f->s.nres;
    f->base = xmalloc((cells ? cells : 1) * sizeof *f->base);
    return f;
}

/* The flavor's leaves' usage now (into base): the scheduler's requested (an
 * absent node: all of it) and the admitted pods not bound yet. */
static void base_usage(kq_tas_run *t, tas_flavor *f) {
    size_t nres = f->s.nres;
    memcpy(f->base, f->pend, f->s.nleaves * nres * sizeof *f->base);
    const scheduler *s = t->sched;
    for (size_t i = 0; i < s->nnodes; i++) {
        if (f->node_leaf[i] < 0) continue;
        int64_t *u = f->base + (size_t)f->node_leaf[i] * nres;
        const int64_t *src = sched_node_present(s, i) ? s->used : s->alloc;
        for (size_t r = 0; r < nres; r++)
            if (f->sched_res[r] >= 0) u[r] += src[i * s->nres + (size_t)f->sched_res[r]];
    }
    f->base_ok = true;
    f->seen = UINT_MAX;
}

/* kq_tas_source: the flavor's leaves charged with base_usage, computed once
 * per evaluation; a new fit check (live_pass) starts again from it. */
static kq_tas_snapshot *live_snapshot(void *ctx, const kq_flavor *fl, bool empty) {
    kq_tas_run *t = ctx;
    int32_t k;
    tas_flavor *f = flavor(t, fl, &k);
    if (!f) return NULL;
    size_t nres = f->s.nres;
    if (empty) {
        for (size_t li = 0; li < f->s.nleaves; li++) memset(f->s.leaves[li]->used, 0, nres * sizeof(int64_t));
        f->seen = UINT_MAX;
        return &f->s;
    }
    t->last = k;
    if (!f->base_ok) base_usage(t, f);
    if (f->seen != t->pass) {
        for (size_t li = 0; li < f->s.nleaves; li++)
            memcpy(f->s.leaves[li]->used, f->base + li * nres, nres * sizeof(int64_t));
        f->seen = t->pass;
    }
    return &f->s;
}

static void live_pass(void *ctx) { ((kq_tas_run *)ctx)->pass++; }

/* TAS-aware preemption: admitted Workload w's pods (kq_tas_run_commit's
 * chain from its lead pod, w->seq) leave the base usage of their domains,
 * bound or not (add: they return). */
static void live_wl_usage(void *ctx, const kq_wl *w, bool add) {
    kq_tas_run *t = ctx;
    uint32_t pod = (uint32_t)w->seq;
    for (size_t guard = 0; pod < t->pods.len && guard < t->pods.len; guard++) {
        const tas_pod *tp = &t->pods.data[pod];
        if (tp->flavor) {
            tas_flavor *f = &t->f[tp->flavor - 1];
            if (!f->base_ok) base_usage(t, f);
            int64_t *b = f->base + (size_t)tp->leaf * f->s.nres;
            for (size_t r = 0; r < f->s.nres; r++) b[r] += add ? tp->amount[r] : -tp->amount[r];
            f->seen = UINT_MAX;
        }
        if (!tp->next) break;
        pod = tp->next - 1;
    }
}

static void drop_proposal(kq_tas_run *t, uint32_t lead) {
    for (size_t i = 0; i < t->props.len; i++)
        if (t->props.data[i].lead == lead) {
            kq_tas_assignment_free(&t->props.data[i].a);
            t->props.data[i] = t->props.data[--t->props.len];
            return;
        }
}

void kq_tas_run_step(kq_tas_run *t, kq_snapshot *s, uint32_t lead, const kq_pending *p, kq_result *r) {
    kq_tas_assignment ta[8];
    memset(ta, 0, sizeof ta);
    if (p->npod_sets > 8) return;
    t->last = -1;
    for (size_t k = 0; k < t->nf; k++) t->f[k].base_ok = false;   /* the nodes changed since */
    kq_tas_source src = {live_snapshot, live_pass, live_wl_usage, t};
    kq_tas_admit_with(s, p, r, ta, &src);
    drop_proposal(t, lead);
    if (r->admitted && ta[0].nlevels && t->last >= 0) {   /* the gate's Workloads have one pod set */
        proposal pr = {lead, t->last, ta[0]};
        VEC_PUSH(t->props, pr);
        ta[0] = (kq_tas_assignment){0};
    }
    for (size_t i = 0; i < p->npod_sets; i++) kq_tas_assignment_free(&ta[i]);
}

/* The ungater's nodeSelector of leaf li: the assignment's levels (from the
 * hostname when that is the lowest level, else all) and the leaf's values. */
static const k8s_kv *selector(tas_flavor *f, size_t li, size_t first) {
    if (!f->sel[li]) {
        const kq_tas_dom *d = f->s.leaves[li];
        f->nsel = f->s.nlevels - first;
        f->sel[li] = xmalloc(f->nsel * sizeof **f->sel);
        for (size_t l = 0; l < f->nsel; l++)
            f->sel[li][l] = (k8s_kv){intern(f->s.levels[first + l]), intern(d->values[first + l])};
    }
    return f->sel[li];
}

static int leaf_of_domain(const tas_flavor *f, size_t first, const kq_tas_domain *d) {
    for (size_t li = 0; li < f->s.nleaves; li++) {
        const kq_tas_dom *x = f->s.leaves[li];
        bool same = true;
        for (size_t l = first; l < f->s.nlevels && same; l++) same = !strcmp(x->values[l], d->values[l - first]);
        if (same) return (int)li;
    }
    return -1;
}

static void charge(tas_flavor *f, const tas_pod *tp, int sign) {
    for (size_t r = 0; r < f->s.nres; r++) f->pend[(size_t)tp->leaf * f->s.nres + r] += sign * tp->amount[r];
}

void kq_tas_run_commit(kq_tas_run *t, uint32_t lead, const uint32_t *pods, size_t n, const k8s_pod *spec,
                       queue_cycle_out *out) {
    proposal *pr = NULL;
    for (size_t i = 0; i < t->props.len && !pr; i++)
        if (t->props.data[i].lead == lead) pr = &t->props.data[i];
    if (!pr) return;
    tas_flavor *f = &t->f[pr->flavor];
    int64_t *amt = xcalloc(f->s.nres, sizeof *amt);
    VEC_PUSH(t->amounts, amt);
    for (size_t r = 0; r < f->s.nres; r++) {
        if (!strcmp(f->s.res[r], "pods")) {
            amt[r] = 1;   /* resources.OnePodRequest */
            continue;
        }
        for (size_t k = 0; k < spec->nrequests; k++)
            if (!strcmp(spec->requests[k].name, f->s.res[r])) amt[r] += kq_resource_value(f->s.res[r], &spec->requests[k].value);
    }
    size_t first = f->s.nlevels - pr->a.nlevels, j = 0;
    /* Kueue's ungater, non-ranked path (topology_ungater.go assignGatedPodsToDomainsGreedy,
     * ff69552e79): pods in order fill the domains in order. Its ranked path (pods with a
     * completion index, assignGatedPodsByRanks) is not modelled: drasim pods carry no index. */
    for (size_t d = 0; d < pr->a.ndomains && j < n; d++) {
        int li = leaf_of_domain(f, first, &pr->a.domains[d]);
        if (li < 0) continue;
        const k8s_kv *sel = selector(f, (size_t)li, first);
        for (int32_t c = 0; c < pr->a.domains[d].count && j < n; c++, j++) {
            uint32_t pod = pods[j];
            while (t->pods.len <= pod) VEC_PUSH(t->pods, (tas_pod){0});
            tas_pod *tp = &t->pods.data[pod];
            *tp = (tas_pod){pr->flavor + 1, li, amt, false, j + 1 < n ? pods[j + 1] + 1 : 0};
            charge(f, tp, +1);
            queue_pin pin = {pod, sel, f->nsel};
            VEC_PUSH(out->pins, pin);
        }
    }
    drop_proposal(t, lead);
    t->changed = true;
}

bool kq_tas_run_changed(const kq_tas_run *t) { return t->changed; }

void kq_tas_run_cycle(kq_tas_run *t) {
    for (size_t i = 0; i < t->props.len; i++) kq_tas_assignment_free(&t->props.data[i].a);
    t->props.len = 0;
    t->changed = false;
}

void kq_tas_run_bound(kq_tas_run *t, uint32_t pod) {
    if (pod >= t->pods.len) return;
    tas_pod *tp = &t->pods.data[pod];
    if (!tp->flavor || tp->bound) return;
    charge(&t->f[tp->flavor - 1], tp, -1);
    tp->bound = true;
}

void kq_tas_run_ended(kq_tas_run *t, uint32_t pod) {
    if (pod >= t->pods.len) return;
    tas_pod *tp = &t->pods.data[pod];
    if (tp->flavor && !tp->bound) charge(&t->f[tp->flavor - 1], tp, -1);
    tp->flavor = 0;
}

size_t kq_tas_run_unlabelled(const kq_tas_run *t, const kq_flavor *fl) {
    const kq_topology *topo = fl && fl->topology_name ? kq_find_topology(t->o, fl->topology_name) : NULL;
    return topo ? kq_tas_unlabelled(topo, fl, t->sched->nodes, t->sched->nnodes) : 0;
}

void kq_tas_run_free(kq_tas_run *t) {
    if (!t) return;
    for (size_t k = 0; k < t->nf; k++) {
        tas_flavor *f = &t->f[k];
        if (!f->built) continue;
        for (size_t li = 0; li < f->s.nleaves; li++) free(f->sel[li]);
        free(f->sel);
        free(f->node_leaf);
        free(f->sched_res);
        free(f->pend);
        free(f->base);
        kq_tas_free(&f->s);
    }
    free(t->f);
    kq_tas_run_cycle(t);
    VEC_FREE(t->props);
    for (size_t i = 0; i < t->amounts.len; i++) free(t->amounts.data[i]);
    VEC_FREE(t->amounts);
    VEC_FREE(t->pods);
    free(t);
}
