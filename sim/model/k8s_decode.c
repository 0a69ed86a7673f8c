/*
 * k8s_decode.c -- entry points of the object decoder: documents and `kind: List`
 * wrappers, dispatch by apiVersion/kind, the object bag, and the field readers
 * and name rules every per-kind decoder uses.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "util/fileio.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "util/zip_entry.h"

/* ---- object bag ---------------------------------------------------------- */

void k8s_objects_init(k8s_objects *o) { memset(o, 0, sizeof *o); }

void k8s_objects_free(k8s_objects *o) {
    yfile_list_free(&o->files);
    VEC_FREE(o->all);
    VEC_FREE(o->classes);
    VEC_FREE(o->slices);
    VEC_FREE(o->claims);
    VEC_FREE(o->templates);
    VEC_FREE(o->nodes);
    VEC_FREE(o->pods);
    arena_free(&o->a);
}

void k8s_objects_add(k8s_objects *o, k8s_kind kind, void *obj) {
    VEC_PUSH(o->all, ((k8s_object_ref){kind, obj}));
    switch (kind) {
    case K8S_DEVICE_CLASS: VEC_PUSH(o->classes, obj); break;
    case K8S_RESOURCE_SLICE: VEC_PUSH(o->slices, obj); break;
    case K8S_RESOURCE_CLAIM: VEC_PUSH(o->claims, obj); break;
    case K8S_CLAIM_TEMPLATE: VEC_PUSH(o->templates, obj); break;
    case K8S_NODE: VEC_PUSH(o->nodes, obj); break;
    case K8S_POD: VEC_PUSH(o->pods, obj); break;
    }
}

k8s_device_class *k8s_find_class(const k8s_objects *o, const char *name) {
    name = intern(name);
    for (size_t i = o->classes.len; i-- > 0;)
        if (o->classes.data[i]->meta.name == name) return o->classes.data[i];
    return NULL;
}

k8s_node *k8s_find_node(const k8s_objects *o, const char *name) {
    name = intern(name);
    for (size_t i = o->nodes.len; i-- > 0;)
        if (o->nodes.data[i]->meta.name == name) return o->nodes.data[i];
    return NULL;
}

const char *k8s_kind_name(k8s_kind k) {
    switch (k) {
    case K8S_DEVICE_CLASS: return "DeviceClass";
    case K8S_RESOURCE_SLICE: return "ResourceSlice";
    case K8S_RESOURCE_CLAIM: return "ResourceClaim";
    case K8S_CLAIM_TEMPLATE: return "ResourceClaimTemplate";
    case K8S_NODE: return "Node";
    case K8S_POD: return "Pod";
    }
    return "?";
}

void k8s_split_qualified(const char *qname, const char *default_domain, const char **domain, const char **id) {
    const char *slash = strchr(qname, '/');
    if (slash) {
        *domain = intern_n(qname, (size_t)(slash - qname));
        *id = intern(slash + 1);
    } else {
        *domain = default_domain;
        *id = intern(qname);
    }
}

/* ---- documents ------------------------------------------------------------- */

typedef struct kind_entry {
    const char *api_version;
    const char *kind;
    k8s_kind k;
    int (*decode)(dctx *, const ynode *);
} kind_entry;

static const kind_entry kinds[] = {
    {"resource.k8s.io/v1", "DeviceClass", K8S_DEVICE_CLASS, k8s_decode_device_class},
    {"resource.k8s.io/v1", "ResourceSlice", K8S_RESOURCE_SLICE, k8s_decode_resource_slice},
    {"resource.k8s.io/v1", "ResourceClaim", K8S_RESOURCE_CLAIM, k8s_decode_resource_claim},
    {"resource.k8s.io/v1", "ResourceClaimTemplate", K8S_CLAIM_TEMPLATE, k8s_decode_claim_template},
    {"v1", "Node", K8S_NODE, k8s_decode_core_node},
    {"v1", "Pod", K8S_POD, k8s_decode_pod},
};

