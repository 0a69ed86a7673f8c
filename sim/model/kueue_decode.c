/*
 * kueue_decode.c -- Kueue's objects (kueue.x-k8s.io v1beta1/v1beta2) from YAML
 * trees, with the decoding context of k8s_decode (FILE:LINE:COL, field paths).
 * Field names and defaults: kubernetes-sigs/kueue ff69552e79 (v0.19 line),
 * apis/kueue/v1beta2/{clusterqueue,cohort,resourceflavor,localqueue,
 * workloadpriorityclass,workload,fairsharing}_types.go; the v1beta1 spellings
 * from apis/kueue/v1beta1/ (the *_types.go) and clusterqueue_conversion.go.
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/kueue.h"
#include "model/kueue_tas.h"
#include "util/intern.h"
#include "util/xalloc.h"

void kq_objects_init(kq_objects *o) { memset(o, 0, sizeof *o); }

void kq_objects_free(kq_objects *o) {
    yfile_list_free(&o->files);
    VEC_FREE(o->flavors);
    VEC_FREE(o->cqs);
    VEC_FREE(o->cohorts);
    VEC_FREE(o->lqs);
    VEC_FREE(o->wpcs);
    VEC_FREE(o->workloads);
    VEC_FREE(o->topologies);
    if (o->nodes) {
        k8s_objects_free(o->nodes);
        free(o->nodes);
    }
    arena_free(&o->a);
    memset(o, 0, sizeof *o);
}

int64_t kq_resource_value(const char *resource, const quantity *q) {
    /* pkg/resources/resource.go ResourceValue: cpu as MilliValue, else Value */
    return strcmp(resource, "cpu") == 0 ? quantity_milli_value(q) : quantity_value(q);
}

typedef struct kctx {
    dctx d;
    kq_objects *o;
    bool v1beta1;
} kctx;

/* A quantity field converted to Kueue's units for `resource`. */
static int dres_value(dctx *c, const ynode *n, const char *resource, int64_t *out) {
    quantity q;
    if (dqty_node(c, n, &q)) return -1;
    if (quantity_sign(&q) < 0) return derr(c, n, "must be greater than or equal to 0");
    *out = kq_resource_value(resource, &q);
    return 0;
}

static int dweight(dctx *c, const ynode *spec, double *out) {
    const ynode *fs;
    *out = 1.0;   /* fairsharing_types.go: +kubebuilder:default=1 */
    if (dmap(c, spec, "fairSharing", 10, &fs)) return -1;
    if (!fs) return 0;
    size_t m = dpush(c, ".fairSharing");
    static const char *const allowed[] = {"weight", NULL};
    if (dkeys(c, fs, allowed)) return -1;
    quantity q;
    bool has = false;
    if (dqty(c, fs, "weight", false, &q, &has)) return -1;
    if (has) {
        if (quantity_sign(&q) < 0) return derr(c, ymap_get(fs, "weight"), "must be greater than or equal to 0");
        *out = quantity_approx_float(&q);
    }
    dpop(c, m);
    return 0;
}

static int dquota(dctx *c, const ynode *e, kq_quota *q) {
    static const char *const allowed[] = {"name", "nominalQuota", "borrowingLimit", "lendingLimit", NULL};
    if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, allowed)) return -1;
    q->where = e;
    if (dstr(c, e, "name", true, &q->resource)) return -1;
    const ynode *v;
    if ((v = ymap_get(e, "nominalQuota")) && !y_is_null(v)) {
        size_t m = dpush(c, ".nominalQuota");
        if (dres_value(c, v, q->resource, &q->nominal)) return -1;
        dpop(c, m);
    }
    if ((v = ymap_get(e, "borrowingLimit")) && !y_is_null(v)) {
        size_t m = dpush(c, ".borrowingLimit");
        if (dres_value(c, v, q->resource, &q->borrowing_limit)) return -1;
        q->has_borrowing_limit = true;
        dpop(c, m);
    }
    if ((v = ymap_get(e, "lendingLimit")) && !y_is_null(v)) {
        size_t m = dpush(c, ".lendingLimit");
        if (dres_value(c, v, q->resource, &q->lending_limit)) return -1;
        q->has_lending_limit = true;
        if (q->lending_limit > q->nominal)   /* clusterqueue_types.go: lendingLimit <= nominalQuota */
            return derr(c, v, "must be less than or equal to nominalQuota");
        dpop(c, m);
    }
    return 0;
}

