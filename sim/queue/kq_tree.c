/*
 * kq_tree.c -- the quota tree: ClusterQueues under hierarchical Cohorts, each
 * node with its own quotas and the subtree quota and usage per (flavor,
 * resource). The arithmetic is Kueue's pkg/cache/scheduler/resource_node.go
 * (ff69552e79): what a node keeps for itself is its lending-limit remainder
 * (localQuota), the rest is lent to the parent; usage beyond the local part is
 * recorded in the parent too.
 */
#include <stdlib.h>
#include <string.h>

#include "queue/kq.h"
#include "util/intern.h"
#include "util/xalloc.h"

int64_t kq_sat_add(int64_t a, int64_t b) {
    if (a == KQ_UNLIMITED || b == KQ_UNLIMITED) return KQ_UNLIMITED;
    if (b > 0 && a > INT64_MAX - b) return KQ_UNLIMITED;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}

static int64_t sat_sub(int64_t a, int64_t b) {
    if (a == KQ_UNLIMITED) return KQ_UNLIMITED;
    return kq_sat_add(a, b == INT64_MIN ? INT64_MAX : -b);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int kq_fr_find(const kq_snapshot *s, const char *flavor, const char *resource) {
    for (size_t i = 0; i < s->nfr; i++)
        if (s->frs[i].flavor == flavor && s->frs[i].resource == resource) return (int)i;
    return -1;
}

/* Grow every node's arrays to the new number of frs. */
static void grow_nodes(kq_snapshot *s, size_t old_cap) {
    for (size_t i = 0; i < s->nnodes; i++) {
        kq_node *n = s->nodes[i];
        int64_t **arrs[] = {&n->nominal, &n->borrowing_limit, &n->lending_limit, &n->subtree, &n->usage};
        for (size_t a = 0; a < 5; a++) {
            *arrs[a] = xrealloc(*arrs[a], s->cap_fr * sizeof(int64_t));
            for (size_t k = old_cap; k < s->cap_fr; k++) (*arrs[a])[k] = (a == 1 || a == 2) ? KQ_NO_LIMIT : 0;
        }
        n->declared = xrealloc(n->declared, s->cap_fr);
        memset(n->declared + old_cap, 0, s->cap_fr - old_cap);
        n->present = xrealloc(n->present, s->cap_fr);
        memset(n->present + old_cap, 0, s->cap_fr - old_cap);
    }
}

uint32_t kq_fr_index(kq_snapshot *s, const char *flavor, const char *resource) {
    int i = kq_fr_find(s, flavor, resource);
    if (i >= 0) return (uint32_t)i;
    if (s->nfr == s->cap_fr) {
        size_t old = s->cap_fr;
        s->cap_fr = s->cap_fr ? s->cap_fr * 2 : 16;
        s->frs = xrealloc(s->frs, s->cap_fr * sizeof *s->frs);
        grow_nodes(s, old);
    }
    s->frs[s->nfr].flavor = flavor;
    s->frs[s->nfr].resource = resource;
    return (uint32_t)s->nfr++;
}

static kq_node *new_node(kq_snapshot *s, const char *name, bool is_cq) {
    kq_node *n = xcalloc(1, sizeof *n);
    n->name = name;
    n->is_cq = is_cq;
    n->index = s->nnodes;
    s->nodes = xrealloc(s->nodes, (s->nnodes + 1) * sizeof *s->nodes);
    s->nodes[s->nnodes++] = n;
    n->nominal = xcalloc(s->cap_fr ? s->cap_fr : 1, sizeof(int64_t));
    n->subtree = xcalloc(s->cap_fr ? s->cap_fr : 1, sizeof(int64_t));
    n->usage = xcalloc(s->cap_fr ? s->cap_fr : 1, sizeof(int64_t));
    n->borrowing_limit = xmalloc((s->cap_fr ? s->cap_fr : 1) * sizeof(int64_t));
    n->lending_limit = xmalloc((s->cap_fr ? s->cap_fr : 1) * sizeof(int64_t));
    n->declared = xcalloc(s->cap_fr ? s->cap_fr : 1, 1);
    n->present = xcalloc(s->cap_fr ? s->cap_fr : 1, 1);
    for (size_t k = 0; k < s->cap_fr; k++) n->borrowing_limit[k] = n->lending_limit[k] = KQ_NO_LIMIT;
    return n;
}

static void set_quotas(kq_snapshot *s, kq_node *n, const kq_resource_group *g, size_t ng) {
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < g[i].nflavors; j++)
            for (size_t k = 0; k < g[i].flavors[j].nresources; k++) {
                const kq_quota *q = &g[i].flavors[j].resources[k];
                uint32_t fr = kq_fr_index(s, g[i].flavors[j].flavor, q->resource);
                n->nominal[fr] = q->nominal;
                n->declared[fr] = true;
                n->borrowing_limit[fr] = q->has_borrowing_limit ? q->borrowing_limit : KQ_NO_LIMIT;
                n->lending_limit[fr] = q->has_lending_limit ? q->lending_limit : KQ_NO_LIMIT;
            }
}