static int decode_object(k8s_objects *o, const ynode *root, strbuf *err, int depth);

/* A KAI-Scheduler snapshot: snapshot.json, the one file in the ZIP the
 * scheduler's snapshot plugin serves at /get-snapshot ({config,
 * schedulerParams, rawObjects: {pods, nodes, queues, podGroups, ...,
 * resourceClaims, resourceSlices, deviceClasses}}; NVIDIA/KAI-Scheduler
 * pkg/scheduler/plugins/snapshot/snapshot.go, v0.13.0). Its objects come from
 * informer caches, which drop apiVersion and kind: the list names the kind.
 * Queues, PodGroups and the other lists are not read (docs/STATE.md). */
static int decode_kai_snapshot(k8s_objects *o, const ynode *raw, strbuf *err) {
    static const struct { const char *list; size_t kind; } lists[] = {
        {"nodes", 4}, {"deviceClasses", 0}, {"resourceSlices", 1}, {"resourceClaims", 2}, {"pods", 5}};
    if (y_expect(raw, YN_MAP, "rawObjects", err)) return -1;
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
        if (o->snapshot_inventory_only && kinds[lists[l].kind].k != K8S_NODE &&
            kinds[lists[l].kind].k != K8S_RESOURCE_SLICE && kinds[lists[l].kind].k != K8S_DEVICE_CLASS)
            continue;
        const ynode *items = ymap_get(raw, lists[l].list);
        if (y_is_null(items)) continue;
        if (y_expect(items, YN_SEQ, lists[l].list, err)) return -1;
        for (size_t i = 0; i < items->n; i++) {
            const ynode *it = items->vals[i];
            if (y_expect(it, YN_MAP, lists[l].list, err)) return -1;
            if (ymap_get(it, "kind")) {   /* a full object: checked as any other */
                if (decode_object(o, it, err, 1)) return -1;
                continue;
            }
            const kind_entry *k = &kinds[lists[l].kind];
            dctx c = {.o = o, .a = &o->a, .err = err, .kind = k->kind, .name = ""};
            if (k->decode(&c, it)) return -1;
        }
    }
    return 0;
}

/* One object (not a List) whose header the walker read: dispatch by kind. */
static int decode_one(void *ctx, const ynode *root, const k8s_header *h, strbuf *err) {
    k8s_objects *o = ctx;
    const char *kind = h->kind, *api = h->api;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (strcmp(kind, kinds[i].kind) != 0) continue;
        if (!api) { yerr(err, root, "%s without 'apiVersion'", kind); return -1; }
        bool beta = !strcmp(kinds[i].api_version, "resource.k8s.io/v1") &&
                    (!strcmp(api, "resource.k8s.io/v1beta1") || !strcmp(api, "resource.k8s.io/v1beta2"));
        if (strcmp(api, kinds[i].api_version) != 0 && !beta) {
            yerr(err, h->api_node, "%s: unsupported apiVersion '%s' (expected %s%s)", kind, api,
                 kinds[i].api_version, !strcmp(kinds[i].api_version, "resource.k8s.io/v1") ? ", v1beta2 or v1beta1" : "");
            return -1;
        }
        if (beta) root = k8s_convert_to_v1(&o->a, root, api, kind);
        dctx c = {.o = o, .a = &o->a, .err = err, .kind = kinds[i].kind, .name = ""};
        return kinds[i].decode(&c, root);
    }
    yerr(err, h->kind_node, "unsupported kind '%s' (expected DeviceClass, ResourceSlice, ResourceClaim, "
                            "ResourceClaimTemplate, Node, Pod or a List of them)", kind);
    return -1;
}

/* A document: a KAI snapshot (a map with rawObjects and no kind), an object
 * or a List of objects. */
