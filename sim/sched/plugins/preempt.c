/*
 * preempt.c -- DefaultPreemption (see preempt.h for the model and the
 * upstream files it follows).
 */
#include "sched/plugins/preempt.h"

#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra_internal.h"
#include "sched/framework.h"
#include "sched/policies/place_mig.h"
#include "util/xalloc.h"

/* A pod bound on a node. */
typedef struct pre_pod {
    placement p;                      /* node, pod id, device units, GPUs */
    uint32_t cls;
    int64_t start;                    /* bind time (ms): the victims' start time */
    bool terminating;                 /* already a victim: keeps its resources, never chosen again */
} pre_pod;

typedef struct pre_node {
    pre_pod *pods;
    uint32_t n, cap;
} pre_node;

/* A node that a dry run found: victims [first, first + n) of `vict`. */
typedef struct candidate {
    size_t node;
    size_t first, n;
    int64_t violations, highest, sum, earliest;
} candidate;

typedef struct preempt_state {
    pre_node *nodes;
    int64_t *healthy, *terminating;   /* per class: bound and not terminating / terminating */
    int64_t *by, *of;                 /* per class: preemptions its pods made / victims among its pods */
    size_t ncls;
    rng rng;                          /* GetOffsetAndNumCandidates' offset */
    uint32_t *queue, *queue_by;       /* victims for the engine, and their preemptor's class */
    size_t nqueue, qhead, qcap;
    uint32_t *vict;                   /* victims of every candidate of one PostFilter (indexes into its node) */
    size_t nvict, vcap;
    candidate *cand;
    size_t ncand, ccap;
    uint32_t *pot;                    /* scratch: potential victims of one node */
    int64_t *allowed;                 /* scratch: per class, disruptions still allowed on one node */
    uint64_t attempts, preemptions, victims;
    uint64_t blocked_dra;             /* attempts whose only candidate nodes failed DynamicResources (1.36) */
} preempt_state;

void preempt_init(scheduler *s, uint64_t seed) {
    preempt_state *pre = xcalloc(1, sizeof *pre);
    pre->nodes = xcalloc(s->nnodes ? s->nnodes : 1, sizeof *pre->nodes);
    rng_seed(&pre->rng, seed ^ 0x5052454d50544eULL);   /* its own stream: other draws stay as they were */
    s->pre = pre;
}

void preempt_free(scheduler *s) {
    preempt_state *pre = s->pre;
    if (!pre) return;
    for (size_t i = 0; i < s->nnodes; i++) free(pre->nodes[i].pods);
    free(pre->nodes);
    free(pre->healthy);
    free(pre->terminating);
    free(pre->by);
    free(pre->of);
    free(pre->queue);
    free(pre->queue_by);
    free(pre->vict);
    free(pre->cand);
    free(pre->pot);
    free(pre->allowed);
    free(pre);
    s->pre = NULL;
}

/* Per-class arrays cover class ci (classes are added while a run goes). */
static void cover_class(preempt_state *pre, size_t ci) {
    if (ci < pre->ncls) return;
    size_t n = ci + 16;
    pre->healthy = xrealloc(pre->healthy, n * sizeof *pre->healthy);
    pre->terminating = xrealloc(pre->terminating, n * sizeof *pre->terminating);
    pre->allowed = xrealloc(pre->allowed, n * sizeof *pre->allowed);
    pre->by = xrealloc(pre->by, n * sizeof *pre->by);
    pre->of = xrealloc(pre->of, n * sizeof *pre->of);
    for (size_t k = pre->ncls; k < n; k++) pre->healthy[k] = pre->terminating[k] = pre->allowed[k] = pre->by[k] = pre->of[k] = 0;
    pre->ncls = n;
}

