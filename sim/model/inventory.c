/*
 * inventory.c -- build a cluster's inventory from its node pools: one Node per
 * pool member ("<pool>-<i>") with capacity, labels and taints, its
 * device-plugin view (inventory_dp.c) and its DRA ResourceSlices
 * (inventory_dra.c), plus the driver's DeviceClasses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/autoscaler_spec.h"
#include "model/cost_spec.h"
#include "model/dra_driver.h"
#include "model/inventory_parts.h"
#include "model/k8s_decode.h"
#include "model/topology_spec.h"
#include "util/intern.h"
#include "util/interrupt.h"

void kv_set(kv_vec *v, const char *key, const char *value) {
    key = intern(key);
    value = intern(value);
    for (size_t i = 0; i < v->len; i++)
        if (v->data[i].key == key) {
            v->data[i].value = value;
            return;
        }
    VEC_PUSH(*v, ((k8s_kv){key, value}));
}

void kv_setf(kv_vec *v, const char *key, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    kv_set(v, key, buf);
}

void amount_set(amount_vec *v, const char *name, quantity q) {
    name = intern(name);
    for (size_t i = 0; i < v->len; i++)
        if (v->data[i].name == name) {
            v->data[i].value = q;
            return;
        }
    VEC_PUSH(*v, ((k8s_resource_amount){name, q}));
}

static int by_key(const void *a, const void *b) {
    return strcmp(((const k8s_kv *)a)->key, ((const k8s_kv *)b)->key);
}

/* Append the catalog's names of one kind ("models", layouts of a model) to err. */
static void list_models(strbuf *err, const gpu_catalog *cat) {
    for (int i = 0; i < cat->nmodels; i++) sb_printf(err, "%s%s", i ? ", " : "", cat->models[i].key);
}
static void list_layouts(strbuf *err, const gpu_model *m) {
    for (int i = 0; i < m->nlayouts; i++) sb_printf(err, "%s%s", i ? ", " : "", m->layouts[i].name);
}

/* A driver or CUDA version as the driver publishes it: Masterminds semver
 * normalisation, so "580.95.05" is 580.95.5 and "13.0" is 13.0.0
 * (cmd/gpu-kubelet-plugin/deviceinfo.go: semver.MustParse(...).String()). */
static const char *semver_text(const char *v) {
    unsigned x[3] = {0, 0, 0};
    if (sscanf(v, "%u.%u.%u", &x[0], &x[1], &x[2]) < 2) return intern(v);
    char buf[48];
    snprintf(buf, sizeof buf, "%u.%u.%u", x[0], x[1], x[2]);
    return intern(buf);
}

/* Resolve a pool's GPU model, layout and static placements against the catalog. */
static int resolve_gpus(arena *a, const cluster_spec *spec, const node_pool_spec *p, const gpu_catalog *cat,
                        node_gpus *g, strbuf *err) {
    memset(g, 0, sizeof *g);
    if (!p->gpu_model) return 0;
    g->pub = &spec->publish;
    g->driver_version = semver_text(p->driver_version ? p->driver_version : cat->driver_version);
    g->cuda_version = semver_text(p->cuda_driver_version ? p->cuda_driver_version : cat->cuda_driver_version);
    g->model = catalog_find(cat, p->gpu_model);
    if (!g->model) {
        yerr(err, p->gpu_model_where, "gpu.model: unknown GPU model '%s' (the catalog has: ", p->gpu_model);
        list_models(err, cat);
        sb_puts(err, ")");
        return -1;
    }
    if (spec->power && cost_pool_power_check(spec, p, g->model, err)) return -1;   /* issue 30 */
    g->count = p->gpus;
    g->mig = p->mig;
    if (g->mig != MIG_OFF && g->model->nprofiles == 0) {
        yerr(err, p->gpu_model_where, "gpu.mig: GPU model %s does not support MIG", g->model->key);
        return -1;
    }
    if (g->mig == MIG_DYNAMIC && g->count > 64) {
        yerr(err, p->gpu_model_where, "gpu.count: dynamic MIG supports at most 64 GPUs per node");
        return -1;
    }
    if (g->mig != MIG_STATIC) return 0;
    g->layout = gpu_model_layout(g->model, p->mig_layout);
    if (!g->layout) {
        yerr(err, p->mig_layout_where, "gpu.migLayout: GPU model %s has no MIG layout '%s' (known: ", g->model->key,
             p->mig_layout);
        list_layouts(err, g->model);
        sb_puts(err, ")");
        return -1;
    }
    mig_placement *pl = ARENA_NEW(a, mig_placement, g->layout->nprofiles + 1);
    if (mig_layout_place(g->model, g->layout, pl, err)) {
        strbuf msg = {0};
        sb_puts(&msg, sb_str(err));
        yerr(err, p->mig_layout_where, "gpu.migLayout: %s", sb_str(&msg));
        sb_free(&msg);
        return -1;
    }
    g->placements = pl;
    return 0;
}

