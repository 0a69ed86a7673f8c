/*
 * inventory_yaml.c -- write an inventory as one Kubernetes YAML stream:
 * Nodes (v1), then DeviceClasses and ResourceSlices (resource.k8s.io/v1),
 * each its own document. Map-valued fields (labels, attributes, capacity,
 * counters) are written with sorted keys, as kubectl prints Go maps.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/k8s_emit.h"

typedef struct named_node {
    const char *key;
    ynode *val;
} named_node;

static int by_name(const void *a, const void *b) {
    return strcmp(((const named_node *)a)->key, ((const named_node *)b)->key);
}

/* Build a map from (key, value) pairs, sorted by key. */
static ynode *sorted_map(arena *a, named_node *items, size_t n) {
    qsort(items, n, sizeof *items, by_name);
    ynode *m = yb_map(a);
    for (size_t i = 0; i < n; i++) yb_add(a, m, items[i].key, items[i].val);
    return m;
}

/* {value: Q} as used by capacities and counters */
static ynode *value_node(arena *a, const quantity *q) {
    ynode *m = yb_map(a);
    yb_add(a, m, "value", k8s_emit_quantity(a, q));
    return m;
}

static ynode *meta_node(arena *a, const k8s_meta *meta) {
    ynode *m = yb_map(a);
    yb_add(a, m, "name", yb_str(a, meta->name));
    if (meta->nlabels) {
        named_node *items = calloc(meta->nlabels, sizeof *items);
        for (size_t i = 0; i < meta->nlabels; i++)
            items[i] = (named_node){meta->labels[i].key, yb_str(a, meta->labels[i].value ? meta->labels[i].value : "")};
        yb_add(a, m, "labels", sorted_map(a, items, meta->nlabels));
        free(items);
    }
    return m;
}

static ynode *object(arena *a, const char *api, const char *kind, const k8s_meta *meta) {
    ynode *o = yb_map(a);
    yb_add(a, o, "apiVersion", yb_str(a, api));
    yb_add(a, o, "kind", yb_str(a, kind));
    yb_add(a, o, "metadata", meta_node(a, meta));
    return o;
}