static int decode_object(k8s_objects *o, const ynode *root, strbuf *err, int depth) {
    if (depth == 0 && root->kind == YN_MAP && !ymap_get(root, "kind")) {
        const ynode *raw = ymap_get(root, "rawObjects");
        if (raw) return decode_kai_snapshot(o, raw, err);
    }
    return k8s_walk_object(root, depth, decode_one, o, err);
}

int k8s_decode_node(k8s_objects *o, const ynode *root, strbuf *err) { return decode_object(o, root, err, 0); }

static int decode_doc(void *o, const ynode *doc, strbuf *err) { return decode_object(o, doc, err, 0); }

/* A KAI snapshot ZIP (what /get-snapshot serves): its entry snapshot.json,
 * named "ARCHIVE:snapshot.json" in messages. Taken when the file starts as a
 * ZIP does or its name ends in .zip (then a non-ZIP is refused as such). */
static int decode_zip(k8s_objects *o, const char *path, bool *was_zip, strbuf *err) {
    size_t pl = strlen(path);
    bool named = pl >= 4 && !strcmp(path + pl - 4, ".zip");
    unsigned char head[4] = {0};
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f) fclose(f);
    *was_zip = named || zip_looks_like_zip(head, got);
    if (!*was_zip) return 0;
    strbuf raw = {0}, json = {0};
    int rc = file_read_all(path, &raw, err);
    if (!rc) rc = zip_read_entry(path, (const unsigned char *)raw.s, raw.len, KAI_SNAPSHOT_ENTRY,
                                 file_max_input_bytes(), &json, err);
    sb_free(&raw);
    if (!rc) {
        strbuf name = {0};
        sb_printf(&name, "%s:%s", path, KAI_SNAPSHOT_ENTRY);
        rc = k8s_walk_load(&o->files, NULL, sb_str(&name), json.s ? json.s : "", json.len, decode_doc, o, err);
        sb_free(&name);
    }
    sb_free(&json);
    return rc;
}

int k8s_decode_file(k8s_objects *o, const char *path, strbuf *err) {
    bool was_zip = false;
    int rc = decode_zip(o, path, &was_zip, err);
    if (was_zip) return rc;
    return k8s_walk_load(&o->files, path, NULL, NULL, 0, decode_doc, o, err);
}

int k8s_decode_mem(k8s_objects *o, const char *name, const char *data, size_t len, strbuf *err) {
    return k8s_walk_load(&o->files, NULL, name, data, len, decode_doc, o, err);
}

/* ---- context and field readers ------------------------------------------------- */

/* Append S to the NUL-terminated text BUF[0..AT) of CAP bytes as snprintf
 * would: what fits, always terminated. Returns AT + strlen(S) (the untruncated
 * length). dpush and dwhat run for every field decoded, errors or not, and
 * snprintf was a sixth of `drasim admit`'s instructions (bench_admit.sh). */
static size_t put(char *buf, size_t cap, size_t at, const char *s, size_t len) {
    if (at < cap - 1) {
        size_t k = len < cap - 1 - at ? len : cap - 1 - at;
        memcpy(buf + at, s, k);
        buf[at + k] = 0;
    }
    return at + len;
}

/* Only %s and %zu (all dpush's formats); false for anything else. */
static bool simple_format(const char *fmt) {
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        if (p[1] == 's') p += 2;
        else if (p[1] == 'z' && p[2] == 'u') p += 3;
        else return false;
    }
    return true;
}

size_t dpush(dctx *c, const char *fmt, ...) {
    size_t mark = c->plen, n;
    va_list ap;
    va_start(ap, fmt);
    if (simple_format(fmt)) {   /* what vsnprintf would write, without it */
        size_t at = c->plen;
        for (const char *p = fmt; *p;) {
            const char *q = strchr(p, '%');
            if (!q) { at = put(c->path, sizeof c->path, at, p, strlen(p)); break; }
            at = put(c->path, sizeof c->path, at, p, (size_t)(q - p));
            if (q[1] == 's') {
                const char *a = va_arg(ap, const char *);
                if (!a) a = "(null)";
                at = put(c->path, sizeof c->path, at, a, strlen(a));
                p = q + 2;
            } else {
                char num[24];
                int k = snprintf(num, sizeof num, "%zu", va_arg(ap, size_t));
                at = put(c->path, sizeof c->path, at, num, (size_t)k);
                p = q + 3;
            }
        }
        n = at - c->plen;
    } else {
        int k = vsnprintf(c->path + c->plen, sizeof c->path - c->plen, fmt, ap);
        n = k > 0 ? (size_t)k : 0;
    }
    va_end(ap);
    if (n > 0) c->plen = c->plen + n < sizeof c->path ? c->plen + n : sizeof c->path - 1;
    return mark;
}