static void add_child(kq_node *parent, kq_node *child) {
    child->parent = parent;
    if (child->is_cq) {
        if (parent->nchild_cqs == parent->cap_cqs) {
            parent->cap_cqs = parent->cap_cqs ? parent->cap_cqs * 2 : 4;
            parent->child_cqs = xrealloc(parent->child_cqs, parent->cap_cqs * sizeof(kq_node *));
        }
        parent->child_cqs[parent->nchild_cqs++] = child;
    } else {
        if (parent->nchild_cohorts == parent->cap_cohorts) {
            parent->cap_cohorts = parent->cap_cohorts ? parent->cap_cohorts * 2 : 4;
            parent->child_cohorts = xrealloc(parent->child_cohorts, parent->cap_cohorts * sizeof(kq_node *));
        }
        parent->child_cohorts[parent->nchild_cohorts++] = child;
    }
}

int64_t kq_local_quota(const kq_node *n, uint32_t fr) {
    if (n->lending_limit[fr] == KQ_NO_LIMIT) return 0;
    return max64(0, sat_sub(n->subtree[fr], n->lending_limit[fr]));
}

/* updateCohortResourceNode: subtree quota bottom-up (usage is added later). */
static void accumulate(kq_node *n, size_t nfr) {
    for (size_t k = 0; k < nfr; k++) {
        n->subtree[k] = n->nominal[k];
        n->present[k] = n->declared[k];
    }
    for (size_t c = 0; c < n->nchild_cohorts; c++) accumulate(n->child_cohorts[c], nfr);
    for (size_t c = 0; c < n->nchild_cqs; c++) accumulate(n->child_cqs[c], nfr);
    kq_node **kids[2] = {n->child_cohorts, n->child_cqs};
    size_t nk[2] = {n->nchild_cohorts, n->nchild_cqs};
    for (int t = 0; t < 2; t++)
        for (size_t c = 0; c < nk[t]; c++)
            for (size_t k = 0; k < nfr; k++) {
                n->present[k] |= kids[t][c]->present[k];
                n->subtree[k] = kq_sat_add(n->subtree[k], sat_sub(kids[t][c]->subtree[k], kq_local_quota(kids[t][c], (uint32_t)k)));
            }
}

