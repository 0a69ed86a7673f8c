/*
 * kueue_check.c -- the checks Kueue's webhooks and cache make across objects
 * (kubernetes-sigs/kueue ff69552e79: pkg/webhooks/clusterqueue_webhook.go
 * validateResourceGroups / validateFlavorQuotas / validateLimit,
 * pkg/webhooks/cohort_webhook.go, pkg/cache/hierarchy cycle check), plus
 * drasim's own: references to objects that do not exist are input errors
 * (Kueue would keep such a ClusterQueue inactive; a simulation of it would
 * silently admit nothing). FILE:LINE:COL on the offending field.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/kueue.h"
#include "util/intern.h"
#include "util/xalloc.h"

const kq_flavor *kq_find_flavor(const kq_objects *o, const char *name) {
    for (size_t i = 0; i < o->flavors.len; i++)
        if (o->flavors.data[i]->meta.name == name) return o->flavors.data[i];
    return NULL;
}

kq_cluster_queue *kq_find_cq(const kq_objects *o, const char *name) {
    for (size_t i = 0; i < o->cqs.len; i++)
        if (o->cqs.data[i]->meta.name == name) return o->cqs.data[i];
    return NULL;
}

kq_cohort *kq_find_cohort(const kq_objects *o, const char *name) {
    for (size_t i = 0; i < o->cohorts.len; i++)
        if (o->cohorts.data[i]->meta.name == name) return o->cohorts.data[i];
    return NULL;
}

const kq_local_queue *kq_find_lq(const kq_objects *o, const char *ns, const char *name) {
    for (size_t i = 0; i < o->lqs.len; i++)
        if (o->lqs.data[i]->meta.name == name && o->lqs.data[i]->meta.namespace_ == ns) return o->lqs.data[i];
    return NULL;
}

const kq_priority_class *kq_find_wpc(const kq_objects *o, const char *name) {
    for (size_t i = 0; i < o->wpcs.len; i++)
        if (o->wpcs.data[i]->meta.name == name) return o->wpcs.data[i];
    return NULL;
}

const kq_topology *kq_find_topology(const kq_objects *o, const char *name) {
    for (size_t i = 0; i < o->topologies.len; i++)
        if (o->topologies.data[i]->meta.name == name) return o->topologies.data[i];
    return NULL;
}

/* Position of an object for messages: its metadata as a fake node. */
static ynode at_meta(const k8s_meta *m) {
    ynode n = {.kind = YN_MAP, .file = m->file, .line = m->line, .col = m->col};
    return n;
}

static int check_groups(const kq_objects *o, const char *kind, const char *name, const kq_resource_group *g,
                        size_t ng, bool has_parent, strbuf *err) {
    for (size_t i = 0; i < ng; i++) {
        for (size_t j = 0; j < g[i].ncovered; j++)
            for (size_t a = 0; a <= i; a++)
                for (size_t b = 0; b < (a == i ? j : g[a].ncovered); b++)
                    if (g[a].covered[b] == g[i].covered[j]) {
                        yerr(err, g[i].where, "%s %s: spec.resourceGroups[%zu].coveredResources[%zu]: Duplicate "
                             "value: \"%s\"", kind, name, i, j, g[i].covered[j]);
                        return -1;
                    }
        for (size_t j = 0; j < g[i].nflavors; j++) {
            const kq_flavor_quotas *f = &g[i].flavors[j];
            if (!kq_find_flavor(o, f->flavor)) {
                yerr(err, f->where, "%s %s: spec.resourceGroups[%zu].flavors[%zu].name: ResourceFlavor '%s' does "
                     "not exist", kind, name, i, j, f->flavor);
                return -1;
            }
            for (size_t a = 0; a <= i; a++)
                for (size_t b = 0; b < (a == i ? j : g[a].nflavors); b++)
                    if (g[a].flavors[b].flavor == f->flavor) {
                        yerr(err, f->where, "%s %s: spec.resourceGroups[%zu].flavors[%zu].name: Duplicate value: "
                             "\"%s\"", kind, name, i, j, f->flavor);
                        return -1;
                    }
            if (f->nresources != g[i].ncovered) {
                yerr(err, f->where, "%s %s: spec.resourceGroups[%zu].flavors[%zu]: flavors must have the same "
                     "number of resources as the coveredResources (%zu, found %zu)", kind, name, i, j,
                     g[i].ncovered, f->nresources);
                return -1;
            }
            for (size_t k = 0; k < f->nresources; k++) {
                const kq_quota *q = &f->resources[k];
                if (q->resource != g[i].covered[k]) {
                    bool elsewhere = false;
                    for (size_t c = 0; c < g[i].ncovered; c++) elsewhere |= g[i].covered[c] == q->resource;
                    yerr(err, q->where, "%s %s: spec.resourceGroups[%zu].flavors[%zu].resources[%zu].name: "
                         "'%s' must match the name in coveredResources ('%s')%s", kind, name, i, j, k, q->resource,
                         g[i].covered[k], elsewhere ? "" : ": a quota on an undeclared resource");
                    return -1;
                }
                if ((q->has_borrowing_limit || q->has_lending_limit) && !has_parent) {
                    yerr(err, q->where, "%s %s: spec.resourceGroups[%zu].flavors[%zu].resources[%zu].%s: must be "
                         "nil when %s is empty", kind, name, i, j, k,
                         q->has_borrowing_limit ? "borrowingLimit" : "lendingLimit",
                         !strcmp(kind, "Cohort") ? "parent" : "cohort");
                    return -1;
                }
            }
        }
    }
    return 0;
}

