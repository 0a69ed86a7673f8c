/* openb_run.c -- the trace-run driver and the arrival curve (see openb_run.h). */
#include "workload/openb_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"
#include "model/openb_trace.h"

#define OPENB_MAX_PODS 1001  /* the artifact's node YAMLs allow 1001 pods */

void openb_k8s_nodes(const trace_spec *t, arena *a, k8s_node **out, size_t *n) {
    k8s_node *nodes = ARENA_NEW(a, k8s_node, t->nnodes ? t->nnodes : 1);
    char buf[64];
    const char *qerr;
    for (size_t i = 0; i < t->nnodes; i++) {
        const openb_node *o = &t->nodes[i];
        k8s_node *k = &nodes[i];
        k->meta.name = intern(o->name);
        k->meta.file = t->nodes_file;
        if (*o->model) {
            k->meta.labels = ARENA_NEW(a, k8s_kv, 1);
            k->meta.nlabels = 1;
            k->meta.labels[0] = (k8s_kv){intern("alibabacloud.com/gpu-card-model"), intern(o->model)};
        }
        k->allocatable = ARENA_NEW(a, k8s_resource_amount, 4);
        snprintf(buf, sizeof buf, "%lldm", (long long)o->cpu_milli);
        k->allocatable[0].name = intern("cpu");
        quantity_parse(buf, strlen(buf), &k->allocatable[0].value, &qerr);
        snprintf(buf, sizeof buf, "%lldMi", (long long)o->memory_mib);
        k->allocatable[1].name = intern("memory");
        quantity_parse(buf, strlen(buf), &k->allocatable[1].value, &qerr);
        k->allocatable[2].name = intern("pods");   /* the artifact's node YAMLs allow 1001 pods */
        k->allocatable[2].value = quantity_from_int64(OPENB_MAX_PODS, QF_DECIMAL_SI);
        k->nallocatable = 3;
        if (o->gpus > 0) {
            k->allocatable[3].name = intern("alibabacloud.com/gpu-milli");
            k->allocatable[3].value = quantity_from_int64((int64_t)o->gpus * 1000, QF_DECIMAL_SI);
            k->nallocatable = 4;
        }
        k->capacity = k->allocatable;
        k->ncapacity = k->nallocatable;
    }
    *out = nodes;
    *n = t->nnodes;
}

void openb_node_info(const trace_spec *t, arena *a, inv_node **out) {
    inv_node *info = ARENA_NEW(a, inv_node, t->nnodes ? t->nnodes : 1);
    gpu_model *models = ARENA_NEW(a, gpu_model, t->nnodes ? t->nnodes : 1);
    size_t nm = 0;
    for (size_t i = 0; i < t->nnodes; i++) {
        const openb_node *o = &t->nodes[i];
        info[i].gpus = o->gpus;
        if (o->gpus <= 0 || !*o->model) continue;
        size_t m = 0;
        while (m < nm && strcmp(models[m].key, o->model)) m++;
        if (m == nm) models[nm++].key = o->model;
        info[i].gpu = &models[m];
    }
    *out = info;
}

void openb_arrival_curve(const openb_event *ev, size_t n, sim_run *r) {
    if (!n) return;
    int maxx = 0;
    int *rounded = xmalloc(n * sizeof *rounded);
    for (size_t i = 0; i < n; i++) {
        rounded[i] = (int)nearbyint(ev[i].arrived_pct);   /* half to even, as Python's round() */
        if (rounded[i] > maxx) maxx = rounded[i];
    }
    for (int x = 0; x <= maxx; x++) {
        double a = 0, f = 0, fr = 0;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (rounded[i] == x) {
                a += nearbyint(ev[i].alloc_pct * 100.0) / 100.0;
                f += ev[i].frag_pct;
                fr += ev[i].frag_ratio_pct;
                k++;
            }
        if (!k)
            for (size_t i = 0; i < n; i++)
                if (ev[i].arrived_pct >= x - 1 && ev[i].arrived_pct <= x + 1) {
                    a += nearbyint(ev[i].alloc_pct * 100.0) / 100.0;
                    f += ev[i].frag_pct;
                    fr += ev[i].frag_ratio_pct;
                    k++;
                }
        if (!k) continue;
        sim_curve_point p = {x, a / (double)k, f / (double)k, fr / (double)k};
        VEC_PUSH(r->curve, p);
    }
    free(rounded);
}

