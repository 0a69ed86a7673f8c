/* workload.c -- arrival processes and duration distributions. */
#include "workload/workload.h"

#include <math.h>

void workload_group_init(workload_group *g, const pod_group_spec *spec, uint64_t seed) {
    rng base;
    rng_seed(&base, seed);
    g->spec = spec;
    rng_fork(&base, rng_name_tag(spec->name), &g->rng);
    g->emitted = 0;
    g->last = (double)spec->arrival.start;
}

static sim_time clamp_ms(double v) {
    if (!(v > 0)) return 0;
    if (v > 9.0e15) return (sim_time)9.0e15;
    return (sim_time)llround(v);
}

sim_time workload_sample_duration(const duration_dist *d, rng *r) {
    switch (d->kind) {
    case DIST_FIXED: return d->a;
    case DIST_UNIFORM: return d->a + (sim_time)rng_below(r, (uint64_t)(d->b - d->a) + 1);
    case DIST_EXPONENTIAL: return clamp_ms(rng_exponential(r, (double)d->a));
    case DIST_LOGNORMAL: return clamp_ms(rng_lognormal(r, log((double)d->a), d->sigma));
    }
    return d->a;
}

bool workload_next(workload_group *g, sim_time *arrival, sim_time *duration) {
    const arrival_spec *ar = &g->spec->arrival;
    if (g->emitted >= g->spec->count) return false;
    switch (ar->kind) {
    case ARRIVAL_TIMES: *arrival = ar->times[g->emitted]; break;
    case ARRIVAL_CONSTANT: *arrival = ar->start + ar->interval * g->emitted; break;
    case ARRIVAL_POISSON:
        g->last += rng_exponential(&g->rng, ar->mean_gap_ms);
        *arrival = clamp_ms(g->last);
        break;
    }
    *duration = workload_sample_duration(&g->spec->duration, &g->rng);
    g->emitted++;
    return true;
}
