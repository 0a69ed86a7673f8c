/*
 * kai_topology.c -- KAI-Scheduler's topology-aware placement in a run (see
 * kai_topology.h; NVIDIA/KAI-Scheduler v0.13.0, pkg/scheduler/plugins/topology/).
 * Our own C re-implementation.
 */
#include "queue/kai_topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/policies/gpu_view.h"
#include "sched/sched.h"
#include "util/intern.h"
#include "util/xalloc.h"

enum { T_CPU, T_MEM, T_PODS, T_GPU, T_N };   /* what a node's fit is counted in */

#define HOSTNAME "kubernetes.io/hostname"
#define NOT_IN_DOMAIN_RATIO 1000.0           /* job_filtering.go requiredResourceNotInDomainRatio */

typedef struct tdom {                        /* one domain of one level */
    const char *id;                          /* calcDomainId: values joined by "." */
    int32_t parent;                          /* index at the level above, -1 = the root */
    /* the current evaluation */
    int64_t pods, empty_pods;                /* pods it can take now / when empty */
    double free[T_N];
    double ratio;
    int32_t rank;                            /* among its siblings (sortTree) */
} tdom;

typedef VEC(tdom) tdom_vec;

typedef struct ttree {                       /* a Topology over the scheduler's nodes */
    const kai_topology *topo;
    size_t nlev;
    tdom_vec *lev;                           /* [nlev] */
    int32_t *node_dom;                       /* [node * nlev + l], -1 = the node is not in the topology */
    VEC(uint32_t) nodes;                     /* nodes in the topology */
} ttree;

typedef struct placed {                      /* a committed job: node per pod */
    const kai_job *job;
    uint32_t *node;
    size_t n;
    int64_t q[T_N];
} placed;

typedef struct failed {                      /* the reason of a job's last failed placement */
    const kai_job *job;
    char *why;
} failed;

typedef struct tpod {                        /* a pinned pod not yet bound */
    int32_t node;                            /* -1 = none */
    int64_t q[T_N];
} tpod;

struct kai_topo {
    const kai_objects *o;
    const scheduler *s;
    ttree *trees;                            /* per Topology, built on first use */
    bool *built;
    VEC(kai_topo_constraint *) cons;
    int64_t *pend;                           /* [node * T_N]: placed pods not bound yet */
    int64_t *back;                           /* [node * T_N]: victims' pods releasing (one placement) */
    bool has_back;
    VEC(tpod) pods;                          /* per pod id */
    VEC(placed) placed;
    VEC(failed) failed;
    k8s_kv *sel;                             /* per node: its hostname selector */
};

kai_topo *kai_topo_new(const kai_objects *o) {
    kai_topo *t = xcalloc(1, sizeof *t);
    t->o = o;
    size_t n = o ? o->topologies.len : 0;
    t->trees = xcalloc(n ? n : 1, sizeof *t->trees);
    t->built = xcalloc(n ? n : 1, sizeof *t->built);
    return t;
}

void kai_topo_cluster(kai_topo *t, const scheduler *s) {
    t->s = s;
    t->pend = xcalloc((s->nnodes ? s->nnodes : 1) * T_N, sizeof *t->pend);
    t->sel = xcalloc(s->nnodes ? s->nnodes : 1, sizeof *t->sel);
}

static const char *kv(const k8s_kv *a, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].key, key)) return a[i].value;
    return NULL;
}

const kai_topo_constraint *kai_topo_constraint_of(kai_topo *t, const k8s_kv *a, size_t n) {
    const char *name = kv(a, n, KAI_TOPOLOGY_ANN);
    if (!name || !*name) return NULL;   /* getJobTopology: no topology name, no constraint */
    const char *req = kv(a, n, KAI_TOPOLOGY_REQUIRED_ANN), *pref = kv(a, n, KAI_TOPOLOGY_PREFERRED_ANN);
    kai_topo_constraint c = {intern(name), req && *req ? intern(req) : NULL, pref && *pref ? intern(pref) : NULL};
    for (size_t i = 0; i < t->cons.len; i++) {
        const kai_topo_constraint *x = t->cons.data[i];
        if (x->topology == c.topology && x->required == c.required && x->preferred == c.preferred) return x;
    }
    kai_topo_constraint *x = xmalloc(sizeof *x);
    *x = c;
    VEC_PUSH(t->cons, x);
    return x;
}