static bool same_amounts(const k8s_resource_amount *a, const k8s_resource_amount *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i].name != b[i].name || a[i].value.mant != b[i].value.mant || a[i].value.exp10 != b[i].value.exp10 ||
            a[i].value.format != b[i].value.format || a[i].value.is_dec != b[i].value.is_dec)
            return false;
    return true;
}

/* Fill one Node of pool p. Its allocatable and capacity are one stored
 * array, shared with the previous node when equal (*last): the nodes of a
 * pool have the same resources (issue 31: 3.8 MB at 10,000 nodes); no one
 * writes into a node's arrays (faults_inventory.c replaces them). */
static void build_node(inventory *inv, const gpu_catalog *cat, const node_pool_spec *p, int idx,
                       const node_gpus *g, const device_plugin_opts *dp, k8s_node *node, const k8s_node **last) {
    char name[96];
    snprintf(name, sizeof name, "%s-%d", p->name, idx);
    memset(node, 0, sizeof *node);
    node->meta.name = intern(name);

    kv_vec labels = {0};
    amount_vec res = {0};
    kv_set(&labels, "kubernetes.io/arch", "amd64");
    kv_set(&labels, "kubernetes.io/hostname", name);
    kv_set(&labels, "kubernetes.io/os", "linux");
    amount_set(&res, "cpu", p->cpu_quantity);
    amount_set(&res, "memory", p->memory_quantity);
    amount_set(&res, "pods", quantity_from_int64(p->max_pods, QF_DECIMAL_SI));
    if (g->model) dp_node_view(cat, g, dp, &labels, &res);
    if (p->topology) pool_topology_labels(p, g->model, idx, &labels);   /* racks, blocks, NVLink clique */
    /* The pool's labels are distinct (duplicate YAML keys are refused): only the
     * generated labels above can clash, so search those only (linear, not
     * quadratic, in a pool with many labels). */
    size_t ngenerated = labels.len;
    for (size_t i = 0; i < p->nlabels; i++) {
        const char *key = intern(p->labels[i].key), *value = intern(p->labels[i].value);
        size_t j = 0;
        while (j < ngenerated && labels.data[j].key != key) j++;
        if (j < ngenerated) labels.data[j].value = value;
        else VEC_PUSH(labels, ((k8s_kv){key, value}));
    }
    qsort(labels.data, labels.len, sizeof *labels.data, by_key);

    node->meta.labels = arena_memdup(&inv->a, labels.data, labels.len * sizeof *labels.data);
    node->meta.nlabels = labels.len;
    if (*last && (*last)->nallocatable == res.len && same_amounts((*last)->allocatable, res.data, res.len))
        node->allocatable = (*last)->allocatable;
    else
        node->allocatable = arena_memdup(&inv->a, res.data, res.len * sizeof *res.data);
    node->nallocatable = res.len;
    node->capacity = node->allocatable;
    node->ncapacity = res.len;
    *last = node;
    if (p->ntaints) {
        node->taints = arena_memdup(&inv->a, p->taints, p->ntaints * sizeof *p->taints);
        node->ntaints = p->ntaints;
    }
    VEC_FREE(labels);
    VEC_FREE(res);
}

