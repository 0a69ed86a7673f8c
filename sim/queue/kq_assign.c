/*
 * kq_assign.c -- Kueue's flavor assignment for one workload (kubernetes-sigs/
 * kueue ff69552e79, pkg/scheduler/flavorassigner/flavorassigner.go):
 * pod sets in order, earlier ones counting against later ones; for each
 * resource group the flavors in listed order, every resource of the group on
 * one flavor (findFlavorForPodSets); a flavor's fit from fitsResourceQuota
 * (maximum capacity, available quota, borrowing level from
 * classical.FindHeightOfLowestSubtreeThatFits, and the preemption oracle);
 * isPreferred and shouldTryNextFlavor with flavorFungibility. Then, when a
 * flavor needs preemption, the targets (kq_preempt.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq.h"
#include "sched/framework.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* preemptionMode, worst to best */
typedef enum { PM_NOFIT, PM_NO_CANDIDATES, PM_PREEMPT, PM_RECLAIM, PM_FIT } pmode;

typedef struct gmode {
    pmode pm;
    int borrow;
} gmode;

static gmode worst_mode(void) { return (gmode){PM_NOFIT, INT32_MAX}; }

/* isPreferred(a, b): a better than b under the ClusterQueue's preference. */
static bool preferred(gmode a, gmode b, kq_preference pref) {
    if (a.pm == PM_NOFIT) return false;
    if (b.pm == PM_NOFIT) return true;
    bool an = a.pm == PM_NO_CANDIDATES, bn = b.pm == PM_NO_CANDIDATES;
    if (an != bn) return !an;
    if (pref == KQ_PREEMPTION_OVER_BORROWING) {
        if (a.borrow != b.borrow) return a.borrow < b.borrow;
        return a.pm > b.pm;
    }
    if (a.pm != b.pm) return a.pm > b.pm;
    return a.borrow < b.borrow;
}

static bool try_next(gmode m, const kq_cluster_queue *cq) {
    if (m.pm == PM_NOFIT || m.pm == PM_NO_CANDIDATES) return true;
    bool preempt = m.pm == PM_PREEMPT || m.pm == PM_RECLAIM;
    if (preempt && cq->preempt_try_next) return true;
    if (m.borrow != 0 && cq->borrow_try_next) return true;
    return false;
}

static int node_height(const kq_node *n) {
    int h = (n->nchild_cohorts + n->nchild_cqs) > 0 ? 1 : 0;
    for (size_t i = 0; i < n->nchild_cohorts; i++) {
        int c = node_height(n->child_cohorts[i]) + 1;
        if (c > h) h = c;
    }
    return h;
}

/* classical.FindHeightOfLowestSubtreeThatFits: the borrowing level, and
 * whether reclaiming in the hierarchy may help. */
static int lowest_subtree_fit(const kq_node *c, uint32_t fr, int64_t val, bool *may_reclaim) {
    if (!kq_borrowing_with(c, fr, val) || !c->parent) {
        *may_reclaim = c->parent != NULL;
        return 0;
    }
    int64_t rem = val - kq_local_available(c, fr);
    const kq_node *n = c->parent, *root = c->parent;
    for (; n; n = n->parent) {
        if (!kq_borrowing_with(n, fr, rem)) {
            *may_reclaim = n->parent != NULL;
            return node_height(n);
        }
        rem -= kq_local_available(n, fr);
        root = n;
    }
    *may_reclaim = false;
    return node_height(root);
}

/* An amount as Kueue prints it (pkg/resources/resource_formatter.go
 * ResourceQuantity + resource.Quantity String, ff69552e79): cpu in cores or
 * millicores, memory, ephemeral-storage and hugepages-* in BinarySI (5Gi;
 * below 1024 or not a multiple of 1024: the plain number), the rest in
 * DecimalSI (2k). */
static void fmt_amount(char *buf, size_t n, const char *res, int64_t v) {
    static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    static const char *const dec[] = {"", "k", "M", "G", "T", "P", "E"};
    if (v == KQ_UNLIMITED) {
        snprintf(buf, n, "unlimited");
        return;
    }
    bool cpu = !strcmp(res, "cpu");
    if (cpu && v % 1000) {
        snprintf(buf, n, "%" PRId64 "m", v);
        return;
    }
    if (cpu) v /= 1000;
    bool binary = !strcmp(res, "memory") || !strcmp(res, "ephemeral-storage") || !strncmp(res, "hugepages-", 10);
    int64_t base = binary ? 1024 : 1000;
    size_t e = 0;
    if (v != 0 && (!binary || v >= 1024 || v <= -1024))
        while (e < 6 && v % base == 0) v /= base, e++;
    snprintf(buf, n, "%" PRId64 "%s", v, binary ? bin[e] : dec[e]);
}

