/*
 * kq_tas_admit.c -- Kueue TAS in the admission cycle (kueue ff69552e79):
 *   pkg/scheduler/flavorassigner/tas_flavorassigner.go
 *     checkPodSetAndFlavorMatchForTAS, isTASImplied (a ClusterQueue whose
 *     every flavor has a topology), WorkloadsTopologyRequests (count 0 skipped)
 *   pkg/scheduler/flavorassigner/flavorassigner.go assignFlavors: when the
 *     quota fits, FindTopologyAssignmentsForWorkload; a pod set that does not
 *     fit turns the assignment into Preempt, and one that does not fit even
 *     on empty nodes (WithSimulateEmpty) into NoFit.
 * The flavor snapshots charge the admitted Workloads' topologyAssignments
 * (tas_flavor.go addUsage); usage of pods outside Kueue is not modelled.
 * TAS-aware preemption (the same commit): a Workload in Preempt mode whose
 * topology would fit on empty nodes has every flavor of its TAS pod sets
 * marked Preempt (updateModeForTASRequests), and its targets are chosen by
 * the classic or fair-sharing preemption (kq_preempt.c, kq_fair.c) whose
 * workloadFits also finds the TopologyAssignment with the candidates'
 * usage removed (pkg/scheduler/preemption/preemption.go GetTargets with
 * WorkloadsTopologyRequests, workloadFits -> FindTopologyAssignmentsForWorkload;
 * pkg/cache/scheduler/snapshot.go RemoveWorkload,
 * clusterqueue_snapshot.go RemoveUsage -> updateTASUsage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq_tas_admit.h"
#include "util/xalloc.h"

static bool cq_tas_only(const kq_objects *o, const kq_cluster_queue *cq) {
    size_t n = 0;
    for (size_t g = 0; g < cq->ngroups; g++)
        for (size_t f = 0; f < cq->groups[g].nflavors; f++, n++) {
            const kq_flavor *fl = kq_find_flavor(o, cq->groups[g].flavors[f].flavor);
            if (!fl || !fl->topology_name) return false;
        }
    return n > 0;
}

const char *kq_tas_flavor_mismatch(const kq_objects *o, const kq_cluster_queue *cq, const kq_topology_request *r,
                                   const kq_flavor *fl) {
    static char msg[600];
    if (!r && !fl->topology_name) return NULL;   /* the common case: no TAS anywhere */
    if (r) {
        if (!fl->topology_name) {
            snprintf(msg, sizeof msg, "Flavor \"%s\" does not support TopologyAwareScheduling", fl->meta.name);
            return msg;
        }
        const kq_topology *t = kq_find_topology(o, fl->topology_name);
        const char *keys[3] = {r->required, r->preferred, r->slice_level};
        for (size_t k = 0; k < 3; k++) {
            if (!keys[k]) continue;
            bool found = false;
            for (size_t l = 0; t && l < t->nlevels; l++) found |= !strcmp(t->levels[l], keys[k]);
            if (!found) {
                snprintf(msg, sizeof msg, "Flavor \"%s\" does not contain the requested level", fl->meta.name);
                return msg;
            }
        }
        return NULL;
    }
    if (cq_tas_only(o, cq)) return NULL;   /* implied TAS */
    snprintf(msg, sizeof msg, "Flavor \"%s\" supports only TopologyAwareScheduling", fl->meta.name);
    return msg;
}

/* The snapshot of a TAS flavor: its tree, charged with the admitted Workloads'
 * assignments on that flavor (unless `empty`). */
static void flavor_snapshot(kq_tas_snapshot *s, const kq_objects *o, const kq_flavor *fl, bool empty) {
    kq_tas_build(s, kq_find_topology(o, fl->topology_name), fl, o->nodes);
    for (size_t i = 0; i < o->workloads.len && !empty; i++) {
        const kq_workload *w = o->workloads.data[i];
        if (!w->admitted_cq) continue;
        for (size_t p = 0; p < w->npod_sets; p++) {
            const kq_pod_set *ps = &w->pod_sets[p];
            bool on = false;
            for (size_t k = 0; k < ps->nflavors; k++) on |= ps->flavors[k].flavor == fl->meta.name;
            if (!on) continue;
            for (size_t d = 0; d < ps->nta_domains; d++)
                kq_tas_add_usage(s, ps->ta_levels, ps->nta_levels, ps->ta_domains[d].values, &ps->spec,
                                 ps->ta_domains[d].count);
        }
    }
}

