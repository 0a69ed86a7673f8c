/* topo_placement.c -- KEP-5732 placement of a pod group (see topo_placement.h). */
#include "sched/topology/topo_placement.h"

#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra_trial.h"
#include "util/xalloc.h"

#define FITS(c, i) (((c)->fits[(i) >> 6] >> ((i) & 63)) & 1u)
#define ELIGIBLE(c, i) (((c)->eligible[(i) >> 6] >> ((i) & 63)) & 1u)

int64_t topo_best_node(scheduler *s, const topo_domains *d, size_t dom, uint32_t ci) {
    pod_class *c = &s->classes[ci];
    sched_flush_class(s, ci);
    int32_t best = INT32_MIN;
    size_t ties = 0;
    for (uint32_t k = d->first[dom]; k < d->first[dom + 1]; k++) {
        uint32_t i = d->nodes[k];
        if (!FITS(c, i)) continue;
        if (c->score[i] > best) { best = c->score[i]; ties = 0; }
        if (c->score[i] == best) ties++;
    }
    if (!ties) return -1;
    size_t r = ties > 1 ? (size_t)rng_below(&s->rng, ties) : 0;   /* selectHost: a tie at random */
    for (uint32_t k = d->first[dom]; k < d->first[dom + 1]; k++) {
        uint32_t i = d->nodes[k];
        if (FITS(c, i) && c->score[i] == best && r-- == 0) return i;
    }
    return -1;
}

/* Pods of class ci that fit in domain dom, placed one after the other and
 * then taken back (the placement's evaluation). */
static int32_t evaluate(scheduler *s, const topo_domains *d, size_t dom, uint32_t ci, int32_t npods, uint32_t pod,
                        placement *held, uint64_t *binds) {
    int32_t fit = 0;
    while (fit < npods) {
        int64_t node = topo_best_node(s, d, dom, ci);
        if (node < 0 || !sched_try_bind(s, ci, (size_t)node, pod + (uint32_t)fit, &held[fit])) break;
        fit++;
        (*binds)++;
    }
    for (int32_t k = fit; k-- > 0;) sched_release(s, ci, &held[k]);
    return fit;
}

/* PlacementBinPacking with MostAllocated: per scored resource the summed
 * requested (bound + the group's) over the summed allocatable, x100; the
 * weighted mean over resources with allocatable (resource_allocation.go). */
static int64_t binpack_score(const scheduler *s, const topo_domains *d, size_t dom, uint32_t ci, int32_t fit) {
    const pod_class *c = &s->classes[ci];
    int64_t total = 0, wsum = 0;
    for (size_t r = 0; r < s->nres; r++) {
        int64_t w = s->score_weights[r];
        if (w <= 0) continue;
        int64_t alloc = 0, used = 0, want = 0;
        for (uint32_t k = d->first[dom]; k < d->first[dom + 1]; k++) {
            alloc += s->alloc[d->nodes[k] * s->nres + r];
            used += s->used[d->nodes[k] * s->nres + r];
        }
        for (size_t i = 0; i < c->ndemand; i++)
            if (c->demand[i].res == r) want = c->demand[i].amount;
        if (alloc <= 0) continue;
        int64_t req = used + want * fit;
        total += w * (req >= alloc ? 100 : req * 100 / alloc);
        wsum += w;
    }
    return wsum ? total / wsum : 0;
}

void topo_choose(scheduler *s, const topo_domains *d, uint32_t ci, int32_t npods, int32_t min, uint32_t trial_pod,
                 topo_choice *out) {
    memset(out, 0, sizeof *out);
    out->domain = -1;
    if (!d->ndomains || npods <= 0) return;
    int32_t *fit = xcalloc(d->ndomains, sizeof *fit);
    placement *held = xcalloc((size_t)npods, sizeof *held);
    rng keep = s->rng;   /* tentative placements leave the run's draws alone */
    dra_trial trial = {0};
    if (s->dra) dra_trial_begin(s->dra, &trial);
    for (size_t k = 0; k < d->ndomains; k++) {
        fit[k] = evaluate(s, d, k, ci, npods, trial_pod, held, &out->trial_binds);
        if (fit[k] > out->best_fit) out->best_fit = fit[k];
        if (fit[k] >= min) out->feasible++;
    }
    if (s->dra) {
        dra_trial_end(s->dra, &trial);
        dra_trial_free(&trial);
    }
    s->rng = keep;
    if (out->feasible == 1) {   /* findBestPodGroupPlacement: one feasible placement is taken unscored */
        for (size_t k = 0; k < d->ndomains; k++)
            if (fit[k] >= min) out->domain = (int32_t)k;
    } else if (out->feasible > 1) {
        int64_t best = INT64_MIN;
        size_t ties = 0;
        int64_t *score = xcalloc(d->ndomains, sizeof *score);
        for (size_t k = 0; k < d->ndomains; k++) {
            if (fit[k] < min) continue;
            score[k] = (int64_t)fit[k] * 100 / out->best_fit + binpack_score(s, d, k, ci, fit[k]);
            if (score[k] > best) { best = score[k]; ties = 0; }
            if (score[k] == best) ties++;
        }
        size_t r = ties > 1 ? (size_t)rng_below(&s->rng, ties) : 0;   /* equal totals: the Randomizer */
        for (size_t k = 0; k < d->ndomains && out->domain < 0; k++)
            if (fit[k] >= min && score[k] == best && r-- == 0) out->domain = (int32_t)k;
        free(score);
    }
    if (out->domain >= 0) out->fit = fit[out->domain];
    free(fit);
    free(held);
}

int64_t topo_max_domain_pods(const scheduler *s, const topo_domains *d, uint32_t ci) {
    const pod_class *c = &s->classes[ci];
    int64_t most = 0;
    for (size_t k = 0; k < d->ndomains; k++) {
        int64_t pods = 0;
        for (uint32_t j = d->first[k]; j < d->first[k + 1]; j++) {
            uint32_t i = d->nodes[j];
            if (!ELIGIBLE(c, i)) continue;
            int64_t n = s->alloc[i * s->nres + RES_PODS];
            for (size_t q = 0; q < c->ndemand; q++) {
                int64_t a = s->alloc[i * s->nres + c->demand[q].res];
                if (c->demand[q].amount > 0 && a / c->demand[q].amount < n) n = a / c->demand[q].amount;
            }
            if (c->shape.ngpu > 0 && c->shape.milli >= GS_MILLI && s->gv.nodes) {   /* whole GPUs */
                int64_t g = s->gv.nodes[i].ngpu / c->shape.ngpu;
                if (g < n) n = g;
            }
            if (c->one_per_node && n > 1) n = 1;   /* one IMEX channel-0 per node */
            pods += n;
        }
        if (pods > most) most = pods;
    }
    return most;
}
