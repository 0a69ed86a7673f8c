/*
 * inventory_recorded.c -- a recorded inventory: the Nodes, ResourceSlices and
 * DeviceClasses of a real (or previously generated) cluster, read back into
 * the same inventory form that node pools produce. Several files are one
 * stream (`kubectl get nodes -o yaml` and `kubectl get resourceslices -o
 * yaml` apart); a node-local slice whose Node is missing gets a Node made
 * from its nodeName (no CPU or memory: a warning says so). GPU model and
 * count come from GPU Feature Discovery labels when present, else from the
 * devices (inventory_gpus.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/inventory_parts.h"
#include "model/inventory_recorded.h"
#include "model/k8s_decode.h"
#include "util/intern.h"
#include "util/xalloc.h"

static const char *label(const k8s_node *n, const char *key) {
    key = intern(key);
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (n->meta.labels[i].key == key) return n->meta.labels[i].value;
    return NULL;
}

typedef struct slice_key { const char *node; size_t slice; } slice_key;

static int by_node_then_index(const void *a, const void *b) {
    const slice_key *x = a, *y = b;
    if (x->node != y->node) return (uintptr_t)x->node < (uintptr_t)y->node ? -1 : 1;
    return x->slice < y->slice ? -1 : x->slice > y->slice;
}

static int by_ptr(const void *a, const void *b) {
    uintptr_t x = (uintptr_t) * (const char *const *)a, y = (uintptr_t) * (const char *const *)b;
    return x < y ? -1 : x > y;
}

int inventory_load_recorded(const char *path, const gpu_catalog *cat, inventory *out, strbuf *err) {
    dra_publish pub = {.driver = DRA_DRIVER_NEWEST, .k8s_minor = 36};
    return inventory_load_recorded_files(&path, 1, &pub, cat, out, err);
}

/* Print warning lines ("FILE:LINE:COL: ...\n" each) on stderr. */
static void print_warnings(const strbuf *warn) {
    for (const char *line = warn->len ? sb_str(warn) : NULL; line && *line;) {
        const char *nl = strchr(line, '\n');
        fprintf(stderr, "warning: %.*s\n", (int)(nl - line), line);
        line = nl + 1;
    }
}

/* Interned names seen so far: an open-addressing set of pointers (a
 * recorded inventory may hold 10,000s of nodes and 100,000s of slices). */
typedef struct name_set { const char **slot; size_t cap; } name_set;

static bool name_set_add(name_set *ns, const char *name) {   /* true when new */
    size_t h = ((uintptr_t)name >> 4) * 0x9e3779b97f4a7c15ULL;
    for (size_t i = h & (ns->cap - 1);; i = (i + 1) & (ns->cap - 1)) {
        if (ns->slot[i] == name) return false;
        if (!ns->slot[i]) {
            ns->slot[i] = name;
            return true;
        }
    }
}

/* A Node for every node-local slice whose nodeName no Node has, in the order
 * the slices come; labels as the kubelet sets them, no capacity (unknown). */
static void nodes_from_slices(k8s_objects *o, strbuf *warn) {
    name_set known = {0};
    known.cap = 16;
    while (known.cap < 2 * (o->nodes.len + o->slices.len)) known.cap *= 2;
    known.slot = xcalloc(known.cap, sizeof *known.slot);
    for (size_t i = 0; i < o->nodes.len; i++) name_set_add(&known, o->nodes.data[i]->meta.name);
    size_t created = 0;
    for (size_t s = 0; s < o->slices.len; s++) {
        const k8s_resource_slice *sl = o->slices.data[s];
        const char *name = sl->node_name;
        if (!name || !name_set_add(&known, name)) continue;
        k8s_node *n = ARENA_NEW(&o->a, k8s_node, 1);
        n->meta.name = name;
        n->meta.file = sl->meta.file;
        n->meta.line = sl->meta.line;
        n->meta.col = sl->meta.col;
        n->meta.labels = ARENA_NEW(&o->a, k8s_kv, 3);
        n->meta.labels[0] = (k8s_kv){intern("kubernetes.io/arch"), intern("amd64")};
        n->meta.labels[1] = (k8s_kv){intern("kubernetes.io/hostname"), name};
        n->meta.labels[2] = (k8s_kv){intern("kubernetes.io/os"), intern("linux")};
        n->meta.nlabels = 3;
        n->allocatable = ARENA_NEW(&o->a, k8s_resource_amount, 1);
        n->allocatable[0] = (k8s_resource_amount){intern("pods"), quantity_from_int64(110, QF_DECIMAL_SI)};
        n->nallocatable = 1;
        n->capacity = n->allocatable;
        n->ncapacity = 1;
        k8s_objects_add(o, K8S_NODE, n);
        created++;
    }
    if (created) {   /* one warning, at the first slice that needed a Node */
        const k8s_node *first = o->nodes.data[o->nodes.len - created];
        sb_printf(warn, "%s:%d:%d: %zu node%s created from ResourceSlice nodeName (no Node object in the inventory, "
                        "e.g. %s): their CPU and memory are unknown, so pods requesting CPU or memory do not fit "
                        "there; add the Nodes (kubectl get nodes -o yaml) as another inventory file\n",
                  first->meta.file ? first->meta.file : "", first->meta.line, first->meta.col, created,
                  created == 1 ? "" : "s", first->meta.name);
    }
    free(known.slot);
}