void dpop(dctx *c, size_t mark) {
    c->plen = mark;
    c->path[mark] = 0;
}

/* "Kind name: path", as snprintf("%s %s%s%s") would print it (see put). */
const char *dwhat(dctx *c) {
    const char *p = c->path[0] == '.' ? c->path + 1 : c->path;
    const char *kind = c->kind ? c->kind : "(null)";
    const char *name = c->name && *c->name ? c->name : "(unnamed)";
    size_t at = put(c->what, sizeof c->what, 0, kind, strlen(kind));
    at = put(c->what, sizeof c->what, at, " ", 1);
    at = put(c->what, sizeof c->what, at, name, strlen(name));
    if (*p) {
        at = put(c->what, sizeof c->what, at, ": ", 2);
        put(c->what, sizeof c->what, at, p, strlen(p));
    }
    return c->what;
}

int derr(dctx *c, const ynode *n, const char *fmt, ...) {
    strbuf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&msg, fmt, ap);
    va_end(ap);
    yerr(c->err, n, "%s: %s", dwhat(c), sb_str(&msg));
    sb_free(&msg);
    return -1;
}

int dkeys(dctx *c, const ynode *map, const char *const *allowed) {
    return ymap_check_keys(map, allowed, dwhat(c), c->err);
}

/* Look up key; NULL (and 0) when absent or null, error when required. */
static int dget(dctx *c, const ynode *map, const char *key, bool required, const ynode **out) {
    const ynode *v = ymap_get(map, key);
    *out = NULL;
    if (y_is_null(v)) {
        if (required) {
            size_t m = dpush(c, ".%s", key);
            derr(c, v ? v : map, "required field is missing");
            dpop(c, m);
            return -1;
        }
        return 0;
    }
    *out = v;
    return 0;
}

int dstr(dctx *c, const ynode *map, const char *key, bool required, const char **out) {
    const ynode *v;
    if (dget(c, map, key, required, &v)) return -1;
    if (!v || y_str_try(v, out)) return 0;   /* the field's path is built only for a message */
    size_t m = dpush(c, ".%s", key);
    int r = y_str(v, dwhat(c), out, c->err);
    dpop(c, m);
    return r;
}

int dint(dctx *c, const ynode *map, const char *key, bool required, int64_t *out, bool *present) {
    const ynode *v;
    if (dget(c, map, key, required, &v)) return -1;
    if (present) *present = v != NULL;
    if (!v || y_int_try(v, out)) return 0;
    size_t m = dpush(c, ".%s", key);
    int r = y_int(v, dwhat(c), out, c->err);
    dpop(c, m);
    return r;
}

int dbool(dctx *c, const ynode *map, const char *key, bool *out, bool *present) {
    const ynode *v;
    if (dget(c, map, key, false, &v)) return -1;
    if (present) *present = v != NULL;
    if (!v || y_bool_try(v, out)) return 0;
    size_t m = dpush(c, ".%s", key);
    int r = y_bool(v, dwhat(c), out, c->err);
    dpop(c, m);
    return r;
}