void kq_snapshot_build(kq_snapshot *s, const kq_objects *o) {
    memset(s, 0, sizeof *s);
    s->o = o;
    s->pods_name = intern("pods");
    s->fair_sharing = o->config.fair_sharing;
    memcpy(s->fs_strategies, o->config.fs_strategies, sizeof s->fs_strategies);
    s->nfs_strategies = o->config.nfs_strategies;
    for (size_t i = 0; i < o->cqs.len; i++) {
        kq_node *n = new_node(s, o->cqs.data[i]->meta.name, true);
        n->cq = o->cqs.data[i];
        n->weight = n->cq->fair_weight;
        set_quotas(s, n, n->cq->groups, n->cq->ngroups);
    }
    s->ncq = s->nnodes;
    for (size_t i = 0; i < o->cohorts.len; i++) {
        kq_node *n = new_node(s, o->cohorts.data[i]->meta.name, false);
        n->cohort = o->cohorts.data[i];
        n->weight = n->cohort->fair_weight;
        set_quotas(s, n, n->cohort->groups, n->cohort->ngroups);
    }
    for (size_t i = 0; i < s->ncq; i++)
        if (s->nodes[i]->cq->cohort) add_child(kq_snapshot_cohort(s, s->nodes[i]->cq->cohort), s->nodes[i]);
    for (size_t i = s->ncq; i < s->nnodes; i++)
        if (s->nodes[i]->cohort->parent) add_child(kq_snapshot_cohort(s, s->nodes[i]->cohort->parent), s->nodes[i]);
    for (size_t i = 0; i < s->nnodes; i++)
        if (!s->nodes[i]->parent) accumulate(s->nodes[i], s->nfr);
}

void kq_snapshot_free(kq_snapshot *s) {
    for (size_t i = 0; i < s->nnodes; i++) {
        kq_node *n = s->nodes[i];
        free(n->child_cohorts);
        free(n->child_cqs);
        free(n->nominal);
        free(n->borrowing_limit);
        free(n->lending_limit);
        free(n->declared);
        free(n->present);
        free(n->subtree);
        free(n->usage);
        free(n->adm);
        free(n->evl);
        free(n);
    }
    free(s->nodes);
    free(s->frs);
    memset(s, 0, sizeof *s);
}

kq_node *kq_snapshot_cq(const kq_snapshot *s, const char *name) {
    for (size_t i = 0; i < s->ncq; i++)
        if (s->nodes[i]->name == name) return s->nodes[i];
    return NULL;
}

kq_node *kq_snapshot_cohort(const kq_snapshot *s, const char *name) {
    for (size_t i = s->ncq; i < s->nnodes; i++)
        if (s->nodes[i]->name == name) return s->nodes[i];
    return NULL;
}

int64_t kq_local_available(const kq_node *n, uint32_t fr) {
    return max64(0, sat_sub(kq_local_quota(n, fr), n->usage[fr]));
}

/* resource_node.go available(): may be negative when the node is in debt. */
static int64_t available(const kq_node *n, uint32_t fr) {
    if (!n->parent) return sat_sub(n->subtree[fr], n->usage[fr]);
    int64_t parent_avail = available(n->parent, fr);
    if (n->borrowing_limit[fr] != KQ_NO_LIMIT) {
        int64_t lq = kq_local_quota(n, fr);
        int64_t stored_in_parent = sat_sub(n->subtree[fr], lq);
        int64_t used_in_parent = max64(0, sat_sub(n->usage[fr], lq));
        int64_t with_max = kq_sat_add(sat_sub(stored_in_parent, used_in_parent), n->borrowing_limit[fr]);
        parent_avail = min64(with_max, parent_avail);
    }
    return kq_sat_add(kq_local_available(n, fr), parent_avail);
}

int64_t kq_available(const kq_node *n, uint32_t fr) { return max64(0, available(n, fr)); }

int64_t kq_potential_available(const kq_node *n, uint32_t fr) {
    if (!n->parent) return n->subtree[fr];
    int64_t avail = kq_sat_add(kq_local_quota(n, fr), kq_potential_available(n->parent, fr));
    if (n->borrowing_limit[fr] != KQ_NO_LIMIT) avail = min64(kq_sat_add(n->subtree[fr], n->borrowing_limit[fr]), avail);
    return avail;
}

void kq_add_usage(kq_node *n, uint32_t fr, int64_t v) {
    int64_t local = kq_local_available(n, fr);
    n->usage[fr] = kq_sat_add(n->usage[fr], v);
    if (n->parent && v > local) kq_add_usage(n->parent, fr, v - local);
}

void kq_remove_usage(kq_node *n, uint32_t fr, int64_t v) {
    int64_t stored_in_parent = sat_sub(n->usage[fr], kq_local_quota(n, fr));
    n->usage[fr] = sat_sub(n->usage[fr], v);
    if (stored_in_parent <= 0 || !n->parent) return;
    kq_remove_usage(n->parent, fr, min64(v, stored_in_parent));
}

