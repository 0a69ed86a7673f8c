/*
 * kai_snapshot.c -- a KAI snapshot (model/kai.h objects) as the state of one
 * scheduling cycle (`drasim admit`): cluster total from the Nodes (and DRA
 * ResourceSlices), one job per PodGroup with its pods, GPU accounting as
 * KAI v0.13.0 counts it:
 *   whole GPUs    nvidia.com/gpu requests
 *   fractions     annotation gpu-fraction (x gpu-fraction-num-devices, default 1)
 *   DRA           pkg/common/resources/dra.go: claims whose request's
 *                 deviceClassName contains "gpu": ExactCount -> count (0 -> 1),
 *                 All -> 1; node GPUs = devices of slices whose driver contains "gpu"
 * A pod is allocated when bound (spec.nodeName) and not Succeeded/Failed;
 * pending otherwise. A kai-scheduler pod without a pod-group-name annotation
 * is its own PodGroup (KAI's pod-grouper), queue from its kai.scheduler/queue label.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kai.h"
#include "queue/kai_snapshot.h"
#include "util/xalloc.h"

static const char *kv_get(const k8s_kv *kv, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(kv[i].key, key)) return kv[i].value;
    return NULL;
}

static bool has_gpu(const char *s) {   /* resources.IsGPUDeviceClass: contains "gpu", any case */
    for (; s && *s; s++)
        if (tolower((unsigned char)s[0]) == 'g' && tolower((unsigned char)s[1]) == 'p' &&
            tolower((unsigned char)s[2]) == 'u')
            return true;
    return false;
}

double kai_claim_gpus(const k8s_claim_spec *c) {   /* countGPUDevicesFromClaim */
    double n = 0;
    for (size_t i = 0; i < c->nrequests; i++) {
        const k8s_device_request *r = &c->requests[i];
        if (!r->has_exactly || !has_gpu(r->exactly.device_class_name)) continue;
        if (r->exactly.mode == ALLOC_MODE_EXACT_COUNT) n += r->exactly.count > 0 ? (double)r->exactly.count : 1;
        else if (r->exactly.mode == ALLOC_MODE_ALL) n += 1;
    }
    return n;
}

void kai_pod_request(const kai_objects *o, const k8s_pod *p, double out[KAI_NRES]) {
    memset(out, 0, sizeof(double) * KAI_NRES);
    for (size_t i = 0; i < p->nrequests; i++) {
        const k8s_resource_amount *a = &p->requests[i];
        if (!strcmp(a->name, "cpu")) out[KAI_CPU] += (double)quantity_milli_value(&a->value);
        else if (!strcmp(a->name, "memory")) out[KAI_MEM] += (double)quantity_value(&a->value);
        else if (!strcmp(a->name, "nvidia.com/gpu")) out[KAI_GPU] += quantity_approx_float(&a->value);
    }
    const char *frac = kv_get(p->meta.annotations, p->meta.nannotations, "gpu-fraction");
    if (frac) {
        const char *nd = kv_get(p->meta.annotations, p->meta.nannotations, "gpu-fraction-num-devices");
        double devices = nd ? atof(nd) : 1;
        out[KAI_GPU] += atof(frac) * (devices > 0 ? devices : 1);
    }
    for (size_t i = 0; o && i < p->nclaims; i++) {
        const k8s_pod_claim_ref *c = &p->claims[i];
        for (size_t k = 0; c->resource_claim_name && k < o->k.claims.len; k++)
            if (!strcmp(o->k.claims.data[k]->meta.name, c->resource_claim_name))
                out[KAI_GPU] += kai_claim_gpus(&o->k.claims.data[k]->spec);
        for (size_t k = 0; c->template_name && k < o->k.templates.len; k++)
            if (!strcmp(o->k.templates.data[k]->meta.name, c->template_name))
                out[KAI_GPU] += kai_claim_gpus(&o->k.templates.data[k]->spec);
    }
}

static void node_total(const kai_objects *o, kai_state *s) {
    double *total = s->total;
    memset(total, 0, sizeof(double) * KAI_NRES);
    s->nnodes = o->k.nodes.len;
    s->nodes = s->nnodes ? xcalloc(s->nnodes, sizeof *s->nodes) : NULL;
    for (size_t i = 0; i < o->k.nodes.len; i++) {
        const k8s_node *n = o->k.nodes.data[i];
        k8s_pod fake = {0};
        fake.requests = n->nallocatable ? n->allocatable : n->capacity;
        fake.nrequests = n->nallocatable ? n->nallocatable : n->ncapacity;
        double v[KAI_NRES];
        kai_pod_request(NULL, &fake, v);
        for (size_t k = 0; k < o->k.slices.len; k++) {   /* populateDRAGPUs */
            const k8s_resource_slice *sl = o->k.slices.data[k];
            if (sl->node_name && !strcmp(sl->node_name, n->meta.name) && has_gpu(sl->driver))
                v[KAI_GPU] += (double)sl->ndevices;
        }
        s->nodes[i].name = n->meta.name;
        for (int r = 0; r < KAI_NRES; r++) {
            total[r] += v[r];
            s->nodes[i].free[r] = v[r];
        }
    }
    for (size_t k = 0; k < o->pods.len; k++) {   /* every bound pod takes room on its node */
        const kai_pod *p = o->pods.data[k];
        if (!p->node_name || (p->phase && (!strcmp(p->phase, "Succeeded") || !strcmp(p->phase, "Failed")))) continue;
        double v[KAI_NRES];
        kai_pod_request(o, &p->pod, v);
        for (size_t i = 0; i < s->nnodes; i++)
            if (!strcmp(s->nodes[i].name, p->node_name))
                for (int r = 0; r < KAI_NRES; r++) s->nodes[i].free[r] -= v[r];
    }
}

