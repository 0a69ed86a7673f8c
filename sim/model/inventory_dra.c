/*
 * inventory_dra.c -- a GPU node as the NVIDIA DRA driver (gpu.nvidia.com)
 * publishes it: ResourceSlices in the format of the chosen driver release
 * (model/dra_driver.c) on the chosen Kubernetes version.
 *
 * Slice layouts (pool name = node name; cmd/gpu-kubelet-plugin/driver.go):
 *  - MIG off / static MIG ("legacy", publishResources): one slice with every
 *    device (more slices only beyond the API's 128 devices per slice). Static
 *    MIG publishes only the MIG devices, with uuid and memorySlice<i>
 *    capacities. The driver fills the slice from a Go map, so devices come in
 *    an arbitrary order: drasim draws it from the run's seed (deviceOrder:
 *    sorted keeps them sorted by name).
 *  - dynamic MIG (v25.12+), Kubernetes >= 1.35 "split" layout
 *    (generateSplitResourceSlices): counters-only slices (one counter set per
 *    GPU; drasim puts at most 8 in a slice, as the API requires, where the
 *    driver puts all), then one device-only slice per GPU in PCI bus ID
 *    order, devices sorted by name, with gpu-N (Hopper and later; on Ampere
 *    MIG is assumed on at plugin start, so no gpu-N) and every (profile,
 *    placement) pair as an abstract MIG device consuming counters.
 *  - dynamic MIG on Kubernetes 1.34 "combined" layout
 *    (generateCombinedResourceSlices): one slice per GPU holding its counter
 *    set and its devices.
 * Slice names are those the API server gives for the release's
 * resourceslice controller (dra_slice_name).
 *
 * Per-GPU identity (uuid, PCI bus ID, PCIe root) is synthesized
 * deterministically from the node name and GPU index; values are
 * illustrative, their format is the driver's. No device carries
 * resource.kubernetes.io/numaNode: no release publishes it for gpu or mig
 * devices (deviceinfo.go, mig.go; the bats attribute lists).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/dra_driver.h"
#include "model/inventory_parts.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define DRIVER "gpu.nvidia.com"
#define STD_DOMAIN "resource.kubernetes.io"
#define MAX_DEVICES_PER_SLICE 128
#define MAX_COUNTER_SETS_PER_SLICE 8

typedef VEC(k8s_attribute) attr_vec;
typedef VEC(k8s_capacity) cap_vec;
typedef VEC(k8s_counter) counter_vec;
typedef VEC(k8s_device) device_vec;

/* ---- values ------------------------------------------------------------------- */

static quantity q_int(int64_t v) { return quantity_from_int64(v, QF_DECIMAL_SI); }

static quantity q_mib(int64_t mib) {
    char buf[40];
    quantity q;
    const char *e;
    snprintf(buf, sizeof buf, "%lldMi", (long long)mib);
    if (quantity_parse(buf, strlen(buf), &q, &e)) q = quantity_from_int64(mib * 1024 * 1024, QF_BINARY_SI);
    return q;
}

static void attr_str(attr_vec *v, const char *domain, const char *id, const char *s) {
    VEC_PUSH(*v, ((k8s_attribute){.domain = intern(domain), .id = intern(id), .kind = ATTR_STRING, .s = intern(s)}));
}

static void attr_int(attr_vec *v, const char *domain, const char *id, int64_t i) {
    VEC_PUSH(*v, ((k8s_attribute){.domain = intern(domain), .id = intern(id), .kind = ATTR_INT, .i = i}));
}

static void attr_version(attr_vec *v, const char *id, const char *text) {
    k8s_attribute a = {.domain = intern(DRIVER), .id = intern(id), .kind = ATTR_VERSION, .s = intern(text)};
    const char *e;
    a.v_ok = semver_parse(text, strlen(text), false, &a.v, &e) == 0;
    VEC_PUSH(*v, a);
}

static void cap_add(cap_vec *v, const char *id, quantity q) {
    VEC_PUSH(*v, ((k8s_capacity){.domain = intern(DRIVER), .id = intern(id), .value = q}));
}

static void counter_add(counter_vec *v, const char *name, quantity q) {
    VEC_PUSH(*v, ((k8s_counter){intern(name), q}));
}

/* ---- per-GPU identity ------------------------------------------------------------- */

static uint64_t fnv1a(const char *s, uint64_t h) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

/* `digits` lower-case hex digits of v at p (as %0Nx); returns the end. */
static char *put_hex(char *p, uint64_t v, int digits) {
    for (int k = digits - 1; k >= 0; k--, v >>= 4) p[k] = "0123456789abcdef"[v & 15];
    return p + digits;
}

/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (or "MIG-...") from a seed text
 * (formatted by hand: 80,000 of them in a 10,000-node inventory, issue 31). */