/* spec.resourceGroups (ClusterQueue and Cohort). Limits: 16 groups, 64
 * flavors, 64 resources (clusterqueue_types.go MaxItems). */
static int dresource_groups(dctx *c, const ynode *spec, kq_resource_group **out, size_t *nout) {
    const ynode *seq;
    *out = NULL;
    *nout = 0;
    if (dseq(c, spec, "resourceGroups", 16, &seq)) return -1;
    if (!seq) return 0;
    kq_resource_group *g = ARENA_NEW(c->a, kq_resource_group, seq->n ? seq->n : 1);
    memset(g, 0, sizeof *g * (seq->n ? seq->n : 1));
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".resourceGroups[%zu]", i);
        const ynode *e = seq->vals[i], *fl;
        static const char *const allowed[] = {"coveredResources", "flavors", NULL};
        if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, allowed)) return -1;
        g[i].where = e;
        if (dstrlist(c, e, "coveredResources", 64, (const char ***)&g[i].covered, &g[i].ncovered)) return -1;
        if (g[i].ncovered == 0) return derr(c, e, "coveredResources: required field is missing or empty");
        if (dseq(c, e, "flavors", 64, &fl)) return -1;
        if (!fl || fl->n == 0) return derr(c, e, "flavors: required field is missing or empty");
        g[i].flavors = ARENA_NEW(c->a, kq_flavor_quotas, fl->n);
        memset(g[i].flavors, 0, sizeof *g[i].flavors * fl->n);
        g[i].nflavors = fl->n;
        for (size_t j = 0; j < fl->n; j++) {
            size_t m2 = dpush(c, ".flavors[%zu]", j);
            kq_flavor_quotas *f = &g[i].flavors[j];
            const ynode *fe = fl->vals[j], *rs;
            static const char *const fkeys[] = {"name", "resources", NULL};
            if (y_expect(fe, YN_MAP, dwhat(c), c->err) || dkeys(c, fe, fkeys)) return -1;
            f->where = fe;
            if (dstr(c, fe, "name", true, &f->flavor)) return -1;
            if (dseq(c, fe, "resources", 64, &rs)) return -1;
            if (!rs || rs->n == 0) return derr(c, fe, "resources: required field is missing or empty");
            f->resources = ARENA_NEW(c->a, kq_quota, rs->n);
            memset(f->resources, 0, sizeof *f->resources * rs->n);
            f->nresources = rs->n;
            for (size_t k = 0; k < rs->n; k++) {
                size_t m3 = dpush(c, ".resources[%zu]", k);
                if (dquota(c, rs->vals[k], &f->resources[k])) return -1;
                dpop(c, m3);
            }
            dpop(c, m2);
        }
        dpop(c, m);
    }
    *out = g;
    *nout = seq->n;
    return 0;
}

static int dpolicy(dctx *c, const ynode *map, const char *key, bool within_cq, kq_policy *out) {
    const char *s = NULL;
    *out = KQ_NEVER;
    if (dstr(c, map, key, false, &s)) return -1;
    if (!s || !strcmp(s, "Never")) return 0;
    if (!strcmp(s, "LowerPriority")) *out = KQ_LOWER_PRIORITY;
    else if (within_cq && !strcmp(s, "LowerOrNewerEqualPriority")) *out = KQ_LOWER_OR_NEWER_EQUAL;
    else if (!within_cq && !strcmp(s, "Any")) *out = KQ_ANY;
    else
        return derr(c, ymap_get(map, key), "%s: unsupported value '%s' (expected %s)", key, s,
                    within_cq ? "Never, LowerPriority or LowerOrNewerEqualPriority" : "Never, LowerPriority or Any");
    return 0;
}