static int node_index(const kai_state *s, const char *name) {
    for (size_t i = 0; i < s->nnodes; i++)
        if (!strcmp(s->nodes[i].name, name)) return (int)i;
    return -1;
}

static kai_job *new_job(kai_snapshot *sn, const kai_state *s, const char *name, const char *ns, const char *queue) {
    kai_job *j = xcalloc(1, sizeof *j);
    j->name = name;
    j->ns = ns;
    j->queue_name = queue;
    j->queue = kai_queue_index(s, queue);
    j->seq = sn->njobs;
    sn->jobs = xrealloc(sn->jobs, (sn->njobs + 1) * sizeof *sn->jobs);
    sn->jobs[sn->njobs++] = j;
    return j;
}

static void add_pod(const kai_state *s, kai_job *j, const kai_objects *o, const kai_pod *p) {
    double v[KAI_NRES];
    kai_pod_request(o, &p->pod, v);
    bool done = p->phase && (!strcmp(p->phase, "Succeeded") || !strcmp(p->phase, "Failed"));
    if (done) return;
    if (p->node_name) {
        for (int r = 0; r < KAI_NRES; r++) j->alloc[r] += v[r];
        j->running = true;
        int n = node_index(s, p->node_name);
        if (n >= 0) {
            j->slots = xrealloc(j->slots, (j->nslots + 1) * sizeof *j->slots);
            j->slots[j->nslots].node = n;
            memcpy(j->slots[j->nslots++].v, v, sizeof v);
        }
    } else {
        for (int r = 0; r < KAI_NRES; r++) j->req[r] += v[r];
        j->pod_req = xrealloc(j->pod_req, (j->npods + 1) * sizeof *j->pod_req);
        memcpy(j->pod_req[j->npods++], v, sizeof v);
    }
}

void kai_snapshot_build(kai_snapshot *sn, const kai_objects *o) {
    memset(sn, 0, sizeof *sn);
    kai_state *s = &sn->s;
    kai_state_init(s, o);
    node_total(o, s);
    for (size_t i = 0; i < o->groups.len; i++) {
        const kai_pod_group *g = o->groups.data[i];
        kai_job *j = new_job(sn, s, g->meta.name, g->meta.namespace_, g->queue);
        bool found;
        j->priority = kai_priority_value(o, g->priority_class, &found);
        /* podgroup/preemptible.go CalculatePreemptibility */
        j->preemptible = g->preemptibility == KAI_PREEMPTIBLE ||
                         (g->preemptibility == KAI_PREEMPT_UNSET && j->priority < 100);
        j->created = g->created;
        for (size_t k = 0; k < o->pods.len; k++) {
            const kai_pod *p = o->pods.data[k];
            const char *pg = kv_get(p->pod.meta.annotations, p->pod.meta.nannotations, KAI_POD_GROUP_ANNOTATION);
            if (pg && !strcmp(pg, g->meta.name) && !strcmp(p->pod.meta.namespace_, g->meta.namespace_))
                add_pod(s, j, o, p);
        }
    }
    for (size_t k = 0; k < o->pods.len; k++) {   /* bare KAI pods: a PodGroup each */
        const kai_pod *p = o->pods.data[k];
        if (kv_get(p->pod.meta.annotations, p->pod.meta.nannotations, KAI_POD_GROUP_ANNOTATION)) continue;
        if (!p->pod.scheduler_name || strcmp(p->pod.scheduler_name, KAI_SCHEDULER_NAME) != 0) continue;
        const char *queue = kv_get(p->pod.meta.labels, p->pod.meta.nlabels, KAI_QUEUE_LABEL);
        kai_job *j = new_job(sn, s, p->pod.meta.name, p->pod.meta.namespace_, queue);
        bool found;
        j->priority = kai_priority_value(o, p->priority_class, &found);
        j->preemptible = j->priority < 100;
        j->created = p->created;
        add_pod(s, j, o, p);
    }
    s->jobs = xcalloc(sn->njobs ? sn->njobs : 1, sizeof *s->jobs);
    for (size_t i = 0; i < sn->njobs; i++) s->jobs[i] = sn->jobs[i];
    s->njobs = s->cap_jobs = sn->njobs;
}

void kai_snapshot_free(kai_snapshot *sn) {
    for (size_t i = 0; i < sn->njobs; i++) {
        free(sn->jobs[i]->pod_req);
        free(sn->jobs[i]->slots);
        free(sn->jobs[i]);
    }
    free(sn->s.nodes);
    free(sn->jobs);
    kai_state_free(&sn->s);
    memset(sn, 0, sizeof *sn);
}