/* The TAS flavor chosen for pod set `ps` (onlyTASFlavor), NULL when none. */
static const kq_flavor *tas_flavor_of(const kq_objects *o, const kq_result *r, size_t ps) {
    for (size_t i = 0; i < r->nchoices; i++) {
        if (r->choices[i].pod_set != ps) continue;
        const kq_flavor *fl = kq_find_flavor(o, r->choices[i].flavor);
        if (fl && fl->topology_name) return fl;
    }
    return NULL;
}

/* The snapshots of `drasim admit`: built from the snapshot's Nodes per pass.
 * For preemption (`keep`) each keeps its usage as built less the removed
 * candidates' (`base`), from which every fit check (`pass`) starts. */
typedef struct admit_snaps {
    const kq_objects *o;
    kq_tas_snapshot snaps[8];
    const kq_flavor *fl[8];
    int64_t *base[8];
    unsigned seen[8], pass;
    bool keep;
    size_t n;
} admit_snaps;

/* Copy the leaves' usage into `base` (to_base) or back. */
static void used_copy(kq_tas_snapshot *s, int64_t *base, bool to_base) {
    for (size_t li = 0; li < s->nleaves; li++) {
        int64_t *u = s->leaves[li]->used, *b = base + li * s->nres;
        if (to_base) memcpy(b, u, s->nres * sizeof *u);
        else memcpy(u, b, s->nres * sizeof *u);
    }
}

static kq_tas_snapshot *admit_snap(void *ctx, const kq_flavor *fl, bool empty) {
    admit_snaps *a = ctx;
    size_t k = 0;
    while (k < a->n && a->fl[k] != fl) k++;
    if (k < a->n) {
        if (a->base[k] && a->seen[k] != a->pass) {
            used_copy(&a->snaps[k], a->base[k], false);
            a->seen[k] = a->pass;
        }
        return &a->snaps[k];
    }
    if (a->n == 8) return NULL;   /* at most 8 pod sets (workload_types.go) */
    kq_tas_snapshot *s = &a->snaps[a->n];
    flavor_snapshot(s, a->o, fl, empty);
    a->fl[a->n] = fl;
    if (a->keep) {
        size_t cells = s->nleaves * s->nres;
        a->base[a->n] = xmalloc((cells ? cells : 1) * sizeof *a->base[a->n]);
        used_copy(s, a->base[a->n], true);
        a->seen[a->n] = a->pass;
    }
    return &a->snaps[a->n++];
}

static void admit_pass(void *ctx) { ((admit_snaps *)ctx)->pass++; }

/* An admitted Workload's topologyAssignments leave the base usage (or return). */
static void admit_wl_usage(void *ctx, const kq_wl *w, bool add) {
    admit_snaps *a = ctx;
    if (!w->obj) return;
    for (size_t p = 0; p < w->obj->npod_sets; p++) {
        const kq_pod_set *ps = &w->obj->pod_sets[p];
        if (!ps->nta_domains) continue;
        for (size_t k = 0; k < ps->nflavors; k++) {
            bool dup = false;   /* flavor_snapshot charges a pod set once per flavor */
            for (size_t j = 0; j < k; j++) dup |= ps->flavors[j].flavor == ps->flavors[k].flavor;
            const kq_flavor *fl = dup ? NULL : kq_find_flavor(a->o, ps->flavors[k].flavor);
            if (!fl || !fl->topology_name) continue;
            kq_tas_snapshot *s = admit_snap(a, fl, false);
            if (!s) continue;
            size_t j = 0;
            while (a->fl[j] != fl) j++;
            used_copy(s, a->base[j], false);
            for (size_t d = 0; d < ps->nta_domains; d++)
                kq_tas_add_usage(s, ps->ta_levels, ps->nta_levels, ps->ta_domains[d].values, &ps->spec,
                                 add ? ps->ta_domains[d].count : -ps->ta_domains[d].count);
            used_copy(s, a->base[j], true);
            a->seen[j] = a->pass;
        }
    }
}

