/*
 * sim_capacity.c -- where idle GPU capacity goes (issue 12 item 4;
 * docs/SCHEMA.md, samples and alloc_groups), and the GPUs of each node as
 * gpu_total counts them.
 *
 * One GPU-equivalent: a whole GPU is 1; a MIG device of profile <N>g is
 * N/7 GPU exactly (sim_gpu_equiv); a time-slicing replica 1/replicas; a
 * static-MIG GPU is 1 physical GPU in gpu_total whatever its layout, so
 * compute slices its layout leaves uncut are idle capacity (static-MIG
 * layout), not missing GPUs.
 *
 * The breakdown of idle = gpu_total - GPUs allocated, per node, in this order
 * (a node's idle capacity goes to the first cause that applies):
 *  1. unavailable: the idle capacity of GPUs out of use (failed, on a node
 *     that is down or cordoned: sim_run.gpus_out, kept by the faults), in
 *     both modes; a node whose GPUs are all out is unavailable as a whole;
 *  2. stranded: the node's idle capacity when no typical GPU pod has CPU,
 *     memory and a pod slot left there (gpu_view strand, gpu_metrics.h);
 *  3. static-MIG layout (device-plugin MIG resources): free instances of MIG
 *     profiles no pod class requests (N/7 each) plus the compute slices of
 *     the node's GPUs no instance covers (7 per GPU - sum of N per instance);
 *  4. fragmented: on other nodes without MIG resources, the FGD measure F_n
 *     (frag.h), at most the node's idle capacity;
 *  5. usable: the rest, idle - (1 + 2 + 3 + 4), so the parts sum to idle
 *     exactly (it absorbs the view's milli rounding, < 1/1000 GPU per unit).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "sched/dra/dra.h"

static bool is_mig(const char *res, int *slices) {
    if (strncmp(res, "nvidia.com/mig-", 15)) return false;
    *slices = atoi(res + 15);
    return *slices > 0 && *slices <= 7;
}

double sim_node_gpus(const sim_run *r, size_t i) {
    const scheduler *s = &r->sched;
    if (r->dra) return s->gv.nodes[i].ngpu;
    size_t R = s->nres;
    double eq = 0;
    bool mig = false;
    int g;
    for (size_t k = RES_PODS + 1; k < R; k++) {
        eq += (double)s->alloc[i * R + k] * r->res_equiv[k];
        if (s->alloc[i * R + k] > 0 && is_mig(s->res_names[k], &g)) mig = true;
    }
    return mig && s->gv.nodes[i].ngpu > 0 ? (double)s->gv.nodes[i].ngpu : eq;
}

double sim_mig_uncut_gpus(const sim_run *r) {
    const scheduler *s = &r->sched;
    double extra = 0;
    for (size_t i = 0; i < s->nnodes; i++) {
        double eq = 0;
        for (size_t k = RES_PODS + 1; k < s->nres; k++) eq += (double)s->alloc[i * s->nres + k] * r->res_equiv[k];
        extra += sim_node_gpus(r, i) - eq;
    }
    return extra;
}

double sim_pod_gpu_equiv(const sim_run *r, uint32_t id) {
    const sim_pod *p = &r->pods.data[id];
    if (r->dra) {
        if (p->start < 0) return NAN;
        size_t n;
        const dra_record *rec = dra_pod_records(r->dra, id, &n);
        double eq = 0;
        for (size_t i = 0; i < n; i++) eq += rec[i].gpu_equiv;
        return eq;
    }
    const pod_class *c = &r->sched.classes[p->group];
    double eq = 0;
    for (size_t i = 0; i < c->ndemand; i++) eq += (double)c->demand[i].amount * r->res_equiv[c->demand[i].res];
    return eq;
}

/* gs_free_total, inlined for the per-node loop of a sample (a whole node of
 * 8 GPUs summed without a loop). */