static const char *fake_uuid(const char *prefix, const char *seed) {
    uint64_t a = fnv1a(seed, 0xcbf29ce484222325ULL), b = fnv1a(seed, a ^ 0x9e3779b97f4a7c15ULL);
    char buf[64];
    size_t n = strlen(prefix);
    if (n > 20) n = 20;   /* the prefixes are "GPU" and "MIG" */
    memcpy(buf, prefix, n);
    char *p = buf + n;
    *p++ = '-';
    p = put_hex(p, a >> 32, 8);
    *p++ = '-';
    p = put_hex(p, (a >> 16) & 0xffff, 4);
    *p++ = '-';
    p = put_hex(p, 0x4000 | (a & 0x0fff), 4);
    *p++ = '-';
    p = put_hex(p, 0x8000 | (b >> 48 & 0x3fff), 4);
    *p++ = '-';
    p = put_hex(p, b & 0xffffffffffffULL, 12);
    *p = 0;
    return intern(buf);
}

typedef struct gpu_identity {
    const char *uuid, *bus, *root;
    int index;                /* GPU index = minor number */
    attr_vec common;          /* attributes all its devices carry (common_attrs) */
} gpu_identity;

/* PCI bus numbers of an HGX 8-GPU baseboard; GPUs 8-15 repeat them in PCI
 * domain 0001 and so on, so bus IDs sort in GPU order (the order in which
 * the driver publishes dynamic-MIG slices: slices.Sorted over bus IDs). */
static gpu_identity identity(const char *node, int i) {
    static const unsigned hgx_bus[8] = {0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb};
    unsigned bus = hgx_bus[i % 8], domain = (unsigned)i / 8;
    char seed[160], buf[32];
    gpu_identity id = {0};
    size_t len = strlen(node);
    if (len < sizeof seed - 16 && i >= 0 && i < 1000) {   /* "%s/gpu-%d" by hand (the common case) */
        memcpy(seed, node, len);
        memcpy(seed + len, "/gpu-", 5);
        char *p = seed + len + 5;
        if (i >= 100) *p++ = (char)('0' + i / 100);
        if (i >= 10) *p++ = (char)('0' + i / 10 % 10);
        *p++ = (char)('0' + i % 10);
        *p = 0;
    } else {
        snprintf(seed, sizeof seed, "%s/gpu-%d", node, i);
    }
    id.uuid = fake_uuid("GPU", seed);
    if (domain <= 0xffff) {   /* "%04x:%02x:00.0" and "pci%04x:%02x" by hand (bus < 0x100) */
        char *p = put_hex(buf, domain, 4);
        *p++ = ':';
        p = put_hex(p, bus, 2);
        memcpy(p, ":00.0", 6);
        id.bus = intern(buf);
        memcpy(buf, "pci", 3);
        p = put_hex(buf + 3, domain, 4);
        *p++ = ':';
        put_hex(p, (bus & 0xf0) ? bus - 3 : bus, 2)[0] = 0;
        id.root = intern(buf);
    } else {
        snprintf(buf, sizeof buf, "%04x:%02x:00.0", domain, bus);
        id.bus = intern(buf);
        snprintf(buf, sizeof buf, "pci%04x:%02x", domain, (bus & 0xf0) ? bus - 3 : bus);
        id.root = intern(buf);
    }
    id.index = i;
    return id;
}

/* Attributes every gpu/mig device of a GPU carries (architecture ...
 * pcieRoot), as the release publishes them (deviceinfo.go of each tag):
 * PCI bus ID as resource.kubernetes.io/pciBusID from v25.12, as the driver's
 * pcieBusID before; addressingMode from v25.12 ("None": what NVML reports on
 * x86 without HMM/ATS, as in the A30 slice of PR #1018). */
static void common_attrs(attr_vec *v, const node_gpus *g, const gpu_identity *id) {
    if (id->common.len) {   /* computed once per GPU */
        VEC_RESERVE(*v, v->len + id->common.len);
        memcpy(v->data + v->len, id->common.data, id->common.len * sizeof *v->data);
        v->len += id->common.len;
        return;
    }
    const gpu_model *m = g->model;
    dra_driver_version dv = g->pub->driver;
    char cc[32];
    snprintf(cc, sizeof cc, "%d.%d.0", m->cc_major, m->cc_minor);
    if (dra_driver_has_addressing_mode(dv)) attr_str(v, DRIVER, "addressingMode", "None");
    attr_str(v, DRIVER, "architecture", m->architecture);
    attr_str(v, DRIVER, "brand", m->brand);
    attr_version(v, "cudaComputeCapability", cc);
    attr_version(v, "cudaDriverVersion", g->cuda_version);
    attr_version(v, "driverVersion", g->driver_version);
    attr_str(v, DRIVER, "productName", m->product_name);
    if (dra_driver_std_pci_bus_id(dv)) attr_str(v, STD_DOMAIN, "pciBusID", id->bus);
    else attr_str(v, DRIVER, "pcieBusID", id->bus);
    attr_str(v, STD_DOMAIN, "pcieRoot", id->root);
}

