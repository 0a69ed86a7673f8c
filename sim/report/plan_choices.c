/* plan_choices.c -- `drasim plan` over dimensions without order (see
 * plan.h): a static MIG layout, a GPU model or sharing replicas per pool.
 * Nothing orders layouts or models (a layout of small instances serves small
 * pods and starves whole-GPU ones), so no monotone search spans them: the
 * count search (plan_search, plan_verify) runs once per combination of the
 * values, and the cheapest combination's answer wins. */
#include "report/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void plan_choice_key(const plan_choice *ch, strbuf *out) {
    if (ch->set_key) sb_puts(out, ch->set_key);
    else sb_printf(out, "cluster.nodePools.%s.%s", ch->pool, ch->field);
}

bool plan_same_choices(const plan_ctx *c, const plan_probe *p, const plan_probe *q) {
    return !c->nchoices || !memcmp(p->pick, q->pick, c->nchoices * sizeof *p->pick);
}

void plan_choices_text(const plan_ctx *c, const size_t *pick, strbuf *out) {
    for (size_t j = 0; j < c->nchoices && pick; j++) {
        const plan_choice *ch = &c->choices[j];
        sb_printf(out, "%s%s.%s=%s", j ? " " : "", ch->pool, ch->field, ch->values[pick[j]]);
    }
}

/* --minimize: mark a search's answer and the passing probes one step above
 * it as candidates (plan_minimize.c); the same probes for every -j. */
static void mark_candidates(plan_ctx *c) {
    for (size_t i = 0; c->found && i < c->nprobes; i++) {
        plan_probe *p = &c->probes[i];
        p->candidate = (p->verify && p->pass) || !memcmp(p->x, c->best, c->k * sizeof *p->x);
    }
}

/* Move the probes of a finished sub-search into c, each with its pick and cost. */
static void adopt(plan_ctx *c, plan_ctx *sub, const size_t *pick) {
    c->probes = xrealloc(c->probes, (c->nprobes + sub->nprobes + 1) * sizeof *c->probes);
    for (size_t i = 0; i < sub->nprobes; i++) {
        plan_probe *p = &c->probes[c->nprobes++];
        *p = sub->probes[i];
        p->cost = plan_cost(sub, p->x);
        p->pick = xmalloc(c->nchoices * sizeof *p->pick + 1);
        memcpy(p->pick, pick, c->nchoices * sizeof *pick);
    }
    free(sub->probes);
    sub->probes = NULL;
    sub->nprobes = 0;
}

/* One combination: its overrides after c's, its prices on the dimensions. */
static int search_pick(plan_ctx *c, const size_t *pick, int *code, strbuf *err) {
    plan_ctx sub = *c;
    plan_dim *dims = xmalloc(c->k * sizeof *dims + 1);
    memcpy(dims, c->dims, c->k * sizeof *dims);
    const char **sets, **origins;
    plan_sets_copy(c, 2 * c->nchoices, &sets, &origins);
    for (size_t j = 0; j < c->nchoices; j++) {
        const plan_choice *ch = &c->choices[j];
        strbuf s = {0};
        plan_choice_key(ch, &s);
        sb_printf(&s, "=%s", ch->values[pick[j]]);
        sets[c->nsets + j] = xstrdup(sb_str(&s));
        origins[c->nsets + j] = ch->origin;
        sb_free(&s);
        for (size_t d = 0; d < c->k && ch->prices; d++)
            if (!strcmp(dims[d].pool, ch->pool)) dims[d].price = ch->prices[pick[j]];
        /* a reserved split R: the pool's count (or a group's max) is at least R (docs/COST.md) */
        for (size_t d = 0; d < c->k && !strcmp(ch->field, "price.reserved"); d++) {
            int64_t r = strtoll(ch->values[pick[j]], NULL, 10);
            if (!strcmp(dims[d].pool, ch->pool) && dims[d].lo < r) dims[d].lo = r;
        }
    }
    /* --minimize cost: a model's price (MODEL:PRICE) is what the runs bill too */
    size_t nsets = c->nsets + c->nchoices;
    for (size_t j = 0; j < c->nchoices && c->objective && !strcmp(c->objective, "cost_total"); j++) {
        if (!c->choices[j].prices) continue;
        strbuf s = {0};
        sb_printf(&s, "cluster.nodePools.%s.price.onDemand=%.17g", c->choices[j].pool, c->choices[j].prices[pick[j]]);
        sets[nsets] = xstrdup(sb_str(&s));
        origins[nsets++] = c->choices[j].origin;
        sb_free(&s);
    }
    bool empty = false;   /* a reserved split above the range: no point of this combination */
    for (size_t d = 0; d < c->k; d++) empty |= dims[d].lo > dims[d].hi;
    sub.dims = dims;
    sub.sets = sets;
    sub.set_origins = origins;
    sub.nsets = nsets;
    sub.nchoices = 0;
    sub.probes = NULL;
    sub.nprobes = 0;
    sub.best = NULL;
    sub.found = sub.nonmonotone = false;
    int rc = empty ? 0 : plan_search(&sub, code, err);
    if (!rc && !empty) rc = plan_verify(&sub, code, err);
    if (!rc && c->objective) mark_candidates(&sub);
    double eps = 1e-9 * fmax(1.0, fabs(c->best_cost));
    if (!rc && sub.found && (!c->found || sub.best_cost < c->best_cost - eps)) {
        c->found = true;
        c->best_cost = sub.best_cost;
        memcpy(c->best, sub.best, c->k * sizeof *c->best);
        memcpy(c->best_pick, pick, c->nchoices * sizeof *pick);
    }
    c->nonmonotone |= sub.nonmonotone;
    adopt(c, &sub, pick);   /* on failure too: their temporary databases are c's to remove */
    free(sub.best);
    for (size_t j = c->nsets; j < nsets; j++) free((char *)sets[j]);
    free(sets);
    free(origins);
    free(dims);
    return rc;
}

int plan_search_all(plan_ctx *c, int *code, strbuf *err) {
    if (!c->nchoices) {
        int rc = plan_search(c, code, err);
        if (!rc) rc = plan_verify(c, code, err);
        if (!rc && c->objective) mark_candidates(c);
        for (size_t i = 0; i < c->nprobes; i++) c->probes[i].cost = plan_cost(c, c->probes[i].x);
        return rc;
    }
    c->best = xcalloc(c->k + 1, sizeof *c->best);
    c->best_pick = xcalloc(c->nchoices, sizeof *c->best_pick);
    c->found = false;
    size_t *pick = xcalloc(c->nchoices, sizeof *pick);
    int rc = 0;
    for (bool more = true; more && !rc;) {
        rc = search_pick(c, pick, code, err);
        size_t j = c->nchoices;   /* odometer: the last choice fastest */
        while (j > 0 && ++pick[j - 1] == c->choices[j - 1].n) pick[--j] = 0;
        more = j > 0;
    }
    free(pick);
    return rc;
}