int dqty_node(dctx *c, const ynode *n, quantity *out) {
    if (!n || n->kind != YN_SCALAR) return derr(c, n, "expected a quantity, found %s", ykind_name(n));
    const char *msg = NULL;
    if (quantity_parse(n->str, n->len, out, &msg))
        return derr(c, n, "invalid quantity '%s': %s", n->str, msg ? msg : "bad format");
    /* The API server stores quantities in canonical form and the scheduler
     * parses that text again, so what a selector sees is the re-parsed
     * canonical value: "1.5Gi" arrives as "1536Mi" and is an integer
     * (isInteger/asInteger depend on it). */
    char canon[96];
    size_t len = quantity_format_str(out, canon, sizeof canon);
    if (len < sizeof canon) {
        quantity again;
        if (quantity_parse(canon, len, &again, &msg) == 0) *out = again;
    }
    return 0;
}

int dqty(dctx *c, const ynode *map, const char *key, bool required, quantity *out, bool *present) {
    const ynode *v;
    if (dget(c, map, key, required, &v)) return -1;
    if (present) *present = v != NULL;
    if (!v) return 0;
    quantity q;
    strbuf quiet = {0};   /* a valid quantity needs no path: read it first without one */
    strbuf *keep = c->err;
    c->err = &quiet;
    int ok = dqty_node(c, v, &q) == 0;
    c->err = keep;
    sb_free(&quiet);
    if (ok) { *out = q; return 0; }
    size_t m = dpush(c, ".%s", key);
    int r = dqty_node(c, v, out);
    dpop(c, m);
    return r;
}

int dseq(dctx *c, const ynode *map, const char *key, size_t max, const ynode **seq) {
    const ynode *v;
    if (dget(c, map, key, false, &v)) return -1;
    *seq = NULL;
    if (!v) return 0;
    if (v->kind == YN_SEQ && v->n <= max) { *seq = v; return 0; }
    size_t m = dpush(c, ".%s", key);
    int r = 0;
    if (y_expect(v, YN_SEQ, dwhat(c), c->err)) r = -1;
    else if (v->n > max) r = derr(c, v, "must have at most %zu items, has %zu", max, v->n);
    dpop(c, m);
    if (!r) *seq = v;
    return r;
}

int dmap(dctx *c, const ynode *map, const char *key, size_t max, const ynode **out) {
    const ynode *v;
    if (dget(c, map, key, false, &v)) return -1;
    *out = NULL;
    if (!v) return 0;
    if (v->kind == YN_MAP && v->n <= max) { *out = v; return 0; }
    size_t m = dpush(c, ".%s", key);
    int r = 0;
    if (y_expect(v, YN_MAP, dwhat(c), c->err)) r = -1;
    else if (v->n > max) r = derr(c, v, "must have at most %zu entries, has %zu", max, v->n);
    dpop(c, m);
    if (!r) *out = v;
    return r;
}

int dstrlist(dctx *c, const ynode *map, const char *key, size_t max, const char ***out, size_t *n) {
    const ynode *seq;
    *out = NULL;
    *n = 0;
    if (dseq(c, map, key, max, &seq)) return -1;
    if (!seq) return 0;
    const char **v = ARENA_NEW(c->a, const char *, seq->n ? seq->n : 1);
    for (size_t i = 0; i < seq->n; i++) {
        if (y_str_try(seq->vals[i], &v[i])) continue;
        size_t m = dpush(c, ".%s[%zu]", key, i);
        int r = y_str(seq->vals[i], dwhat(c), &v[i], c->err);
        dpop(c, m);
        if (r) return -1;
    }
    *out = v;
    *n = seq->n;
    return 0;
}

int dkvmap(dctx *c, const ynode *map, const char *key, k8s_kv **out, size_t *n) {
    const ynode *mp;
    *out = NULL;
    *n = 0;
    if (dmap(c, map, key, 100000, &mp)) return -1;
    if (!mp) return 0;
    k8s_kv *kv = ARENA_NEW(c->a, k8s_kv, mp->n ? mp->n : 1);
    for (size_t i = 0; i < mp->n; i++) {
        if (y_str_try(mp->keys[i], &kv[i].key) && y_str_try(mp->vals[i], &kv[i].value)) continue;
        size_t m = dpush(c, ".%s", key);
        int r = y_str(mp->keys[i], dwhat(c), &kv[i].key, c->err);
        dpop(c, m);
        if (r) return -1;
        m = dpush(c, ".%s.%s", key, kv[i].key);
        r = y_str(mp->vals[i], dwhat(c), &kv[i].value, c->err);
        dpop(c, m);
        if (r) return -1;
    }
    *out = kv;
    *n = mp->n;
    return 0;
}

