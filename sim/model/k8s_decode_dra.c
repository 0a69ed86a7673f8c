/*
 * k8s_decode_dra.c -- DeviceClass and ResourceSlice (resource.k8s.io/v1),
 * with the API server's size limits (v1.36 values).
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "util/intern.h"

#define MAX_SELECTORS 32
#define MAX_CONFIGS 32
#define MAX_DEVICES 128
#define MAX_DEVICES_WITH_EXTRAS 64      /* when a device uses taints or counters */
#define MAX_ATTRS_AND_CAPS 32
#define MAX_COUNTER_SETS 8
#define MAX_COUNTERS 32
#define MAX_CONSUMES 2
#define MAX_TAINTS 16
#define MAX_BINDING_CONDITIONS 4
#define MAX_VALID_VALUES 10
#define MAX_ATTR_STRING 64
#define MAX_CEL_BYTES (10 * 1024)

/* selectors: [{cel: {expression: ...}}]; entries without cel set *non_cel. */
static int dselectors(dctx *c, const ynode *map, const char ***out, size_t *n, bool *non_cel) {
    const ynode *seq;
    *out = NULL;
    *n = 0;
    if (dseq(c, map, "selectors", MAX_SELECTORS, &seq)) return -1;
    if (!seq) return 0;
    const char **v = ARENA_NEW(c->a, const char *, seq->n ? seq->n : 1);
    size_t k = 0;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".selectors[%zu]", i);
        const ynode *s = seq->vals[i];
        static const char *const allowed[] = {"cel", NULL};
        if (y_is_null(s)) s = NULL;
        if (s && dkeys(c, s, allowed)) return -1;
        const ynode *cel = s ? ymap_get(s, "cel") : NULL;
        if (y_is_null(cel)) {
            if (!non_cel) return derr(c, s ? s : seq->vals[i], "selector without 'cel'");
            *non_cel = true;
            dpop(c, m);
            continue;
        }
        size_t m2 = dpush(c, ".cel");
        static const char *const ck[] = {"expression", NULL};
        if (dkeys(c, cel, ck)) return -1;
        if (dstr(c, cel, "expression", true, &v[k])) return -1;
        if (strlen(v[k]) > MAX_CEL_BYTES)
            return derr(c, ymap_get(cel, "expression"), "expression longer than %d bytes", MAX_CEL_BYTES);
        k++;
        dpop(c, m2);
        dpop(c, m);
    }
    *out = v;
    *n = k;
    return 0;
}

int k8s_decode_device_class(dctx *c, const ynode *root) {
    static const char *const top[] = {"apiVersion", "kind", "metadata", "spec", "status", NULL};
    if (dkeys(c, root, top)) return -1;
    k8s_device_class *dc = ARENA_NEW(c->a, k8s_device_class, 1);
    if (dmeta(c, root, &dc->meta, true)) return -1;
    if (dcheck_name(c, root, dc->meta.name, k8s_is_dns_subdomain, "a DNS subdomain")) return -1;
    dc->creation_seq = (int64_t)c->o->all.len;
    const ynode *spec;
    if (dmap(c, root, "spec", 100, &spec)) return -1;
    if (spec) {
        size_t m = dpush(c, ".spec");
        static const char *const sk[] = {"selectors", "config", "extendedResourceName", NULL};
        if (dkeys(c, spec, sk)) return -1;
        if (dselectors(c, spec, &dc->selectors, &dc->nselectors, NULL)) return -1;
        const ynode *cfg;
        if (dseq(c, spec, "config", MAX_CONFIGS, &cfg)) return -1;
        if (cfg) {
            dc->config = ARENA_NEW(c->a, k8s_device_config, cfg->n ? cfg->n : 1);
            dc->nconfig = cfg->n;
            for (size_t i = 0; i < cfg->n; i++) {
                size_t m2 = dpush(c, ".config[%zu]", i);
                static const char *const ck[] = {"opaque", NULL};
                if (dkeys(c, cfg->vals[i], ck)) return -1;
                if (dopaque(c, cfg->vals[i], &dc->config[i].opaque)) return -1;
                dpop(c, m2);
            }
        }
        if (dstr(c, spec, "extendedResourceName", false, &dc->extended_resource_name)) return -1;
        dpop(c, m);
    }
    k8s_objects_add(c->o, K8S_DEVICE_CLASS, dc);
    return 0;
}