void preempt_bound(scheduler *s, uint32_t ci, const placement *p) {
    preempt_state *pre = s->pre;
    pre_node *nd = &pre->nodes[p->node];
    if (nd->n == nd->cap) {
        nd->cap = nd->cap ? nd->cap * 2 : 8;
        nd->pods = xrealloc(nd->pods, nd->cap * sizeof *nd->pods);
    }
    nd->pods[nd->n++] = (pre_pod){.p = *p, .cls = ci, .start = s->now};
    cover_class(pre, ci);
    pre->healthy[ci]++;
}

void preempt_released(scheduler *s, uint32_t ci, const placement *p) {
    preempt_state *pre = s->pre;
    pre_node *nd = &pre->nodes[p->node];
    for (uint32_t k = 0; k < nd->n; k++) {
        if (nd->pods[k].p.pod != p->pod) continue;
        if (nd->pods[k].terminating) pre->terminating[ci]--;
        else pre->healthy[ci]--;
        nd->pods[k] = nd->pods[--nd->n];   /* order does not matter: victims are sorted */
        return;
    }
}

/* Does any pod of lower priority than `prio` run (not terminating)? */
static bool any_lower(const scheduler *s, int32_t prio) {
    const preempt_state *pre = s->pre;
    for (size_t k = 0; k < s->nclasses && k < pre->ncls; k++)
        if (pre->healthy[k] > 0 && s->classes[k].priority < prio) return true;
    return false;
}

/* MoreImportantPod (pkg/scheduler/util/utils.go): higher priority, then the
 * earlier start; then the pod id, for a total order. */
static const scheduler *sort_s;
static const pre_node *sort_nd;
static int cmp_importance(const void *a, const void *b) {
    const pre_pod *x = &sort_nd->pods[*(const uint32_t *)a], *y = &sort_nd->pods[*(const uint32_t *)b];
    int32_t px = sort_s->classes[x->cls].priority, py = sort_s->classes[y->cls].priority;
    if (px != py) return px > py ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->p.pod > y->p.pod) - (x->p.pod < y->p.pod);
}

/* KEP-5690's dry run: a victim's node-local (template) claims are freed in
 * the allocator (sign -1) or taken again (+1). Shared claims stay: claims
 * that may span nodes are out of the KEP's scope. */
static void dra_dry(scheduler *s, uint32_t pod, size_t node, int sign) {
    dra_state *d = s->dra;
    size_t n;
    const dra_record *r = dra_pod_records(d, pod, &n);
    for (size_t i = 0; i < n; i++) {
        if (r[i].deleted || r[i].shared) continue;
        const k8s_allocation *al = dra_record_allocation(d, &r[i]);
        int16_t milli[GS_MAX_GPUS] = {0};   /* the GPU view, for the placement policy's Filter */
        dra_allocation_gpu_milli(d, node, al, milli);
        gpu_view_add_gpus(&s->gv, node, milli, sign);
        if (sign < 0) {
            allocator_release(d->A, al);
            if (d->mig) place_mig_release(d->mig, al, s->now);
        } else {
            allocator_commit(d->A, al);
            if (d->mig) place_mig_commit(d->mig, al, s->now);
        }
    }
}

/* RemovePod / AddPod of the dry run for pod k of node nd. */
static void dry(scheduler *s, const pre_node *nd, uint32_t k, int sign) {
    const pre_pod *v = &nd->pods[k];
    sched_dry_account(s, v->cls, &v->p, sign);
    if (s->dra && s->cfg.dra_preemption) dra_dry(s, v->p.pod, (size_t)v->p.node, sign);
}

static bool fits(const scheduler *s, uint32_t ci, size_t node) { return sched_first_failing(s, ci, node) < 0; }

/* PodDisruptionBudget of class k: disruptions allowed now (disruption
 * controller: currentHealthy - desiredHealthy; minAvailable: desired =
 * minAvailable; maxUnavailable: desired = expected - maxUnavailable with the
 * group's live pods as expected count). */