static ynode *amounts(arena *a, const k8s_resource_amount *r, size_t n) {
    named_node *items = calloc(n ? n : 1, sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = (named_node){r[i].name, k8s_emit_quantity(a, &r[i].value)};
    ynode *m = sorted_map(a, items, n);
    free(items);
    return m;
}

ynode *k8s_node_to_yaml(arena *a, const k8s_node *nd) {
    ynode *o = object(a, "v1", "Node", &nd->meta);
    if (nd->ntaints || nd->unschedulable) {
        ynode *spec = yb_map(a);
        if (nd->unschedulable) yb_add(a, spec, "unschedulable", yb_bool(a, true));
        if (nd->ntaints) {
            ynode *ts = yb_seq(a);
            for (size_t i = 0; i < nd->ntaints; i++) {
                ynode *t = yb_map(a);
                yb_add(a, t, "key", yb_str(a, nd->taints[i].key));
                if (nd->taints[i].value) yb_add(a, t, "value", yb_str(a, nd->taints[i].value));
                yb_add(a, t, "effect", yb_str(a, k8s_taint_effect_name(nd->taints[i].effect)));
                yb_push(a, ts, t);
            }
            yb_add(a, spec, "taints", ts);
        }
        yb_add(a, o, "spec", spec);
    }
    ynode *st = yb_map(a);
    yb_add(a, st, "capacity", amounts(a, nd->capacity, nd->ncapacity));
    yb_add(a, st, "allocatable", amounts(a, nd->allocatable, nd->nallocatable));
    yb_add(a, o, "status", st);
    return o;
}

ynode *k8s_device_class_to_yaml(arena *a, const k8s_device_class *c) {
    ynode *o = object(a, "resource.k8s.io/v1", "DeviceClass", &c->meta);
    ynode *spec = yb_map(a);
    yb_add(a, spec, "selectors", k8s_emit_selectors(a, c->selectors, c->nselectors));
    if (c->extended_resource_name) yb_add(a, spec, "extendedResourceName", yb_str(a, c->extended_resource_name));
    yb_add(a, o, "spec", spec);
    return o;
}

/* "gpu.nvidia.com/type" is written bare ("type") inside the driver's slices. */
static const char *qualified(arena *a, const char *driver, const char *domain, const char *id) {
    if (!domain || domain == driver || !strcmp(domain, driver)) return id;
    size_t dl = strlen(domain), il = strlen(id);
    char *s = ARENA_NEW(a, char, dl + il + 2);
    memcpy(s, domain, dl);
    s[dl] = '/';
    memcpy(s + dl + 1, id, il + 1);
    return s;
}

static ynode *attr_value(arena *a, const k8s_attribute *at) {
    ynode *m = yb_map(a);
    switch (at->kind) {
    case ATTR_INT: yb_add(a, m, "int", yb_int(a, at->i)); break;
    case ATTR_BOOL: yb_add(a, m, "bool", yb_bool(a, at->b)); break;
    case ATTR_VERSION: yb_add(a, m, "version", yb_str(a, at->s)); break;
    default: yb_add(a, m, "string", yb_str(a, at->s ? at->s : "")); break;
    }
    return m;
}

static ynode *counters_yaml(arena *a, const k8s_counter *c, size_t n) {
    named_node *items = calloc(n ? n : 1, sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = (named_node){c[i].name, value_node(a, &c[i].value)};
    ynode *m = sorted_map(a, items, n);
    free(items);
    return m;
}

static ynode *device_yaml(arena *a, const char *driver, const k8s_device *d) {
    ynode *o = yb_map(a);
    yb_add(a, o, "name", yb_str(a, d->name));
    size_t na = k8s_dev_nattrs(d);
    if (na) {
        named_node *items = calloc(na, sizeof *items);
        for (size_t i = 0; i < na; i++) {
            const k8s_attribute *at = k8s_dev_attr(d, i);
            items[i] = (named_node){qualified(a, driver, at->domain, at->id), attr_value(a, at)};
        }
        yb_add(a, o, "attributes", sorted_map(a, items, na));
        free(items);
    }
    if (d->ncaps) {
        named_node *items = calloc(d->ncaps, sizeof *items);
        for (size_t i = 0; i < d->ncaps; i++)
            items[i] = (named_node){qualified(a, driver, d->caps[i].domain, d->caps[i].id), value_node(a, &d->caps[i].value)};
        yb_add(a, o, "capacity", sorted_map(a, items, d->ncaps));
        free(items);
    }
    if (d->nconsumes) {
        ynode *cs = yb_seq(a);
        for (size_t i = 0; i < d->nconsumes; i++) {
            ynode *c = yb_map(a);
            yb_add(a, c, "counterSet", yb_str(a, d->consumes[i].name));
            yb_add(a, c, "counters", counters_yaml(a, d->consumes[i].counters, d->consumes[i].ncounters));
            yb_push(a, cs, c);
        }
        yb_add(a, o, "consumesCounters", cs);
    }
    if (d->ntaints) {   /* KEP-5055 device taints (drasim inventory --at: as they stood) */
        ynode *ts = yb_seq(a);
        for (size_t i = 0; i < d->ntaints; i++) {
            ynode *t = yb_map(a);
            yb_add(a, t, "key", yb_str(a, d->taints[i].key));
            if (d->taints[i].value && *d->taints[i].value) yb_add(a, t, "value", yb_str(a, d->taints[i].value));
            yb_add(a, t, "effect", yb_str(a, k8s_taint_effect_name(d->taints[i].effect)));
            if (d->taints[i].time_added) yb_add(a, t, "timeAdded", yb_str(a, d->taints[i].time_added));
            yb_push(a, ts, t);
        }
        yb_add(a, o, "taints", ts);
    }
    return o;
}

ynode *k8s_resource_slice_to_yaml(arena *a, const k8s_resource_slice *s) {
    ynode *o = object(a, "resource.k8s.io/v1", "ResourceSlice", &s->meta);
    ynode *spec = yb_map(a), *pool = yb_map(a);
    yb_add(a, spec, "driver", yb_str(a, s->driver));
    if (s->node_name) yb_add(a, spec, "nodeName", yb_str(a, s->node_name));
    if (s->all_nodes) yb_add(a, spec, "allNodes", yb_bool(a, true));
    yb_add(a, pool, "name", yb_str(a, s->pool));
    yb_add(a, pool, "generation", yb_int(a, s->generation));
    yb_add(a, pool, "resourceSliceCount", yb_int(a, s->slice_count));
    yb_add(a, spec, "pool", pool);
    if (s->ndevices) {
        ynode *devs = yb_seq(a);
        for (size_t i = 0; i < s->ndevices; i++) yb_push(a, devs, device_yaml(a, s->driver, &s->devices[i]));
        yb_add(a, spec, "devices", devs);
    }
    if (s->nshared_counters) {
        ynode *sets = yb_seq(a);
        for (size_t i = 0; i < s->nshared_counters; i++) {
            ynode *c = yb_map(a);
            yb_add(a, c, "name", yb_str(a, s->shared_counters[i].name));
            yb_add(a, c, "counters",
                   counters_yaml(a, s->shared_counters[i].counters, s->shared_counters[i].ncounters));
            yb_push(a, sets, c);
        }
        yb_add(a, spec, "sharedCounters", sets);
    }
    yb_add(a, o, "spec", spec);
    return o;
}

/* Each object is built in a scratch arena, dumped, then the arena is dropped. */
static void emit(strbuf *out, ynode *(*build)(arena *, const void *), const void *obj) {
    arena a = {0};
    sb_puts(out, "---\n");
    ydump(out, build(&a, obj));
    arena_free(&a);
}

static ynode *node_cb(arena *a, const void *o) { return k8s_node_to_yaml(a, o); }
static ynode *class_cb(arena *a, const void *o) { return k8s_device_class_to_yaml(a, o); }
static ynode *slice_cb(arena *a, const void *o) { return k8s_resource_slice_to_yaml(a, o); }

void inventory_write_yaml(const inventory *inv, strbuf *out) {
    for (size_t i = 0; i < inv->nnodes; i++) emit(out, node_cb, &inv->nodes[i]);
    for (size_t i = 0; i < inv->nclasses; i++) emit(out, class_cb, &inv->classes[i]);
    for (size_t i = 0; i < inv->nslices; i++) emit(out, slice_cb, &inv->slices[i]);
}