/* ---- name rules ----------------------------------------------------------------- */

bool k8s_is_dns_label(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 63) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (!alnum && !(ch == '-' && i > 0 && i + 1 < n)) return false;
    }
    return true;
}

bool k8s_is_dns_subdomain(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 253) return false;
    const char *p = s;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len == 0 || len > 63) return false;
        char buf[64];
        memcpy(buf, p, len);
        buf[len] = 0;
        if (!k8s_is_dns_label(buf)) return false;
        if (!dot) break;
        p = dot + 1;
        if (!*p) return false;
    }
    return true;
}

bool k8s_is_request_name(const char *s) {
    char buf[64];
    size_t n = strlen(s);
    if (n == 0 || n > 63) return false;
    for (size_t i = 0; i <= n; i++) buf[i] = (char)tolower((unsigned char)s[i]);
    return k8s_is_dns_label(buf);
}

bool k8s_is_c_identifier(const char *s) {
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (const char *p = s + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
    return true;
}

bool k8s_is_resource_qualified_name(const char *s) {
    const char *slash = strchr(s, '/');
    const char *id = slash ? slash + 1 : s;
    /* The API wants a C identifier; upstream's own tests also use names such
     * as "capacity-0", so a DNS label is accepted too. */
    if (strlen(id) > 32 || !(k8s_is_c_identifier(id) || k8s_is_dns_label(id))) return false;
    if (!slash) return true;
    size_t dl = (size_t)(slash - s);
    if (dl == 0 || dl > 63) return false;
    char buf[64];
    memcpy(buf, s, dl);
    buf[dl] = 0;
    return k8s_is_dns_subdomain(buf);
}

int dtopology_levels(dctx *c, const ynode *root, const char ***levels, size_t *n, dlevel_check check) {
    const ynode *spec, *seq;
    if (dmap(c, root, "spec", 1000, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const allowed[] = {"levels", NULL};
    if (dkeys(c, spec, allowed)) return -1;
    if (dseq(c, spec, "levels", 16, &seq)) return -1;   /* topology_types.go: MinItems=1, MaxItems=16 */
    if (!seq || seq->n == 0) return derr(c, spec, "levels: required field is missing or empty");
    *levels = ARENA_NEW(c->a, const char *, seq->n);
    *n = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m2 = dpush(c, ".levels[%zu]", i);
        const ynode *e = seq->vals[i];
        static const char *const lk[] = {"nodeLabel", NULL};
        if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, lk)) return -1;
        if (dstr(c, e, "nodeLabel", true, &(*levels)[i])) return -1;
        if (check(c, ymap_get(e, "nodeLabel"), *levels, i, seq->n)) return -1;
        dpop(c, m2);
    }
    dpop(c, m);
    return 0;
}

int dcheck_name(dctx *c, const ynode *n, const char *s, bool (*ok)(const char *), const char *rule) {
    if (ok(s)) return 0;
    return derr(c, n, "invalid name '%s': must be %s", s, rule);
}

/* ---- shared sub-objects --------------------------------------------------------------- */