int inventory_load_recorded_files(const char *const *paths, size_t npaths, const dra_publish *pub,
                                  const gpu_catalog *cat, inventory *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    k8s_objects *o = xmalloc(sizeof *o);
    k8s_objects_init(o);
    out->recorded = o;
    o->allow_combined_slices = pub->k8s_minor < 35;
    o->snapshot_inventory_only = true;   /* a KAI snapshot as inventory: its pods are cluster.state's */
    const char *path = paths[0];
    for (size_t i = 0; i < npaths; i++)
        if (k8s_decode_file(o, paths[i], err)) {
            if (pub->k8s_minor >= 35 && strstr(sb_str(err), "devices and sharedCounters are mutually exclusive"))
                sb_puts(err, " (the dynamic-MIG layout the driver publishes on Kubernetes 1.34: set "
                             "cluster.kubernetesVersion: \"1.34\" to read it)");
            goto fail;
        }
    for (size_t i = 0; i < o->all.len; i++) {
        k8s_kind k = o->all.data[i].kind;
        if (k == K8S_NODE || k == K8S_RESOURCE_SLICE || k == K8S_DEVICE_CLASS) continue;
        const k8s_meta *m = k == K8S_RESOURCE_CLAIM ? &((k8s_resource_claim *)o->all.data[i].obj)->meta
                            : k == K8S_CLAIM_TEMPLATE ? &((k8s_claim_template *)o->all.data[i].obj)->meta
                                                      : &((k8s_pod *)o->all.data[i].obj)->meta;
        sb_clear(err);
        sb_printf(err, "%s:%d:%d: %s %s: a recorded inventory holds only Nodes, ResourceSlices and DeviceClasses",
                  path, m->line, m->col, k8s_kind_name(k), m->name ? m->name : "");
        goto fail;
    }
    strbuf warn = {0};
    nodes_from_slices(o, &warn);
    if (o->nodes.len == 0) {
        sb_clear(err);
        sb_printf(err, "%s: a recorded inventory needs at least one Node or node-local ResourceSlice", path);
        sb_free(&warn);
        goto fail;
    }
    if (inventory_check_recorded(o, &warn, err)) {
        sb_free(&warn);
        goto fail;
    }
    /* Pools the allocator will not use: said once, on stderr, and the run goes on
     * as the scheduler would (inventory_check.c). */
    print_warnings(&warn);
    sb_free(&warn);
    size_t nn = o->nodes.len, ns = o->slices.len;
    out->nodes = ARENA_NEW(&out->a, k8s_node, nn);
    out->info = ARENA_NEW(&out->a, inv_node, nn);
    out->slices = ARENA_NEW(&out->a, k8s_resource_slice, ns + 1);
    /* Node-local slices by node name (interned pointers), input order kept
     * within a node: O((nodes + slices) log slices), not nodes x slices. */
    slice_key *keys = xmalloc((ns + 1) * sizeof *keys);
    size_t nk = 0;
    for (size_t s = 0; s < ns; s++)
        if (o->slices.data[s]->node_name) keys[nk++] = (slice_key){o->slices.data[s]->node_name, s};
    qsort(keys, nk, sizeof *keys, by_node_then_index);
    const char **seen = xmalloc((nn + 1) * sizeof *seen);   /* node names so far, for duplicates */
    for (size_t i = 0; i < nn; i++) {
        const k8s_node *n = o->nodes.data[i];
        seen[i] = n->meta.name;
        out->nodes[i] = *n;
        inv_node *info = &out->info[i];
        info->first_slice = out->nslices;
        size_t lo = 0, hi = nk;   /* first key with this node name */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if ((uintptr_t)keys[mid].node < (uintptr_t)n->meta.name) lo = mid + 1;
            else hi = mid;
        }
        for (size_t k = lo; k < nk && keys[k].node == n->meta.name; k++)
            out->slices[out->nslices++] = *o->slices.data[keys[k].slice];
        info->nslices = out->nslices - info->first_slice;
        const char *count = label(n, "nvidia.com/gpu.count");
        info->gpus = count ? atoi(count) : 0;
        if (!count || label(n, "nvidia.com/mig.config")) {
            int devs = recorded_gpu_count(out->slices + info->first_slice, info->nslices);
            if (devs) info->gpus = devs;
        }
        info->gpu = recorded_gpu_model(cat, n, out->slices + info->first_slice, info->nslices, info->gpus, &warn);
    }
    print_warnings(&warn);
    sb_free(&warn);
    qsort(seen, nn, sizeof *seen, by_ptr);
    for (size_t i = 1; i < nn; i++)
        if (seen[i] == seen[i - 1]) {   /* report the second occurrence in input order */
            size_t first = 0;
            while (o->nodes.data[first]->meta.name != seen[i]) first++;
            size_t j = first + 1;
            while (o->nodes.data[j]->meta.name != seen[i]) j++;
            const k8s_node *n = o->nodes.data[j];
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: Node %s: listed twice", path, n->meta.line, n->meta.col, n->meta.name);
            free(keys);
            free(seen);
            goto fail;
        }
    free(seen);
    free(keys);
    for (size_t s = 0; s < ns; s++)   /* slices shared by several nodes, in input order */
        if (!o->slices.data[s]->node_name) out->slices[out->nslices++] = *o->slices.data[s];
    out->nnodes = nn;
    out->nclasses = o->classes.len;
    out->classes = ARENA_NEW(&out->a, k8s_device_class, out->nclasses + 1);
    for (size_t i = 0; i < out->nclasses; i++) out->classes[i] = *o->classes.data[i];
    return 0;
fail:
    inventory_free(out);
    return -1;
}
