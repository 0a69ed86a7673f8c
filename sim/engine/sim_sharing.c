/*
 * sim_sharing.c -- what sharing a GPU means for the run's accounting and
 * warnings (see sim_usage.h): containers' GPUs per pod, multi-GPU requests
 * served by replicas of fewer physical GPUs, GPU-equivalents of units of
 * pools that time-slice on their own terms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_usage.h"
#include "util/intern.h"

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

static const char *label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

static bool is_gpu_units(const char *res) {
    return res == intern("nvidia.com/gpu") || res == intern("nvidia.com/gpu.shared");
}

void sim_sharing_equiv(sim_run *r, const inv_node *info) {
    bool pools = false;
    for (size_t i = 0; i < r->nnodes && !pools; i++) pools = info[i].pool && info[i].pool->dp;
    if (!pools) return;
    size_t R = r->sched.nres;
    for (size_t k = 0; k < R; k++) {
        if (!is_gpu_units(r->sched.res_names[k])) continue;
        for (size_t i = 0; i < r->nnodes; i++) {
            int64_t units = r->sched.alloc[i * R + k];
            if (units <= 0 || info[i].gpus <= 0 || units % info[i].gpus) continue;
            r->res_equiv[k] = 1.0 / (double)(units / info[i].gpus);
            break;
        }
    }
}

/* Per group: pods whose k > 1 GPU units sit on fewer than k physical GPUs. */
static void fewer_gpus(sim_run *r) {
    if (r->dra) return;
    bool shared = false;
    uint8_t *sh = calloc(r->nnodes + 1, 1);
    for (size_t i = 0; i < r->nnodes; i++) {
        const char *reps = label(&r->nodes[i], "nvidia.com/gpu.replicas");
        sh[i] = reps && atoi(reps) > 1;
        shared |= sh[i];
    }
    for (size_t g = 0; shared && g < r->groups.len; g++) {
        const sim_group *x = &r->groups.data[g];
        int64_t n = 0;
        for (size_t i = 0; i < r->pods.len; i++) {
            const sim_pod *p = &r->pods.data[i];
            if (p->start < 0 || p->node < 0 || !sh[p->node]) continue;
            const pod_class *c = &r->sched.classes[p->group];
            if (c->gpu_res < 0 || c->gpu_units <= 1 || !is_gpu_units(r->sched.res_names[c->gpu_res])) continue;
            if (strcmp(c->name, x->name)) continue;
            if (__builtin_popcount(p->gpus) < c->gpu_units) n++;
        }
        if (n) add(r, x->name, "pods_on_fewer_gpus", (double)n);
    }
    free(sh);
}

/* Per group with containers: the GPUs its started pods took, on average. */
static void containers_summary(sim_run *r) {
    for (size_t g = 0; g < r->groups.len; g++) {
        const sim_group *x = &r->groups.data[g];
        bool any = false;
        for (size_t c = 0; c < r->sched.nclasses && !any; c++)
            any = !strcmp(r->sched.classes[c].name, x->name) && sim_class_spec(r, (uint32_t)c)->ncontainers;
        if (!any) continue;
        double sum = 0;
        int64_t n = 0;
        for (size_t i = 0; i < r->pods.len; i++) {
            const sim_pod *p = &r->pods.data[i];
            if (p->start < 0 || strcmp(r->sched.classes[p->group].name, x->name)) continue;
            double eq = sim_pod_gpu_equiv(r, (uint32_t)i);
            if (!isnan(eq)) sum += eq, n++;
        }
        add(r, x->name, "gpus_per_pod", n ? sum / (double)n : NAN);
    }
}

void sim_sharing_summary(sim_run *r) {
    containers_summary(r);
    fewer_gpus(r);
}
