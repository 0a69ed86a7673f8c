/*
 * kq_tas.c -- Kueue TAS: topology tree of a flavor and the TopologyAssignment
 * search (kueue ff69552e79, pkg/cache/scheduler/tas_flavor_snapshot.go; see
 * kq_tas.h for what is and is not modelled). Our own C re-implementation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq_tas.h"
#include "sched/framework.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define HOSTNAME_LABEL "kubernetes.io/hostname"

/* ---- the tree ------------------------------------------------------------------ */

static const char *label_of(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (n->meta.labels[i].key == key || !strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

static int res_index(kq_tas_snapshot *s, const char *name, bool add) {
    for (size_t i = 0; i < s->nres; i++)
        if (s->res[i] == name) return (int)i;
    if (!add) return -1;
    s->res = xrealloc(s->res, (s->nres + 1) * sizeof *s->res);
    s->res[s->nres] = name;
    return (int)s->nres++;
}

static kq_tas_dom *dom_new(kq_tas_snapshot *s, kq_tas_dom *parent, int level, const char *const *values) {
    kq_tas_dom *d = xcalloc(1, sizeof *d);
    d->level = level;
    d->parent = parent;
    d->values = xmalloc((size_t)(level + 1) * sizeof *d->values);
    memcpy(d->values, values, (size_t)(level + 1) * sizeof *d->values);
    if (s->ndoms == s->cap_doms) {
        s->cap_doms = s->cap_doms ? 2 * s->cap_doms : 64;
        s->doms = xrealloc(s->doms, s->cap_doms * sizeof *s->doms);
    }
    s->doms[s->ndoms++] = d;
    if (parent) {
        if (parent->nchildren == parent->cap) {
            parent->cap = parent->cap ? 2 * parent->cap : 4;
            parent->children = xrealloc(parent->children, parent->cap * sizeof *parent->children);
        }
        parent->children[parent->nchildren++] = d;
    }
    return d;
}

/* The child of `parent` (or root when NULL) with value v at `level`. */
static kq_tas_dom *dom_child(kq_tas_snapshot *s, kq_tas_dom *parent, int level, const char *const *values) {
    if (parent) {
        for (size_t i = 0; i < parent->nchildren; i++)
            if (!strcmp(parent->children[i]->values[level], values[level])) return parent->children[i];
    } else {
        for (size_t i = 0; i < s->ndoms; i++)
            if (s->doms[i]->level == 0 && !strcmp(s->doms[i]->values[0], values[0])) return s->doms[i];
    }
    return dom_new(s, parent, level, values);
}

/* tas_nodes_cache.go find + utiltas.NodeMatchesFlavor: Ready, schedulable,
 * the flavor's nodeLabels, every level's label. */
static bool node_in_flavor_levels(const k8s_node *n, const kq_flavor *f, const char *const *levels, size_t nlevels,
                                  bool live) {
    if (n->unschedulable || (!live && n->ready != 1)) return false;
    for (size_t i = 0; i < f->nnode_labels; i++) {
        const char *v = label_of(n, f->node_labels[i].key);
        if (!v || strcmp(v, f->node_labels[i].value)) return false;
    }
    for (size_t i = 0; i < nlevels; i++)
        if (!label_of(n, levels[i])) return false;
    return true;
}

static void build(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_objects *nodes, bool live);

size_t kq_tas_unlabelled(const kq_topology *t, const kq_flavor *f, const k8s_node *nodes, size_t nnodes) {
    size_t n = 0;
    for (size_t i = 0; i < nnodes; i++) {
        const k8s_node *x = &nodes[i];
        bool flavor = true, levels = true;
        for (size_t k = 0; k < f->nnode_labels && flavor; k++) {
            const char *v = label_of(x, f->node_labels[k].key);
            flavor = v && !strcmp(v, f->node_labels[k].value);
        }
        for (size_t l = 0; l < t->nlevels && levels; l++) levels = label_of(x, t->levels[l]) != NULL;
        n += flavor && !levels;
    }
    return n;
}

int kq_tas_leaf_of(const kq_tas_snapshot *s, const k8s_node *n) {
    if (!node_in_flavor_levels(n, s->flavor, s->levels, s->nlevels, true)) return -1;
    for (size_t li = 0; li < s->nleaves; li++) {
        const kq_tas_dom *d = s->leaves[li];
        bool same = true;
        for (size_t l = 0; l < s->nlevels && same; l++) same = !strcmp(d->values[l], label_of(n, s->levels[l]));
        if (same) return (int)li;
    }
    return -1;
}

void kq_tas_build_live(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_node *nodes,
                       size_t nnodes) {
    k8s_objects o;
    memset(&o, 0, sizeof o);
    for (size_t i = 0; i < nnodes; i++)
        if (node_in_flavor_levels(&nodes[i], f, t->levels, t->nlevels, true)) VEC_PUSH(o.nodes, (k8s_node *)&nodes[i]);
    build(s, t, f, &o, true);
    VEC_FREE(o.nodes);
}

/* The tree over `nodes`; `live`: a run's nodes (present and Ready as the run keeps them). */
static void build(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_objects *nodes, bool live) {
    memset(s, 0, sizeof *s);
    s->topology = t->meta.name;
    s->flavor = f;
    s->levels = t->levels;
    s->nlevels = t->nlevels;
    s->lowest_is_node = !strcmp(t->levels[t->nlevels - 1], HOSTNAME_LABEL);
    res_index(s, intern("pods"), true);
    /* pass 1: the resources of the flavor's nodes; pass 2: the tree */
    for (size_t i = 0; nodes && i < nodes->nodes.len; i++) {
        const k8s_node *n = nodes->nodes.data[i];
        if (!node_in_flavor_levels(n, f, t->levels, t->nlevels, live)) continue;
        for (size_t r = 0; r < n->nallocatable; r++) res_index(s, n->allocatable[r].name, true);
    }
    const char **vals = xmalloc(t->nlevels * sizeof *vals);
    for (size_t i = 0; nodes && i < nodes->nodes.len; i++) {
        const k8s_node *n = nodes->nodes.data[i];
        if (!node_in_flavor_levels(n, f, t->levels, t->nlevels, live)) continue;
        for (size_t l = 0; l < t->nlevels; l++) vals[l] = label_of(n, t->levels[l]);
        kq_tas_dom *d = NULL;
        for (size_t l = 0; l < t->nlevels; l++) d = dom_child(s, d, (int)l, vals);
        if (!d->alloc) {
            if (s->nleaves == s->cap_leaves) {
                s->cap_leaves = s->cap_leaves ? 2 * s->cap_leaves : 64;
                s->leaves = xrealloc(s->leaves, s->cap_leaves * sizeof *s->leaves);
            }
            s->leaves[s->nleaves++] = d;
            d->alloc = xcalloc(s->nres, sizeof *d->alloc);
            d->used = xcalloc(s->nres, sizeof *d->used);
        }
        d->node = n;
        for (size_t r = 0; r < n->nallocatable; r++)
            d->alloc[res_index(s, n->allocatable[r].name, false)] +=
                kq_resource_value(n->allocatable[r].name, &n->allocatable[r].value);
    }
    free(vals);
}

void kq_tas_build(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_objects *nodes) {
    build(s, t, f, nodes, false);
}

void kq_tas_free(kq_tas_snapshot *s) {
    for (size_t i = 0; i < s->ndoms; i++) {
        kq_tas_dom *d = s->doms[i];
        free(d->values);
        free(d->children);
        free(d->alloc);
        free(d->used);
        free(d);
    }
    free(s->doms);
    free(s->leaves);
    free(s->res);
    memset(s, 0, sizeof *s);
}

void kq_tas_assignment_free(kq_tas_assignment *a) {
    for (size_t i = 0; i < a->ndomains; i++) free(a->domains[i].values);
    free(a->domains);
    memset(a, 0, sizeof *a);
}

/* ---- requests ------------------------------------------------------------------ */

typedef struct req {                 /* one pod's request; names sorted (ties of the limiting resource) */
    const char **name;
    int64_t *val;
    int *idx;                        /* index in s->res, -1 = no node has it */
    size_t n;
} req;

static int name_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static void req_build(kq_tas_snapshot *s, const k8s_pod *pod, req *q) {
    size_t n = pod->nrequests + 1;
    const char **names = xmalloc(n * sizeof *names);
    size_t k = 0;
    names[k++] = intern("pods");
    for (size_t i = 0; i < pod->nrequests; i++)
        if (strcmp(pod->requests[i].name, "pods")) names[k++] = pod->requests[i].name;
    qsort(names, k, sizeof *names, name_cmp);
    q->name = names;
    q->n = k;
    q->val = xcalloc(k, sizeof *q->val);
    q->idx = xmalloc(k * sizeof *q->idx);
    for (size_t i = 0; i < k; i++) {
        q->idx[i] = res_index(s, names[i], false);
        if (!strcmp(names[i], "pods")) { q->val[i] = 1; continue; }   /* resources.OnePodRequest */
        for (size_t j = 0; j < pod->nrequests; j++)
            if (pod->requests[j].name == names[i] || !strcmp(pod->requests[j].name, names[i]))
                q->val[i] += kq_resource_value(names[i], &pod->requests[j].value);
    }
}

static void req_free(req *q) {
    free(q->name);
    free(q->val);
    free(q->idx);
}

/* resources.CountInWithLimitingResource over a leaf's remaining capacity. */
static int32_t count_in(const kq_tas_dom *leaf, const req *q, const char **limiting) {
    int64_t best = INT32_MAX;
    *limiting = NULL;
    for (size_t i = 0; i < q->n; i++) {
        if (q->val[i] == 0) continue;
        int64_t cap = q->idx[i] < 0 ? 0 : leaf->alloc[q->idx[i]] - leaf->used[q->idx[i]];
        if (cap < 0) cap = 0;
        int64_t c = cap / q->val[i];
        if (c < best) {
            best = c;
            *limiting = q->name[i];
        }
    }
    return (int32_t)best;
}

bool kq_tas_add_usage(kq_tas_snapshot *s, const char *const *levels, size_t nlevels, const char *const *values,
                      const k8s_pod *pod, int32_t count) {
    size_t first = s->nlevels - nlevels;
    if (nlevels > s->nlevels) return false;
    for (size_t l = 0; l < nlevels; l++)
        if (strcmp(levels[l], s->levels[first + l])) return false;
    for (size_t li = 0; li < s->nleaves; li++) {
        kq_tas_dom *d = s->leaves[li];
        bool same = true;
        for (size_t l = 0; l < nlevels && same; l++) same = !strcmp(d->values[first + l], values[l]);
        if (!same) continue;
        req q;
        req_build(s, pod, &q);
        for (size_t i = 0; i < q.n; i++)
            if (q.idx[i] >= 0) d->used[q.idx[i]] += q.val[i] * count;
        req_free(&q);
        return true;
    }
    return false;
}

/* ---- exclusion statistics (tasExclusionStats) ------------------------------------ */

typedef struct stats {
    int total, selector, affinity;
    const char *taint[64];
    int ntaint_count[64];
    size_t ntaints;
    const char *resource[64];
    int nres_count[64];
    size_t nres;
} stats;

static void stat_add(const char **keys, int *counts, size_t *n, const char *k) {
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(keys[i], k)) { counts[i]++; return; }
    if (*n < 64) {
        keys[*n] = k;
        counts[(*n)++] = 1;
    }
}

static void stats_format(const stats *st, strbuf *b) {
    if (!st->selector && !st->affinity && !st->ntaints && !st->nres) return;
    char *items[140];
    size_t n = 0;
    char tmp[512];
    if (st->selector) { snprintf(tmp, sizeof tmp, "nodeSelector: %d", st->selector); items[n++] = xstrdup(tmp); }
    if (st->affinity) { snprintf(tmp, sizeof tmp, "affinity: %d", st->affinity); items[n++] = xstrdup(tmp); }
    for (size_t i = 0; i < st->ntaints; i++) {
        snprintf(tmp, sizeof tmp, "taint \"%s\": %d", st->taint[i], st->ntaint_count[i]);
        items[n++] = xstrdup(tmp);
    }
    for (size_t i = 0; i < st->nres; i++) {
        snprintf(tmp, sizeof tmp, "resource \"%s\": %d", st->resource[i], st->nres_count[i]);
        items[n++] = xstrdup(tmp);
    }
    qsort(items, n, sizeof *items, name_cmp);
    sb_printf(b, ". Total nodes: %d; excluded: ", st->total);
    for (size_t i = 0; i < n; i++) {
        sb_printf(b, "%s%s", i ? ", " : "", items[i]);
        free(items[i]);
    }
}

/* ---- the search ---------------------------------------------------------------- */

typedef struct search {
    kq_tas_snapshot *s;
    bool lfc;                        /* LeastFreeCapacity (unconstrained with TASProfileMixed) */
    bool required, unconstrained;
    int32_t count, slice_size;
    int req_level, slice_level;
    stats st;
    char taint_text[64][300];
} search;

static int g_lfc;   /* sort order of dom_cmp (single-threaded) */

static int values_cmp(const kq_tas_dom *a, const kq_tas_dom *b) {
    int n = a->level < b->level ? a->level : b->level;
    for (int i = 0; i <= n; i++) {
        int c = strcmp(a->values[i], b->values[i]);
        if (c) return c;
    }
    return (a->level > b->level) - (a->level < b->level);
}

/* sortedDomains: sliceCount descending (BestFit) or ascending (LeastFreeCapacity),
 * podCount ascending, level values ascending. */
static int dom_cmp(const void *x, const void *y) {
    const kq_tas_dom *a = *(kq_tas_dom *const *)x, *b = *(kq_tas_dom *const *)y;
    if (a->slices != b->slices) return g_lfc ? (a->slices < b->slices ? -1 : 1) : (a->slices > b->slices ? -1 : 1);
    if (a->pods != b->pods) return a->pods < b->pods ? -1 : 1;
    return values_cmp(a, b);
}

static int val_only_cmp(const void *x, const void *y) {
    return values_cmp(*(kq_tas_dom *const *)x, *(kq_tas_dom *const *)y);
}

static void sort_doms(search *q, kq_tas_dom **d, size_t n) {
    if (n < 2) return;   /* also: d is NULL when a level has no domain (qsort(NULL, 0) is undefined) */
    g_lfc = q->lfc;
    qsort(d, n, sizeof *d, dom_cmp);
}

/* findBestFitDomainBy: the first domain with the smallest count >= needed, else the first. */
static kq_tas_dom *best_fit(kq_tas_dom **d, size_t n, int32_t needed, bool slices) {
    kq_tas_dom *best = d[0];
    int32_t best_count = INT32_MAX;
    for (size_t i = 0; i < n; i++) {
        int32_t c = slices ? d[i]->slices : d[i]->pods;
        if (c >= needed && c < best_count) {
            best = d[i];
            best_count = c;
        }
    }
    return best;
}

/* fillInCountsHelper without leaders and inner slice layers. */
static void fill_helper(search *q, kq_tas_dom *d) {
    if (!d->nchildren) {
        if (d->level == q->slice_level) d->slices = d->pods / q->slice_size;
        return;
    }
    int32_t pods = 0, slices = 0;
    for (size_t i = 0; i < d->nchildren; i++) {
        fill_helper(q, d->children[i]);
        pods += d->children[i]->pods;
        slices += d->children[i]->slices;
    }
    d->pods = pods;
    d->slices = d->level == q->slice_level ? pods / q->slice_size : slices;
}

static bool tolerated(const k8s_pod *pod, const kq_flavor *f, const k8s_taint *t) {
    for (size_t i = 0; i < pod->ntolerations; i++)
        if (toleration_tolerates(&pod->tolerations[i], t)) return true;
    for (size_t i = 0; i < f->ntolerations; i++)
        if (toleration_tolerates(&f->tolerations[i], t)) return true;
    return false;
}

/* fillInCounts: per leaf the pods that fit (feasible nodes only when the lowest
 * level is the hostname), then the sums up the tree. */
static void fill_counts(search *q, const k8s_pod *pod, const req *rq) {
    kq_tas_snapshot *s = q->s;
    static const char *const effects[] = {"", "NoSchedule", "PreferNoSchedule", "NoExecute"};
    for (size_t i = 0; i < s->ndoms; i++) s->doms[i]->pods = s->doms[i]->slices = 0;
    q->st.total = (int)s->nleaves;
    for (size_t li = 0; li < s->nleaves; li++) {
        kq_tas_dom *d = s->leaves[li];
        if (s->lowest_is_node) {
            const k8s_node *n = d->node;
            const k8s_taint *bad = NULL;
            for (size_t t = 0; t < n->ntaints && !bad; t++)
                if ((n->taints[t].effect == TAINT_NO_SCHEDULE || n->taints[t].effect == TAINT_NO_EXECUTE) &&
                    !tolerated(pod, s->flavor, &n->taints[t]))
                    bad = &n->taints[t];
            if (bad) {
                char *txt = q->taint_text[q->st.ntaints < 64 ? q->st.ntaints : 63];
                if (bad->value && *bad->value) snprintf(txt, 300, "%s=%s:%s", bad->key, bad->value, effects[bad->effect]);
                else snprintf(txt, 300, "%s:%s", bad->key, effects[bad->effect]);
                size_t before = q->st.ntaints;
                stat_add(q->st.taint, q->st.ntaint_count, &q->st.ntaints, txt);
                (void)before;
                continue;
            }
            bool sel = true;
            for (size_t k = 0; k < pod->nnode_selector && sel; k++) {
                const char *v = label_of(n, pod->node_selector[k].key);
                sel = v && !strcmp(v, pod->node_selector[k].value);
            }
            if (!sel) { q->st.selector++; continue; }
            if (pod->has_affinity && !node_selector_matches(&pod->required_affinity, n)) { q->st.affinity++; continue; }
        }
        const char *lim;
        d->pods = count_in(d, rq, &lim);
        if (d->pods == 0 && lim) stat_add(q->st.resource, q->st.nres_count, &q->st.nres, lim);
    }
    for (size_t i = 0; i < s->ndoms; i++)
        if (s->doms[i]->level == 0) fill_helper(q, s->doms[i]);
}

static void not_fit(search *q, int32_t fit, int32_t total, strbuf *reason) {
    const char *unit = q->slice_size == 1 ? "pod" : "slice";
    if (fit == 0)
        sb_printf(reason, "topology \"%s\" doesn't allow to fit any of %d %s(s)", q->s->topology, total, unit);
    else
        sb_printf(reason, "topology \"%s\" allows to fit only %d out of %d %s(s)", q->s->topology, fit, total, unit);
    stats_format(&q->st, reason);
}

typedef struct dlist {
    kq_tas_dom **d;
    size_t n, cap;
} dlist;

static void dl_push(dlist *l, kq_tas_dom *d) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->d = xrealloc(l->d, l->cap * sizeof *l->d);
    }
    l->d[l->n++] = d;
}