/* The tree of Topology k over the scheduler's nodes (topology_plugin.go
 * addNodeDataToTopology): nodes lacking a level's label are left out. */
static ttree *tree(kai_topo *t, size_t k) {
    ttree *T = &t->trees[k];
    if (t->built[k]) return T;
    t->built[k] = true;
    const kai_topology *tp = t->o->topologies.data[k];
    const scheduler *s = t->s;
    T->topo = tp;
    T->nlev = tp->nlevels;
    T->lev = xcalloc(T->nlev, sizeof *T->lev);
    T->node_dom = xmalloc((s->nnodes ? s->nnodes : 1) * T->nlev * sizeof *T->node_dom);
    strbuf id = {0};
    for (size_t i = 0; i < s->nnodes; i++) {
        const k8s_node *nd = &s->nodes[i];
        const char *vals[16];
        bool in = true;
        for (size_t l = 0; l < T->nlev && in; l++) {
            vals[l] = kv(nd->meta.labels, nd->meta.nlabels, tp->levels[l]);
            in = vals[l] != NULL;
        }
        for (size_t l = 0; l < T->nlev; l++) T->node_dom[i * T->nlev + l] = -1;
        if (!in) continue;
        VEC_PUSH(T->nodes, (uint32_t)i);
        int32_t parent = -1;
        id.len = 0;
        for (size_t l = 0; l < T->nlev; l++) {
            if (l) sb_putc(&id, '.');
            sb_puts(&id, vals[l]);
            const char *did = intern(sb_str(&id));
            int32_t d = -1;
            for (size_t x = 0; x < T->lev[l].len && d < 0; x++)
                if (T->lev[l].data[x].id == did) d = (int32_t)x;
            if (d < 0) {
                tdom nd2 = {.id = did, .parent = parent};
                VEC_PUSH(T->lev[l], nd2);
                d = (int32_t)T->lev[l].len - 1;
            }
            T->node_dom[i * T->nlev + l] = d;
            parent = d;
        }
    }
    sb_free(&id);
    return T;
}

/* One pod's request in the scheduler's units (cpu millicores, memory bytes). */
static void pod_q(const double req[KAI_NRES], int64_t q[T_N]) {
    q[T_CPU] = (int64_t)ceil(req[KAI_CPU]);
    q[T_MEM] = (int64_t)ceil(req[KAI_MEM]);
    q[T_PODS] = 1;
    q[T_GPU] = (int64_t)ceil(req[KAI_GPU] - 1e-9);
}

/* Node i's idle resources now: allocatable minus bound pods minus the pods
 * placed here and not bound yet; whole free GPUs from the GPU view. */
static void node_free(const kai_topo *t, uint32_t i, int64_t f[T_N]) {
    const scheduler *s = t->s;
    for (int r = 0; r < T_N; r++) f[r] = 0;
    if (!sched_node_present(s, i)) return;
    const int64_t *al = s->alloc + (size_t)i * s->nres, *us = s->used + (size_t)i * s->nres;
    f[T_CPU] = al[RES_CPU] - us[RES_CPU];
    f[T_MEM] = al[RES_MEMORY] - us[RES_MEMORY];
    f[T_PODS] = al[RES_PODS] - us[RES_PODS];
    const gs_node *g = &s->gv.nodes[i];
    for (int k = 0; k < g->ngpu && k < GS_MAX_GPUS; k++) f[T_GPU] += g->free[k] >= GS_MILLI;
    for (int r = 0; r < T_N; r++) f[r] -= t->pend[(size_t)i * T_N + r];
    if (t->has_back)
        for (int r = 0; r < T_N; r++) f[r] += t->back[(size_t)i * T_N + r];
}

/* The victims' pods release their resources on their nodes (sign +1) or not
 * any more (-1): KAI's Releasing, counted with Idle by the topology plugin. */
static void release(kai_topo *t, const kai_job *const *vic, size_t nv, int sign) {
    if (!nv) return;
    size_t nn = t->s->nnodes;
    if (!t->back) t->back = xcalloc((nn ? nn : 1) * T_N, sizeof *t->back);
    for (size_t a = 0; a < nv; a++)
        for (size_t k = 0; k < vic[a]->nslots; k++) {
            const kai_slot *sl = &vic[a]->slots[k];
            if (sl->node < 0 || (size_t)sl->node >= nn) continue;
            int64_t q[T_N];
            pod_q(sl->v, q);
            for (int r = 0; r < T_N; r++) t->back[(size_t)sl->node * T_N + r] += sign * q[r];
        }
    t->has_back = sign > 0;
}

