/* dra_trial.c -- what-if placements that leave no trace (see dra_trial.h). */
#include "sched/dra/dra_trial.h"

#include <string.h>

#include "sched/policies/place_mig.h"

void dra_trial_begin(dra_state *d, dra_trial *t) {
    t->active = true;
    t->records = d->records.len;
    t->pod_first = d->pod_first.len;
    t->results = d->results.len;
    t->rare = d->rare.len;
    t->claims_created = d->claims_created;
    t->claims_deleted = d->claims_deleted;
    t->shared_allocated = d->shared_allocated;
    t->shared_freed = d->shared_freed;
    t->allocate_calls = d->allocate_calls;
    t->steps = d->steps;
    t->cur_gpu_equiv = d->cur_gpu_equiv;
    t->peak_gpu_equiv = d->peak_gpu_equiv;
    t->cur_mig_devices = d->cur_mig_devices;
    if (d->mig) place_mig_save_counters(d->mig, t->mig);
    t->keep = d->keep;   /* results of what-if allocations go to the scratch arena */
    d->keep = t->scratch;
}

void dra_trial_end(dra_state *d, dra_trial *t) {
    if (!t->active) return;
    t->active = false;
    t->scratch = d->keep;
    arena_reset(&t->scratch);
    d->keep = t->keep;
    d->records.len = t->records;
    d->pod_first.len = t->pod_first;
    d->results.len = t->results;
    d->rare.len = t->rare;
    d->claims_created = t->claims_created;
    d->claims_deleted = t->claims_deleted;
    d->shared_allocated = t->shared_allocated;
    d->shared_freed = t->shared_freed;
    d->allocate_calls = t->allocate_calls;
    d->steps = t->steps;
    d->cur_gpu_equiv = t->cur_gpu_equiv;   /* equal after the releases, but without rounding drift */
    d->peak_gpu_equiv = t->peak_gpu_equiv;
    d->cur_mig_devices = t->cur_mig_devices;
    if (d->mig) place_mig_restore_counters(d->mig, t->mig);
}

void dra_trial_free(dra_trial *t) {
    arena_free(&t->scratch);
    memset(t, 0, sizeof *t);
}