int inventory_build(const cluster_spec *spec, const gpu_catalog *cat, const device_plugin_opts *dp,
                    inventory *out, strbuf *err) {
    return inventory_build_ex(spec, cat, dp, 0, out, err);
}

int inventory_build_ex(const cluster_spec *spec, const gpu_catalog *cat, const device_plugin_opts *dp,
                       unsigned flags, inventory *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    if (spec->ninventory_files)
        return inventory_load_recorded_files(spec->inventory_files, spec->ninventory_files, &spec->publish, cat, out,
                                             err);
    if (spec->inventory_file) return inventory_load_recorded(spec->inventory_file, cat, out, err);
    size_t total = 0;
    node_gpus *gpus = ARENA_NEW(&out->a, node_gpus, spec->npools + 1);
    for (size_t i = 0; i < spec->npools; i++) {
        if (resolve_gpus(&out->a, spec, &spec->pools[i], cat, &gpus[i], err)) {
            inventory_free(out);
            return -1;
        }
        total += (size_t)inventory_pool_nodes(&spec->pools[i]);
    }
    out->nodes = ARENA_NEW(&out->a, k8s_node, total + 1);
    out->info = ARENA_NEW(&out->a, inv_node, total + 1);
    slice_vec slices = {0};
    const k8s_node *last = NULL;   /* the node built last (its resources are shared when equal) */
    dra_dedup *dd = dra_dedup_new();
    for (size_t i = 0; i < spec->npools; i++) {
        const node_pool_spec *p = &spec->pools[i];
        device_plugin_opts pool_dp;
        const device_plugin_opts *pdp = device_plugin_opts_for_pool(dp, p, &pool_dp);
        for (int k = 0; k < inventory_pool_nodes(p); k++) {
            if (interrupt_pending()) {   /* 20,000 dynamic-MIG nodes take seconds: Ctrl-C is honoured */
                VEC_FREE(slices);
                dra_dedup_free(dd);
                inventory_free(out);
                sb_clear(err);
                sb_puts(err, "interrupted");
                return -1;
            }
            k8s_node *node = &out->nodes[out->nnodes];
            inv_node *info = &out->info[out->nnodes];
            build_node(out, cat, p, k, &gpus[i], pdp, node, &last);
            info->pool = p;
            info->gpu = gpus[i].model;
            info->gpus = gpus[i].model ? gpus[i].count : 0;
            info->first_slice = slices.len;
            if (gpus[i].model && !(flags & INV_NO_SLICES)) {
                dra_node_slices(&out->a, dd, cat, node->meta.name, &gpus[i], spec->seed, &slices);
                if (spec->publish.compute_domains && !(p->topology && !p->topology->imex))   /* no IMEX: no slice */
                    dra_compute_domain_slice(&out->a, node->meta.name, spec->publish.driver, spec->seed, &slices);
            }
            info->nslices = slices.len - info->first_slice;
            out->nnodes++;
        }
    }
    out->slices = arena_memdup(&out->a, slices.data, slices.len * sizeof *slices.data);
    out->nslices = slices.len;
    VEC_FREE(slices);
    dra_dedup_free(dd);
    if (!(flags & INV_NO_SLICES)) out->classes = dra_driver_classes(&out->a, spec->publish.driver, &out->nclasses);
    return 0;
}

void inventory_free(inventory *inv) {
    if (inv->recorded) {
        k8s_objects_free(inv->recorded);
        free(inv->recorded);
    }
    arena_free(&inv->a);
    memset(inv, 0, sizeof *inv);
}

int inventory_pool_nodes(const node_pool_spec *p) {
    return p->autoscaling ? p->autoscaling->max : p->count;
}