static kq_cohort *add_implicit_cohort(kq_objects *o, const char *name, const ynode *where) {
    kq_cohort *co = ARENA_NEW(&o->a, kq_cohort, 1);
    memset(co, 0, sizeof *co);
    co->meta.name = name;
    co->fair_weight = 1.0;
    co->implicit = true;
    co->where = where;
    if (where) {
        co->meta.file = where->file;
        co->meta.line = where->line;
        co->meta.col = where->col;
    }
    VEC_PUSH(o->cohorts, co);
    return co;
}

/* A set of (name, namespace) pairs of interned strings (either may be NULL),
 * open addressing: the duplicate and existence checks in linear time (a
 * 1,000-queue snapshot made them 18 M instructions of `drasim admit`). */
typedef struct pairset { const char **a, **b; unsigned char *used; size_t mask; } pairset;

static void pairset_init(pairset *s, size_t n) {
    size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    s->a = xcalloc(cap, sizeof *s->a);
    s->b = xcalloc(cap, sizeof *s->b);
    s->used = xcalloc(cap, 1);
    s->mask = cap - 1;
}

static void pairset_free(pairset *s) {
    free(s->a);
    free(s->b);
    free(s->used);
}

static size_t pairset_slot(const pairset *s, const char *a, const char *b) {
    uint64_t h = (uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)b * 0xC2B2AE3D27D4EB4Full;
    size_t j = (size_t)(h >> 20) & s->mask;
    while (s->used[j] && !(s->a[j] == a && s->b[j] == b)) j = (j + 1) & s->mask;
    return j;
}

/* Add (a, b); true when it was already there. */
static bool pairset_add(pairset *s, const char *a, const char *b) {
    size_t j = pairset_slot(s, a, b);
    if (s->used[j]) return true;
    s->used[j] = 1;
    s->a[j] = a;
    s->b[j] = b;
    return false;
}

static bool pairset_has(const pairset *s, const char *a, const char *b) { return s->used[pairset_slot(s, a, b)]; }

