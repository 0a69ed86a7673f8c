/*
 * inventory_mig.c -- static MIG placement: where the instances of a
 * mig-parted layout end up on one GPU.
 *
 * mig-parted creates the layout's GPU instances one after the other without
 * explicit placement; the driver puts each at the first free start of the
 * profile's placement list. When an order cannot be completed, mig-parted
 * tries the next permutation of the instances. A GPU's resources are modelled
 * as in the DRA driver's counter model (which admits exactly the placements
 * the hardware does): memory slices are exclusive, and SMs, compute slices
 * and engines must not exceed what the GPU has in MIG mode (the largest
 * profile's values).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"

typedef struct gpu_budget {
    uint64_t mem_used;       /* bit i = memory slice i taken (the catalog allows at most 32) */
    int sm, compute, ce, dec, enc, jpg, ofa;
} gpu_budget;

/* The GPU's MIG-mode totals: per key, the maximum over its profiles. */
static gpu_budget model_limits(const gpu_model *m) {
    gpu_budget b = {0};
    for (int i = 0; i < m->nprofiles; i++) {
        const mig_profile *p = &m->profiles[i];
#define MAXF(f, v) if ((v) > b.f) b.f = (v)
        MAXF(sm, p->multiprocessors);
        MAXF(ce, p->copy_engines);
        MAXF(dec, p->decoders);
        MAXF(enc, p->encoders);
        MAXF(jpg, p->jpeg);
        MAXF(ofa, p->ofa);
#undef MAXF
    }
    b.compute = m->compute_slices_total;
    return b;
}

static uint64_t span(int start, int size) { return ((UINT64_C(1) << size) - 1u) << start; }

/* First free start of p, or -1. Takes the resources on success. */
static int take(gpu_budget *used, const gpu_budget *lim, const mig_profile *p) {
    if (used->sm + p->multiprocessors > lim->sm || used->compute + p->compute_slices > lim->compute ||
        used->ce + p->copy_engines > lim->ce || used->dec + p->decoders > lim->dec ||
        used->enc + p->encoders > lim->enc || used->jpg + p->jpeg > lim->jpg || used->ofa + p->ofa > lim->ofa)
        return -1;
    for (int i = 0; i < p->nstarts; i++) {
        uint64_t s = span(p->starts[i], p->size);
        if (used->mem_used & s) continue;
        used->mem_used |= s;
        used->sm += p->multiprocessors;
        used->compute += p->compute_slices;
        used->ce += p->copy_engines;
        used->dec += p->decoders;
        used->enc += p->encoders;
        used->jpg += p->jpeg;
        used->ofa += p->ofa;
        return p->starts[i];
    }
    return -1;
}

typedef struct search {
    const mig_profile **inst;   /* the layout's instances in layout order */
    int n;
    bool *done;
    const gpu_budget *lim;
    mig_placement *out;
} search;

/* Depth-first over creation orders in lexicographic order; each instance goes
 * to its first free start. A failed prefix prunes every order sharing it. */
static bool place_from(search *s, int depth, gpu_budget used) {
    if (depth == s->n) return true;
    for (int i = 0; i < s->n; i++) {
        if (s->done[i]) continue;
        bool seen = false;   /* an equal profile already tried at this depth gives the same result */
        for (int j = 0; j < i && !seen; j++) seen = !s->done[j] && s->inst[j] == s->inst[i];
        if (seen) continue;
        gpu_budget u = used;
        int start = take(&u, s->lim, s->inst[i]);
        if (start < 0) continue;
        s->done[i] = true;
        s->out[depth] = (mig_placement){s->inst[i], start};
        if (place_from(s, depth + 1, u)) return true;
        s->done[i] = false;
    }
    return false;
}

static int by_start(const void *a, const void *b) {
    const mig_placement *x = a, *y = b;
    if (x->start != y->start) return x->start - y->start;
    return strcmp(x->profile->name, y->profile->name);
}

int mig_layout_place(const gpu_model *m, const mig_layout *l, mig_placement *out, strbuf *err) {
    if (l->nprofiles == 0) return 0;
    search s = {.n = l->nprofiles, .out = out};
    s.inst = calloc((size_t)l->nprofiles, sizeof *s.inst);
    s.done = calloc((size_t)l->nprofiles, sizeof *s.done);
    for (int i = 0; i < l->nprofiles; i++) {
        s.inst[i] = gpu_model_profile(m, l->profiles[i]);
        if (!s.inst[i]) {
            sb_clear(err);
            sb_printf(err, "MIG layout %s: GPU model %s has no profile '%s'", l->name, m->key, l->profiles[i]);
            free(s.inst);
            free(s.done);
            return -1;
        }
    }
    gpu_budget lim = model_limits(m);
    s.lim = &lim;
    bool ok = place_from(&s, 0, (gpu_budget){0});
    free(s.inst);
    free(s.done);
    if (!ok) {
        sb_clear(err);
        sb_printf(err, "MIG layout %s does not fit on a %s GPU (no creation order places all %d instances)",
                  l->name, m->key, l->nprofiles);
        return -1;
    }
    qsort(out, (size_t)l->nprofiles, sizeof *out, by_start);
    return 0;
}
