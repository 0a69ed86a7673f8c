/* place_mig.c -- fragmentation-aware dynamic-MIG placement in DRA mode (see place_mig.h). */
#include "sched/policies/place_mig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/policies/frag_mig.h"
#include "util/xalloc.h"

#define MAX_MODELS 8

typedef struct pm_node {
    const char *name;            /* = its pool name */
    const gpu_model *m;
    const frag_mig_typical *t;
    int ngpu;
    frag_mig_gpu *gpu;
    double *f;                   /* F per GPU */
} pm_node;

/* The device filter's context: on pool `pool`, MIG devices in excl[] are
 * rejected, or (only != NULL) every MIG device but `only`. */
typedef struct pm_filter {
    const char *pool;
    const char **excl;
    size_t nexcl;
    const char *only;
} pm_filter;

struct place_mig {
    bool choose;
    pm_node *nodes;              /* sorted by name */
    size_t n;
    const gpu_model *models[MAX_MODELS];
    frag_mig_typical typ[MAX_MODELS];
    int nmodels;
    double F, area;              /* sum of F; its time integral (slice-ms) */
    int64_t last;
    size_t nslices;              /* memory slices of all tracked GPUs */
    uint64_t decisions, candidates;
    bool chose;                  /* the last place_mig_allocate picked the MIG device */
    arena scratch;
};

static int cmp_node(const void *a, const void *b) {
    return strcmp(((const pm_node *)a)->name, ((const pm_node *)b)->name);
}

static pm_node *find_node(const place_mig *p, const char *name) {
    pm_node key = {.name = name};
    return bsearch(&key, p->nodes, p->n, sizeof *p->nodes, cmp_node);
}

static frag_mig_profile profile_of(const mig_profile *mp) {
    frag_mig_profile f = {.size = mp->size, .compute = mp->compute_slices};
    for (int i = 0; i < mp->nstarts; i++)
        if (mp->starts[i] >= 0 && mp->starts[i] < FRAG_MIG_SLICES) f.starts |= (uint8_t)(1u << mp->starts[i]);
    return f;
}

/* Typical profiles of model m: requests whose selectors quote one of its profile names. */
static void add_typical_spec(frag_mig_typical *t, const gpu_model *m, const k8s_claim_spec *s, double weight) {
    for (size_t r = 0; r < s->nrequests; r++) {
        const k8s_device_request *q = &s->requests[r];
        const k8s_device_request_spec *sp = q->has_exactly ? &q->exactly
                                            : q->nfirst_available ? &q->first_available[0] : NULL;
        if (!sp) continue;
        for (int k = 0; k < m->nprofiles; k++) {
            char quoted[96];
            snprintf(quoted, sizeof quoted, "'%s'", m->profiles[k].name);
            bool hit = false;
            for (size_t i = 0; i < sp->nselectors && !hit; i++) hit = strstr(sp->selectors[i], quoted) != NULL;
            if (!hit) continue;
            frag_mig_profile f = profile_of(&m->profiles[k]);
            double cnt = sp->count > 0 ? (double)sp->count : 1;
            frag_mig_add(t, f.size, f.compute, f.starts, weight * cnt);
            break;
        }
    }
}

/* The MIG requests of pod group gs, weighted by w. */
static void add_typical_group(frag_mig_typical *t, const gpu_model *m, const scenario *sc, const pod_group_spec *gs,
                              double w) {
        for (size_t c = 0; c < gs->ndra_claims; c++) {
            const dra_pod_claim *pc = &gs->dra_claims[c];
            if (!pc->shared) {
                add_typical_spec(t, m, &pc->spec, w);
                continue;
            }
            for (size_t k = 0; k < sc->nshared_claims; k++)
                if (sc->shared_claims[k].name == pc->shared) add_typical_spec(t, m, &sc->shared_claims[k].spec, 1);
        }
}

static void build_typical(const scenario *sc, const gpu_model *m, frag_mig_typical *t) {
    memset(t, 0, sizeof *t);
    t->compute_total = m->compute_slices_total > 0 ? m->compute_slices_total : 7;
    for (size_t g = 0; g < sc->ngroups; g++)
        add_typical_group(t, m, sc, &sc->groups[g], sc->groups[g].count > 0 ? (double)sc->groups[g].count : 1);
    frag_mig_normalise(t);
}