/* The domains of one level, sorted. */
static dlist level_doms(search *q, int level) {
    dlist l = {0};
    for (size_t i = 0; i < q->s->ndoms; i++)
        if (q->s->doms[i]->level == level) dl_push(&l, q->s->doms[i]);
    sort_doms(q, l.d, l.n);
    return l;
}

/* findLevelWithFitDomains (no leaders): the level and the domains to fill. */
static int find_level(search *q, int level, dlist *out, int *fit_level, strbuf *reason) {
    dlist l = level_doms(q, level);
    if (!l.n) {
        sb_printf(reason, "no topology domains at level: %s", q->s->levels[level]);
        free(l.d);
        return -1;
    }
    int32_t need = q->count / q->slice_size;
    kq_tas_dom *top = l.d[0];
    if (!q->lfc && top->slices >= need) top = best_fit(l.d, l.n, need, true);
    if (q->lfc) {
        for (size_t i = 0; i < l.n; i++)
            if (l.d[i]->slices >= need) {
                dl_push(out, l.d[i]);
                *fit_level = level;
                free(l.d);
                return 0;
            }
        if (q->required) {
            not_fit(q, l.d[l.n - 1]->pods, need, reason);
            free(l.d);
            return -1;
        }
    }
    if (top->slices < need) {
        if (q->required) {
            not_fit(q, top->slices, need, reason);
            free(l.d);
            return -1;
        }
        if (level > 0 && !q->unconstrained) {
            free(l.d);
            return find_level(q, level - 1, out, fit_level, reason);
        }
        int32_t remaining = need;
        for (size_t i = 0; remaining > 0 && i < l.n; i++) {
            kq_tas_dom *d = l.d[i];
            if (!q->lfc && d->slices >= remaining) d = best_fit(l.d + i, l.n - i, remaining, true);
            dl_push(out, d);
            remaining -= d->slices;
        }
        if (remaining > 0) {
            not_fit(q, need - remaining, need, reason);
            free(l.d);
            return -1;
        }
        *fit_level = level;
        free(l.d);
        return 0;
    }
    dl_push(out, top);
    *fit_level = level;
    free(l.d);
    return 0;
}