/* ClusterQueueSnapshot.BorrowingWith compares with the nominal quota, a
 * cohort's with its subtree quota (cohort_snapshot.go). */
bool kq_borrowing_with(const kq_node *n, uint32_t fr, int64_t v) {
    int64_t q = n->is_cq ? n->nominal[fr] : n->subtree[fr];
    return q < kq_sat_add(n->usage[fr], v);
}

/* IsWithinNominalInResources: subtree quota >= usage for every fr. */
bool kq_within_nominal(const kq_node *n, const uint32_t *frs, size_t nfrs) {
    for (size_t i = 0; i < nfrs; i++)
        if (n->subtree[frs[i]] < n->usage[frs[i]]) return false;
    return true;
}

void kq_wl_usage(kq_wl *w, bool add) {
    for (size_t i = 0; i < w->nusage; i++) {
        if (add) kq_add_usage(w->cq, w->usage[i].fr, w->usage[i].amount);
        else kq_remove_usage(w->cq, w->usage[i].fr, w->usage[i].amount);
    }
}

/* Append w to list l (n entries, cap *cap); returns its index. */
static size_t list_add(kq_wl ***l, size_t *n, size_t *cap, kq_wl *w) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *l = xrealloc(*l, *cap * sizeof **l);
    }
    (*l)[*n] = w;
    return (*n)++;
}

/* Drop the NULL holes of a ClusterQueue's list, keeping the order; each
 * entry's cq_slot is stored again. */
static void list_compact(kq_wl **l, size_t *n, size_t *holes) {
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (l[i]) {
            l[i]->cq_slot = k;
            l[k++] = l[i];
        }
    *n = k;
    *holes = 0;
}

static bool adm_odd(const kq_node *cq, const kq_wl *w) { return w->reserved_at || w->priority != cq->adm_prio; }

void kq_admit_wl(kq_snapshot *s, kq_wl *w) {
    (void)s;
    kq_wl_usage(w, true);
    kq_node *cq = w->cq;   /* its ClusterQueue's own list (the preemption candidates) */
    if (cq->nadm == cq->holes_adm) {   /* empty: its order starts again */
        cq->adm_prio = w->priority;
        cq->adm_odd = 0;
        cq->adm_last = w->reserved_ms;
        cq->adm_unsorted = false;
    }
    cq->adm_odd += adm_odd(cq, w);
    if (w->reserved_ms < cq->adm_last) cq->adm_unsorted = true;
    else cq->adm_last = w->reserved_ms;
    w->cq_slot = list_add(&cq->adm, &cq->nadm, &cq->cap_adm, w);
    if (w->evicted) list_add(&cq->evl, &cq->nevl, &cq->cap_evl, w);
}

bool kq_adm_ordered(const kq_node *cq) { return cq->adm_odd == 0 && !cq->adm_unsorted; }

void kq_wl_mark_evicted(kq_wl *w) {
    if (w->evicted) return;
    w->evicted = true;
    kq_node *cq = w->cq;
    if (cq && w->cq_slot < cq->nadm && cq->adm[w->cq_slot] == w) list_add(&cq->evl, &cq->nevl, &cq->cap_evl, w);
}

/* Removal leaves a hole (O(1); a run removes every Workload it admitted),
 * the list is compacted once half of it is holes. */
void kq_unadmit_wl(kq_snapshot *s, kq_wl *w) {
    (void)s;
    kq_wl_usage(w, false);
    kq_node *cq = w->cq;
    if (w->cq_slot >= cq->nadm || cq->adm[w->cq_slot] != w) return;
    cq->adm[w->cq_slot] = NULL;
    cq->adm_odd -= adm_odd(cq, w);
    if (w->evicted)
        for (size_t i = 0; i < cq->nevl; i++)
            if (cq->evl[i] == w) {
                cq->evl[i] = cq->evl[--cq->nevl];
                break;
            }
    if (++cq->holes_adm * 2 > cq->nadm) list_compact(cq->adm, &cq->nadm, &cq->holes_adm);
}