/* attributes: map qualified name -> {int|bool|string|version|ints|...}. */
static int dattributes(dctx *c, const ynode *dev, const char *driver, k8s_device *d) {
    const ynode *mp;
    if (dmap(c, dev, "attributes", MAX_ATTRS_AND_CAPS, &mp)) return -1;
    if (!mp) return 0;
    d->attrs = ARENA_NEW(c->a, k8s_attribute, mp->n ? mp->n : 1);
    d->nattrs = mp->n;
    for (size_t i = 0; i < mp->n; i++) {
        k8s_attribute *a = &d->attrs[i];
        const char *qn;
        size_t m = dpush(c, ".attributes");
        if (y_str(mp->keys[i], dwhat(c), &qn, c->err)) return -1;
        dpop(c, m);
        m = dpush(c, ".attributes.%s", qn);
        if (!k8s_is_resource_qualified_name(qn))
            return derr(c, mp->keys[i], "invalid attribute name: must be [DOMAIN/]ID with ID a C identifier of at "
                                        "most 32 characters and DOMAIN a DNS subdomain of at most 63");
        a->qname = qn;
        k8s_split_qualified(qn, driver, &a->domain, &a->id);
        const ynode *v = mp->vals[i];
        if (y_is_null(v)) v = NULL;
        if (v && y_expect(v, YN_MAP, dwhat(c), c->err)) return -1;
        static const char *const ak[] = {"int", "bool", "string", "version", "ints", "bools", "strings", "versions", NULL};
        if (v && dkeys(c, v, ak)) return -1;
        if (v && v->n > 1) return derr(c, v, "exactly one of int, bool, string, version must be set");
        a->kind = ATTR_LIST_UNSUPPORTED;   /* no value, or a list (alpha ListTypeAttributes) */
        if (!v || v->n == 0) { dpop(c, m); continue; }
        const ynode *key = v->keys[0], *val = v->vals[0];
        size_t m2 = dpush(c, ".%s", key->str);
        if (y_scalar_eq(key, "int")) {
            if (y_int(val, dwhat(c), &a->i, c->err)) return -1;
            a->kind = ATTR_INT;
        } else if (y_scalar_eq(key, "bool")) {
            if (y_bool(val, dwhat(c), &a->b, c->err)) return -1;
            a->kind = ATTR_BOOL;
        } else if (y_scalar_eq(key, "string") || y_scalar_eq(key, "version")) {
            if (y_str(val, dwhat(c), &a->s, c->err)) return -1;
            if (strlen(a->s) > MAX_ATTR_STRING)
                return derr(c, val, "longer than %d characters", MAX_ATTR_STRING);
            a->kind = ATTR_STRING;
            if (y_scalar_eq(key, "version")) {
                const char *msg;
                a->kind = ATTR_VERSION;
                a->v_ok = semver_parse(a->s, strlen(a->s), false, &a->v, &msg) == 0;
                if (!a->v_ok) return derr(c, val, "invalid semantic version '%s': %s", a->s, msg ? msg : "");
            }
        } else {
            if (y_expect(val, YN_SEQ, dwhat(c), c->err)) return -1;
            if (val->n == 0) return derr(c, val, "must not be empty");
        }
        dpop(c, m2);
        dpop(c, m);
    }
    return 0;
}