static void node_empty(const kai_topo *t, uint32_t i, int64_t f[T_N]) {
    const scheduler *s = t->s;
    const int64_t *al = s->alloc + (size_t)i * s->nres;
    f[T_CPU] = al[RES_CPU];
    f[T_MEM] = al[RES_MEMORY];
    f[T_PODS] = al[RES_PODS];
    f[T_GPU] = s->gv.nodes[i].ngpu;
}

/* calcNodeAccommodation: copies of the pod that fit f (a pod asking for
 * nothing but a slot fits `npods` times). */
static int64_t copies(const int64_t f[T_N], const int64_t q[T_N], size_t npods) {
    if (!q[T_CPU] && !q[T_MEM] && !q[T_GPU]) return (int64_t)npods;
    int64_t k = INT64_MAX;
    for (int r = 0; r < T_N; r++)
        if (q[r] > 0) {
            int64_t c = f[r] > 0 ? f[r] / q[r] : 0;
            if (c < k) k = c;
        }
    return k;
}

/* getJobRatioToFreeResources: the job's request over the domain's free
 * resources, the largest (GPUs: x / 0 = +inf; others 1000 when none free). */
static double ratio(const double tot[T_N], const double fr[T_N]) {
    double best = 0;
    if (tot[T_GPU] > 0) best = fr[T_GPU] > 0 ? tot[T_GPU] / fr[T_GPU] : INFINITY;
    for (int r = 0; r < T_N; r++) {
        if (r == T_PODS || tot[r] <= 0) continue;
        double v = fr[r] > 0 ? tot[r] / fr[r] : NOT_IN_DOMAIN_RATIO;
        if (v > best) best = v;
    }
    return best;
}