/* ---- devices -------------------------------------------------------------------------- */

/* Profile text in device names: dots removed, lower case, others outside [a-z0-9-] -> '-'. */
static void name_profile(const char *profile, char *buf, size_t n) {
    size_t k = 0;
    for (const char *c = profile; *c && k + 1 < n; c++) {
        char ch = *c;
        if (ch == '.') continue;
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) ch = '-';
        buf[k++] = ch;
    }
    buf[k] = 0;
}

/* gpu-<minor>-mig-<profile>-<GI profile ID>-<start> (v25.12+, mig.go
 * ToCanonicalName) or gpu-<minor>-mig-<GI profile ID>-<start>-<size> (v25.3,
 * v25.8 deviceinfo.go CanonicalName). */
static const char *mig_device_name(dra_driver_version v, int gpu, const mig_profile *p, int start) {
    char np[64], buf[128];
    if (dra_driver_profile_in_mig_names(v)) {
        name_profile(p->name, np, sizeof np);
        snprintf(buf, sizeof buf, "gpu-%d-mig-%s-%d-%d", gpu, np, p->id, start);
    } else {
        snprintf(buf, sizeof buf, "gpu-%d-mig-%d-%d-%d", gpu, p->id, start, p->size);
    }
    return intern(buf);
}

/* The seven engine/memory capacities (or counters) of a MIG profile-like value set. */
typedef struct engine_values {
    int64_t memory_mib;
    int sm, ce, dec, enc, jpg, ofa;
} engine_values;

static engine_values profile_values(const mig_profile *p) {
    return (engine_values){p->memory_mib, p->multiprocessors, p->copy_engines, p->decoders, p->encoders, p->jpeg, p->ofa};
}

/* Per key, the maximum over the model's profiles (what the driver publishes for gpu-N in dynamic MIG). */
static engine_values max_values(const gpu_model *m) {
    engine_values v = {0};
    for (int i = 0; i < m->nprofiles; i++) {
        engine_values p = profile_values(&m->profiles[i]);
#define MX(f) if (p.f > v.f) v.f = p.f
        MX(memory_mib); MX(sm); MX(ce); MX(dec); MX(enc); MX(jpg); MX(ofa);
#undef MX
    }
    return v;
}

static void engine_caps(cap_vec *c, const engine_values *v) {
    cap_add(c, "copyEngines", q_int(v->ce));
    cap_add(c, "decoders", q_int(v->dec));
    cap_add(c, "encoders", q_int(v->enc));
    cap_add(c, "jpegEngines", q_int(v->jpg));
    cap_add(c, "memory", q_mib(v->memory_mib));
    cap_add(c, "multiprocessors", q_int(v->sm));
    cap_add(c, "ofaEngines", q_int(v->ofa));
}

/* Counters named as the driver converts capacity names (camelCase -> DNS label),
 * plus memory-slice-<i> = 1 for slices [first, first+n). */
static void engine_counters(counter_vec *c, const engine_values *v, int first, int n) {
    counter_add(c, "copy-engines", q_int(v->ce));
    counter_add(c, "decoders", q_int(v->dec));
    counter_add(c, "encoders", q_int(v->enc));
    counter_add(c, "jpeg-engines", q_int(v->jpg));
    counter_add(c, "memory", q_mib(v->memory_mib));
    for (int i = first; i < first + n; i++) {
        char name[32];
        snprintf(name, sizeof name, "memory-slice-%d", i);
        counter_add(c, name, q_int(1));
    }
    counter_add(c, "multiprocessors", q_int(v->sm));
    counter_add(c, "ofa-engines", q_int(v->ofa));
}

static const char *counter_set_name(int gpu) {
    char buf[48];
    snprintf(buf, sizeof buf, "gpu-%d-counter-set", gpu);
    return intern(buf);
}

/* ---- sharing equal arrays ---------------------------------------------------------
 * Many devices carry equal attribute, capacity or counter arrays (every
 * 1g.10gb on every H100, the seven 1g devices of one GPU in dynamic MIG).
 * Equal arrays are stored once: a hash table maps contents to the first copy.
 * Arrays in an inventory are therefore shared and read-only. */

enum { DD_ATTRS, DD_CAPS, DD_COUNTERS, DD_CSETS };