static int dpreemption(kctx *k, const ynode *spec, kq_cluster_queue *cq) {
    dctx *c = &k->d;
    const ynode *p, *bwc;
    if (dmap(c, spec, "preemption", 10, &p)) return -1;
    if (!p) return 0;
    size_t m = dpush(c, ".preemption");
    static const char *const allowed[] = {"reclaimWithinCohort", "borrowWithinCohort", "withinClusterQueue", NULL};
    if (dkeys(c, p, allowed)) return -1;
    if (dpolicy(c, p, "withinClusterQueue", true, &cq->within_cluster_queue)) return -1;
    if (dpolicy(c, p, "reclaimWithinCohort", false, &cq->reclaim_within_cohort)) return -1;
    if (dmap(c, p, "borrowWithinCohort", 10, &bwc)) return -1;
    if (bwc) {
        size_t m2 = dpush(c, ".borrowWithinCohort");
        static const char *const bkeys[] = {"policy", "maxPriorityThreshold", NULL};
        if (dkeys(c, bwc, bkeys)) return -1;
        const char *pol = NULL;
        if (dstr(c, bwc, "policy", false, &pol)) return -1;
        if (pol && !strcmp(pol, "LowerPriority")) cq->borrow_within_cohort = true;
        else if (pol && strcmp(pol, "Never"))
            return derr(c, ymap_get(bwc, "policy"), "policy: unsupported value '%s' (expected Never or LowerPriority)", pol);
        int64_t t;
        if (dint(c, bwc, "maxPriorityThreshold", false, &t, &cq->has_max_priority_threshold)) return -1;
        cq->max_priority_threshold = (int32_t)t;
        dpop(c, m2);
    }
    /* clusterqueue_types.go XValidation */
    if (cq->reclaim_within_cohort == KQ_NEVER && cq->borrow_within_cohort)
        return derr(c, p, "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
    dpop(c, m);
    return 0;
}

static int dfungibility(kctx *k, const ynode *spec, kq_cluster_queue *cq) {
    dctx *c = &k->d;
    const ynode *f;
    cq->borrow_try_next = false;   /* whenCanBorrow default MayStopSearch */
    cq->preempt_try_next = true;   /* whenCanPreempt default TryNextFlavor */
    if (dmap(c, spec, "flavorFungibility", 10, &f)) return -1;
    if (!f) return 0;
    size_t m = dpush(c, ".flavorFungibility");
    static const char *const allowed[] = {"whenCanBorrow", "whenCanPreempt", "preference", NULL};
    if (dkeys(c, f, allowed)) return -1;
    const char *b = NULL, *p = NULL, *pref = NULL;
    if (dstr(c, f, "whenCanBorrow", false, &b) || dstr(c, f, "whenCanPreempt", false, &p) ||
        dstr(c, f, "preference", false, &pref))
        return -1;
    if (b) {
        if (!strcmp(b, "TryNextFlavor")) cq->borrow_try_next = true;
        else if (strcmp(b, "MayStopSearch") && !(k->v1beta1 && !strcmp(b, "Borrow")))
            return derr(c, ymap_get(f, "whenCanBorrow"), "whenCanBorrow: unsupported value '%s' (expected MayStopSearch or "
                        "TryNextFlavor%s)", b, k->v1beta1 ? ", or Borrow" : "");
    }
    if (p) {
        if (!strcmp(p, "MayStopSearch") || (k->v1beta1 && !strcmp(p, "Preempt"))) cq->preempt_try_next = false;
        else if (strcmp(p, "TryNextFlavor"))
            return derr(c, ymap_get(f, "whenCanPreempt"), "whenCanPreempt: unsupported value '%s' (expected MayStopSearch "
                        "or TryNextFlavor%s)", p, k->v1beta1 ? ", or Preempt" : "");
    }
    if (pref) {
        if (!strcmp(pref, "BorrowingOverPreemption")) cq->preference = KQ_BORROWING_OVER_PREEMPTION;
        else if (!strcmp(pref, "PreemptionOverBorrowing")) cq->preference = KQ_PREEMPTION_OVER_BORROWING;
        else return derr(c, ymap_get(f, "preference"), "preference: unsupported value '%s'", pref);
        if (!cq->borrow_try_next || !cq->preempt_try_next)
            return derr(c, ymap_get(f, "preference"), "preference can only be set when both whenCanBorrow and "
                        "whenCanPreempt are TryNextFlavor");
    }
    dpop(c, m);
    return 0;
}

static int dspec(dctx *c, const ynode *root, const ynode **spec) {
    if (dmap(c, root, "spec", 1000, spec)) return -1;
    return 0;
}

static int decode_cluster_queue(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_cluster_queue *cq = ARENA_NEW(c->a, kq_cluster_queue, 1);
    memset(cq, 0, sizeof *cq);
    cq->where = root;
    if (dmeta(c, root, &cq->meta, true)) return -1;
    const ynode *spec;
    if (dspec(c, root, &spec)) return -1;
    cq->fair_weight = 1.0;
    cq->preempt_try_next = true;
    if (spec) {
        size_t m = dpush(c, "spec");
        static const char *const v2[] = {"resourceGroups", "cohortName", "queueingStrategy", "namespaceSelector",
            "flavorFungibility", "preemption", "admissionChecksStrategy", "stopPolicy", "fairSharing",
            "admissionScope", "concurrentAdmissionPolicy", NULL};
        static const char *const v1[] = {"resourceGroups", "cohort", "queueingStrategy", "namespaceSelector",
            "flavorFungibility", "preemption", "admissionChecks", "admissionChecksStrategy", "stopPolicy",
            "fairSharing", "admissionScope", NULL};
        if (dkeys(c, spec, k->v1beta1 ? v1 : v2)) return -1;
        const char *ck = k->v1beta1 ? "cohort" : "cohortName";
        if (dstr(c, spec, ck, false, &cq->cohort)) return -1;
        if (cq->cohort && !*cq->cohort) cq->cohort = NULL;
        cq->cohort_where = ymap_get(spec, ck);
        if (dresource_groups(c, spec, &cq->groups, &cq->ngroups)) return -1;
        const char *qs = NULL;
        if (dstr(c, spec, "queueingStrategy", false, &qs)) return -1;
        if (qs && !strcmp(qs, "StrictFIFO")) cq->strict_fifo = true;
        else if (qs && strcmp(qs, "BestEffortFIFO"))
            return derr(c, ymap_get(spec, "queueingStrategy"), "queueingStrategy: unsupported value '%s' (expected "
                        "StrictFIFO or BestEffortFIFO)", qs);
        if (dpreemption(k, spec, cq) || dfungibility(k, spec, cq) || dweight(c, spec, &cq->fair_weight)) return -1;
        const ynode *as = ymap_get(spec, "admissionScope");
        if (as && !y_is_null(as)) {   /* clusterqueue_types.go AdmissionScope */
            static const char *const ak[] = {"admissionMode", NULL};
            if (y_expect(as, YN_MAP, "spec.admissionScope", c->err) ||
                ymap_check_keys(as, ak, "spec.admissionScope", c->err))
                return -1;
            const ynode *mode = ymap_get(as, "admissionMode");
            if (mode && y_scalar_eq(mode, "UsageBasedAdmissionFairSharing")) cq->usage_based_afs = true;
            else if (mode && !y_is_null(mode) && !y_scalar_eq(mode, "NoAdmissionFairSharing"))
                return derr(c, mode, "admissionScope.admissionMode: supported values: \"UsageBasedAdmissionFairSharing\", "
                            "\"NoAdmissionFairSharing\"");
        }
        dpop(c, m);
    }
    VEC_PUSH(k->o->cqs, cq);
    return 0;
}

static int decode_cohort(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_cohort *co = ARENA_NEW(c->a, kq_cohort, 1);
    memset(co, 0, sizeof *co);
    co->where = root;
    co->fair_weight = 1.0;
    if (dmeta(c, root, &co->meta, true)) return -1;
    const ynode *spec;
    if (dspec(c, root, &spec)) return -1;
    if (spec) {
        size_t m = dpush(c, "spec");
        static const char *const allowed[] = {"parentName", "resourceGroups", "fairSharing", NULL};
        if (dkeys(c, spec, allowed)) return -1;
        if (dstr(c, spec, "parentName", false, &co->parent)) return -1;
        if (co->parent && !*co->parent) co->parent = NULL;
        co->parent_where = ymap_get(spec, "parentName");
        if (dresource_groups(c, spec, &co->groups, &co->ngroups)) return -1;
        if (dweight(c, spec, &co->fair_weight)) return -1;
        dpop(c, m);
    }
    VEC_PUSH(k->o->cohorts, co);
    return 0;
}

/* spec.nodeTaints: key, value, effect (timeAdded tolerated). */
static int dflavor_taints(dctx *c, const ynode *spec, kq_flavor *f) {
    const ynode *seq;
    if (dseq(c, spec, "nodeTaints", 8, &seq)) return -1;
    if (!seq) return 0;
    f->node_taints = ARENA_NEW(c->a, k8s_taint, seq->n ? seq->n : 1);
    memset(f->node_taints, 0, sizeof *f->node_taints * (seq->n ? seq->n : 1));
    f->nnode_taints = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".nodeTaints[%zu]", i);
        const ynode *e = seq->vals[i];
        static const char *const allowed[] = {"key", "value", "effect", "timeAdded", NULL};
        if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, allowed)) return -1;
        if (dstr(c, e, "key", true, &f->node_taints[i].key) || dstr(c, e, "value", false, &f->node_taints[i].value))
            return -1;
        const ynode *ef;
        if (ymap_need(e, "effect", dwhat(c), &ef, c->err)) return -1;
        size_t m2 = dpush(c, ".effect");
        if (dtaint_effect(c, ef, false, &f->node_taints[i].effect)) return -1;
        dpop(c, m2);
        dpop(c, m);
    }
    return 0;
}

