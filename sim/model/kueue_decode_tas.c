/*
 * kueue_decode_tas.c -- the parts of Kueue's objects that Topology-Aware
 * Scheduling reads (kubernetes-sigs/kueue ff69552e79, v0.19 line):
 *   Topology (apis/kueue/v1beta2/topology_types.go: spec.levels[].nodeLabel,
 *     1..16 levels, unique),
 *   a pod set's topology request, from spec.podSets[].topologyRequest
 *     (workload_types.go PodSetTopologyRequest) or, as the job integrations
 *     build it, from the pod template's annotations
 *     (pkg/controller/constants/constants.go PodSetRequiredTopologyAnnotation
 *     and friends; pkg/controller/jobframework/tas.go),
 *   an admitted pod set's topologyAssignment (v1beta1 `levels` + `domains`),
 *   and Nodes (core/v1) for the topology tree.
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/kueue.h"
#include "model/kueue_tas.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define ANN_REQUIRED "kueue.x-k8s.io/podset-required-topology"
#define ANN_PREFERRED "kueue.x-k8s.io/podset-preferred-topology"
#define ANN_UNCONSTRAINED "kueue.x-k8s.io/podset-unconstrained-topology"
#define ANN_SLICE_LEVEL "kueue.x-k8s.io/podset-slice-required-topology"
#define ANN_SLICE_SIZE "kueue.x-k8s.io/podset-slice-size"

/* Kueue's rule for a level: unique (dstr interns, so equal names share a pointer). */
static int kq_level_ok(dctx *c, const ynode *label, const char *const *levels, size_t i, size_t n) {
    (void)n;
    for (size_t j = 0; j < i; j++)
        if (levels[j] == levels[i]) return derr(c, label, "nodeLabel: duplicate level '%s'", levels[i]);
    return 0;
}

int kq_decode_topology(dctx *c, kq_objects *o, const ynode *root) {
    kq_topology *t = ARENA_NEW(c->a, kq_topology, 1);
    t->where = root;
    if (dmeta(c, root, &t->meta, true)) return -1;
    if (dtopology_levels(c, root, &t->levels, &t->nlevels, kq_level_ok)) return -1;
    VEC_PUSH(o->topologies, t);
    return 0;
}

int kq_decode_node_object(kq_objects *o, const ynode *root, strbuf *err) {
    if (!o->nodes) {
        o->nodes = xcalloc(1, sizeof *o->nodes);
        k8s_objects_init(o->nodes);
    }
    return k8s_decode_node(o->nodes, root, err);
}

static const char *ann(const k8s_kv *kv, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(kv[i].key, key)) return kv[i].value;
    return NULL;
}

int kq_tas_request_from_kv(const k8s_kv *kv, size_t n, kq_topology_request *r, strbuf *msg) {
    const char *req = ann(kv, n, ANN_REQUIRED), *pref = ann(kv, n, ANN_PREFERRED),
               *unc = ann(kv, n, ANN_UNCONSTRAINED), *sl = ann(kv, n, ANN_SLICE_LEVEL),
               *ss = ann(kv, n, ANN_SLICE_SIZE);
    if (!req && !pref && !unc && !sl && !ss) return 0;
    /* the job webhooks' rules (pkg/controller/jobframework/validation.go ValidateTASPodSetRequest) */
    if ((req != NULL) + (pref != NULL) + (unc != NULL) > 1) {
        sb_printf(msg, "annotations: must not contain more than one topology annotation: [\"%s\", \"%s\", \"%s\"]",
                  ANN_REQUIRED, ANN_PREFERRED, ANN_UNCONSTRAINED);
        return -1;
    }
    r->has = true;
    r->required = req && *req ? intern(req) : NULL;
    r->preferred = pref && *pref ? intern(pref) : NULL;
    if (unc) {
        if (strcmp(unc, "true") && strcmp(unc, "false")) {
            sb_printf(msg, "annotations[%s]: must be 'true' or 'false', got '%s'", ANN_UNCONSTRAINED, unc);
            return -1;
        }
        r->unconstrained = !strcmp(unc, "true");
    }
    if (sl) r->slice_level = intern(sl);
    if (ss) {
        char *end = NULL;
        long v = strtol(ss, &end, 10);
        if (!*ss || *end || v < 1 || v > INT32_MAX) {
            sb_printf(msg, "annotations[%s]: must be a positive integer, got '%s'", ANN_SLICE_SIZE, ss);
            return -1;
        }
        r->slice_size = (int32_t)v;
    }
    if (sl && !ss) {
        sb_printf(msg, "annotations[%s]: slice size is required if slice topology is requested", ANN_SLICE_SIZE);
        return -1;
    }
    if (ss && !sl) {
        sb_printf(msg, "annotations[%s]: slice topology is required if slice size is given", ANN_SLICE_LEVEL);
        return -1;
    }
    return 0;
}