/* A node's slices depend on the node only through its name and its GPUs'
 * identity (uuid, parentUUID): the first node of each GPU shape is built in
 * full and kept as a template; the others copy it (see dra_node_slices). */
enum { OWN_NONE, OWN_FULL, OWN_DYNAMIC_MIG, OWN_STATIC_MIG };
typedef struct node_template {
    node_gpus g;
    k8s_resource_slice *slices;   /* as built for the first node */
    size_t nslices;
    uint8_t *dev_gpu, *dev_own;   /* per device of the slices in order: GPU index, OWN_* */
} node_template;

struct dra_dedup {
    struct dd_entry { uint64_t h; int kind; size_t n; const void *p; } *e;
    size_t cap, len;
    VEC(node_template) tmpl;
};

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL; }

static uint64_t q_hash(uint64_t h, const quantity *q) {
    h = mix(h, (uint64_t)q->mant);
    h = mix(h, (uint64_t)(q->mant >> 64));
    return mix(h, (uint64_t)q->exp10 << 16 | q->format << 8 | q->is_dec);
}

static bool q_same(const quantity *a, const quantity *b) {
    return a->mant == b->mant && a->exp10 == b->exp10 && a->format == b->format && a->is_dec == b->is_dec;
}

static uint64_t dd_hash(int kind, const void *p, size_t n) {
    uint64_t h = mix(0xcbf29ce484222325ULL, (uint64_t)kind << 32 | n);
    for (size_t i = 0; i < n; i++) {
        if (kind == DD_ATTRS) {
            const k8s_attribute *a = (const k8s_attribute *)p + i;
            h = mix(mix(mix(h, (uintptr_t)a->domain), (uintptr_t)a->id), (uintptr_t)a->s);
            h = mix(mix(h, (uint64_t)a->i), (uint64_t)a->kind << 1 | a->b);
        } else if (kind == DD_CAPS) {
            const k8s_capacity *c = (const k8s_capacity *)p + i;
            h = q_hash(mix(mix(h, (uintptr_t)c->domain), (uintptr_t)c->id), &c->value);
        } else if (kind == DD_COUNTERS) {
            const k8s_counter *c = (const k8s_counter *)p + i;
            h = q_hash(mix(h, (uintptr_t)c->name), &c->value);
        } else {   /* counter sets whose counter arrays are already shared */
            const k8s_counter_set *c = (const k8s_counter_set *)p + i;
            h = mix(mix(mix(h, (uintptr_t)c->name), (uintptr_t)c->counters), c->ncounters);
        }
    }
    return h;
}

/* Field-wise equality (struct padding is not compared). Strings are interned. */
static bool dd_equal(int kind, const void *x, const void *y, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (kind == DD_ATTRS) {
            const k8s_attribute *a = (const k8s_attribute *)x + i, *b = (const k8s_attribute *)y + i;
            if (a->domain != b->domain || a->id != b->id || a->kind != b->kind || a->i != b->i || a->b != b->b ||
                a->s != b->s || a->v_ok != b->v_ok)
                return false;
        } else if (kind == DD_CAPS) {
            const k8s_capacity *a = (const k8s_capacity *)x + i, *b = (const k8s_capacity *)y + i;
            if (a->domain != b->domain || a->id != b->id || !q_same(&a->value, &b->value)) return false;
        } else if (kind == DD_COUNTERS) {
            const k8s_counter *a = (const k8s_counter *)x + i, *b = (const k8s_counter *)y + i;
            if (a->name != b->name || !q_same(&a->value, &b->value)) return false;
        } else {
            const k8s_counter_set *a = (const k8s_counter_set *)x + i, *b = (const k8s_counter_set *)y + i;
            if (a->name != b->name || a->counters != b->counters || a->ncounters != b->ncounters) return false;
        }
    }
    return true;
}

dra_dedup *dra_dedup_new(void) { return xcalloc(1, sizeof(dra_dedup)); }

void dra_dedup_free(dra_dedup *dd) {
    if (!dd) return;
    for (size_t i = 0; i < dd->tmpl.len; i++) {
        free(dd->tmpl.data[i].slices);
        free(dd->tmpl.data[i].dev_gpu);
        free(dd->tmpl.data[i].dev_own);
    }
    VEC_FREE(dd->tmpl);
    free(dd->e);
    free(dd);
}

static void dd_insert(dra_dedup *dd, struct dd_entry e) {
    size_t i = e.h & (dd->cap - 1);
    while (dd->e[i].p) i = (i + 1) & (dd->cap - 1);
    dd->e[i] = e;
}

