/* frag_mig.c -- MIG fragmentation measure (see frag_mig.h). */
#include "sched/policies/frag_mig.h"

uint8_t frag_mig_span(int start, int size) {
    if (start < 0 || size <= 0 || start + size > FRAG_MIG_SLICES) return 0;
    return (uint8_t)(((1u << size) - 1) << start);
}

int frag_mig_fits(const frag_mig_gpu *g, const frag_mig_profile *m, int start, int compute_total) {
    if (start < 0 || start >= FRAG_MIG_SLICES || !(m->starts >> start & 1)) return 0;
    uint8_t span = frag_mig_span(start, m->size);
    return span && !(g->occ & span) && g->compute + m->compute <= compute_total;
}

uint8_t frag_mig_usable(const frag_mig_gpu *g, const frag_mig_profile *m, int compute_total) {
    uint8_t u = 0;
    for (int s = 0; s < FRAG_MIG_SLICES; s++)
        if (frag_mig_fits(g, m, s, compute_total)) u |= frag_mig_span(s, m->size);
    return u;
}

static int popcount8(uint8_t x) {
    int n = 0;
    for (; x; x &= (uint8_t)(x - 1)) n++;
    return n;
}

double frag_mig_gpu_frag(const frag_mig_gpu *g, const frag_mig_typical *t) {
    uint8_t free_slices = (uint8_t)~g->occ;
    double f = 0;
    for (size_t i = 0; i < t->n; i++)
        f += t->m[i].p * popcount8((uint8_t)(free_slices & ~frag_mig_usable(g, &t->m[i], t->compute_total)));
    return f;
}

int frag_mig_best_start(const frag_mig_gpu *g, const frag_mig_profile *m, const frag_mig_typical *t, double *delta) {
    double before = frag_mig_gpu_frag(g, t), best = 0;
    int at = -1;
    for (int s = 0; s < FRAG_MIG_SLICES; s++) {
        if (!frag_mig_fits(g, m, s, t->compute_total)) continue;
        frag_mig_gpu after = {(uint8_t)(g->occ | frag_mig_span(s, m->size)), g->compute + m->compute};
        double d = frag_mig_gpu_frag(&after, t) - before;
        if (at < 0 || d < best - 1e-9) {
            best = d;
            at = s;
        }
    }
    if (delta) *delta = best;
    return at;
}

void frag_mig_add(frag_mig_typical *t, int size, int compute, uint8_t starts, double weight) {
    for (size_t i = 0; i < t->n; i++)
        if (t->m[i].size == size && t->m[i].compute == compute && t->m[i].starts == starts) {
            t->m[i].p += weight;
            return;
        }
    if (t->n >= sizeof t->m / sizeof *t->m) return;
    t->m[t->n++] = (frag_mig_profile){size, compute, starts, weight};
}

void frag_mig_normalise(frag_mig_typical *t) {
    double sum = 0;
    for (size_t i = 0; i < t->n; i++) sum += t->m[i].p;
    for (size_t i = 0; i < t->n && sum > 0; i++) t->m[i].p /= sum;
}