typedef struct actx {
    kq_snapshot *s;
    const kq_pending *p;
    kq_node *cq;
    kq_usage *assumed;               /* usage of earlier pod sets per fr */
    size_t nassumed, cap_assumed;
    strbuf *reasons;                 /* per pod set, "; "-joined */
    kq_result *r;
    size_t cap_choices;              /* r->choices' capacity */
} actx;

static int64_t assumed_of(const actx *a, uint32_t fr) {
    for (size_t i = 0; i < a->nassumed; i++)
        if (a->assumed[i].fr == fr) return a->assumed[i].amount;
    return 0;
}

static void add_assumed(actx *a, uint32_t fr, int64_t v) {
    for (size_t i = 0; i < a->nassumed; i++)
        if (a->assumed[i].fr == fr) { a->assumed[i].amount = kq_sat_add(a->assumed[i].amount, v); return; }
    if (a->nassumed == a->cap_assumed) {
        a->cap_assumed = a->cap_assumed ? a->cap_assumed * 2 : 8;
        a->assumed = xrealloc(a->assumed, a->cap_assumed * sizeof *a->assumed);
    }
    a->assumed[a->nassumed++] = (kq_usage){fr, v};
}

static void reason(actx *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reason(actx *a, const char *fmt, ...) {
    if (a->reasons->len) sb_puts(a->reasons, ", ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(a->reasons, fmt, ap);
    va_end(ap);
}

/* The preemption oracle (preemption_oracle.go SimulatePreemption). */
static pmode simulate_preemption(actx *a, uint32_t fr, int64_t val, int *borrow_after) {
    kq_victim *v = NULL;
    kq_usage u = {fr, val};
    size_t n = kq_preempt_targets(a->s, &a->p->wl, a->cq, &fr, 1, &u, 1, &v);
    bool may;
    if (n == 0) {
        *borrow_after = lowest_subtree_fit(a->cq, fr, val, &may);
        return PM_NO_CANDIDATES;
    }
    for (size_t i = 0; i < n; i++) kq_wl_usage(v[i].wl, false);
    *borrow_after = lowest_subtree_fit(a->cq, fr, val, &may);
    for (size_t i = 0; i < n; i++) kq_wl_usage(v[i].wl, true);
    pmode m = PM_RECLAIM;
    for (size_t i = 0; i < n; i++)
        if (v[i].wl->cq == a->cq) m = PM_PREEMPT;
    free(v);
    return m;
}

/* fitsResourceQuota */
static pmode fits_quota(actx *a, uint32_t fr, int64_t req, int *borrow) {
    const kq_fr *f = &a->s->frs[fr];
    int64_t assumed = assumed_of(a, fr), val = kq_sat_add(assumed, req);
    int64_t avail = kq_available(a->cq, fr), maxcap = kq_potential_available(a->cq, fr);
    char b1[32], b2[32], b3[32];
    *borrow = 0;
    if (val > maxcap) {
        fmt_amount(b1, sizeof b1, f->resource, assumed);
        fmt_amount(b2, sizeof b2, f->resource, req);
        fmt_amount(b3, sizeof b3, f->resource, maxcap);
        reason(a, "insufficient quota for %s in flavor %s, previously considered podsets requests (%s) + current "
                  "podset request (%s) > maximum capacity (%s)", f->resource, f->flavor, b1, b2, b3);
        if (!a->r->why.len) {
            sb_printf(&a->r->why, "ClusterQueue %s: %s %s requested in flavor %s, at most %s can ever be admitted",
                      a->cq->name, b2, f->resource, f->flavor, b3);
            if (a->cq->borrowing_limit[fr] != KQ_NO_LIMIT) {
                fmt_amount(b1, sizeof b1, f->resource, a->cq->borrowing_limit[fr]);
                sb_printf(&a->r->why, " (nominal quota + borrowing limit %s)", b1);
            }
        }
        return PM_NOFIT;
    }
    bool may_reclaim;
    *borrow = lowest_subtree_fit(a->cq, fr, val, &may_reclaim);
    if (val <= avail) return PM_FIT;
    fmt_amount(b1, sizeof b1, f->resource, val - avail);
    reason(a, "insufficient unused quota for %s in flavor %s, %s more needed", f->resource, f->flavor, b1);
    if (!a->r->why.len) {
        fmt_amount(b1, sizeof b1, f->resource, req);
        fmt_amount(b2, sizeof b2, f->resource, avail);
        sb_printf(&a->r->why, "ClusterQueue %s: %s %s requested in flavor %s, %s left", a->cq->name, b1, f->resource,
                  f->flavor, b2);
        int64_t bl = a->cq->borrowing_limit[fr];
        /* the limit binds when its headroom is what is left */
        if (bl != KQ_NO_LIMIT && kq_sat_add(a->cq->nominal[fr], bl) - a->cq->usage[fr] <= avail) {
            fmt_amount(b3, sizeof b3, f->resource, bl);
            sb_printf(&a->r->why, ", borrowing limit %s reached", b3);
        } else if (!a->cq->parent) {
            sb_printf(&a->r->why, ", no cohort to borrow from");
        } else {
            sb_printf(&a->r->why, ", the cohort has no more to lend");
        }
    }
    const kq_cluster_queue *q = a->cq->cq;
    /* canPreemptWhileBorrowing: borrowWithinCohort, or fair sharing with reclaimWithinCohort */
    bool preempt_while_borrowing = q->borrow_within_cohort || (a->s->fair_sharing && q->reclaim_within_cohort != KQ_NEVER);
    if (a->cq->nominal[fr] >= val || may_reclaim || preempt_while_borrowing) {
        pmode m = simulate_preemption(a, fr, val, borrow);
        return m;
    }
    return PM_NOFIT;
}

/* Kueue only looks at nodeSelector keys some flavor of the group sets
 * (flavorSelector); node affinity terms likewise. */
static bool flavor_matches(actx *a, const kq_flavor *fl, const k8s_pod *spec) {
    for (size_t t = 0; t < fl->nnode_taints; t++) {
        const k8s_taint *taint = &fl->node_taints[t];
        if (taint->effect != TAINT_NO_SCHEDULE && taint->effect != TAINT_NO_EXECUTE) continue;
        bool ok = false;
        for (size_t i = 0; i < spec->ntolerations && !ok; i++) ok = toleration_tolerates(&spec->tolerations[i], taint);
        for (size_t i = 0; i < fl->ntolerations && !ok; i++) ok = toleration_tolerates(&fl->tolerations[i], taint);
        if (!ok) {
            static const char *const effects[] = {"", "NoSchedule", "PreferNoSchedule", "NoExecute"};
            reason(a, "untolerated taint {%s %s %s <nil>} in flavor %s", taint->key, taint->value ? taint->value : "",
                   effects[taint->effect], fl->meta.name);
            return false;
        }
    }
    for (size_t i = 0; i < spec->nnode_selector; i++) {
        const k8s_kv *sel = &spec->node_selector[i];
        for (size_t k = 0; k < fl->nnode_labels; k++)
            if (fl->node_labels[k].key == sel->key && fl->node_labels[k].value != sel->value) {
                reason(a, "flavor %s doesn't match node affinity", fl->meta.name);
                return false;
            }
    }
    if (spec->has_affinity) {
        /* keep only requirements on the flavor's label keys; an emptied term matches any flavor */
        bool any = false, emptied = false;
        for (size_t t = 0; t < spec->required_affinity.nterms && !any && !emptied; t++) {
            const k8s_selector_term *term = &spec->required_affinity.terms[t];
            size_t kept = 0;
            bool ok = true;
            for (size_t e = 0; e < term->nmatch_expressions; e++) {
                const k8s_selector_req *rq = &term->match_expressions[e];
                const char *val = NULL;
                bool has = false;
                for (size_t k = 0; k < fl->nnode_labels; k++)
                    if (fl->node_labels[k].key == rq->key) { has = true; val = fl->node_labels[k].value; }
                if (!has) continue;
                kept++;
                bool in = false;
                for (size_t v = 0; v < rq->nvalues; v++) in |= rq->values[v] == val;
                switch (rq->op) {
                case SEL_OP_IN: ok &= in; break;
                case SEL_OP_NOT_IN: ok &= !in; break;
                case SEL_OP_EXISTS: break;
                case SEL_OP_DOES_NOT_EXIST: ok = false; break;
                case SEL_OP_GT: ok &= rq->nvalues == 1 && atoll(val) > atoll(rq->values[0]); break;
                case SEL_OP_LT: ok &= rq->nvalues == 1 && atoll(val) < atoll(rq->values[0]); break;
                }
            }
            if (kept == 0) emptied = true;
            else any = ok;
        }
        if (!any && !emptied && spec->required_affinity.nterms) {
            reason(a, "flavor %s doesn't match node affinity", fl->meta.name);
            return false;
        }
    }
    return true;
}

/* The requests by resource name: a stable insertion sort (a handful of
 * entries; it orders as the merge sort glibc's qsort used, without its
 * allocation and calls, which ran for every head of every cycle). */
static void sort_requests(kq_request *req, size_t n) {
    for (size_t i = 1; i < n; i++) {
        kq_request x = req[i];
        size_t j = i;
        for (; j > 0 && strcmp(req[j - 1].resource, x.resource) > 0; j--) req[j] = req[j - 1];
        req[j] = x;
    }
}

/* One pod set: every resource group it requests gets a flavor. Returns the
 * pod set's representative mode; choices appended to r. */
static gmode assign_pod_set(actx *a, size_t ps) {
    const k8s_pod *spec = a->p->ps_specs[ps];
    int32_t count = a->p->ps_counts[ps];
    const kq_cluster_queue *q = a->cq->cq;
    size_t nreq = spec->nrequests;
    kq_request req_small[8];   /* the usual few requests need no allocation */
    bool done_small[8] = {0};
    kq_request *req = nreq + 1 <= 8 ? req_small : xmalloc((nreq + 1) * sizeof *req);
    bool pods_asked = false;
    const int64_t *amounts = a->p->ps_amounts ? a->p->ps_amounts[ps] : NULL;
    const char *pods = a->s->pods_name;
    for (size_t i = 0; i < nreq; i++) {
        int64_t per = amounts ? amounts[i] : kq_resource_value(spec->requests[i].name, &spec->requests[i].value);
        req[i] = (kq_request){ps, spec->requests[i].name, per, per > 0 && count > INT64_MAX / per ? KQ_UNLIMITED : per * count};
        pods_asked |= spec->requests[i].name == pods || !strcmp(spec->requests[i].name, "pods");
    }
    /* `pods` counts one per pod when the ClusterQueue has quota for it */
    for (size_t k = 0; k < q->ngroups && !pods_asked; k++)
        for (size_t c = 0; c < q->groups[k].ncovered; c++)
            if (q->groups[k].covered[c] == pods && !pods_asked) {
                req[nreq++] = (kq_request){ps, pods, 1, count};
                pods_asked = true;
            }
    sort_requests(req, nreq);
    gmode rep = {PM_FIT, 0};
    bool *done = req == req_small ? done_small : xcalloc(nreq ? nreq : 1, 1);
    for (size_t i = 0; i < nreq; i++) {
        if (done[i]) continue;
        const kq_resource_group *g = NULL;
        for (size_t k = 0; k < q->ngroups && !g; k++)
            for (size_t c = 0; c < q->groups[k].ncovered; c++)
                if (q->groups[k].covered[c] == req[i].resource) g = &q->groups[k];
        if (!g) {
            if (req[i].total == 0) continue;   /* a zero request of an undeclared resource is ignored */
            reason(a, "resource %s unavailable in ClusterQueue", req[i].resource);
            if (!a->r->why.len)
                sb_printf(&a->r->why, "ClusterQueue %s: no quota for %s (not in any resourceGroup)", a->cq->name,
                          req[i].resource);
            rep = worst_mode();
            break;
        }
        gmode best = worst_mode();
        const char *best_flavor = NULL;
        for (size_t f = 0; f < g->nflavors; f++) {
            const kq_flavor *fl = kq_find_flavor(a->s->o, g->flavors[f].flavor);
            if (!fl || !flavor_matches(a, fl, spec)) continue;
            const char *tas = kq_tas_flavor_mismatch(a->s->o, q, a->p->ps_tas ? a->p->ps_tas[ps] : NULL, fl);
            if (tas) {   /* Kueue TAS (queue/kq_tas_admit.c) */
                reason(a, "%s", tas);
                continue;
            }
            gmode m = {PM_FIT, 0};
            for (size_t j = 0; j < nreq; j++) {
                bool covered = false;
                for (size_t c = 0; c < g->ncovered; c++) covered |= g->covered[c] == req[j].resource;
                if (!covered) continue;
                uint32_t fr = kq_fr_index(a->s, fl->meta.name, req[j].resource);
                int borrow = 0;
                pmode pm = fits_quota(a, fr, req[j].total, &borrow);
                gmode here = {pm, borrow};
                if (preferred(m, here, q->preference)) m = here;
                if (m.pm == PM_NOFIT) break;
            }
            if (!try_next(m, q)) {
                best = m;
                best_flavor = fl->meta.name;
                break;
            }
            if (preferred(m, best, q->preference)) {
                best = m;
                best_flavor = fl->meta.name;
            }
        }
        if (best.pm == PM_NOFIT) {
            rep = worst_mode();
            break;
        }
        for (size_t j = 0; j < nreq; j++) {
            bool covered = false;
            for (size_t c = 0; c < g->ncovered; c++) covered |= g->covered[c] == req[j].resource;
            if (!covered) continue;
            done[j] = true;
            uint32_t fr = kq_fr_index(a->s, best_flavor, req[j].resource);
            add_assumed(a, fr, req[j].total);
            kq_mode mode = best.pm == PM_FIT ? KQ_FIT : KQ_PREEMPT;
            if (a->r->nchoices == a->cap_choices) {   /* grown by doubling, not by one per choice */
                a->cap_choices = a->cap_choices ? a->cap_choices * 2 : (nreq > 4 ? nreq : 4);
                a->r->choices = xrealloc(a->r->choices, a->cap_choices * sizeof *a->r->choices);
            }
            a->r->choices[a->r->nchoices++] = (kq_choice){ps, req[j].resource, best_flavor, mode, best.borrow};
        }
        if (preferred(rep, best, q->preference)) rep = best;
    }
    if (done != done_small) free(done);
    if (req != req_small) free(req);
    return rep;
}

void kq_result_free(kq_result *r) {
    free(r->choices);
    free(r->usage);
    free(r->victims);
    sb_free(&r->reason);
    sb_free(&r->why);
    memset(r, 0, sizeof *r);
}

void kq_try_admit(kq_snapshot *s, const kq_pending *p, kq_result *r) {
    memset(r, 0, sizeof *r);
    actx a = {.s = s, .p = p, .cq = p->cq, .r = r};
    strbuf reasons = {0};
    a.reasons = &reasons;
    gmode rep = {PM_FIT, 0};
    strbuf msg = {0};   /* Assignment.Message(): every pod set that does not fit, "; "-joined */
    for (size_t ps = 0; ps < p->npod_sets; ps++) {
        sb_clear(&reasons);
        gmode m = assign_pod_set(&a, ps);
        if (m.pm == PM_NOFIT) {
            sb_printf(&r->reason, "couldn't assign flavors to pod set %s: %s", p->ps_names[ps], sb_str(&reasons));
            rep = m;
            break;
        }
        if (m.pm != PM_FIT && reasons.len)
            sb_printf(&msg, "%scouldn't assign flavors to pod set %s: %s", msg.len ? "; " : "", p->ps_names[ps],
                      sb_str(&reasons));
        if (preferred(rep, m, p->cq->cq->preference)) rep = m;
    }
    sb_free(&reasons);
    if (rep.pm == PM_FIT) {
        r->mode = KQ_FIT;
        r->admitted = true;
        for (size_t i = 0; i < r->nchoices; i++) r->borrowing |= r->choices[i].borrow > 0;
        sb_clear(&r->why);
    } else if (rep.pm == PM_NOFIT) {
        r->mode = KQ_NOFIT;
    } else {
        /* Preempt: the targets for every fr in Preempt mode and the whole usage */
        r->mode = KQ_PREEMPT;
        uint32_t *need = xmalloc((r->nchoices ? r->nchoices : 1) * sizeof *need);
        size_t nneed = 0;
        for (size_t i = 0; i < r->nchoices; i++)
            if (r->choices[i].mode == KQ_PREEMPT) need[nneed++] = kq_fr_index(s, r->choices[i].flavor, r->choices[i].resource);
        r->nvictims = kq_preempt_targets(s, &p->wl, p->cq, need, nneed, a.assumed, a.nassumed, &r->victims);
        for (size_t i = 0; i < r->nchoices; i++) r->borrowing |= r->choices[i].borrow > 0;
        /* scheduler.go recordAssignment (the assignment's message), markPreemptionOutcome */
        sb_puts(&r->reason, msg.len ? sb_str(&msg) : "couldn't assign flavors: insufficient unused quota");
        r->reason_base = r->reason.len;
        if (r->nvictims) sb_printf(&r->reason, ". Pending the preemption of %zu workload(s)", r->nvictims);
        free(need);
    }
    sb_free(&msg);
    r->usage = a.assumed;   /* TotalRequestsFor: TAS-aware preemption uses it again (kq_tas_admit.c) */
    r->nusage = a.nassumed;
}