/* The stored copy of array p[0..n) (elem bytes each), made on first sight. */
static const void *dd_share(dra_dedup *dd, arena *a, int kind, const void *p, size_t n, size_t elem) {
    if (n == 0) return NULL;
    uint64_t h = dd_hash(kind, p, n);
    if (dd->cap) {
        for (size_t i = h & (dd->cap - 1); dd->e[i].p; i = (i + 1) & (dd->cap - 1)) {
            const struct dd_entry *e = &dd->e[i];
            if (e->h == h && e->kind == kind && e->n == n && dd_equal(kind, e->p, p, n)) return e->p;
        }
    }
    if (2 * (dd->len + 1) > dd->cap) {   /* keep the load factor under 1/2 */
        struct dd_entry *old = dd->e;
        size_t oldcap = dd->cap;
        dd->cap = oldcap ? oldcap * 2 : 256;
        dd->e = xcalloc(dd->cap, sizeof *dd->e);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].p) dd_insert(dd, old[i]);
        free(old);
    }
    const void *copy = arena_memdup(a, p, n * elem);
    dd_insert(dd, (struct dd_entry){h, kind, n, copy});
    dd->len++;
    return copy;
}

typedef struct dra_ctx {
    arena *a;
    dra_dedup *dd;
} dra_ctx;

/* Move the temporary vectors into device d (shared, arena-owned copies):
 * av holds the attributes devices share (same on every node), own the
 * per-GPU identity ones that follow them (uuid, parentUUID). */
static void finish_device(dra_ctx *x, k8s_device *d, attr_vec *av, attr_vec *own, cap_vec *cv, counter_vec *consumes,
                          int gpu) {
    d->attrs = (k8s_attribute *)dd_share(x->dd, x->a, DD_ATTRS, av->data, av->len, sizeof *av->data);
    d->nattrs = av->len;
    d->attrs_own = dd_share(x->dd, x->a, DD_ATTRS, own->data, own->len, sizeof *own->data);
    d->nattrs_own = own->len;
    d->caps = (k8s_capacity *)dd_share(x->dd, x->a, DD_CAPS, cv->data, cv->len, sizeof *cv->data);
    d->ncaps = cv->len;
    if (consumes) {
        k8s_counter_set cs = {counter_set_name(gpu), NULL, consumes->len};
        cs.counters =
            (k8s_counter *)dd_share(x->dd, x->a, DD_COUNTERS, consumes->data, consumes->len, sizeof *consumes->data);
        d->consumes = (k8s_counter_set *)dd_share(x->dd, x->a, DD_CSETS, &cs, 1, sizeof cs);
        d->nconsumes = 1;
        consumes->len = 0;
    }
    av->len = own->len = cv->len = 0;
}

/* gpu-N: legacy (memory = physical total) or dynamic MIG (max-over-profiles, consumes everything). */
static void full_gpu_device(dra_ctx *x, const node_gpus *g, const gpu_model *m, int gpu, const gpu_identity *id,
                            bool dynamic, device_vec *out) {
    attr_vec av = {0}, own = {0};
    cap_vec cv = {0};
    counter_vec cons = {0};
    k8s_device d = {0};
    char name[32];
    snprintf(name, sizeof name, "gpu-%d", gpu);
    d.name = intern(name);
    common_attrs(&av, g, id);
    if (dra_driver_has_index_attrs(g->pub->driver)) {   /* v25.3: minor and index */
        attr_int(&av, DRIVER, "index", id->index);
        attr_int(&av, DRIVER, "minor", id->index);
    }
    attr_str(&av, DRIVER, "type", "gpu");
    attr_str(&own, DRIVER, "uuid", id->uuid);
    if (dynamic) {
        engine_values mv = max_values(m);
        engine_caps(&cv, &mv);
        engine_counters(&cons, &mv, 0, m->mem_slices_total);
    } else {
        cap_add(&cv, "memory", q_mib(m->memory_mib));
    }
    finish_device(x, &d, &av, &own, &cv, dynamic ? &cons : NULL, gpu);
    VEC_PUSH(*out, d);
    VEC_FREE(av);
    VEC_FREE(own);
    VEC_FREE(cv);
    VEC_FREE(cons);
}