static int decode_flavor(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_flavor *f = ARENA_NEW(c->a, kq_flavor, 1);
    memset(f, 0, sizeof *f);
    if (dmeta(c, root, &f->meta, true)) return -1;
    const ynode *spec;
    if (dspec(c, root, &spec)) return -1;
    if (spec) {
        size_t m = dpush(c, "spec");
        static const char *const allowed[] = {"nodeLabels", "nodeTaints", "tolerations", "topologyName", NULL};
        if (dkeys(c, spec, allowed)) return -1;
        if (dkvmap(c, spec, "nodeLabels", &f->node_labels, &f->nnode_labels)) return -1;
        if (dflavor_taints(c, spec, f)) return -1;
        if (dtolerations(c, spec, "tolerations", 8, &f->tolerations, &f->ntolerations)) return -1;
        if (dstr(c, spec, "topologyName", false, &f->topology_name)) return -1;
        dpop(c, m);
    }
    VEC_PUSH(k->o->flavors, f);
    return 0;
}

static int decode_local_queue(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_local_queue *lq = ARENA_NEW(c->a, kq_local_queue, 1);
    memset(lq, 0, sizeof *lq);
    if (dmeta(c, root, &lq->meta, true)) return -1;
    if (!lq->meta.namespace_) lq->meta.namespace_ = intern("default");
    const ynode *spec;
    if (dspec(c, root, &spec)) return -1;
    if (!spec) return derr(c, root, "spec.clusterQueue: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const allowed[] = {"clusterQueue", "stopPolicy", "fairSharing", NULL};
    if (dkeys(c, spec, allowed)) return -1;
    if (dstr(c, spec, "clusterQueue", true, &lq->cluster_queue)) return -1;
    lq->cq_where = ymap_get(spec, "clusterQueue");
    if (dweight(c, spec, &lq->fair_weight)) return -1;
    dpop(c, m);
    /* status.fairSharing.admissionFairSharingStatus.consumedResources
     * (localqueue_types.go LocalQueueAdmissionFairSharingStatus) */
    const ynode *st, *fs, *afs, *cr;
    if (dmap(c, root, "status", 100, &st)) return -1;
    m = dpush(c, "status");
    if (st && dmap(c, st, "fairSharing", 10, &fs)) return -1;
    if (st && fs) {
        size_t m2 = dpush(c, ".fairSharing");
        if (dmap(c, fs, "admissionFairSharingStatus", 10, &afs)) return -1;
        if (afs) {
            size_t m3 = dpush(c, ".admissionFairSharingStatus");
            if (dmap(c, afs, "consumedResources", 64, &cr)) return -1;
            if (cr) {
                lq->consumed = ARENA_NEW(c->a, k8s_resource_amount, cr->n ? cr->n : 1);
                lq->nconsumed = cr->n;
                for (size_t j = 0; j < cr->n; j++) {
                    if (y_str(cr->keys[j], dwhat(c), &lq->consumed[j].name, c->err)) return -1;
                    size_t m4 = dpush(c, ".consumedResources.%s", lq->consumed[j].name);
                    if (dqty_node(c, cr->vals[j], &lq->consumed[j].value)) return -1;
                    dpop(c, m4);
                }
            }
            dpop(c, m3);
        }
        dpop(c, m2);
    }
    dpop(c, m);
    VEC_PUSH(k->o->lqs, lq);
    return 0;
}

static int decode_priority_class(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_priority_class *p = ARENA_NEW(c->a, kq_priority_class, 1);
    memset(p, 0, sizeof *p);
    if (dmeta(c, root, &p->meta, true)) return -1;
    static const char *const allowed[] = {"apiVersion", "kind", "metadata", "value", "description", NULL};
    if (dkeys(c, root, allowed)) return -1;
    int64_t v;
    if (dint(c, root, "value", true, &v, NULL)) return -1;
    if (v < INT32_MIN || v > INT32_MAX) return derr(c, ymap_get(root, "value"), "value: out of the int32 range");
    p->value = (int32_t)v;
    VEC_PUSH(k->o->wpcs, p);
    return 0;
}

static int dpod_sets(kctx *k, const ynode *spec, kq_workload *w) {
    dctx *c = &k->d;
    const ynode *seq;
    if (dseq(c, spec, "podSets", 8, &seq)) return -1;   /* workload_types.go: MaxItems=8 */
    if (!seq || seq->n == 0) return derr(c, spec, "podSets: required field is missing or empty");
    w->pod_sets = ARENA_NEW(c->a, kq_pod_set, seq->n);
    memset(w->pod_sets, 0, sizeof *w->pod_sets * seq->n);
    w->npod_sets = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".podSets[%zu]", i);
        kq_pod_set *ps = &w->pod_sets[i];
        const ynode *e = seq->vals[i], *tpl, *tspec;
        static const char *const allowed[] = {"name", "template", "count", "minCount", "topologyRequest", NULL};
        if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, allowed)) return -1;
        ps->name = intern("main");   /* DefaultPodSetName */
        if (dstr(c, e, "name", false, &ps->name)) return -1;
        int64_t n = 1;
        bool has = false;
        if (dint(c, e, "count", false, &n, &has)) return -1;
        if (n < 0 || n > INT32_MAX) return derr(c, ymap_get(e, "count"), "count: must be between 0 and 2147483647");
        ps->count = (int32_t)n;
        if (dmap(c, e, "template", 1000, &tpl)) return -1;
        if (!tpl) return derr(c, e, "template: required field is missing");
        size_t m2 = dpush(c, ".template");
        if (dmap(c, tpl, "spec", 1000, &tspec)) return -1;
        if (tspec) {
            size_t m3 = dpush(c, ".spec");
            if (k8s_decode_pod_spec(c, tspec, &ps->spec)) return -1;
            dpop(c, m3);
        }
        dpop(c, m2);
        if (kq_decode_pod_set_tas(c, e, tpl, &ps->tas)) return -1;
        for (size_t j = 0; j < i; j++)
            if (w->pod_sets[j].name == ps->name) return derr(c, e, "name: duplicate pod set '%s'", ps->name);
        dpop(c, m);
    }
    return 0;
}