static int64_t budget_allowed(const scheduler *s, size_t k) {
    const preempt_state *pre = s->pre;
    const pod_class *c = &s->classes[k];
    int64_t healthy = pre->healthy[k], expected = healthy + pre->terminating[k];
    int64_t desired = c->pdb_max ? expected - c->pdb_value : c->pdb_value;
    return healthy - desired;
}

/* RunFilterPluginsWithNominatedPods: the pods of other classes nominated to
 * `node` with a priority >= class ci's count as placed there (their requests;
 * their device units are not known before they bind). */
static void nominated_dry(scheduler *s, uint32_t ci, size_t node, int sign) {
    for (size_t k = 0; k < s->nclasses; k++) {
        const pod_class *o = &s->classes[k];
        if (k == ci || o->nominated != (int32_t)node || o->priority < s->classes[ci].priority) continue;
        if (!sched_waiting(s, (uint32_t)k) || o->pending[o->head] != o->nominated_pod) continue;
        placement np = {.node = (int32_t)node, .pod = o->nominated_pod};
        sched_dry_account(s, (uint32_t)k, &np, sign);
    }
}

static bool select_on(scheduler *s, uint32_t ci, size_t node, size_t npot);

/* SelectVictimsOnNode for class ci on `node`: true and a candidate appended
 * when removing lower-priority pods lets the pod fit. */
static bool select_victims(scheduler *s, uint32_t ci, size_t node, bool nominations) {
    preempt_state *pre = s->pre;
    const pre_node *nd = &pre->nodes[node];
    int32_t prio = s->classes[ci].priority;
    size_t npot = 0;
    for (uint32_t k = 0; k < nd->n; k++)
        if (!nd->pods[k].terminating && s->classes[nd->pods[k].cls].priority < prio) pre->pot[npot++] = k;
    if (!npot) return false;   /* "No preemption victims found for incoming pod" */
    if (nominations) nominated_dry(s, ci, node, +1);
    bool ok = select_on(s, ci, node, npot);
    if (nominations) nominated_dry(s, ci, node, -1);
    return ok;
}

/* The dry run proper over the npot potential victims in pre->pot. */
static bool select_on(scheduler *s, uint32_t ci, size_t node, size_t npot) {
    preempt_state *pre = s->pre;
    const pre_node *nd = &pre->nodes[node];
    for (size_t i = 0; i < npot; i++) dry(s, nd, pre->pot[i], -1);
    if (!fits(s, ci, node)) {
        for (size_t i = npot; i-- > 0;) dry(s, nd, pre->pot[i], +1);
        return false;
    }
    sort_s = s;
    sort_nd = nd;
    qsort(pre->pot, npot, sizeof *pre->pot, cmp_importance);
    /* filterPodsWithPDBViolation: stable split, budgets counted down in importance order */
    for (size_t i = 0; i < npot; i++) {
        uint32_t k = nd->pods[pre->pot[i]].cls;
        if (s->classes[k].has_pdb) pre->allowed[k] = budget_allowed(s, k);
    }
    uint8_t *violating = xcalloc(npot, 1);
    for (size_t i = 0; i < npot; i++) {
        uint32_t k = nd->pods[pre->pot[i]].cls;
        if (s->classes[k].has_pdb && --pre->allowed[k] < 0) violating[i] = 1;
    }
    if (pre->nvict + npot > pre->vcap) {
        pre->vcap = (pre->nvict + npot) * 2;
        pre->vict = xrealloc(pre->vict, pre->vcap * sizeof *pre->vict);
    }
    candidate cd = {.node = node, .first = pre->nvict};
    for (int pass = 1; pass >= 0; pass--)   /* reprieve the violating ones first, then the others */
        for (size_t i = 0; i < npot; i++) {
            if (violating[i] != pass) continue;
            dry(s, nd, pre->pot[i], +1);
            if (fits(s, ci, node)) continue;   /* reprieved */
            dry(s, nd, pre->pot[i], -1);
            pre->vict[pre->nvict++] = pre->pot[i];
            cd.violations += pass;
        }
    cd.n = pre->nvict - cd.first;
    free(violating);
    for (size_t i = cd.first; i < pre->nvict; i++) dry(s, nd, pre->vict[i], +1);   /* the node as it was */
    if (!cd.n) return false;
    /* victims by importance (upstream re-sorts after reprieving both kinds) */
    qsort(pre->vict + cd.first, cd.n, sizeof *pre->vict, cmp_importance);
    const pre_pod *top = &nd->pods[pre->vict[cd.first]];
    cd.highest = s->classes[top->cls].priority;
    cd.earliest = top->start;
    for (size_t i = cd.first; i < pre->nvict; i++) {
        const pre_pod *v = &nd->pods[pre->vict[i]];
        int32_t pv = s->classes[v->cls].priority;
        cd.sum += (int64_t)pv + 2147483648LL;   /* MaxInt32 + 1: every term >= 0 */
        if (pv == cd.highest && v->start < cd.earliest) cd.earliest = v->start;   /* GetEarliestPodStartTime */
    }
    if (pre->ncand == pre->ccap) {
        pre->ccap = pre->ccap ? pre->ccap * 2 : 16;
        pre->cand = xrealloc(pre->cand, pre->ccap * sizeof *pre->cand);
    }
    pre->cand[pre->ncand++] = cd;
    return true;
}