double openb_py_round2(double x) {
    /* x * 100 off a rounding tie by more than its own rounding error (|y| 2^-53,
     * taken 8x): the integer it rounds to, divided by 100 (correctly rounded,
     * as strtod reads "d/100"); -0.00 keeps x's sign as printf does */
    if (fabs(x) < 1e9) {
        double y = x * 100, fl = floor(y), fr = y - fl;
        if (fabs(fr - 0.5) > fabs(y) * 0x1p-50 + 0x1p-60) {
            double d = fl + (fr > 0.5);
            return d == 0 ? copysign(0.0, x) : d / 100.0;
        }
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", x);   /* glibc prints the exact binary value, rounded half to even */
    return strtod(buf, NULL);
}

double openb_np_sum(const double *a, size_t n) {
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8], res;
        size_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return openb_np_sum(a, n2) + openb_np_sum(a + n2, n - n2);
}

void openb_arrival_curve_artifact(const openb_event *ev, size_t n, int64_t gpus, sim_run *r) {
    if (!n || gpus <= 0) return;
    enum { LO = -1, HI = 131, NB = HI - LO + 1 };   /* the x that columns 0..130 can read */
    double g = (double)gpus;
    int *x = xmalloc(n * sizeof *x);
    double *alloc = xmalloc(n * sizeof *alloc), *va = xmalloc(n * sizeof *va), *vf = xmalloc(n * sizeof *vf);
    double *vr = xmalloc(n * sizeof *vr);
    size_t start[NB + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        x[i] = (int)nearbyint((double)ev[i].arrived_milli / g / 10);   /* exact value: Python's round(x, 0) */
        alloc[i] = openb_py_round2((double)ev[i].used_milli / g / 10);
        if (x[i] >= LO && x[i] <= HI) start[x[i] - LO + 1]++;
    }
    /* the events of each x in their order (a stable counting sort), so that a
     * column takes the same values in the same order as a scan of all events */
    for (int b = 0; b < NB; b++) start[b + 1] += start[b];
    uint32_t *by_x = xmalloc((start[NB] ? start[NB] : 1) * sizeof *by_x);
    size_t fill[NB];
    memcpy(fill, start, sizeof fill);
    for (size_t i = 0; i < n; i++)
        if (x[i] >= LO && x[i] <= HI) by_x[fill[x[i] - LO]++] = (uint32_t)i;
    for (int col = 0; col <= 130; col++) {
        size_t k = 0, b = (size_t)(col - LO);
        for (size_t j = start[b]; j < start[b + 1]; j++) {
            size_t i = by_x[j];
            va[k] = alloc[i];
            vr[k] = ev[i].frag_ratio_pct;
            vf[k++] = ev[i].frag_milli;
        }
        if (!k) {   /* none at x == col: those with col-1 <= x <= col+1, i.e. x = col-1 or col+1, in event order */
            size_t p = start[b - 1], pe = start[b], q = start[b + 1], qe = start[b + 2];
            while (p < pe || q < qe) {
                size_t i = q >= qe || (p < pe && by_x[p] < by_x[q]) ? by_x[p++] : by_x[q++];
                va[k] = alloc[i];
                vr[k] = ev[i].frag_ratio_pct;
                vf[k++] = ev[i].frag_milli;
            }
        }
        if (!k) continue;
        double ma = openb_np_sum(va, k) / (double)k, mf = openb_np_sum(vf, k) / (double)k;
        double fr = 100 * mf / 1000 / g;
        double mr = openb_np_sum(vr, k) / (double)k;   /* fragmentation ratio: not published, plain mean */
        sim_curve_point pt = {col, nearbyint(ma * 100) / 100, nearbyint(fr * 100) / 100, mr};
        VEC_PUSH(r->curve, pt);
    }
    free(by_x);
    free(x);
    free(alloc);
    free(va);
    free(vf);
    free(vr);
}
