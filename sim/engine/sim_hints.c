/*
 * sim_hints.c -- scoring hints (issue 26 item 5): a group whose multi-GPU
 * pods never started while the fleet had the GPUs idle, but no node had a
 * large enough free block, starves because kube-scheduler's default scoring
 * (NodeResourcesFit LeastAllocated) spreads the smaller pods over every
 * node. The run says so (sim_run.warnings: table run_warnings, printed by
 * `drasim run`) and names the remedies.
 *
 * The test, per group with pods pending at the end whose pods ask for k >= 2
 * whole GPUs on one node: from the first arrival of a pod that never started,
 * at least half of the samples had idle GPUs >= k (gpu_metrics idle_total)
 * and no node with b free GPUs, b the largest of 2, 4, 8 not above k
 * (nodes_fit; no node with b free means none with k). Only when the
 * scheduler spreads: LeastAllocated and no placement policy.
 */
#include <stdio.h>
#include <string.h>

#include "engine/sim.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void add_warning(sim_run *r, const char *group, const char *kind, const char *msg) {
    sim_warning w = {group, kind, xstrdup(msg)};
    VEC_PUSH(r->warnings, w);
}

/* Earliest arrival of a pod of group `name` that never started (-1: none). */
static sim_time first_starved(const sim_run *r, const char *name) {
    sim_time first = -1;
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->start >= 0 || p->state != POD_PENDING || strcmp(r->sched.classes[p->group].name, name)) continue;
        if (first < 0 || p->arrival < first) first = p->arrival;
    }
    return first;
}

void sim_scoring_hints(sim_run *r) {
    const scenario *sc = r->sc;
    if (sc->sched.policy || sc->trace || sc->sched.strategy != SCORE_LEAST_ALLOCATED) return;
    size_t n = r->sample_gpu.len < r->samples.len ? r->sample_gpu.len : r->samples.len;
    for (size_t g = 0; g < r->groups.len && n; g++) {
        const sim_group *x = &r->groups.data[g];
        if (x->pending <= 0) continue;
        const pod_class *c = &r->sched.classes[x->first_class];
        int k = c->shape.ngpu;
        if (k < 2 || c->shape.milli < 1000) continue;
        int fi = k >= 8 ? 3 : k >= 4 ? 2 : 1;   /* nodes_fit index of 2, 4, 8 */
        sim_time from = first_starved(r, x->name);
        if (from < 0) continue;
        size_t seen = 0, starved = 0;
        for (size_t i = 0; i < n; i++) {
            if (r->samples.data[i].t < from) continue;
            const gpu_metrics *m = &r->sample_gpu.data[i];
            seen++;
            if (m->idle_total >= (double)k - 1e-9 && m->nodes_fit[fi] == 0) starved++;
        }
        if (!seen || 2 * starved < seen) continue;
        strbuf b = {0};
        sb_printf(&b, "group %s: %lld of %lld pods never started, though in %zu of %zu samples since the first of them "
                  "arrived the fleet had %d GPUs idle but no node had %d free: LeastAllocated (kube-scheduler's "
                  "default) spreads smaller pods over every node. Remedies: ", x->name, (long long)x->pending,
                  (long long)x->arrived, starved, seen, k, gpu_metrics_fit_size(fi));
        if (r->dra)
            sb_puts(&b, "a placement policy that packs GPUs (scheduling.policy: bestfit, gpu-packing or fgd; DRA "
                        "mode does not score GPUs, KEP-4970), scoring MostAllocated (packs by cpu and memory only), "
                        "or a separate node pool for this group (nodeSelector)");
        else
            sb_puts(&b, "scoring MostAllocated weighted on GPUs ({type: MostAllocated, resources: [{name: "
                        "nvidia.com/gpu, weight: 5}, ...]}), a placement policy (scheduling.policy: bestfit, "
                        "gpu-packing or fgd), or a separate node pool for this group (nodeSelector)");
        add_warning(r, x->name, "scoring-spreads", sb_str(&b));
        sb_free(&b);
    }
}