int kq_objects_check(kq_objects *o, bool implicit_cohorts, strbuf *err) {
    /* the first object whose name (and namespace) an earlier one has */
#define DUPS(vec, what, ns)                                                                            \
    {                                                                                                  \
        pairset s_;                                                                                    \
        pairset_init(&s_, o->vec.len);                                                                 \
        for (size_t i = 0; i < o->vec.len; i++)                                                        \
            if (pairset_add(&s_, o->vec.data[i]->meta.name, (ns))) {                                   \
                pairset_free(&s_);                                                                     \
                ynode n = at_meta(&o->vec.data[i]->meta);                                              \
                yerr(err, &n, "%s %s: duplicate name", what, o->vec.data[i]->meta.name);               \
                return -1;                                                                             \
            }                                                                                          \
        pairset_free(&s_);                                                                             \
    }
    DUPS(flavors, "ResourceFlavor", NULL)
    DUPS(cqs, "ClusterQueue", NULL)
    DUPS(cohorts, "Cohort", NULL)
    DUPS(wpcs, "WorkloadPriorityClass", NULL)
    DUPS(lqs, "LocalQueue", o->lqs.data[i]->meta.namespace_)
    DUPS(workloads, "Workload", o->workloads.data[i]->meta.namespace_)
    DUPS(topologies, "Topology", NULL)
#undef DUPS
    /* A flavor naming a Topology that does not exist (beyond upstream: Kueue keeps such a flavor
     * out of its TAS cache and its workloads pending, "Flavor ... information missing in TAS cache"). */
    for (size_t i = 0; i < o->flavors.len; i++) {
        const kq_flavor *f = o->flavors.data[i];
        if (f->topology_name && !kq_find_topology(o, f->topology_name)) {
            ynode n = at_meta(&f->meta);
            yerr(err, &n, "ResourceFlavor %s: spec.topologyName: Topology '%s' does not exist", f->meta.name,
                 f->topology_name);
            return -1;
        }
    }
    /* Cohorts named but not declared: Kueue creates them (implicit), or an error. */
    size_t declared = o->cohorts.len;
    for (size_t i = 0; i < o->cqs.len; i++) {
        const kq_cluster_queue *cq = o->cqs.data[i];
        if (!cq->cohort || kq_find_cohort(o, cq->cohort)) continue;
        if (!implicit_cohorts) {
            yerr(err, cq->cohort_where, "ClusterQueue %s: spec.cohortName: Cohort '%s' does not exist (declare it, "
                 "or allow implicit cohorts as Kueue does)", cq->meta.name, cq->cohort);
            return -1;
        }
        add_implicit_cohort(o, cq->cohort, cq->cohort_where);
    }
    for (size_t i = 0; i < o->cohorts.len; i++) {
        const kq_cohort *co = o->cohorts.data[i];
        if (!co->parent || kq_find_cohort(o, co->parent)) continue;
        if (!implicit_cohorts || i >= declared) {
            yerr(err, co->parent_where, "Cohort %s: spec.parentName: Cohort '%s' does not exist", co->meta.name,
                 co->parent);
            return -1;
        }
        add_implicit_cohort(o, co->parent, co->parent_where);
    }
    /* A cycle: walking parents from any cohort must end within ncohorts steps. */
    for (size_t i = 0; i < o->cohorts.len; i++) {
        const kq_cohort *co = o->cohorts.data[i];
        size_t steps = 0;
        for (const kq_cohort *p = co; p && p->parent; p = kq_find_cohort(o, p->parent))
            if (++steps > o->cohorts.len) {
                yerr(err, co->parent_where, "Cohort %s: spec.parentName: cohort cycle through '%s'", co->meta.name,
                     co->parent);
                return -1;
            }
    }
    for (size_t i = 0; i < o->cqs.len; i++) {
        const kq_cluster_queue *cq = o->cqs.data[i];
        if (check_groups(o, "ClusterQueue", cq->meta.name, cq->groups, cq->ngroups, cq->cohort != NULL, err)) return -1;
    }
    for (size_t i = 0; i < declared; i++) {
        const kq_cohort *co = o->cohorts.data[i];
        if (check_groups(o, "Cohort", co->meta.name, co->groups, co->ngroups, co->parent != NULL, err)) return -1;
    }
    pairset cqs;   /* the ClusterQueues' names, for the references below */
    pairset_init(&cqs, o->cqs.len);
    for (size_t i = 0; i < o->cqs.len; i++) pairset_add(&cqs, o->cqs.data[i]->meta.name, NULL);
    for (size_t i = 0; i < o->lqs.len; i++) {
        const kq_local_queue *lq = o->lqs.data[i];
        if (!pairset_has(&cqs, lq->cluster_queue, NULL)) {
            pairset_free(&cqs);
            yerr(err, lq->cq_where, "LocalQueue %s/%s: spec.clusterQueue: ClusterQueue '%s' does not exist",
                 lq->meta.namespace_, lq->meta.name, lq->cluster_queue);
            return -1;
        }
    }
    for (size_t i = 0; i < o->workloads.len; i++) {
        const kq_workload *w = o->workloads.data[i];
        if (w->priority_class && !w->has_priority && !kq_find_wpc(o, w->priority_class)) {
            pairset_free(&cqs);
            yerr(err, w->where, "Workload %s: spec.priorityClassName: WorkloadPriorityClass '%s' does not exist",
                 w->meta.name, w->priority_class);
            return -1;
        }
        if (!w->admitted_cq) continue;
        if (!pairset_has(&cqs, w->admitted_cq, NULL)) {
            pairset_free(&cqs);
            yerr(err, w->where, "Workload %s: status.admission.clusterQueue: ClusterQueue '%s' does not exist",
                 w->meta.name, w->admitted_cq);
            return -1;
        }
        for (size_t j = 0; j < w->npod_sets; j++)
            for (size_t k = 0; k < w->pod_sets[j].nflavors; k++)
                if (!kq_find_flavor(o, w->pod_sets[j].flavors[k].flavor)) {
                    pairset_free(&cqs);
                    yerr(err, w->where, "Workload %s: status.admission: ResourceFlavor '%s' does not exist",
                         w->meta.name, w->pod_sets[j].flavors[k].flavor);
                    return -1;
                }
    }
    pairset_free(&cqs);
    return 0;
}
