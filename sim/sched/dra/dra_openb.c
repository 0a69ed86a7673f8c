/* dra_openb.c -- OpenB trace workloads in DRA mode (see dra_openb.h). */
#include "sched/dra/dra_openb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "util/xalloc.h"
#include "model/openb_trace.h"

#define DRIVER "gpu.nvidia.com"

struct dra_openb {
    arena a;                        /* slices, classes, claims */
    arena results;                  /* allocations of live pods (grows; freed at the end) */
    allocator *A;
    const k8s_node *nodes;
    k8s_resource_slice **slices;
    size_t nslices;
    k8s_device_class *cls;
    k8s_resource_claim *claims;     /* per shape; spec.nrequests 0 for CPU-only shapes */
    VEC(k8s_allocation) live;       /* per pod id; nresults 0 = none */
    strbuf err;
    uint64_t calls;
};

static void slice_for(dra_openb *d, const openb_node *o, k8s_resource_slice *s) {
    s->driver = intern(DRIVER);
    s->pool = intern(o->name);
    s->node_name = intern(o->name);
    s->generation = 1;
    s->slice_count = 1;
    char name[300];
    snprintf(name, sizeof name, "%s-gpu.nvidia.com", o->name);
    s->meta.name = intern(name);
    s->devices = ARENA_NEW(&d->a, k8s_device, o->gpus);
    s->ndevices = (size_t)o->gpus;
    /* attributes and capacity are equal for every GPU of the node: one copy */
    k8s_attribute *attrs = ARENA_NEW(&d->a, k8s_attribute, 2);
    attrs[0] = (k8s_attribute){.domain = intern(DRIVER), .id = intern("type"), .kind = ATTR_STRING, .s = intern("gpu")};
    attrs[1] = (k8s_attribute){.domain = intern(DRIVER), .id = intern("productName"), .kind = ATTR_STRING,
                               .s = intern(o->model)};
    k8s_capacity *cap = ARENA_NEW(&d->a, k8s_capacity, 1);
    cap->domain = intern(DRIVER);
    cap->id = intern("milli");
    cap->qname = intern("milli");
    cap->value = quantity_from_int64(GS_MILLI, QF_DECIMAL_SI);
    for (int g = 0; g < o->gpus; g++) {
        k8s_device *dev = &s->devices[g];
        snprintf(name, sizeof name, "gpu-%d", g);
        dev->name = intern(name);
        dev->attrs = attrs;
        dev->nattrs = 2;
        dev->caps = cap;
        dev->ncaps = 1;
        dev->has_allow_multiple = true;
        dev->allow_multiple = true;
    }
}

/* The claim of a pod shape (see dra_openb.h). */
static void claim_for(dra_openb *d, size_t k, const gs_pod *p, const char *const *models, int nmodels) {
    k8s_resource_claim *c = &d->claims[k];
    char name[64];
    snprintf(name, sizeof name, "shape-%zu", k);
    c->meta.name = intern(name);
    if (p->ngpu <= 0 || p->milli <= 0) return;
    k8s_device_request *q = ARENA_NEW(&d->a, k8s_device_request, 1);
    c->spec.requests = q;
    c->spec.nrequests = 1;
    q->name = intern("gpu");
    q->has_exactly = true;
    k8s_device_request_spec *r = &q->exactly;
    r->name = q->name;
    r->device_class_name = intern(DRIVER);
    r->mode = ALLOC_MODE_EXACT_COUNT;
    r->mode_text = intern("ExactCount");
    r->count = p->ngpu;
    if (gs_is_share(p)) {
        r->capacity = ARENA_NEW(&d->a, k8s_capacity_request, 1);
        r->ncapacity = 1;
        r->capacity[0] = (k8s_capacity_request){intern(DRIVER), intern("milli"), intern("milli"),
                                                quantity_from_int64(p->milli, QF_DECIMAL_SI)};
    }
    uint64_t all = nmodels >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << nmodels) - 1);
    if ((p->models & all) == all) return;   /* no model constraint */
    strbuf cel = {0};
    sb_puts(&cel, "device.attributes['" DRIVER "'].productName in [");
    bool first = true;
    for (int m = 0; m < nmodels; m++)
        if (p->models >> m & 1) {
            sb_printf(&cel, "%s'%s'", first ? "" : ", ", models[m]);
            first = false;
        }
    sb_putc(&cel, ']');
    r->selectors = ARENA_NEW(&d->a, const char *, 1);
    r->selectors[0] = intern(sb_str(&cel));
    r->nselectors = 1;
    sb_free(&cel);
}