/* updateCountsToMinimumGeneric (no leaders): take domains in order until
 * `count` pods (or count/slice_size slices) are placed, BestFit optimising the
 * last one; sets each chosen domain's pods. */
static dlist to_minimum(search *q, kq_tas_dom **d, size_t n, int32_t count, int32_t slice_size, bool slices) {
    dlist out = {0};
    int32_t remaining = slices ? count / slice_size : count;
    for (size_t i = 0; i < n; i++) {
        kq_tas_dom *dom = d[i];
        if (slices) {
            if (!q->lfc && dom->slices >= remaining) dom = best_fit(d + i, n - i, remaining, true);
            if (dom->slices >= remaining) {
                dom->pods = remaining * slice_size;
                dom->slices = remaining;
                dl_push(&out, dom);
                return out;
            }
            dom->pods = dom->slices * slice_size;
            remaining -= dom->slices;
        } else {
            if (!q->lfc && dom->pods >= remaining) dom = best_fit(d + i, n - i, remaining, false);
            if (dom->pods >= remaining) {
                dom->pods = remaining;
                dl_push(&out, dom);
                return out;
            }
            remaining -= dom->pods;
        }
        dl_push(&out, dom);
    }
    return out;   /* not reached when the counts were consistent */
}

static int level_index(const kq_tas_snapshot *s, const char *key) {
    for (size_t i = 0; i < s->nlevels; i++)
        if (!strcmp(s->levels[i], key)) return (int)i;
    return -1;
}