place_mig *place_mig_new(const scenario *sc, const inventory *inv) {
    size_t n = 0;
    for (size_t i = 0; i < inv->nnodes; i++)
        if (inv->info && inv->info[i].gpu && inv->info[i].pool && inv->info[i].pool->mig == MIG_DYNAMIC) n++;
    if (!n) return NULL;
    place_mig *p = xcalloc(1, sizeof *p);
    p->choose = sc->sched.policy && !strcmp(sc->sched.policy, "fgd");
    p->nodes = xcalloc(n, sizeof *p->nodes);
    for (size_t i = 0; i < inv->nnodes; i++) {
        const inv_node *in = &inv->info[i];
        if (!(in->gpu && in->pool && in->pool->mig == MIG_DYNAMIC)) continue;
        int mi = 0;
        while (mi < p->nmodels && p->models[mi] != in->gpu) mi++;
        if (mi == p->nmodels) {
            if (p->nmodels == MAX_MODELS) continue;   /* more dynamic-MIG models than tracked: not measured */
            p->models[p->nmodels] = in->gpu;
            build_typical(sc, in->gpu, &p->typ[p->nmodels]);
            p->nmodels++;
        }
        pm_node *x = &p->nodes[p->n++];
        x->name = inv->nodes[i].meta.name;
        x->m = in->gpu;
        x->t = &p->typ[mi];
        x->ngpu = in->gpus;
        x->gpu = xcalloc(in->gpus ? (size_t)in->gpus : 1, sizeof *x->gpu);
        x->f = xcalloc(in->gpus ? (size_t)in->gpus : 1, sizeof *x->f);
        for (int g = 0; g < in->gpus; g++) {
            x->f[g] = frag_mig_gpu_frag(&x->gpu[g], x->t);
            p->F += x->f[g];
        }
        p->nslices += (size_t)in->gpus * FRAG_MIG_SLICES;
    }
    qsort(p->nodes, p->n, sizeof *p->nodes, cmp_node);
    return p;
}

void place_mig_set_typical(place_mig *p, const scenario *sc, const pod_group_spec *const *late, const int64_t *weight,
                           size_t nlate, int64_t now) {
    if (now > p->last) {   /* F changes now: its integral so far first */
        p->area += p->F * (double)(now - p->last);
        p->last = now;
    }
    for (int mi = 0; mi < p->nmodels; mi++) {
        frag_mig_typical *t = &p->typ[mi];
        memset(t, 0, sizeof *t);
        t->compute_total = p->models[mi]->compute_slices_total > 0 ? p->models[mi]->compute_slices_total : 7;
        for (size_t g = 0; g < sc->ngroups; g++)
            add_typical_group(t, p->models[mi], sc, &sc->groups[g], sc->groups[g].count > 0 ? (double)sc->groups[g].count : 1);
        for (size_t k = 0; k < nlate; k++)
            add_typical_group(t, p->models[mi], sc, late[k], weight[k] > 0 ? (double)weight[k] : 1);
        frag_mig_normalise(t);
    }
    p->F = 0;
    for (size_t i = 0; i < p->n; i++)
        for (int g = 0; g < p->nodes[i].ngpu; g++) {
            p->nodes[i].f[g] = frag_mig_gpu_frag(&p->nodes[i].gpu[g], p->nodes[i].t);
            p->F += p->nodes[i].f[g];
        }
}

void place_mig_free(place_mig *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->nodes[i].gpu);
        free(p->nodes[i].f);
    }
    free(p->nodes);
    arena_free(&p->scratch);
    free(p);
}

static bool is_mig(const char *dev) { return strstr(dev, "-mig-") != NULL; }

/* Device `dev` of node x as (GPU, profile, start); the full GPU "gpu-N" is
 * profile NULL. False when the name is not one of the driver's. */
static bool parse_device(const pm_node *x, const char *dev, int *gpu, const mig_profile **prof, int *start) {
    if (strncmp(dev, "gpu-", 4)) return false;
    char *end;
    long g = strtol(dev + 4, &end, 10);
    if (end == dev + 4 || g < 0 || g >= x->ngpu) return false;
    *gpu = (int)g;
    *prof = NULL;
    *start = 0;
    if (!*end) return true;
    if (strncmp(end, "-mig-", 5)) return false;
    const char *last = strrchr(dev, '-');
    if (!last || last == dev) return false;
    const char *prev = last - 1;
    while (prev > dev && *prev != '-') prev--;
    int id = atoi(prev + 1);
    *start = atoi(last + 1);
    for (int k = 0; k < x->m->nprofiles; k++)
        if (x->m->profiles[k].id == id) {
            *prof = &x->m->profiles[k];
            return *start >= 0 && *start < FRAG_MIG_SLICES;
        }
    return false;
}

/* The GPU state after device dev is added (sign +1) or removed (-1). */
static frag_mig_gpu apply(const pm_node *x, const frag_mig_gpu *g, const mig_profile *prof, int start, int sign) {
    frag_mig_gpu r = *g;
    uint8_t span = prof ? frag_mig_span(start, prof->size) : 0xff;
    int compute = prof ? prof->compute_slices : x->t->compute_total;
    if (sign > 0) r.occ |= span;
    else r.occ &= (uint8_t)~span;
    r.compute += sign * compute;
    return r;
}

static bool pm_filter_fn(void *ctx, const alloc_device_id *id) {
    const pm_filter *f = ctx;
    if (id->pool != f->pool && strcmp(id->pool, f->pool)) return true;
    if (!is_mig(id->device)) return true;
    if (f->only) return id->device == f->only || !strcmp(id->device, f->only);
    for (size_t i = 0; i < f->nexcl; i++)
        if (id->device == f->excl[i] || !strcmp(id->device, f->excl[i])) return false;
    return true;
}