static int dcapacities(dctx *c, const ynode *dev, const char *driver, k8s_device *d) {
    const ynode *mp;
    if (dmap(c, dev, "capacity", MAX_ATTRS_AND_CAPS, &mp)) return -1;
    if (!mp) return 0;
    d->caps = ARENA_NEW(c->a, k8s_capacity, mp->n ? mp->n : 1);
    d->ncaps = mp->n;
    for (size_t i = 0; i < mp->n; i++) {
        k8s_capacity *cp = &d->caps[i];
        const char *qn;
        size_t m = dpush(c, ".capacity");
        if (y_str(mp->keys[i], dwhat(c), &qn, c->err)) return -1;
        dpop(c, m);
        m = dpush(c, ".capacity.%s", qn);
        if (!k8s_is_resource_qualified_name(qn)) return derr(c, mp->keys[i], "invalid capacity name");
        cp->qname = qn;
        k8s_split_qualified(qn, driver, &cp->domain, &cp->id);
        const ynode *v = mp->vals[i];
        static const char *const ck[] = {"value", "requestPolicy", NULL};
        if (dkeys(c, v, ck)) return -1;
        if (dqty(c, v, "value", true, &cp->value, NULL)) return -1;
        const ynode *rp;
        if (dmap(c, v, "requestPolicy", 10, &rp)) return -1;
        if (rp) {
            size_t m2 = dpush(c, ".requestPolicy");
            static const char *const rk[] = {"default", "validValues", "validRange", NULL};
            if (dkeys(c, rp, rk)) return -1;
            cp->has_policy = true;
            if (dqty(c, rp, "default", false, &cp->def, &cp->has_default)) return -1;
            const ynode *vv, *vr;
            if (dseq(c, rp, "validValues", MAX_VALID_VALUES, &vv)) return -1;
            if (dmap(c, rp, "validRange", 10, &vr)) return -1;
            if (vv && vr) return derr(c, rp, "validValues and validRange are mutually exclusive");
            if (vv) {
                cp->policy = CAP_POLICY_VALID_VALUES;
                cp->valid_values = ARENA_NEW(c->a, quantity, vv->n ? vv->n : 1);
                cp->nvalid_values = vv->n;
                for (size_t j = 0; j < vv->n; j++) {
                    size_t m3 = dpush(c, ".validValues[%zu]", j);
                    if (dqty_node(c, vv->vals[j], &cp->valid_values[j])) return -1;
                    if (j > 0 && quantity_cmp(&cp->valid_values[j - 1], &cp->valid_values[j]) >= 0)
                        return derr(c, vv->vals[j], "values must be sorted in ascending order without duplicates");
                    dpop(c, m3);
                }
            } else if (vr) {
                size_t m3 = dpush(c, ".validRange");
                static const char *const vk[] = {"min", "max", "step", NULL};
                if (dkeys(c, vr, vk)) return -1;
                cp->policy = CAP_POLICY_VALID_RANGE;
                if (dqty(c, vr, "min", true, &cp->range_min, NULL)) return -1;
                if (dqty(c, vr, "max", false, &cp->range_max, &cp->has_range_max)) return -1;
                if (dqty(c, vr, "step", false, &cp->range_step, &cp->has_range_step)) return -1;
                if (cp->has_range_step && quantity_sign(&cp->range_step) <= 0)
                    return derr(c, ymap_get(vr, "step"), "must be greater than zero");
                dpop(c, m3);
            }
            dpop(c, m2);
        }
        dpop(c, m);
    }
    return 0;
}

/* counters: map name -> {value}. */
static int dcounters(dctx *c, const ynode *map, k8s_counter **out, size_t *n) {
    const ynode *mp;
    *out = NULL;
    *n = 0;
    if (dmap(c, map, "counters", MAX_COUNTERS, &mp)) return -1;
    if (!mp) return 0;
    k8s_counter *ct = ARENA_NEW(c->a, k8s_counter, mp->n ? mp->n : 1);
    for (size_t i = 0; i < mp->n; i++) {
        size_t m = dpush(c, ".counters");
        if (y_str(mp->keys[i], dwhat(c), &ct[i].name, c->err)) return -1;
        dpop(c, m);
        m = dpush(c, ".counters.%s", ct[i].name);
        if (!k8s_is_c_identifier(ct[i].name) && !k8s_is_dns_label(ct[i].name))
            return derr(c, mp->keys[i], "invalid counter name");
        static const char *const ck[] = {"value", NULL};
        if (dkeys(c, mp->vals[i], ck)) return -1;
        if (dqty(c, mp->vals[i], "value", true, &ct[i].value, NULL)) return -1;
        dpop(c, m);
    }
    *out = ct;
    *n = mp->n;
    return 0;
}

/* sharedCounters / consumesCounters entries. */
static int dcounter_sets(dctx *c, const ynode *map, const char *key, const char *name_key, size_t max,
                         k8s_counter_set **out, size_t *n) {
    const ynode *seq;
    *out = NULL;
    *n = 0;
    if (dseq(c, map, key, max, &seq)) return -1;
    if (!seq) return 0;
    k8s_counter_set *cs = ARENA_NEW(c->a, k8s_counter_set, seq->n ? seq->n : 1);
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".%s[%zu]", key, i);
        const char *const allowed[] = {name_key, "counters", NULL};
        if (dkeys(c, seq->vals[i], allowed)) return -1;
        if (dstr(c, seq->vals[i], name_key, true, &cs[i].name)) return -1;
        if (dcheck_name(c, ymap_get(seq->vals[i], name_key), cs[i].name, k8s_is_dns_label, "a DNS label")) return -1;
        for (size_t j = 0; j < i; j++)
            if (cs[j].name == cs[i].name) return derr(c, seq->vals[i], "duplicate counter set '%s'", cs[i].name);
        if (dcounters(c, seq->vals[i], &cs[i].counters, &cs[i].ncounters)) return -1;
        dpop(c, m);
    }
    *out = cs;
    *n = seq->n;
    return 0;
}