int kq_tas_find(kq_tas_snapshot *s, const kq_topology_request *r, bool implied, const k8s_pod *pod, int32_t count,
                kq_tas_assignment *out, strbuf *reason) {
    memset(out, 0, sizeof *out);
    search q = {.s = s, .count = count, .slice_size = 1};
    bool slice_only = r && !r->required && !r->preferred && r->slice_level;
    const char *key = NULL;
    if (r && r->required) key = r->required;
    else if (r && r->preferred) key = r->preferred;
    else if (slice_only) key = s->levels[0];
    else if ((r && r->unconstrained) || implied) key = s->levels[s->nlevels - 1];
    if (!key) { sb_puts(reason, "topology level not specified"); return -1; }
    q.required = r && r->required;
    q.unconstrained = (r && r->unconstrained) || implied || slice_only;
    q.lfc = q.unconstrained;          /* TASProfileMixed, on by default since v0.15 */
    if (r && r->slice_level) q.slice_size = r->slice_size;
    q.req_level = level_index(s, key);
    if (q.req_level < 0) { sb_printf(reason, "no requested topology level: %s", key); return -1; }
    const char *slice_key = r && r->slice_level ? r->slice_level : s->levels[s->nlevels - 1];
    q.slice_level = level_index(s, slice_key);
    if (q.slice_level < 0) { sb_printf(reason, "no requested topology level for slices: %s", slice_key); return -1; }
    if (q.req_level > q.slice_level) {
        sb_printf(reason, "podset slice topology %s is above the podset topology %s", slice_key, key);
        return -1;
    }
    req rq;
    req_build(s, pod, &rq);
    fill_counts(&q, pod, &rq);
    dlist fit = {0};
    int fit_level = 0;
    if (find_level(&q, q.req_level, &fit, &fit_level, reason)) {
        free(fit.d);
        req_free(&rq);
        return -1;
    }
    dlist cur = to_minimum(&q, fit.d, fit.n, q.count, q.slice_size, true);
    free(fit.d);
    int level = fit_level;
    int last = (int)s->nlevels - 1;
    for (; level < (last < q.slice_level ? last : q.slice_level); level++) {
        dlist lower = {0};
        for (size_t i = 0; i < cur.n; i++)
            for (size_t c = 0; c < cur.d[i]->nchildren; c++) dl_push(&lower, cur.d[i]->children[c]);
        sort_doms(&q, lower.d, lower.n);
        free(cur.d);
        cur = to_minimum(&q, lower.d, lower.n, q.count, q.slice_size, true);
        free(lower.d);
    }
    for (; level < last; level++) {
        dlist next = {0};
        for (size_t i = 0; i < cur.n; i++) {
            kq_tas_dom *d = cur.d[i];
            kq_tas_dom **kids = xmalloc((d->nchildren ? d->nchildren : 1) * sizeof *kids);
            memcpy(kids, d->children, d->nchildren * sizeof *kids);
            sort_doms(&q, kids, d->nchildren);
            dlist add = to_minimum(&q, kids, d->nchildren, d->pods, 1, false);
            for (size_t k = 0; k < add.n; k++) dl_push(&next, add.d[k]);
            free(add.d);
            free(kids);
        }
        free(cur.d);
        cur = next;
    }
    /* buildAssignment: by level values; hostname only when the lowest level is the hostname */
    if (cur.n > 1) qsort(cur.d, cur.n, sizeof *cur.d, val_only_cmp);
    size_t first = s->lowest_is_node ? s->nlevels - 1 : 0;
    out->levels = s->levels + first;
    out->nlevels = s->nlevels - first;
    out->domains = xcalloc(cur.n ? cur.n : 1, sizeof *out->domains);
    for (size_t i = 0; i < cur.n; i++) {
        kq_tas_dom *d = cur.d[i];
        if (d->pods == 0) continue;
        kq_tas_domain *o = &out->domains[out->ndomains++];
        o->count = d->pods;
        o->values = xmalloc(out->nlevels * sizeof *o->values);
        memcpy(o->values, d->values + first, out->nlevels * sizeof *o->values);
        /* assumed usage for the workload's later pod sets (FindTopologyAssignmentsForFlavor) */
        for (size_t k = 0; k < rq.n; k++)
            if (rq.idx[k] >= 0) d->used[rq.idx[k]] += rq.val[k] * d->pods;
    }
    free(cur.d);
    req_free(&rq);
    return 0;
}