/* The node's one MIG device in out[0..n), or NULL (none or several). */
static const char *single_mig(const char *pool, const k8s_allocation *out, size_t n) {
    const char *dev = NULL;
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < out[c].nresults; i++) {
            const k8s_device_result *r = &out[c].results[i];
            if (strcmp(r->pool, pool) || !is_mig(r->device)) continue;
            if (dev) return NULL;
            dev = r->device;
        }
    return dev;
}

alloc_status place_mig_allocate(place_mig *p, allocator *A, const k8s_node *node, size_t node_idx,
                                k8s_resource_claim *const *claims, size_t n, arena *into, k8s_allocation *out,
                                uint64_t *steps, strbuf *err, int *score) {
    (void)node_idx;
    uint64_t st_steps = 0, s1;
    *score = -1;
    p->chose = false;
    pm_node *x = p->choose ? find_node(p, node->meta.name) : NULL;
    if (!x) {
        alloc_status st = allocator_allocate(A, node, claims, n, into, out, &s1, err);
        if (steps) *steps = s1;
        return st;
    }
    const char *excl[PLACE_MIG_MAX_CANDIDATES];
    double delta[PLACE_MIG_MAX_CANDIDATES];
    size_t ncand = 0;
    pm_filter f = {.pool = x->name, .excl = excl};
    arena_free(&p->scratch);
    allocator_set_device_filter(A, pm_filter_fn, &f);
    alloc_status first = ALLOC_OK;
    bool applies = true;
    while (ncand < PLACE_MIG_MAX_CANDIDATES) {
        f.nexcl = ncand;
        alloc_status st = allocator_allocate(A, node, claims, n, &p->scratch, out, &s1, err);
        st_steps += s1;
        if (ncand == 0) first = st;
        if (st != ALLOC_OK) break;
        const char *dev = single_mig(x->name, out, n);
        int g, start;
        const mig_profile *prof;
        if (!dev || !parse_device(x, dev, &g, &prof, &start) || !prof) {
            applies = ncand > 0;   /* the first fit takes no single MIG device here: upstream's answer */
            break;
        }
        frag_mig_gpu after = apply(x, &x->gpu[g], prof, start, +1);
        delta[ncand] = frag_mig_gpu_frag(&after, x->t) - x->f[g];
        excl[ncand++] = dev;
    }
    alloc_status st;
    if (first != ALLOC_OK || !applies || ncand == 0) {
        allocator_set_device_filter(A, NULL, NULL);
        st = allocator_allocate(A, node, claims, n, into, out, &s1, err);
    } else {
        size_t best = 0;
        for (size_t i = 1; i < ncand; i++)
            if (delta[i] < delta[best] - 1e-9) best = i;
        f.only = excl[best];
        st = allocator_allocate(A, node, claims, n, into, out, &s1, err);
        allocator_set_device_filter(A, NULL, NULL);
        if (st != ALLOC_OK) st = allocator_allocate(A, node, claims, n, into, out, &s1, err);   /* cannot happen */
        else *score = (int)lround(100.0 / (1.0 + exp(delta[best])));
        p->chose = st == ALLOC_OK;
        p->candidates += ncand;
    }
    st_steps += s1;
    if (steps) *steps = st_steps;
    return st;
}

static void update(place_mig *p, const k8s_allocation *al, int64_t now, int sign) {
    if (now > p->last) {
        p->area += p->F * (double)(now - p->last);
        p->last = now;
    }
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        pm_node *x = find_node(p, r->pool);
        int g, start;
        const mig_profile *prof;
        if (!x || !parse_device(x, r->device, &g, &prof, &start)) continue;
        x->gpu[g] = apply(x, &x->gpu[g], prof, start, sign);
        double f = frag_mig_gpu_frag(&x->gpu[g], x->t);
        p->F += f - x->f[g];
        x->f[g] = f;
    }
}

/* Reserve commits what the last place_mig_allocate (on the chosen node)
 * returned: a placement the policy chose counts once, when committed (Filter
 * and Score evaluate many nodes whose choices are never used). */
void place_mig_commit(place_mig *p, const k8s_allocation *al, int64_t now) {
    if (p->chose) p->decisions++;
    p->chose = false;
    update(p, al, now, +1);
}
void place_mig_release(place_mig *p, const k8s_allocation *al, int64_t now) { update(p, al, now, -1); }

double place_mig_frag_pct(const place_mig *p) { return p->nslices ? 100.0 * p->F / (double)p->nslices : 0; }

double place_mig_frag_mean_pct(const place_mig *p, int64_t end) {
    if (!p->nslices || end <= 0) return place_mig_frag_pct(p);
    double area = p->area + (end > p->last ? p->F * (double)(end - p->last) : 0);
    return 100.0 * area / ((double)end * (double)p->nslices);
}

uint64_t place_mig_decisions(const place_mig *p) { return p->decisions; }

bool place_mig_chooses(const place_mig *p) { return p && p->choose; }

void place_mig_first_fit(place_mig *p) {
    if (p) p->chose = false;
}

void place_mig_save_counters(const place_mig *p, uint64_t out[2]) {
    out[0] = p->decisions;
    out[1] = p->candidates;
}

void place_mig_restore_counters(place_mig *p, const uint64_t in[2]) {
    p->decisions = in[0];
    p->candidates = in[1];
}