static int dtaints(dctx *c, const ynode *dev, k8s_device *d) {
    const ynode *seq;
    if (dseq(c, dev, "taints", MAX_TAINTS, &seq)) return -1;
    if (!seq) return 0;
    d->taints = ARENA_NEW(c->a, k8s_taint, seq->n ? seq->n : 1);
    d->ntaints = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".taints[%zu]", i);
        static const char *const tk[] = {"key", "value", "effect", "timeAdded", NULL};
        const ynode *t = seq->vals[i];
        if (dkeys(c, t, tk)) return -1;
        if (dstr(c, t, "key", true, &d->taints[i].key)) return -1;
        if (dstr(c, t, "value", false, &d->taints[i].value)) return -1;
        if (dstr(c, t, "timeAdded", false, &d->taints[i].time_added)) return -1;
        const ynode *ef = ymap_get(t, "effect");
        if (y_is_null(ef)) return derr(c, t, "effect: required field is missing");
        size_t m2 = dpush(c, ".effect");
        if (dtaint_effect(c, ef, true, &d->taints[i].effect)) return -1;
        dpop(c, m2);
        dpop(c, m);
    }
    return 0;
}

/* Node scoping of a slice or (perDeviceNodeSelection) a device: exactly one
 * of nodeName, nodeSelector, allNodes (and perDeviceNodeSelection for slices). */
static int dscoping(dctx *c, const ynode *map, bool slice, const char **node_name, bool *has_sel,
                    k8s_node_selector *sel, bool *all_nodes, bool *has_per_dev, bool *per_dev, int *count) {
    *count = 0;
    if (dstr(c, map, "nodeName", false, node_name)) return -1;
    if (*node_name && **node_name) (*count)++;
    else *node_name = NULL;
    const ynode *ns = ymap_get(map, "nodeSelector");
    if (!y_is_null(ns)) {
        size_t m = dpush(c, ".nodeSelector");
        if (dnode_selector(c, ns, sel)) return -1;
        if (sel->nterms != 1) return derr(c, ns, "must have exactly one node selector term, has %zu", sel->nterms);
        dpop(c, m);
        *has_sel = true;
        (*count)++;
    }
    bool present;
    if (dbool(c, map, "allNodes", all_nodes, &present)) return -1;
    if (*all_nodes) (*count)++;
    if (slice) {
        if (dbool(c, map, "perDeviceNodeSelection", per_dev, has_per_dev)) return -1;
        if (*per_dev) (*count)++;
    }
    if (*count > 1)
        return derr(c, map, "exactly one of nodeName, nodeSelector, allNodes%s may be set",
                    slice ? ", perDeviceNodeSelection" : "");
    return 0;
}

static int ddevice(dctx *c, const ynode *dn, k8s_resource_slice *s, k8s_device *d) {
    static const char *const allowed[] = {"name", "attributes", "capacity", "consumesCounters", "taints",
                                          "bindsToNode", "bindingConditions", "bindingFailureConditions",
                                          "allowMultipleAllocations", "nodeName", "nodeSelector", "allNodes",
                                          "nodeAllocatableResourceMappings", NULL};
    if (dkeys(c, dn, allowed)) return -1;
    if (dstr(c, dn, "name", true, &d->name)) return -1;
    if (dcheck_name(c, ymap_get(dn, "name"), d->name, k8s_is_dns_label, "a DNS label")) return -1;
    if (dattributes(c, dn, s->driver, d)) return -1;
    if (dcapacities(c, dn, s->driver, d)) return -1;
    if (d->nattrs + d->ncaps > MAX_ATTRS_AND_CAPS)
        return derr(c, dn, "attributes and capacity together must have at most %d entries, have %zu",
                    MAX_ATTRS_AND_CAPS, d->nattrs + d->ncaps);
    if (dcounter_sets(c, dn, "consumesCounters", "counterSet", MAX_CONSUMES, &d->consumes, &d->nconsumes)) return -1;
    if (dtaints(c, dn, d)) return -1;
    if (dbool(c, dn, "bindsToNode", &d->binds_to_node, &d->has_binds_to_node)) return -1;
    if (dstrlist(c, dn, "bindingConditions", MAX_BINDING_CONDITIONS, &d->binding_conditions,
                 &d->nbinding_conditions))
        return -1;
    if (dstrlist(c, dn, "bindingFailureConditions", MAX_BINDING_CONDITIONS, &d->binding_failure_conditions,
                 &d->nbinding_failure_conditions))
        return -1;
    if (dbool(c, dn, "allowMultipleAllocations", &d->allow_multiple, &d->has_allow_multiple)) return -1;
    bool dummy_has = false, dummy = false;
    int count;
    if (dscoping(c, dn, false, &d->node_name, &d->has_node_selector, &d->node_selector, &d->all_nodes, &dummy_has,
                 &dummy, &count))
        return -1;
    if (s->per_device_node_selection && count != 1)
        return derr(c, dn, "with perDeviceNodeSelection, exactly one of nodeName, nodeSelector, allNodes must be set");
    if (!s->per_device_node_selection && count != 0)
        return derr(c, dn, "nodeName, nodeSelector and allNodes of a device need perDeviceNodeSelection: true in the slice");
    return 0;
}