/* A MIG device: static (uuid, memorySlice<i> capacities) or abstract (consumes counters). */
static void mig_device(dra_ctx *x, const node_gpus *g, const gpu_model *m, int gpu, const gpu_identity *id,
                       const mig_profile *p, int start, int mig_index, bool dynamic, device_vec *out) {
    attr_vec av = {0}, own = {0};
    cap_vec cv = {0};
    counter_vec cons = {0};
    k8s_device d = {0};
    d.name = mig_device_name(g->pub->driver, gpu, p, start);
    common_attrs(&av, g, id);
    if (dra_driver_has_index_attrs(g->pub->driver)) {   /* v25.3: index and parentIndex */
        attr_int(&av, DRIVER, "index", mig_index);
        attr_int(&av, DRIVER, "parentIndex", id->index);
    }
    attr_str(&av, DRIVER, "type", "mig");
    attr_str(&av, DRIVER, "profile", p->name);
    attr_str(&own, DRIVER, "parentUUID", id->uuid);
    if (!dynamic) {
        char seed[200];
        snprintf(seed, sizeof seed, "%s/%s", id->uuid, d.name);
        attr_str(&own, DRIVER, "uuid", fake_uuid("MIG", seed));
    }
    engine_values v = profile_values(p);
    engine_caps(&cv, &v);
    if (dynamic) {
        engine_counters(&cons, &v, start, p->size);
    } else {
        for (int i = start; i < start + p->size; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "memorySlice%d", i);
            cap_add(&cv, nm, q_int(1));
        }
    }
    finish_device(x, &d, &av, &own, &cv, dynamic ? &cons : NULL, gpu);
    VEC_PUSH(*out, d);
    VEC_FREE(av);
    VEC_FREE(own);
    VEC_FREE(cv);
    VEC_FREE(cons);
}

static int by_device_name(const void *x, const void *y) {
    return strcmp(((const k8s_device *)x)->name, ((const k8s_device *)y)->name);
}

/* ---- slices ------------------------------------------------------------------------------ */

/* A slice of the node's pool; dra_node_slices names it once the count is known. */
static k8s_resource_slice new_slice(const char *node) {
    k8s_resource_slice s = {0};
    s.driver = intern(DRIVER);
    s.pool = node;
    s.node_name = node;
    s.generation = 1;
    return s;
}

/* Sort the devices and cut them into slices of at most MAX_DEVICES_PER_SLICE. */
static void push_device_slices(arena *a, const char *node, device_vec *devs, slice_vec *out) {
    if (devs->len > 1) qsort(devs->data, devs->len, sizeof *devs->data, by_device_name);
    for (size_t off = 0; off < devs->len; off += MAX_DEVICES_PER_SLICE) {
        size_t n = devs->len - off < MAX_DEVICES_PER_SLICE ? devs->len - off : MAX_DEVICES_PER_SLICE;
        k8s_resource_slice s = new_slice(node);
        s.devices = arena_memdup(a, devs->data + off, n * sizeof *devs->data);
        s.ndevices = n;
        VEC_PUSH(*out, s);
    }
}

/* One GPU's dynamic-MIG devices: gpu-N (Hopper and later) and every
 * (profile, placement), sorted by name. */
static void dynamic_gpu_devices(dra_ctx *x, const node_gpus *g, const gpu_identity *id, device_vec *devs) {
    const gpu_model *m = g->model;
    devs->len = 0;
    if (m->cc_major >= 9) full_gpu_device(x, g, m, id->index, id, true, devs);   /* Ampere cannot toggle MIG without a reset */
    for (int k = 0; k < m->nprofiles; k++) {
        const mig_profile *p = &m->profiles[k];
        for (int s = 0; s < p->nstarts; s++) mig_device(x, g, m, id->index, id, p, p->starts[s], 0, true, devs);
    }
}

/* The counter set of GPU i (stored once per distinct content). */
static void gpu_counter_set(dra_ctx *x, const gpu_model *m, int i, counter_vec *cv, k8s_counter_set *out) {
    engine_values mv = max_values(m);
    cv->len = 0;
    engine_counters(cv, &mv, 0, m->mem_slices_total);
    out->name = counter_set_name(i);
    out->counters = (k8s_counter *)dd_share(x->dd, x->a, DD_COUNTERS, cv->data, cv->len, sizeof *cv->data);
    out->ncounters = cv->len;
}