dra_openb *dra_openb_new(const trace_spec *t, const k8s_node *nodes, const gs_pod *shapes, size_t nshapes,
                         const char *const *models, int nmodels, uint64_t seed) {
    dra_openb *d = xcalloc(1, sizeof *d);
    d->nodes = nodes;
    d->slices = xcalloc(t->nnodes ? t->nnodes : 1, sizeof *d->slices);
    for (size_t i = 0; i < t->nnodes; i++) {
        if (t->nodes[i].gpus <= 0) continue;
        k8s_resource_slice *s = ARENA_NEW(&d->a, k8s_resource_slice, 1);
        slice_for(d, &t->nodes[i], s);
        d->slices[d->nslices++] = s;
    }
    d->cls = ARENA_NEW(&d->a, k8s_device_class, 1);
    d->cls->meta.name = intern(DRIVER);
    d->cls->selectors = ARENA_NEW(&d->a, const char *, 1);
    d->cls->selectors[0] = intern("device.driver == '" DRIVER "'");
    d->cls->nselectors = 1;
    d->claims = ARENA_NEW(&d->a, k8s_resource_claim, nshapes ? nshapes : 1);
    for (size_t k = 0; k < nshapes; k++) claim_for(d, k, &shapes[k], models, nmodels);
    alloc_features f;
    alloc_features_for_version("1.36", &f, &d->err);
    f.binding_conditions = false;
    d->A = allocator_new(&f, d->slices, d->nslices, &d->cls, 1, NULL, seed);
    return d;
}

void dra_openb_free(dra_openb *d) {
    if (!d) return;
    allocator_free(d->A);
    free(d->slices);
    VEC_FREE(d->live);
    arena_free(&d->a);
    arena_free(&d->results);
    sb_free(&d->err);
    free(d);
}

/* The device filter of a preferred GPU set: devices gpu-N of pool `pool`
 * with bit N set in `mask`. */
typedef struct gpu_pick {
    const char *pool;
    uint32_t mask;
} gpu_pick;

static bool pick_filter(void *ctx, const alloc_device_id *id) {
    const gpu_pick *g = ctx;
    if (id->pool != g->pool || strncmp(id->device, "gpu-", 4)) return false;
    int n = atoi(id->device + 4);
    return n >= 0 && n < 32 && (g->mask >> n & 1);
}

bool dra_openb_allocate(dra_openb *d, uint32_t pod, size_t k, size_t node, uint32_t prefer, uint32_t *gpus) {
    k8s_resource_claim *c = &d->claims[k];
    *gpus = 0;
    if (!c->spec.nrequests) return true;
    k8s_allocation al;
    uint64_t steps;
    alloc_status st = ALLOC_UNSATISFIABLE;
    if (prefer) {
        gpu_pick g = {intern(d->nodes[node].meta.name), prefer};
        allocator_set_device_filter(d->A, pick_filter, &g);
        sb_clear(&d->err);
        d->calls++;
        st = allocator_allocate(d->A, &d->nodes[node], &c, 1, &d->results, &al, &steps, &d->err);
        allocator_set_device_filter(d->A, NULL, NULL);
    }
    if (st != ALLOC_OK) {
        sb_clear(&d->err);
        d->calls++;
        st = allocator_allocate(d->A, &d->nodes[node], &c, 1, &d->results, &al, &steps, &d->err);
    }
    if (st != ALLOC_OK) return false;
    allocator_commit(d->A, &al);
    for (size_t i = 0; i < al.nresults; i++) *gpus |= 1u << atoi(al.results[i].device + 4);   /* "gpu-N" */
    while (d->live.len <= pod) VEC_PUSH(d->live, (k8s_allocation){0});
    d->live.data[pod] = al;
    return true;
}

void dra_openb_release(dra_openb *d, uint32_t pod) {
    if (pod >= d->live.len || !d->live.data[pod].nresults) return;
    allocator_release(d->A, &d->live.data[pod]);
    d->live.data[pod].nresults = 0;
}

uint64_t dra_openb_calls(const dra_openb *d) { return d->calls; }