int k8s_decode_resource_slice(dctx *c, const ynode *root) {
    static const char *const top[] = {"apiVersion", "kind", "metadata", "spec", NULL};
    if (dkeys(c, root, top)) return -1;
    k8s_resource_slice *s = ARENA_NEW(c->a, k8s_resource_slice, 1);
    if (dmeta(c, root, &s->meta, true)) return -1;
    if (dcheck_name(c, root, s->meta.name, k8s_is_dns_subdomain, "a DNS subdomain")) return -1;
    const ynode *spec;
    if (dmap(c, root, "spec", 100, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, ".spec");
    static const char *const sk[] = {"driver", "pool", "nodeName", "nodeSelector", "allNodes",
                                     "perDeviceNodeSelection", "devices", "sharedCounters", NULL};
    if (dkeys(c, spec, sk)) return -1;
    if (dstr(c, spec, "driver", true, &s->driver)) return -1;
    if (strlen(s->driver) > 63 || !k8s_is_dns_subdomain(s->driver))
        return derr(c, ymap_get(spec, "driver"), "invalid driver name '%s': must be a DNS subdomain of at most 63 characters",
                    s->driver);
    const ynode *pool;
    if (dmap(c, spec, "pool", 10, &pool)) return -1;
    if (!pool) return derr(c, spec, "pool: required field is missing");
    size_t mp = dpush(c, ".pool");
    static const char *const pk[] = {"name", "generation", "resourceSliceCount", NULL};
    if (dkeys(c, pool, pk)) return -1;
    if (dstr(c, pool, "name", true, &s->pool)) return -1;
    if (!*s->pool || strlen(s->pool) > 253) return derr(c, ymap_get(pool, "name"), "must be a non-empty name of at most 253 characters");
    if (dint(c, pool, "generation", false, &s->generation, NULL)) return -1;
    if (s->generation < 0) return derr(c, ymap_get(pool, "generation"), "must not be negative");
    if (dint(c, pool, "resourceSliceCount", true, &s->slice_count, NULL)) return -1;
    if (s->slice_count < 1) return derr(c, ymap_get(pool, "resourceSliceCount"), "must be at least 1");
    dpop(c, mp);
    int count;
    if (dscoping(c, spec, true, &s->node_name, &s->has_node_selector, &s->node_selector, &s->all_nodes,
                 &s->has_per_device_node_selection, &s->per_device_node_selection, &count))
        return -1;
    const ynode *devs;
    if (dseq(c, spec, "devices", MAX_DEVICES, &devs)) return -1;
    if (devs) {
        s->devices = ARENA_NEW(c->a, k8s_device, devs->n ? devs->n : 1);
        s->ndevices = devs->n;
        bool extras = false;
        for (size_t i = 0; i < devs->n; i++) {
            size_t md = dpush(c, ".devices[%zu]", i);
            if (ddevice(c, devs->vals[i], s, &s->devices[i])) return -1;
            for (size_t j = 0; j < i; j++)
                if (s->devices[j].name == s->devices[i].name)
                    return derr(c, devs->vals[i], "duplicate device name '%s'", s->devices[i].name);
            if (s->devices[i].ntaints || s->devices[i].nconsumes) extras = true;
            dpop(c, md);
        }
        if (extras && devs->n > MAX_DEVICES_WITH_EXTRAS)
            return derr(c, devs, "must have at most %d devices when devices use taints or consumesCounters, has %zu",
                        MAX_DEVICES_WITH_EXTRAS, devs->n);
    }
    if (dcounter_sets(c, spec, "sharedCounters", "name", MAX_COUNTER_SETS, &s->shared_counters, &s->nshared_counters))
        return -1;
    /* 1.35 on: "Only one of Devices and SharedCounters can be set"; 1.34 allowed both (k8s.io/api v0.34
     * resource/v1 types.go ResourceSliceSpec), the layout the NVIDIA driver publishes there */
    if (s->ndevices && s->nshared_counters && !c->o->allow_combined_slices)
        return derr(c, spec, "devices and sharedCounters are mutually exclusive in one slice");
    if (count == 0 && !s->nshared_counters)
        return derr(c, spec, "exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection must be set");
    dpop(c, m);
    k8s_objects_add(c->o, K8S_RESOURCE_SLICE, s);
    return 0;
}