static void build_node_slices(arena *a, dra_dedup *dd, const char *node, const node_gpus *g, slice_vec *out) {
    const gpu_model *m = g->model;
    dra_ctx x = {a, dd};
    slice_vec mine = {0};
    device_vec devs = {0};
    counter_vec cv = {0};
    if (g->mig != MIG_DYNAMIC) {
        for (int i = 0; i < g->count; i++) {
            gpu_identity id = identity(node, i);
            common_attrs(&id.common, g, &id);
            if (g->mig == MIG_OFF) {
                full_gpu_device(&x, g, m, i, &id, false, &devs);
            } else {
                for (int k = 0; k < g->layout->nprofiles; k++)
                    mig_device(&x, g, m, i, &id, g->placements[k].profile, g->placements[k].start, k, false, &devs);
            }
            VEC_FREE(id.common);
        }
        push_device_slices(a, node, &devs, &mine);
    } else if (g->pub->k8s_minor < 35) {
        /* 1.34: one slice per GPU with its counter set and its devices */
        for (int i = 0; i < g->count; i++) {
            gpu_identity id = identity(node, i);
            common_attrs(&id.common, g, &id);
            dynamic_gpu_devices(&x, g, &id, &devs);
            VEC_FREE(id.common);
            size_t first = mine.len;
            push_device_slices(a, node, &devs, &mine);
            k8s_resource_slice *s = &mine.data[first];
            s->shared_counters = ARENA_NEW(a, k8s_counter_set, 1);
            s->nshared_counters = 1;
            gpu_counter_set(&x, m, i, &cv, s->shared_counters);
        }
    } else {
        /* counters-only slices first */
        for (int i = 0; i < g->count; i += MAX_COUNTER_SETS_PER_SLICE) {
            int n = g->count - i < MAX_COUNTER_SETS_PER_SLICE ? g->count - i : MAX_COUNTER_SETS_PER_SLICE;
            k8s_resource_slice s = new_slice(node);
            s.shared_counters = ARENA_NEW(a, k8s_counter_set, n);
            s.nshared_counters = (size_t)n;
            for (int k = 0; k < n; k++) gpu_counter_set(&x, m, i + k, &cv, &s.shared_counters[k]);
            VEC_PUSH(mine, s);
        }
        /* then one device slice per GPU, in PCI bus ID order (= GPU order here) */
        for (int i = 0; i < g->count; i++) {
            gpu_identity id = identity(node, i);
            common_attrs(&id.common, g, &id);
            dynamic_gpu_devices(&x, g, &id, &devs);
            VEC_FREE(id.common);
            push_device_slices(a, node, &devs, &mine);
        }
    }
    for (size_t i = 0; i < mine.len; i++) {
        mine.data[i].slice_count = (int64_t)mine.len;
        VEC_PUSH(*out, mine.data[i]);
    }
    VEC_FREE(mine);
    VEC_FREE(devs);
    VEC_FREE(cv);
}

/* ---- node templates -------------------------------------------------------------------------- */

static bool same_shape(const node_gpus *x, const node_gpus *y) {
    return x->model == y->model && x->count == y->count && x->mig == y->mig && x->layout == y->layout &&
           x->placements == y->placements && x->driver_version == y->driver_version &&
           x->cuda_version == y->cuda_version && x->pub == y->pub;
}

/* GPU index of a device name "gpu-<i>..." (every device this driver model publishes). */
static int device_gpu(const char *name) { return atoi(name + 4); }

/* The own-attribute kind (OWN_*) of a template device. */
static uint8_t device_own(const k8s_device *d) {
    if (d->nattrs_own == 0) return OWN_NONE;
    if (d->attrs_own[0].id == intern("uuid")) return OWN_FULL;
    return d->nattrs_own == 2 ? OWN_STATIC_MIG : OWN_DYNAMIC_MIG;
}

/* The one-attribute array {name: uuid} of a GPU (stored once per content). */
static const k8s_attribute *one_attr(dra_ctx *x, const char *name, const char *uuid) {
    attr_vec v = {0};
    attr_str(&v, DRIVER, name, uuid);
    const k8s_attribute *a = dd_share(x->dd, x->a, DD_ATTRS, v.data, 1, sizeof *v.data);
    VEC_FREE(v);
    return a;
}

/* The identity attributes of device d (template kind `own`) on GPU `id`;
 * *full_own and *mig_own ({uuid}, {parentUUID} of that GPU) are made on
 * first use: a node of full GPUs needs no parentUUID array and a static-MIG
 * node neither (issue 31: 80,000 unused arrays on 10,000 H100 nodes). */
static void own_attrs(dra_ctx *x, k8s_device *d, uint8_t own, const gpu_identity *id, const k8s_attribute **full_own,
                      const k8s_attribute **mig_own) {
    if (own == OWN_NONE) {
        d->attrs_own = NULL;
        d->nattrs_own = 0;
    } else if (own == OWN_FULL) {
        if (!*full_own) *full_own = one_attr(x, "uuid", id->uuid);
        d->attrs_own = *full_own;
        d->nattrs_own = 1;
    } else if (own == OWN_DYNAMIC_MIG) {
        if (!*mig_own) *mig_own = one_attr(x, "parentUUID", id->uuid);
        d->attrs_own = *mig_own;
        d->nattrs_own = 1;
    } else {
        attr_vec v = {0};
        char seed[200];
        attr_str(&v, DRIVER, "parentUUID", id->uuid);
        snprintf(seed, sizeof seed, "%s/%s", id->uuid, d->name);
        attr_str(&v, DRIVER, "uuid", fake_uuid("MIG", seed));
        d->attrs_own = dd_share(x->dd, x->a, DD_ATTRS, v.data, v.len, sizeof *v.data);
        d->nattrs_own = v.len;
        VEC_FREE(v);
    }
}