/* status.admission.podSetAssignments: flavors per resource, count, usage. */
static int dadmission(kctx *k, const ynode *st, kq_workload *w) {
    dctx *c = &k->d;
    const ynode *adm, *seq;
    if (dmap(c, st, "admission", 10, &adm)) return -1;
    if (!adm) return 0;
    size_t m = dpush(c, ".admission");
    if (dstr(c, adm, "clusterQueue", true, &w->admitted_cq)) return -1;
    if (dseq(c, adm, "podSetAssignments", 8, &seq)) return -1;
    for (size_t i = 0; seq && i < seq->n; i++) {
        size_t m2 = dpush(c, ".podSetAssignments[%zu]", i);
        const ynode *e = seq->vals[i], *fl, *ru;
        if (y_expect(e, YN_MAP, dwhat(c), c->err)) return -1;
        const char *name = intern("main");
        if (dstr(c, e, "name", false, &name)) return -1;
        kq_pod_set *ps = NULL;
        for (size_t j = 0; j < w->npod_sets; j++)
            if (w->pod_sets[j].name == name) ps = &w->pod_sets[j];
        if (!ps) return derr(c, e, "name: no pod set '%s' in spec.podSets", name);
        if (dmap(c, e, "flavors", 64, &fl)) return -1;
        if (fl) {
            ps->flavors = ARENA_NEW(c->a, kq_assigned, fl->n ? fl->n : 1);
            ps->nflavors = fl->n;
            for (size_t j = 0; j < fl->n; j++) {
                if (y_str(fl->keys[j], dwhat(c), &ps->flavors[j].resource, c->err)) return -1;
                if (y_str(fl->vals[j], dwhat(c), &ps->flavors[j].flavor, c->err)) return -1;
            }
        }
        int64_t cnt = ps->count;
        if (dint(c, e, "count", false, &cnt, NULL)) return -1;
        if (cnt < 0 || cnt > INT32_MAX) return derr(c, ymap_get(e, "count"), "count: out of range");
        ps->admitted_count = (int32_t)cnt;
        if (kq_decode_topology_assignment(c, e, ps)) return -1;
        if (dmap(c, e, "resourceUsage", 64, &ru)) return -1;
        if (ru) {
            ps->usage = ARENA_NEW(c->a, k8s_resource_amount, ru->n ? ru->n : 1);
            ps->nusage = ru->n;
            for (size_t j = 0; j < ru->n; j++) {
                if (y_str(ru->keys[j], dwhat(c), &ps->usage[j].name, c->err)) return -1;
                size_t m3 = dpush(c, ".resourceUsage.%s", ps->usage[j].name);
                if (dqty_node(c, ru->vals[j], &ps->usage[j].value)) return -1;
                dpop(c, m3);
            }
        }
        dpop(c, m2);
    }
    dpop(c, m);
    return 0;
}

