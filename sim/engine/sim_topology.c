/* sim_topology.c -- rack fragmentation measures (see sim_topology.h). */
#include "engine/sim_topology.h"

#include <stdlib.h>
#include <string.h>

#include "engine/sim_gang.h"
#include "model/topology_spec.h"
#include "queue/gate.h"
#include "util/intern.h"
#include "util/xalloc.h"

void sim_topo_init(sim_run *r) {
    static const char *const keys[] = {TOPO_RACK_KEY, TOPO_CLIQUE_KEY};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        size_t i = 0;
        while (i < r->nnodes && !topo_node_label(&r->nodes[i], keys[k])) i++;
        if (i == r->nnodes) continue;
        r->topo = xcalloc(1, sizeof *r->topo);
        topo_domains_build(&r->topo->d, r->nodes, r->nnodes, keys[k]);
        r->topo->seen = xcalloc(r->topo->d.ndomains + 1, 1);
        const topo_domains *d = &r->topo->d;
        r->topo->gpus = xcalloc(d->ndomains + 1, sizeof *r->topo->gpus);
        for (size_t dom = 0; dom < d->ndomains; dom++)
            for (uint32_t j = d->first[dom]; j < d->first[dom + 1]; j++) {
                int ng = r->sched.gv.nodes[d->nodes[j]].ngpu;
                r->topo->gpus[dom] += ng < GS_MAX_GPUS ? ng : GS_MAX_GPUS;
            }
        return;
    }
}

void sim_topo_free(sim_run *r) {
    sim_topo *T = r->topo;
    if (!T) return;
    topo_domains_free(&T->d);
    VEC_FREE(T->samples);
    VEC_FREE(T->spanned);
    VEC_FREE(T->used);
    free(T->gpus);
    free(T->seen);
    free(T);
    r->topo = NULL;
}

typedef struct held_need {
    const sim_run *r;
    int64_t need;
} held_need;

static void held_gang(void *ud, uint32_t cls, int32_t pods) {
    held_need *h = ud;
    if (cls >= h->r->sched.nclasses) return;
    int64_t gpus = (int64_t)pods * h->r->sched.classes[cls].shape.ngpu;
    if (gpus > 0 && (!h->need || gpus < h->need)) h->need = gpus;
}

void sim_topo_take_sample(sim_run *r, sim_time t) {
    sim_topo *T = r->topo;
    const topo_domains *d = &T->d;
    const gpu_view *v = &r->sched.gv;
    /* the smallest waiting gang's GPUs, 0 = none waits: in the scheduler, or
     * held by Kueue or KAI (their gangs wait in the queue for a domain) */
    held_need h = {r, sim_gang_waiting_gpus(r)};
    if (r->gate && r->gate->held_gangs) r->gate->held_gangs(r->gate->ctx, held_gang, &h);
    int64_t need = h.need;
    sim_topo_sample s = {.t = t};
    for (size_t k = 0; k < d->ndomains; k++) {
        int64_t free_gpus = 0;
        bool busy = false;
        for (uint32_t j = d->first[k]; j < d->first[k + 1]; j++) {
            uint32_t i = d->nodes[j];
            const gs_node *n = &v->nodes[i];
            if (r->sched.used[i * r->sched.nres + RES_PODS] > 0) busy = true;
            for (int g = 0; g < n->ngpu && g < GS_MAX_GPUS; g++) free_gpus += n->free[g] >= GS_MILLI;
        }
        int64_t in_use = T->gpus[k] - free_gpus;
        VEC_PUSH(T->used, (uint16_t)(in_use > 65535 ? 65535 : in_use < 0 ? 0 : in_use));
        if (!busy) s.whole_free++;
        else if (!free_gpus) s.full++;
        else {
            s.broken++;
            s.free_gpus_broken += free_gpus;
            if (need > 0 && free_gpus < need) s.stranded_gpus += free_gpus;
        }
    }
    VEC_PUSH(T->samples, s);
}

void sim_topo_gang_started(sim_run *r, const uint32_t *pods, size_t n) {
    sim_topo *T = r->topo;
    int32_t spans = 0;
    memset(T->seen, 0, T->d.ndomains + 1);
    for (size_t i = 0; i < n; i++) {
        int32_t node = r->pods.data[pods[i]].node;
        if (node < 0) continue;
        int32_t dom = T->d.of_node[node];
        size_t slot = dom < 0 ? T->d.ndomains : (size_t)dom;   /* unlabelled nodes count as one more domain */
        if (!T->seen[slot]) { T->seen[slot] = 1; spans++; }
    }
    VEC_PUSH(T->spanned, spans);
}

static void metric(sim_run *r, const char *name, double v) {
    sim_metric m = {intern(name), v, NULL};
    VEC_PUSH(r->summary, m);
}

void sim_topo_summary(sim_run *r) {
    sim_topo *T = r->topo;
    if (!T) return;
    metric(r, "topo_domains", (double)T->d.ndomains);
    size_t n = T->samples.len;
    if (n) {
        double whole = 0, broken = 0, strand_h = 0;
        int32_t whole_min = T->samples.data[0].whole_free;
        for (size_t i = 0; i < n; i++) {
            const sim_topo_sample *s = &T->samples.data[i];
            whole += s->whole_free;
            broken += (double)s->free_gpus_broken;
            if (s->whole_free < whole_min) whole_min = s->whole_free;
            if (i + 1 < n) strand_h += (double)s->stranded_gpus * (double)(T->samples.data[i + 1].t - s->t) / 3600000.0;
        }
        metric(r, "topo_whole_free_domains_mean", whole / (double)n);
        metric(r, "topo_whole_free_domains_min", whole_min);
        metric(r, "topo_free_gpus_broken_mean", broken / (double)n);
        metric(r, "topo_stranded_gpu_hours", strand_h);
    }
    if (T->spanned.len) {
        double sum = 0;
        int32_t most = 0;
        for (size_t i = 0; i < T->spanned.len; i++) {
            sum += T->spanned.data[i];
            if (T->spanned.data[i] > most) most = T->spanned.data[i];
        }
        metric(r, "gang_domains_spanned_mean", sum / (double)T->spanned.len);
        metric(r, "gang_domains_spanned_max", most);
    }
}