/* Node `node` as a copy of template t: its own slice names, pool and identity. */
static void copy_template(arena *a, dra_dedup *dd, const node_template *t, const char *node, slice_vec *out) {
    dra_ctx x = {a, dd};
    int n = t->g.count;
    gpu_identity *ids = xcalloc((size_t)n, sizeof *ids);
    const k8s_attribute **full_own = xcalloc((size_t)n, sizeof *full_own), **mig_own = xcalloc((size_t)n, sizeof *mig_own);
    for (int i = 0; i < n; i++) ids[i] = identity(node, i);
    size_t k = 0;
    for (size_t si = 0; si < t->nslices; si++) {
        const k8s_resource_slice *ts = &t->slices[si];
        k8s_resource_slice s = new_slice(node);
        s.slice_count = ts->slice_count;
        if (ts->nshared_counters) {
            s.shared_counters = arena_memdup(a, ts->shared_counters, ts->nshared_counters * sizeof *ts->shared_counters);
            s.nshared_counters = ts->nshared_counters;
        }
        if (ts->ndevices) {
            s.devices = arena_memdup(a, ts->devices, ts->ndevices * sizeof *ts->devices);
            s.ndevices = ts->ndevices;
            for (size_t d = 0; d < s.ndevices; d++, k++) {
                int gi = t->dev_gpu[k];
                own_attrs(&x, &s.devices[d], t->dev_own[k], &ids[gi], &full_own[gi], &mig_own[gi]);
            }
        }
        VEC_PUSH(*out, s);
    }
    free(ids);
    free(full_own);
    free(mig_own);
}

/* Names and device order of the node's slices out[first..): the API
 * server's names for the release's controller, and (legacy slices, unless
 * deviceOrder: sorted) the devices in an order drawn from the seed: the
 * driver fills these slices from a Go map (driver.go publishResources). */
static void finish_node(arena *a, const char *node, const node_gpus *g, uint64_t seed, bool fresh, slice_vec *out,
                        size_t first) {
    rng base, r;
    rng_seed(&base, seed);
    rng_fork(&base, rng_name_tag(node), &r);
    size_t n = out->len - first;
    for (size_t i = 0; i < n; i++) {
        char buf[80];
        dra_slice_name(buf, sizeof buf, g->pub->driver, node, DRIVER, i, n, &r);
        out->data[first + i].meta.name = intern(buf);
    }
    if (g->pub->sorted_devices || g->mig == MIG_DYNAMIC) return;
    for (size_t i = first; i < out->len; i++) {
        k8s_resource_slice *s = &out->data[i];
        if (s->ndevices < 2) continue;
        /* the template node's devices are the template's: shuffle a copy */
        if (fresh) s->devices = arena_memdup(a, s->devices, s->ndevices * sizeof *s->devices);
        for (size_t k = s->ndevices - 1; k > 0; k--) {
            size_t j = (size_t)rng_below(&r, k + 1);
            k8s_device t = s->devices[k];
            s->devices[k] = s->devices[j];
            s->devices[j] = t;
        }
    }
}

void dra_node_slices(arena *a, dra_dedup *dd, const gpu_catalog *cat, const char *node, const node_gpus *g,
                     uint64_t seed, slice_vec *out) {
    (void)cat;
    size_t first = out->len;
    for (size_t i = 0; i < dd->tmpl.len; i++)
        if (same_shape(&dd->tmpl.data[i].g, g)) {
            copy_template(a, dd, &dd->tmpl.data[i], node, out);
            finish_node(a, node, g, seed, false, out, first);
            return;
        }
    build_node_slices(a, dd, node, g, out);
    if (g->count > 256) {   /* GPU index must fit the template's bytes */
        finish_node(a, node, g, seed, false, out, first);
        return;
    }
    node_template t = {.g = *g, .nslices = out->len - first};
    t.slices = xmalloc((t.nslices ? t.nslices : 1) * sizeof *t.slices);
    if (t.nslices) memcpy(t.slices, out->data + first, t.nslices * sizeof *t.slices);
    size_t ndev = 0;
    for (size_t i = 0; i < t.nslices; i++) ndev += t.slices[i].ndevices;
    t.dev_gpu = xmalloc(ndev ? ndev : 1);
    t.dev_own = xmalloc(ndev ? ndev : 1);
    size_t k = 0;
    for (size_t i = 0; i < t.nslices; i++)
        for (size_t d = 0; d < t.slices[i].ndevices; d++, k++) {
            t.dev_gpu[k] = (uint8_t)device_gpu(t.slices[i].devices[d].name);
            t.dev_own[k] = device_own(&t.slices[i].devices[d]);
        }
    VEC_PUSH(dd->tmpl, t);
    finish_node(a, node, g, seed, true, out, first);
}