static int dconditions(kctx *k, const ynode *st, kq_workload *w) {
    dctx *c = &k->d;
    const ynode *seq;
    if (dseq(c, st, "conditions", 32, &seq)) return -1;
    for (size_t i = 0; seq && i < seq->n; i++) {
        size_t m = dpush(c, ".conditions[%zu]", i);
        const ynode *e = seq->vals[i];
        const char *type = NULL, *status = NULL, *at = NULL;
        if (y_expect(e, YN_MAP, dwhat(c), c->err)) return -1;
        if (dstr(c, e, "type", true, &type) || dstr(c, e, "status", true, &status) ||
            dstr(c, e, "lastTransitionTime", false, &at))
            return -1;
        bool on = !strcmp(status, "True");
        if (on && !strcmp(type, "QuotaReserved")) w->reserved_at = at;
        if (on && !strcmp(type, "Evicted")) w->evicted = true;
        if (on && !strcmp(type, "PodsReady")) w->pods_ready = true;
        dpop(c, m);
    }
    return 0;
}

static int decode_workload(kctx *k, const ynode *root) {
    dctx *c = &k->d;
    kq_workload *w = ARENA_NEW(c->a, kq_workload, 1);
    memset(w, 0, sizeof *w);
    w->where = root;
    if (dmeta(c, root, &w->meta, true)) return -1;
    if (!w->meta.namespace_) w->meta.namespace_ = intern("default");
    const ynode *md = ymap_get(root, "metadata"), *spec, *st;
    if (md && md->kind == YN_MAP) {
        size_t m = dpush(c, "metadata");
        if (dstr(c, md, "creationTimestamp", false, &w->created)) return -1;
        dpop(c, m);
    }
    if (dspec(c, root, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const v2[] = {"podSets", "queueName", "priorityClassRef", "priority", "active",
        "maximumExecutionTimeSeconds", "preemptionGates", NULL};
    static const char *const v1[] = {"podSets", "queueName", "priorityClassName", "priority", "priorityClassSource",
        "active", "maximumExecutionTimeSeconds", NULL};
    if (dkeys(c, spec, k->v1beta1 ? v1 : v2)) return -1;
    if (dpod_sets(k, spec, w)) return -1;
    if (dstr(c, spec, "queueName", false, &w->queue_name)) return -1;
    int64_t p = 0;
    if (dint(c, spec, "priority", false, &p, &w->has_priority)) return -1;
    w->priority = (int32_t)p;
    if (k->v1beta1) {
        if (dstr(c, spec, "priorityClassName", false, &w->priority_class)) return -1;
    } else {
        const ynode *ref;
        if (dmap(c, spec, "priorityClassRef", 10, &ref)) return -1;
        if (ref) {
            size_t m2 = dpush(c, ".priorityClassRef");
            if (dstr(c, ref, "name", true, &w->priority_class)) return -1;
            dpop(c, m2);
        }
    }
    dpop(c, m);
    if (dmap(c, root, "status", 1000, &st)) return -1;
    if (st) {
        m = dpush(c, "status");
        if (dadmission(k, st, w) || dconditions(k, st, w)) return -1;
        dpop(c, m);
    }
    for (size_t i = 0; i < w->npod_sets; i++)
        if (!w->pod_sets[i].nflavors && !w->pod_sets[i].admitted_count) w->pod_sets[i].admitted_count = w->pod_sets[i].count;
    VEC_PUSH(k->o->workloads, w);
    return 0;
}

typedef struct kq_kind {
    const char *kind;
    int (*decode)(kctx *, const ynode *);
} kq_kind;

static int decode_topology(kctx *k, const ynode *root) { return kq_decode_topology(&k->d, k->o, root); }

static const kq_kind kinds[] = {
    {"Topology", decode_topology},
    {"ResourceFlavor", decode_flavor},       {"ClusterQueue", decode_cluster_queue},
    {"Cohort", decode_cohort},               {"LocalQueue", decode_local_queue},
    {"WorkloadPriorityClass", decode_priority_class}, {"Workload", decode_workload},
};

/* How a walk decodes: into O, skipping kinds that are not Kueue's when SKIP_OTHER. */
typedef struct kq_walk {
    kq_objects *o;
    bool skip_other;
} kq_walk;

/* One object (not a List) whose header the walker read: dispatch by kind. */
static int decode_object(void *ctx, const ynode *root, const k8s_header *h, strbuf *err) {
    kq_objects *o = ((kq_walk *)ctx)->o;
    bool skip_other = ((kq_walk *)ctx)->skip_other;
    const ynode *kn = h->kind_node, *av = h->api_node;
    const char *kind = h->kind, *api = h->api;
    if (!strcmp(kind, "Configuration") && api && !strncmp(api, "config.kueue.x-k8s.io/", 22)) {
        bool b1 = !strcmp(api + 22, "v1beta1");
        if (!b1 && strcmp(api + 22, "v1beta2")) {
            yerr(err, av, "Configuration: unsupported apiVersion '%s' (expected config.kueue.x-k8s.io/v1beta2 or v1beta1)", api);
            return -1;
        }
        return kq_decode_configuration(o, root, b1, err);   /* model/kueue_config.c */
    }
    if (skip_other && !strcmp(kind, "Node") && api && !strcmp(api, "v1"))
        return kq_decode_node_object(o, root, err);   /* an admit snapshot's Nodes: TAS topology */
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (strcmp(kind, kinds[i].kind) != 0) continue;
        if (!api) { yerr(err, root, "%s without 'apiVersion'", kind); return -1; }
        bool b1 = !strcmp(api, "kueue.x-k8s.io/v1beta1"), b2 = !strcmp(api, "kueue.x-k8s.io/v1beta2");
        if (!b1 && !b2) {
            if (skip_other) return 0;
            yerr(err, av, "%s: unsupported apiVersion '%s' (expected kueue.x-k8s.io/v1beta2 or v1beta1)", kind, api);
            return -1;
        }
        kctx k = {.d = {.a = &o->a, .err = err, .kind = kinds[i].kind, .name = ""}, .o = o, .v1beta1 = b1};
        return kinds[i].decode(&k, root);
    }
    if (skip_other) return 0;
    yerr(err, kn, "unsupported kind '%s' (expected ResourceFlavor, ClusterQueue, Cohort, LocalQueue, "
                  "WorkloadPriorityClass, Workload, Configuration or a List of them)", kind);
    return -1;
}

int kq_decode_node(kq_objects *o, const ynode *root, bool skip_other, strbuf *err) {
    kq_walk w = {o, skip_other};
    return k8s_walk_object(root, 0, decode_object, &w, err);
}

static int decode_doc(void *w, const ynode *doc, strbuf *err) { return k8s_walk_object(doc, 0, decode_object, w, err); }

int kq_decode_file(kq_objects *o, const char *path, bool skip_other, strbuf *err) {
    kq_walk w = {o, skip_other};
    return k8s_walk_load(&o->files, path, NULL, NULL, 0, decode_doc, &w, err);
}

int kq_decode_yfile(kq_objects *o, yfile *f, bool skip_other, strbuf *err) {
    kq_walk w = {o, skip_other};
    return k8s_walk_yfile(&o->files, f, decode_doc, &w, err);
}

int kq_decode_mem(kq_objects *o, const char *name, const char *data, size_t len, bool skip_other, strbuf *err) {
    kq_walk w = {o, skip_other};
    return k8s_walk_load(&o->files, NULL, name, data, len, decode_doc, &w, err);
}