static void admit_snaps_free(admit_snaps *a) {
    for (size_t k = 0; k < a->n; k++) {
        kq_tas_free(&a->snaps[k]);
        free(a->base[k]);
    }
}

/* One pass over the pod sets; 0, or -1 with the failing pod set's reason. */
static int assign_all(const kq_objects *o, const kq_pending *p, const kq_result *r, bool empty,
                      const kq_tas_source *src, kq_tas_assignment *out, strbuf *reason) {
    bool implied_cq = p->cq && cq_tas_only(o, p->cq->cq);
    int rc = 0;
    for (size_t ps = 0; ps < p->npod_sets && !rc; ps++) {
        const kq_topology_request *tr = p->ps_tas ? p->ps_tas[ps] : NULL;
        const kq_flavor *fl = tas_flavor_of(o, r, ps);
        if (!fl || p->ps_counts[ps] == 0 || (!tr && !implied_cq)) continue;
        kq_tas_snapshot *snap = src->get(src->ctx, fl, empty);
        if (!snap) break;
        strbuf why = {0};
        if (kq_tas_find(snap, tr, !tr && implied_cq, p->ps_specs[ps], p->ps_counts[ps], &out[ps], &why)) {
            sb_printf(reason, "couldn't assign flavors to pod set %s: %s", p->ps_names[ps], sb_str(&why));
            rc = -1;
        }
        sb_free(&why);
    }
    return rc;
}

/* assign_all over the snapshots of `drasim admit` (freed after the pass). */
static int assign_admit(const kq_objects *o, const kq_pending *p, const kq_result *r, bool empty,
                        kq_tas_assignment *out, strbuf *reason, const kq_tas_source *src) {
    if (src) return assign_all(o, p, r, empty, src, out, reason);
    admit_snaps a = {.o = o};
    kq_tas_source own = {admit_snap, NULL, NULL, &a};
    int rc = assign_all(o, p, r, empty, &own, out, reason);
    admit_snaps_free(&a);
    return rc;
}

/* Whether pod set ps takes part in TAS (WorkloadsTopologyRequests). */
static bool tas_pod_set(const kq_objects *o, const kq_pending *p, const kq_result *r, size_t ps, bool implied_cq) {
    return p->ps_counts[ps] > 0 && (p->ps_tas && p->ps_tas[ps] ? true : implied_cq) && tas_flavor_of(o, r, ps);
}

/* workloadFits' TAS part during preemption: every TAS pod set finds its
 * assignment on the snapshots as the candidates removed so far leave them. */
typedef struct tas_preempt {
    const kq_objects *o;
    const kq_pending *p;
    const kq_result *r;
    const kq_tas_source *src;
} tas_preempt;

static bool tp_fits(void *ctx) {
    tas_preempt *t = ctx;
    if (t->src->pass) t->src->pass(t->src->ctx);
    kq_tas_assignment tmp[8];
    memset(tmp, 0, sizeof tmp);
    strbuf why = {0};
    int rc = assign_all(t->o, t->p, t->r, false, t->src, tmp, &why);
    for (size_t i = 0; i < t->p->npod_sets; i++) kq_tas_assignment_free(&tmp[i]);
    sb_free(&why);
    return rc == 0;
}

static void tp_usage(void *ctx, const kq_wl *w, bool add) {
    tas_preempt *t = ctx;
    if (t->src->wl_usage) t->src->wl_usage(t->src->ctx, w, add);
}

/* The targets of a Workload in Preempt mode whose TAS pod sets fit on empty
 * nodes (flavorassigner.go updateModeForTASRequests, then
 * preemption.go GetTargets with the TAS check); the reason gets Kueue's
 * ". Pending the preemption of N workload(s)" for the new count. */