static const tdom *sort_base;
static int sibling_cmp(const void *a, const void *b) {   /* sortTree: ratio descending, then id */
    const tdom *x = &sort_base[*(const int32_t *)a], *y = &sort_base[*(const int32_t *)b];
    if (x->parent != y->parent) return x->parent < y->parent ? -1 : 1;
    if (x->ratio != y->ratio) return x->ratio > y->ratio ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* The domain's position key (ranks from the top level down to l): the
 * bottom-up level order of the sorted tree orders a level's domains by it. */
static int key_cmp(const ttree *T, size_t l, int32_t a, int32_t b) {
    int32_t ra[16], rb[16];
    for (int k = (int)l; k >= 0; k--) {
        ra[k] = T->lev[k].data[a].rank;
        rb[k] = T->lev[k].data[b].rank;
        a = T->lev[k].data[a].parent;
        b = T->lev[k].data[b].parent;
    }
    for (size_t k = 0; k <= l; k++)
        if (ra[k] != rb[k]) return ra[k] < rb[k] ? -1 : 1;
    return 0;
}

static const ttree *cmp_tree;
static size_t cmp_level;
static int dom_cmp(const void *a, const void *b) {
    return key_cmp(cmp_tree, cmp_level, *(const int32_t *)a, *(const int32_t *)b);
}

static void set_why(kai_topo *t, const kai_job *j, const char *msg) {
    for (size_t i = 0; i < t->failed.len; i++)
        if (t->failed.data[i].job == j) {
            free(t->failed.data[i].why);
            t->failed.data[i].why = xstrdup(msg);
            return;
        }
    failed f = {j, xstrdup(msg)};
    VEC_PUSH(t->failed, f);
}

static void clear_why(kai_topo *t, const kai_job *j) {
    for (size_t i = 0; i < t->failed.len; i++)
        if (t->failed.data[i].job == j) {
            free(t->failed.data[i].why);
            t->failed.data[i] = t->failed.data[--t->failed.len];
            return;
        }
}

static int level_of(const ttree *T, const char *label) {
    for (size_t l = 0; label && l < T->nlev; l++)
        if (!strcmp(T->topo->levels[l], label)) return (int)l;
    return -1;
}

/* Place npods copies of q greedily inside domain (l, d) (l = -1: the whole
 * tree): each pod on the best node where it fits (the preferred level's
 * score, then fewer free GPUs, then node order). nodes_out[npods]. */
static bool fill(const kai_topo *t, const ttree *T, int l, int32_t d, int pl, const int32_t *pref_score,
                 const int64_t q[T_N], size_t npods, uint32_t *nodes_out) {
    size_t nn = T->nodes.len;
    int64_t (*f)[T_N] = xmalloc((nn ? nn : 1) * sizeof *f);
    for (size_t k = 0; k < nn; k++) node_free(t, T->nodes.data[k], f[k]);
    bool ok = true;
    for (size_t p = 0; p < npods && ok; p++) {
        size_t best = nn;
        for (size_t k = 0; k < nn; k++) {
            uint32_t i = T->nodes.data[k];
            if (l >= 0 && T->node_dom[i * T->nlev + (size_t)l] != d) continue;
            if (copies(f[k], q, 1) < 1) continue;
            if (best == nn) { best = k; continue; }
            uint32_t bi = T->nodes.data[best];
            int32_t sa = pl >= 0 ? pref_score[T->node_dom[i * T->nlev + (size_t)pl]] : 0;
            int32_t sb = pl >= 0 ? pref_score[T->node_dom[bi * T->nlev + (size_t)pl]] : 0;
            if (sa != sb) { if (sa > sb) best = k; continue; }
            if (f[k][T_GPU] != f[best][T_GPU]) { if (f[k][T_GPU] < f[best][T_GPU]) best = k; continue; }
        }
        if (best == nn) { ok = false; break; }
        nodes_out[p] = T->nodes.data[best];
        for (int r = 0; r < T_N; r++) f[best][r] -= q[r];
    }
    free(f);
    return ok;
}

static bool place_in(kai_topo *t, const kai_job *j, const double req[KAI_NRES], size_t npods, bool commit);

bool kai_topo_place(kai_topo *t, const kai_job *j, const kai_job *const *vic, size_t nv, const double req[KAI_NRES],
                    size_t npods, bool commit) {
    if (t->s) release(t, vic, nv, +1);
    bool ok = place_in(t, j, req, npods, commit);
    if (t->s) release(t, vic, nv, -1);
    return ok;
}

static bool place_in(kai_topo *t, const kai_job *j, const double req[KAI_NRES], size_t npods, bool commit) {
    const kai_topo_constraint *c = j->topo;
    strbuf why = {0};
    size_t k = 0;
    while (t->o && k < t->o->topologies.len && strcmp(t->o->topologies.data[k]->meta.name, c->topology)) k++;
    if (!t->s || !t->o || k == t->o->topologies.len) {   /* subSetNodesFn */
        sb_printf(&why, "Requested topology %s does not exist", c->topology);
        goto fail;
    }
    ttree *T = tree(t, k);
    const char *tname = T->topo->meta.name, *rq = c->required ? c->required : "";
    int rl = level_of(T, c->required), pl = level_of(T, c->preferred);
    /* calculateRelevantDomainLevels */
    if (!c->required && !c->preferred) {
        sb_printf(&why, "no topology constraints were found for subgroup default, with topology name %s", tname);
        goto fail;
    }
    const char *bad = c->required && rl < 0 ? c->required : c->preferred && pl < 0 ? c->preferred : NULL;
    if (bad || (rl >= 0 && pl >= 0 && pl < rl)) {
        /* a preferred level above the required one is never reached going up from it */
        const char *which = c->required && rl < 0 ? "required" : "preferred";
        sb_printf(&why, "topology constraint error: workload specified '%s' as the %s topology constraint level, "
                        "but the topology tree '%s' does not contain a level with this name",
                  bad ? bad : c->preferred, which, tname);
        goto fail;
    }
    int low = pl >= 0 ? pl : rl;            /* the lowest relevant level (maxDepthLevel) */
    int high = rl >= 0 ? rl : -1;           /* the highest; -1 = up to the root */
    int64_t q[T_N];
    pod_q(req, q);
    double tot[T_N];
    for (int r = 0; r < T_N; r++) tot[r] = (double)q[r] * (double)npods;
    /* the pods each domain takes now and empty, its free resources */
    for (size_t l = 0; l < T->nlev; l++)
        for (size_t d = 0; d < T->lev[l].len; d++) {
            tdom *x = &T->lev[l].data[d];
            x->pods = x->empty_pods = 0;
            for (int r = 0; r < T_N; r++) x->free[r] = 0;
        }
    int64_t root_pods = 0, root_empty = 0;
    double root_free[T_N] = {0};
    for (size_t n = 0; n < T->nodes.len; n++) {
        uint32_t i = T->nodes.data[n];
        int64_t f[T_N], e[T_N];
        node_free(t, i, f);
        node_empty(t, i, e);
        int64_t a = copies(f, q, npods), ae = copies(e, q, npods);
        root_pods += a;
        root_empty += ae;
        for (int r = 0; r < T_N; r++) root_free[r] += (double)(f[r] > 0 ? f[r] : 0);
        for (size_t l = 0; l < T->nlev; l++) {
            tdom *x = &T->lev[l].data[T->node_dom[i * T->nlev + l]];
            x->pods += a;
            x->empty_pods += ae;
            for (int r = 0; r < T_N; r++) x->free[r] += (double)(f[r] > 0 ? f[r] : 0);
        }
    }
    if (root_pods < (int64_t)npods) {
        sb_printf(&why, "topology %s, requirement %s couldn't be satisfied for job <%s/%s>: not enough resources in "
                        "the cluster to allocate the job", tname, rq, j->ns ? j->ns : "default", j->name ? j->name : "");
        goto fail;
    }
    (void)root_free;
    (void)root_empty;
    /* sortTree down to the lowest relevant level: siblings by ratio, then id */
    for (int l = 0; l <= low; l++) {
        tdom_vec *L = &T->lev[l];
        int32_t *ix = xmalloc((L->len ? L->len : 1) * sizeof *ix);
        for (size_t d = 0; d < L->len; d++) {
            L->data[d].ratio = ratio(tot, L->data[d].free);
            ix[d] = (int32_t)d;
        }
        sort_base = L->data;
        if (L->len > 1) qsort(ix, L->len, sizeof *ix, sibling_cmp);
        int32_t rank = 0, prev = -2;
        for (size_t d = 0; d < L->len; d++) {
            tdom *x = &L->data[ix[d]];
            if (x->parent != prev) rank = 0, prev = x->parent;
            x->rank = rank++;
        }
        free(ix);
    }
    /* node scores of the preferred level (calculateNodeScores over the sorted tree) */
    int32_t *pref_score = NULL;
    if (pl >= 0) {
        size_t m = T->lev[pl].len;
        int32_t *ord = xmalloc((m ? m : 1) * sizeof *ord);
        for (size_t d = 0; d < m; d++) ord[d] = (int32_t)d;
        cmp_tree = T;
        cmp_level = (size_t)pl;
        if (m > 1) qsort(ord, m, sizeof *ord, dom_cmp);
        pref_score = xcalloc(m ? m : 1, sizeof *pref_score);
        for (size_t i = 0; i < m; i++) pref_score[ord[i]] = (int32_t)floor((double)(i + 1) / (double)m * 10.0);
        free(ord);
    }
    /* candidates bottom-up: the domains that hold every pod, level by level */
    bool ok = false;
    uint32_t *nodes = xmalloc((npods ? npods : 1) * sizeof *nodes);
    int64_t best_pods = -1, best_empty = -1;
    for (int l = low; l >= (high >= 0 ? high : 0) && !ok; l--) {
        size_t m = T->lev[l].len;
        int32_t *ord = xmalloc((m ? m : 1) * sizeof *ord);
        size_t nc = 0;
        for (size_t d = 0; d < m; d++) {
            const tdom *x = &T->lev[l].data[d];
            if (l == (high >= 0 ? high : 0)) {
                if (x->pods > best_pods) best_pods = x->pods;
                if (x->empty_pods > best_empty) best_empty = x->empty_pods;
            }
            if (x->pods >= (int64_t)npods) ord[nc++] = (int32_t)d;
        }
        cmp_tree = T;
        cmp_level = (size_t)l;
        if (nc > 1) qsort(ord, nc, sizeof *ord, dom_cmp);
        for (size_t i = 0; i < nc && !ok; i++) ok = fill(t, T, l, ord[i], pl, pref_score, q, npods, nodes);
        free(ord);
    }
    if (!ok && high < 0) ok = fill(t, T, -1, 0, pl, pref_score, q, npods, nodes);   /* the root domain */
    free(pref_score);
    if (!ok) {
        free(nodes);
        /* getNoTopologyMatchError, and drasim's reading of it */
        const char *top = T->topo->levels[high >= 0 ? high : 0];
        sb_printf(&why, "topology %s, requirement %s couldn't be satisfied for job <%s/%s>", tname, rq,
                  j->ns ? j->ns : "default", j->name ? j->name : "");
        if (best_empty < (int64_t)npods)
            sb_printf(&why, " (drasim: gang larger than any domain: %zu pods, but one '%s' domain holds at most %lld "
                            "even when empty)", npods, top, (long long)best_empty);
        else
            sb_printf(&why, " (drasim: no '%s' domain holds %zu pods now; the best holds %lld)", top, npods,
                      (long long)best_pods);
        goto fail;
    }
    clear_why(t, j);
    sb_free(&why);
    if (commit) {
        placed pc = {j, nodes, npods, {0}};
        memcpy(pc.q, q, sizeof q);
        for (size_t p = 0; p < npods; p++)
            for (int r = 0; r < T_N; r++) t->pend[(size_t)nodes[p] * T_N + r] += q[r];
        for (size_t i = 0; i < t->placed.len; i++)
            if (t->placed.data[i].job == j) {   /* a stale one (never pinned) */
                free(t->placed.data[i].node);
                t->placed.data[i] = t->placed.data[--t->placed.len];
                break;
            }
        VEC_PUSH(t->placed, pc);
    } else {
        free(nodes);
    }
    return true;
fail:
    set_why(t, j, sb_str(&why));
    sb_free(&why);
    return false;
}

void kai_topo_pins(kai_topo *t, const kai_job *j, const uint32_t *pods, size_t n, queue_cycle_out *out) {
    size_t k = 0;
    while (k < t->placed.len && t->placed.data[k].job != j) k++;
    if (k == t->placed.len) return;
    placed *pc = &t->placed.data[k];
    for (size_t p = 0; p < n && p < pc->n; p++) {
        uint32_t node = pc->node[p], pod = pods[p];
        while (t->pods.len <= pod) VEC_PUSH(t->pods, ((tpod){-1, {0}}));
        tpod *tp = &t->pods.data[pod];
        tp->node = (int32_t)node;
        memcpy(tp->q, pc->q, sizeof tp->q);
        if (!t->sel[node].key) t->sel[node] = (k8s_kv){intern(HOSTNAME), t->s->nodes[node].meta.name};
        queue_pin pin = {pod, &t->sel[node], 1};
        VEC_PUSH(out->pins, pin);
    }
    free(pc->node);
    t->placed.data[k] = t->placed.data[--t->placed.len];
}

bool kai_topo_why(const kai_topo *t, const kai_job *j, strbuf *out) {
    for (size_t i = 0; i < t->failed.len; i++)
        if (t->failed.data[i].job == j) {
            sb_puts(out, t->failed.data[i].why);
            return true;
        }
    return false;
}

static void unpend(kai_topo *t, uint32_t pod) {
    if (pod >= t->pods.len) return;
    tpod *tp = &t->pods.data[pod];
    if (tp->node < 0) return;
    for (int r = 0; r < T_N; r++) t->pend[(size_t)tp->node * T_N + r] -= tp->q[r];
    tp->node = -1;
}

void kai_topo_bound(kai_topo *t, uint32_t pod) { unpend(t, pod); }
void kai_topo_ended(kai_topo *t, uint32_t pod) { unpend(t, pod); }

size_t kai_topo_unlabelled(const kai_topo *t) {
    size_t most = 0, n = t && t->o && t->s ? t->o->topologies.len : 0;
    for (size_t k = 0; k < n; k++)
        if (t->built[k] && t->s->nnodes - t->trees[k].nodes.len > most) most = t->s->nnodes - t->trees[k].nodes.len;
    return most;
}

void kai_topo_free(kai_topo *t) {
    if (!t) return;
    size_t n = t->o ? t->o->topologies.len : 0;
    for (size_t k = 0; k < n; k++) {
        if (!t->built[k]) continue;
        ttree *T = &t->trees[k];
        for (size_t l = 0; l < T->nlev; l++) VEC_FREE(T->lev[l]);
        free(T->lev);
        free(T->node_dom);
        VEC_FREE(T->nodes);
    }
    free(t->trees);
    free(t->built);
    free(t->back);
    for (size_t i = 0; i < t->cons.len; i++) free(t->cons.data[i]);
    VEC_FREE(t->cons);
    for (size_t i = 0; i < t->placed.len; i++) free(t->placed.data[i].node);
    VEC_FREE(t->placed);
    for (size_t i = 0; i < t->failed.len; i++) free(t->failed.data[i].why);
    VEC_FREE(t->failed);
    VEC_FREE(t->pods);
    free(t->pend);
    free(t->sel);
    free(t);
}