/* pickOneNodeForPreemption's criteria, as "a is better than b". */
static bool better(const candidate *a, const candidate *b) {
    if (a->violations != b->violations) return a->violations < b->violations;
    if (a->highest != b->highest) return a->highest < b->highest;
    if (a->sum != b->sum) return a->sum < b->sum;
    if (a->n != b->n) return a->n < b->n;
    return a->earliest > b->earliest;
}

/* PodEligibleToPreemptOthers: not with preemptionPolicy Never, nor while
 * pods it preempted still terminate on its nominated node. */
static bool eligible(const scheduler *s, const pod_class *c, uint32_t pod) {
    if (c->preempt_never) return false;
    if (c->nominated < 0 || c->nominated_pod != pod) return true;
    const pre_node *nd = &s->pre->nodes[c->nominated];
    for (uint32_t k = 0; k < nd->n; k++)
        if (nd->pods[k].terminating && s->classes[nd->pods[k].cls].priority < c->priority) return false;
    return true;
}

bool preempt_post_filter(scheduler *s, uint32_t ci, uint32_t pod) {
    preempt_state *pre = s->pre;
    pod_class *c = &s->classes[ci];
    cover_class(pre, s->nclasses);
    pre->attempts++;
    if (!eligible(s, c, pod) || !c->prefiltered || !any_lower(s, c->priority)) return false;
    /* potential nodes: failed with Unschedulable. Static filters are UnschedulableAndUnresolvable;
     * so is DynamicResources in 1.36 (no AddPod/RemovePod to undo its verdict). */
    size_t npotential = 0, skipped_dra = 0;
    uint32_t *potential = s->scratch;   /* sched.c's per-node scratch: free during PostFilter */
    int dra_plugin = -1;
    for (size_t p = 0; p < s->nplugins; p++)
        if (s->plugins[p] == &plugin_dynamic_resources && !s->cfg.dra_preemption) dra_plugin = (int)p;
    for (size_t w = 0; w < s->nwords; w++)
        for (uint64_t bits = c->eligible[w]; bits; bits &= bits - 1) {
            size_t i = (w << 6) + (size_t)__builtin_ctzll(bits);
            if (s->absent && ((s->absent[w] >> (i & 63)) & 1)) continue;   /* not in the cluster (autoscaler) */
            if (dra_plugin >= 0 && sched_first_failing(s, ci, i) == dra_plugin) {
                skipped_dra++;
                continue;
            }
            potential[npotential++] = (uint32_t)i;
        }
    if (!npotential) {
        if (skipped_dra) pre->blocked_dra++;   /* only devices stood in the way: 1.36 cannot free them */
        return false;
    }
    size_t want = npotential * PREEMPT_MIN_CANDIDATES_PCT / 100;   /* calculateNumCandidates */
    if (want < PREEMPT_MIN_CANDIDATES_ABS) want = PREEMPT_MIN_CANDIDATES_ABS;
    if (want > npotential) want = npotential;
    size_t offset = (size_t)rng_below(&pre->rng, npotential);
    size_t maxpods = 0;
    for (size_t i = 0; i < npotential; i++)
        if (pre->nodes[potential[i]].n > maxpods) maxpods = pre->nodes[potential[i]].n;
    pre->pot = xrealloc(pre->pot, (maxpods ? maxpods : 1) * sizeof *pre->pot);
    pre->ncand = pre->nvict = 0;
    size_t nonviolating = 0;
    bool nominations = false;   /* is any other class's head pod nominated? */
    for (size_t k = 0; k < s->nclasses && !nominations; k++) nominations = k != ci && s->classes[k].nominated >= 0;
    for (size_t i = 0; i < npotential; i++) {   /* DryRunPreemption, sequential in offset order */
        size_t node = potential[(offset + i) % npotential];
        if (!select_victims(s, ci, node, nominations)) continue;
        if (pre->cand[pre->ncand - 1].violations == 0) nonviolating++;
        if (nonviolating > 0 && pre->ncand >= want) break;
    }
    if (!pre->ncand) return false;
    /* non-violating candidates first, each kind in the order found; ties go to the first */
    const candidate *best = NULL;
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < pre->ncand; k++) {
            const candidate *cd = &pre->cand[k];
            if ((cd->violations > 0) != pass) continue;
            if (!best || better(cd, best)) best = cd;
        }
    pre_node *nd = &pre->nodes[best->node];
    if (pre->nqueue + best->n > pre->qcap) {
        pre->qcap = (pre->nqueue + best->n) * 2;
        pre->queue = xrealloc(pre->queue, pre->qcap * sizeof *pre->queue);
        pre->queue_by = xrealloc(pre->queue_by, pre->qcap * sizeof *pre->queue_by);
    }
    for (size_t i = best->first; i < best->first + best->n; i++) {
        pre_pod *v = &nd->pods[pre->vict[i]];
        v->terminating = true;
        pre->healthy[v->cls]--;
        pre->terminating[v->cls]++;
        pre->of[v->cls]++;
        pre->queue_by[pre->nqueue] = ci;
        pre->queue[pre->nqueue++] = v->p.pod;
    }
    pre->preemptions++;
    pre->by[ci]++;
    pre->victims += best->n;
    c->nominated = (int32_t)best->node;
    c->nominated_pod = pod;
    return true;
}

bool preempt_take_victim(scheduler *s, uint32_t *victim, uint32_t *preemptor) {
    preempt_state *pre = s->pre;
    if (!pre || pre->qhead == pre->nqueue) {
        if (pre) pre->qhead = pre->nqueue = 0;
        return false;
    }
    *victim = pre->queue[pre->qhead];
    *preemptor = pre->queue_by[pre->qhead++];
    return true;
}

uint64_t preempt_blocked_by_dra(const scheduler *s) { return s->pre ? s->pre->blocked_dra : 0; }

void preempt_counts(const scheduler *s, uint64_t *attempts, uint64_t *preemptions, uint64_t *victims) {
    const preempt_state *pre = s->pre;
    *attempts = pre ? pre->attempts : 0;
    *preemptions = pre ? pre->preemptions : 0;
    *victims = pre ? pre->victims : 0;
}

void preempt_class_counts(const scheduler *s, uint32_t ci, int64_t *preemptions, int64_t *victims) {
    const preempt_state *pre = s->pre;
    bool in = pre && ci < pre->ncls;
    *preemptions = in ? pre->by[ci] : 0;
    *victims = in ? pre->of[ci] : 0;
}