static void tas_preemption(kq_snapshot *s, const kq_pending *p, kq_result *r, const kq_tas_source *src) {
    const kq_objects *o = s->o;
    if (p->npod_sets > 8) return;
    bool implied_cq = p->cq && cq_tas_only(o, p->cq->cq), any = false;
    for (size_t ps = 0; ps < p->npod_sets; ps++) any |= tas_pod_set(o, p, r, ps, implied_cq);
    if (!any) return;   /* no TAS request: the quota's targets stand */
    uint32_t *need = xmalloc((r->nchoices ? r->nchoices : 1) * sizeof *need);
    size_t nneed = 0;
    for (size_t i = 0; i < r->nchoices; i++) {
        kq_choice *c = &r->choices[i];
        if (tas_pod_set(o, p, r, c->pod_set, implied_cq)) c->mode = KQ_PREEMPT;
        if (c->mode == KQ_PREEMPT) need[nneed++] = kq_fr_index(s, c->flavor, c->resource);
    }
    admit_snaps a = {.o = o, .keep = true};
    kq_tas_source own = {admit_snap, admit_pass, admit_wl_usage, &a};
    tas_preempt tp = {o, p, r, src ? src : &own};
    kq_tas_hook hook = {tp_fits, tp_usage, &tp};
    free(r->victims);
    r->victims = NULL;
    s->tas_hook = &hook;
    r->nvictims = kq_preempt_targets(s, &p->wl, p->cq, need, nneed, r->usage, r->nusage, &r->victims);
    s->tas_hook = NULL;
    admit_snaps_free(&a);
    free(need);
    if (r->reason_base < r->reason.len) {
        r->reason.len = r->reason_base;
        r->reason.s[r->reason_base] = 0;
    }
    if (r->nvictims) sb_printf(&r->reason, ". Pending the preemption of %zu workload(s)", r->nvictims);
}

void kq_tas_admit(kq_snapshot *s, const kq_pending *p, kq_result *r, kq_tas_assignment *out) {
    kq_tas_admit_with(s, p, r, out, NULL);
}

void kq_tas_admit_with(kq_snapshot *s, const kq_pending *p, kq_result *r, kq_tas_assignment *out,
                       const kq_tas_source *src) {
    const kq_objects *o = s->o;
    memset(out, 0, p->npod_sets * sizeof *out);
    if (!o->topologies.len || (!r->admitted && r->mode != KQ_PREEMPT)) return;
    strbuf reason = {0};
    if (r->admitted) {
        if (!assign_admit(o, p, r, false, out, &reason, src)) {
            sb_free(&reason);
            return;
        }
        for (size_t i = 0; i < p->npod_sets; i++) kq_tas_assignment_free(&out[i]);
        /* Fit by quota but not by topology: Preempt; NoFit when even empty nodes do not hold it */
        r->admitted = false;
        r->mode = KQ_PREEMPT;
        sb_clear(&r->reason);
        sb_puts(&r->reason, sb_str(&reason));
        r->reason_base = r->reason.len;
        sb_clear(&r->why);
        sb_printf(&r->why, "quota fits but the topology does not: %s", sb_str(&reason));
    }
    sb_clear(&reason);
    kq_tas_assignment tmp[8];
    memset(tmp, 0, sizeof tmp);
    if (assign_admit(o, p, r, true, p->npod_sets <= 8 ? tmp : out, &reason, src)) {
        r->mode = KQ_NOFIT;
        sb_clear(&r->reason);
        sb_puts(&r->reason, sb_str(&reason));
        sb_clear(&r->why);
        sb_printf(&r->why, "the topology cannot hold it even on empty nodes: %s", sb_str(&reason));
        free(r->victims);
        r->victims = NULL;
        r->nvictims = 0;
    } else {
        tas_preemption(s, p, r, src);
    }
    for (size_t i = 0; i < 8 && i < p->npod_sets; i++) kq_tas_assignment_free(&tmp[i]);
    sb_free(&reason);
}