int dmeta(dctx *c, const ynode *root, k8s_meta *m, bool name_required) {
    const ynode *md;
    if (dmap(c, root, "metadata", 100000, &md)) return -1;
    m->file = root->file;
    m->line = root->line;
    m->col = root->col;
    if (!md) {
        if (name_required) return derr(c, root, "metadata.name: required field is missing");
        return 0;
    }
    size_t mk = dpush(c, "metadata");
    static const char *const allowed[] = {"name", "namespace", "uid", "labels", "annotations", "generateName",
                                          "creationTimestamp", "resourceVersion", "generation", "ownerReferences",
                                          "finalizers", "managedFields", "deletionTimestamp",
                                          "deletionGracePeriodSeconds", "selfLink", NULL};
    if (dkeys(c, md, allowed)) return -1;
    if (dstr(c, md, "name", name_required, &m->name)) return -1;
    if (m->name) c->name = m->name;
    if (dstr(c, md, "namespace", false, &m->namespace_)) return -1;
    if (dstr(c, md, "uid", false, &m->uid)) return -1;
    if (dkvmap(c, md, "labels", &m->labels, &m->nlabels)) return -1;
    if (dkvmap(c, md, "annotations", &m->annotations, &m->nannotations)) return -1;
    dpop(c, mk);
    return 0;
}

static int dselector_reqs(dctx *c, const ynode *term, const char *key, bool fields, k8s_selector_req **out,
                          size_t *n) {
    const ynode *seq;
    if (dseq(c, term, key, 1000, &seq)) return -1;
    *out = NULL;
    *n = 0;
    if (!seq) return 0;
    k8s_selector_req *r = ARENA_NEW(c->a, k8s_selector_req, seq->n ? seq->n : 1);
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".%s[%zu]", key, i);
        const ynode *e = seq->vals[i];
        static const char *const allowed[] = {"key", "operator", "values", NULL};
        if (dkeys(c, e, allowed)) return -1;
        const char *op = NULL;
        if (dstr(c, e, "key", true, &r[i].key)) return -1;
        if (dstr(c, e, "operator", true, &op)) return -1;
        if (dstrlist(c, e, "values", 100000, &r[i].values, &r[i].nvalues)) return -1;
        if (!strcmp(op, "In")) r[i].op = SEL_OP_IN;
        else if (!strcmp(op, "NotIn")) r[i].op = SEL_OP_NOT_IN;
        else if (!strcmp(op, "Exists") && !fields) r[i].op = SEL_OP_EXISTS;
        else if (!strcmp(op, "DoesNotExist") && !fields) r[i].op = SEL_OP_DOES_NOT_EXIST;
        else if (!strcmp(op, "Gt") && !fields) r[i].op = SEL_OP_GT;
        else if (!strcmp(op, "Lt") && !fields) r[i].op = SEL_OP_LT;
        else return derr(c, ymap_get(e, "operator"), "unsupported operator '%s'", op);
        if (fields && strcmp(r[i].key, "metadata.name") != 0)
            return derr(c, ymap_get(e, "key"), "matchFields only supports key 'metadata.name', not '%s'", r[i].key);
        dpop(c, m);
    }
    *out = r;
    *n = seq->n;
    return 0;
}

int dnode_selector(dctx *c, const ynode *n, k8s_node_selector *out) {
    static const char *const allowed[] = {"nodeSelectorTerms", NULL};
    if (dkeys(c, n, allowed)) return -1;
    const ynode *terms;
    if (dseq(c, n, "nodeSelectorTerms", 1000, &terms)) return -1;
    memset(out, 0, sizeof *out);
    if (!terms) return 0;
    out->terms = ARENA_NEW(c->a, k8s_selector_term, terms->n ? terms->n : 1);
    out->nterms = terms->n;
    for (size_t i = 0; i < terms->n; i++) {
        size_t m = dpush(c, ".nodeSelectorTerms[%zu]", i);
        static const char *const tk[] = {"matchExpressions", "matchFields", NULL};
        const ynode *t = terms->vals[i];
        if (y_is_null(t)) { dpop(c, m); continue; }
        if (dkeys(c, t, tk)) return -1;
        k8s_selector_term *ot = &out->terms[i];
        if (dselector_reqs(c, t, "matchExpressions", false, &ot->match_expressions, &ot->nmatch_expressions))
            return -1;
        if (dselector_reqs(c, t, "matchFields", true, &ot->match_fields, &ot->nmatch_fields)) return -1;
        dpop(c, m);
    }
    return 0;
}