/* The request from the annotations (jobframework/tas.go PodSetTopologyRequest). */
static int from_annotations(dctx *c, const ynode *md, kq_topology_request *r) {
    k8s_kv *kv = NULL;
    size_t n = 0;
    if (dkvmap(c, md, "annotations", &kv, &n)) return -1;
    const ynode *where = ymap_get(md, "annotations");
    strbuf msg = {0};
    if (kq_tas_request_from_kv(kv, n, r, &msg)) {
        int rc = derr(c, where, "%s", sb_str(&msg));
        sb_free(&msg);
        return rc;
    }
    if (r->has) r->where = where;
    return 0;
}

int kq_decode_pod_set_tas(dctx *c, const ynode *ps_node, const ynode *tpl, kq_topology_request *r) {
    const ynode *tr;
    if (dmap(c, ps_node, "topologyRequest", 20, &tr)) return -1;
    if (tr) {
        size_t m = dpush(c, ".topologyRequest");
        static const char *const allowed[] = {"required", "preferred", "unconstrained", "podSetGroupName",
            "podIndexLabel", "subGroupIndexLabel", "subGroupCount", "podSetSliceRequiredTopology",
            "podSetSliceSize", "podSetSliceRequiredTopologyConstraints", NULL};
        if (dkeys(c, tr, allowed)) return -1;
        r->has = true;
        r->where = tr;
        if (dstr(c, tr, "required", false, &r->required) || dstr(c, tr, "preferred", false, &r->preferred) ||
            dbool(c, tr, "unconstrained", &r->unconstrained, NULL) ||
            dstr(c, tr, "podSetSliceRequiredTopology", false, &r->slice_level))
            return -1;
        int64_t v = 0;
        bool has = false;
        if (dint(c, tr, "podSetSliceSize", false, &v, &has)) return -1;
        if (has && (v < 1 || v > INT32_MAX)) return derr(c, ymap_get(tr, "podSetSliceSize"), "podSetSliceSize: must be at least 1");
        r->slice_size = (int32_t)v;
        if ((r->required != NULL) + (r->preferred != NULL) + r->unconstrained > 1)
            return derr(c, tr, "only one of required, preferred, unconstrained may be set");
        if (r->slice_level && !has) return derr(c, tr, "podSetSliceSize: required when podSetSliceRequiredTopology is set");
        dpop(c, m);
        return 0;
    }
    const ynode *md;
    if (!tpl || dmap(c, tpl, "metadata", 1000, &md)) return tpl ? -1 : 0;
    if (!md) return 0;
    size_t m = dpush(c, ".template.metadata");
    if (from_annotations(c, md, r)) return -1;
    dpop(c, m);
    return 0;
}

int kq_decode_topology_assignment(dctx *c, const ynode *psa, kq_pod_set *ps) {
    const ynode *ta, *lv, *dom;
    if (dmap(c, psa, "topologyAssignment", 10, &ta)) return -1;
    if (!ta) return 0;
    size_t m = dpush(c, ".topologyAssignment");
    if (ymap_get(ta, "slices"))
        return derr(c, ta, "the v1beta2 'slices' encoding of a topologyAssignment is not supported yet; "
                           "give it as v1beta1 'levels' and 'domains'");
    if (dstrlist(c, ta, "levels", 16, &ps->ta_levels, &ps->nta_levels)) return -1;
    if (dseq(c, ta, "domains", 100000, &dom)) return -1;
    (void)lv;
    if (!ps->nta_levels) return derr(c, ta, "levels: required field is missing");
    size_t n = dom ? dom->n : 0;
    ps->ta_domains = ARENA_NEW(c->a, kq_topology_domain, n ? n : 1);
    ps->nta_domains = n;
    for (size_t i = 0; i < n; i++) {
        size_t m2 = dpush(c, ".domains[%zu]", i);
        const ynode *e = dom->vals[i];
        kq_topology_domain *d = &ps->ta_domains[i];
        if (y_expect(e, YN_MAP, dwhat(c), c->err)) return -1;
        if (dstrlist(c, e, "values", 16, &d->values, &d->nvalues)) return -1;
        if (d->nvalues != ps->nta_levels)
            return derr(c, e, "values: %zu values for %zu levels", d->nvalues, ps->nta_levels);
        int64_t cnt = 0;
        if (dint(c, e, "count", true, &cnt, NULL)) return -1;
        if (cnt < 1 || cnt > INT32_MAX) return derr(c, ymap_get(e, "count"), "count: must be at least 1");
        d->count = (int32_t)cnt;
        dpop(c, m2);
    }
    dpop(c, m);
    return 0;
}