static inline int64_t free_milli(const gs_node *n) {
    const int16_t *f = n->free;
    if (n->ngpu == GS_MAX_GPUS)
        return (int64_t)f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
    int64_t t = 0;
    for (int g = 0; g < n->ngpu; g++) t += f[g];
    return t;
}

void sim_capacity_breakdown(const sim_run *r, gpu_metrics *m) {
    const scheduler *s = &r->sched;
    const gpu_view *v = &s->gv;
    size_t R = s->nres;
    bool asked[SCHED_MAX_RESOURCES] = {0};
    for (size_t ci = 0; ci < s->nclasses; ci++)
        for (size_t d = 0; d < s->classes[ci].ndemand; d++) asked[s->classes[ci].demand[d].res] = true;
    /* MIG slices per resource (0: not MIG), named once per sample rather than per node (issue 31) */
    int slices_of[SCHED_MAX_RESOURCES] = {0};
    bool any_mig = false;
    for (size_t k = RES_PODS + 1; k < R && !r->dra; k++) {
        int g;
        if (is_mig(s->res_names[k], &g)) slices_of[k] = g, any_mig = true;
    }
    double layout = 0, frag = 0, unavail = 0, strand_out = 0;
    for (size_t i = 0; i < s->nnodes; i++) {
        if (!any_mig && !(r->gpus_out && r->gpus_out[i])) {
            /* the common node (issue 31: 12,500 nodes a sample): nothing out of use, no MIG; a stranded
             * node adds 0 to strand_out, so only the fragmented part is left (same sums, same order) */
            if (!v->typical || v->strand[i] > 0) continue;
            double idle = (double)free_milli(&v->nodes[i]);
            frag += (v->frag[i] < idle ? v->frag[i] : idle) / GS_MILLI;
            continue;
        }
        double out = 0;   /* idle GPU capacity on the node's GPUs out of use */
        bool all_out = false;
        if (r->gpus_out && r->gpus_out[i]) {
            const gs_node *gn = &v->nodes[i];
            for (int g = 0; g < gn->ngpu && g < 8; g++)
                if (r->gpus_out[i] >> g & 1) out += (double)gn->free[g] / GS_MILLI;
            all_out = gn->ngpu > 0 && r->gpus_out[i] == (uint8_t)((1u << (gn->ngpu < 8 ? gn->ngpu : 8)) - 1);
            unavail += out;
        }
        if (v->typical && v->strand[i] > 0) {   /* stranded: all its idle capacity but the unavailable part */
            double st = (double)v->strand[i] / GS_MILLI;
            strand_out += out < st ? out : st;
            continue;
        }
        if (all_out) continue;   /* a failed or cordoned node: all of it is unavailable */
        const int64_t *al = &s->alloc[i * R], *us = &s->used[i * R];
        int64_t cut = 0;
        bool mig = false;
        for (size_t k = RES_PODS + 1; k < R && any_mig; k++) {
            int g = slices_of[k];
            if (al[k] <= 0 || !g) continue;
            mig = true;
            cut += al[k] * g;
            if (!asked[k]) layout += (double)(al[k] - us[k]) * r->res_equiv[k];
        }
        if (mig) {
            int64_t slices = 7 * (int64_t)v->nodes[i].ngpu * v->replicas;   /* time-sliced MIG: R units per instance */
            if (slices > cut) layout += (double)(slices - cut) / 7.0 / v->replicas;
            continue;
        }
        if (v->typical) {
            double idle = (double)gs_free_total(&v->nodes[i]) - out * GS_MILLI;
            frag += (v->frag[i] < idle ? v->frag[i] : idle) / GS_MILLI;
        }
    }
    double total = r->total_gpu_equiv, used = r->dra ? r->dra->cur_gpu_equiv : r->cur_gpu_equiv;
    m->idle_total = total - used;
    m->idle_unavailable = unavail;
    m->stranded_gpus -= strand_out;
    m->idle_mig_layout = layout;
    m->idle_fragmented = frag;
    m->idle_usable = m->idle_total - m->idle_unavailable - m->stranded_gpus - layout - frag;
}