int dtaint_effect(dctx *c, const ynode *n, bool device, k8s_taint_effect *out) {
    const char *e;
    if (y_str(n, dwhat(c), &e, c->err)) return -1;
    if (!strcmp(e, "NoSchedule")) *out = TAINT_NO_SCHEDULE;
    else if (!strcmp(e, "NoExecute")) *out = TAINT_NO_EXECUTE;
    else if (!strcmp(e, "PreferNoSchedule") && !device) *out = TAINT_PREFER_NO_SCHEDULE;
    else if (!strcmp(e, "None") && device) *out = TAINT_NONE;
    else
        return derr(c, n, "unsupported taint effect '%s' (expected %s)", e,
                    device ? "None, NoSchedule or NoExecute" : "NoSchedule, PreferNoSchedule or NoExecute");
    return 0;
}

int dtolerations(dctx *c, const ynode *map, const char *key, size_t max, k8s_toleration **out, size_t *n) {
    const ynode *seq;
    *out = NULL;
    *n = 0;
    if (dseq(c, map, key, max, &seq)) return -1;
    if (!seq) return 0;
    k8s_toleration *t = ARENA_NEW(c->a, k8s_toleration, seq->n ? seq->n : 1);
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".%s[%zu]", key, i);
        const ynode *e = seq->vals[i];
        static const char *const allowed[] = {"key", "operator", "value", "effect", "tolerationSeconds", NULL};
        if (dkeys(c, e, allowed)) return -1;
        const char *op = NULL;
        if (dstr(c, e, "key", false, &t[i].key)) return -1;
        if (dstr(c, e, "operator", false, &op)) return -1;
        if (dstr(c, e, "value", false, &t[i].value)) return -1;
        if (op && *op) {
            t[i].has_op = true;
            if (!strcmp(op, "Exists")) t[i].op = TOL_OP_EXISTS;
            else if (!strcmp(op, "Equal")) t[i].op = TOL_OP_EQUAL;
            else return derr(c, ymap_get(e, "operator"), "unsupported toleration operator '%s' (expected Exists or Equal)", op);
        }
        if (t[i].op == TOL_OP_EXISTS && t[i].value && *t[i].value)
            return derr(c, ymap_get(e, "value"), "value must be empty when operator is Exists");
        if (t[i].op == TOL_OP_EQUAL && (!t[i].key || !*t[i].key))
            return derr(c, e, "operator must be Exists when key is empty");
        const ynode *ef = ymap_get(e, "effect");
        if (!y_is_null(ef) && !(ef->kind == YN_SCALAR && ef->len == 0)) {
            size_t m2 = dpush(c, ".effect");
            if (dtaint_effect(c, ef, true, &t[i].effect)) return -1;
            dpop(c, m2);
            t[i].has_effect = true;
        }
        if (dint(c, e, "tolerationSeconds", false, &t[i].seconds, &t[i].has_seconds)) return -1;
        dpop(c, m);
    }
    *out = t;
    *n = seq->n;
    return 0;
}

int dopaque(dctx *c, const ynode *map, k8s_opaque_config *out) {
    const ynode *op;
    if (dget(c, map, "opaque", true, &op)) return -1;
    size_t m = dpush(c, ".opaque");
    static const char *const allowed[] = {"driver", "parameters", NULL};
    if (dkeys(c, op, allowed)) return -1;
    if (dstr(c, op, "driver", true, &out->driver)) return -1;
    if (dcheck_name(c, ymap_get(op, "driver"), out->driver, k8s_is_dns_subdomain, "a DNS subdomain")) return -1;
    const ynode *p = ymap_get(op, "parameters");
    if (!p) return derr(c, op, "parameters: required field is missing");
    out->parameters = p;
    dpop(c, m);
    return 0;
}
