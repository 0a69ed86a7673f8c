/*
 * cel_value.c -- CEL values: scratch memory, error values, UTF-8 helpers,
 * equality and ordering with CEL's cross-type numeric rules, map lookup, the
 * `device` views, and canonical printing.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

const ctype ct_dyn = {T_DYN, 0, 0, 0}, ct_any = {T_ANY, 0, 0, 0}, ct_free = {T_FREE, 0, 0, 0},
            ct_null = {T_NULL, 0, 0, 0}, ct_bool = {T_BOOL, 0, 0, 0}, ct_int = {T_INT, 0, 0, 0},
            ct_uint = {T_UINT, 0, 0, 0}, ct_double = {T_DOUBLE, 0, 0, 0}, ct_string = {T_STRING, 0, 0, 0},
            ct_bytes = {T_BYTES, 0, 0, 0}, ct_qty = {T_QTY, 0, 0, 0}, ct_semver = {T_SEMVER, 0, 0, 0},
            ct_type = {T_TYPE, 0, 0, 0}, ct_device = {T_DEVICE, 0, 0, 0};

/* ---- scratch memory ---------------------------------------------------------------- */

typedef struct sblock { struct sblock *next; size_t cap, used; _Alignas(16) unsigned char data[]; } sblock;
static _Thread_local sblock *s_first, *s_cur;
static _Thread_local size_t s_total;

void *cel_scratch(cel_ctx *c, size_t n) {
    (void)c;
    n = (n + 15) & ~(size_t)15;
    if (s_cur && s_cur->used + n <= s_cur->cap) {
        void *p = s_cur->data + s_cur->used;
        s_cur->used += n;
        return p;
    }
    /* try the following (kept) blocks */
    while (s_cur && s_cur->next) {
        s_cur = s_cur->next;
        s_cur->used = 0;
        if (n <= s_cur->cap) {
            s_cur->used = n;
            return s_cur->data;
        }
    }
    if (s_total + n > CEL_MEMORY_LIMIT) return NULL;
    size_t cap = n > 65536 ? n : 65536;
    if (s_cur && cap < s_cur->cap * 2 && s_cur->cap * 2 <= ((size_t)16 << 20)) cap = s_cur->cap * 2;
    sblock *b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->cap = cap;
    b->used = n;
    b->next = NULL;
    s_total += cap;
    if (s_cur) s_cur->next = b;
    else s_first = b;
    s_cur = b;
    return b->data;
}

void cel_scratch_reset(void) {
    if (!s_first) return;
    /* keep the first block; free the rest when they grew big */
    if (s_first->next && s_total > ((size_t)4 << 20)) {
        sblock *b = s_first->next;
        while (b) {
            sblock *nx = b->next;
            s_total -= b->cap;
            free(b);
            b = nx;
        }
        s_first->next = NULL;
    }
    s_first->used = 0;
    s_cur = s_first;
}

/* ---- errors ---------------------------------------------------------------------------- */

cel_val cel_err_static(const char *msg) {
    cel_val v = {.k = CV_ERROR};
    v.s = msg;
    return v;
}

cel_val cel_err_fatal(const char *msg) {
    cel_val v = cel_err_static(msg);
    v.x = 1;
    return v;
}

cel_val cel_oom(void) { return cel_err_fatal("operation cancelled: memory limit exceeded"); }
cel_val cel_cost_exceeded(void) { return cel_err_fatal("operation cancelled: actual cost limit exceeded"); }

cel_val cel_err(cel_ctx *c, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int l = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (l < 0) l = 0;
    if ((size_t)l >= sizeof buf) l = sizeof buf - 1;
    char *m = cel_scratch(c, (size_t)l + 1);
    if (!m) return cel_oom();
    memcpy(m, buf, (size_t)l);
    m[l] = 0;
    return cel_err_static(m);
}

const char *cv_type_name(cel_val v) {
    switch ((cv_kind)v.k) {
    case CV_NULL: return "null_type";
    case CV_BOOL: return "bool";
    case CV_INT: return "int";
    case CV_UINT: return "uint";
    case CV_DOUBLE: return "double";
    case CV_STRING: return "string";
    case CV_BYTES: return "bytes";
    case CV_LIST: return "list";
    case CV_MAP: case CV_DATTRS: case CV_DCAPS: case CV_DOMATTR: case CV_DOMCAP: return "map";
    case CV_QTY: return "kubernetes.Quantity";
    case CV_SEMVER: return "kubernetes.Semver";
    case CV_OPT: return "optional_type";
    case CV_TYPE: return "type";
    case CV_DEVICE: return "kubernetes.DRADevice";
    case CV_ERROR: return "error";
    }
    return "?";
}

cel_val cel_no_overload(cel_ctx *c, const char *fname, const cel_val *a, int na) {
    char buf[256];
    size_t o = 0;
    for (int i = 0; i < na && o < sizeof buf - 40; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "", cv_type_name(a[i]));
    buf[o < sizeof buf ? o : sizeof buf - 1] = 0;
    return cel_err(c, "no such overload: %s(%s)", fname, buf);
}

/* ---- UTF-8 ---------------------------------------------------------------------------- */

int utf8_decode(const char *s, size_t n, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)s;
    if (!n) { *cp = 0; return 1; }
    unsigned c = u[0];
    if (c < 0x80) { *cp = c; return 1; }
    int l;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) { l = 2; v = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { l = 3; v = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { l = 4; v = c & 0x07; min = 0x10000; }
    else { *cp = 0xFFFD; return 1; }
    if ((size_t)l > n) { *cp = 0xFFFD; return 1; }
    for (int i = 1; i < l; i++) {
        if ((u[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
        v = (v << 6) | (u[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) { *cp = 0xFFFD; return 1; }
    *cp = v;
    return l;
}

int utf8_encode(uint32_t cp, char *o) {
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t utf8_count(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}

bool utf8_valid(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        if ((unsigned char)s[i] < 0x80) { i++; continue; }
        uint32_t cp;
        int l = utf8_decode(s + i, n - i, &cp);
        if (cp == 0xFFFD && l == 1) return false;
        i += (size_t)l;
    }
    return true;
}

/* ---- device views ------------------------------------------------------------------------ */

static bool id_eq(const char *id, const char *s, size_t n) { return id && strlen(id) == n && !memcmp(id, s, n); }

cel_val cel_dev_attr_value(cel_ctx *c, const k8s_attribute *a) {
    switch (a->kind) {
    case ATTR_INT: return cv_int(a->i);
    case ATTR_BOOL: return cv_bool(a->b);
    case ATTR_STRING: {
        cel_val v = cv_str(a->s ? a->s : "", a->s ? strlen(a->s) : 0);
        v.x = 1;
        return v;
    }
    case ATTR_VERSION:
        if (a->v_ok) {
            cel_val v = {.k = CV_SEMVER};
            v.sv = &a->v;
            return v;
        }
        return cel_err(c, "attribute %s: parse semantic version", a->id);
    default:
        return cel_err(c, "attribute %s: unsupported attribute value", a->id);
    }
}

cel_val cel_dev_lookup(cel_ctx *c, bool cap, const char *dom, const char *id, size_t idlen, bool *found) {
    const k8s_device *d = c->dev;
    *found = false;
    if (!d) return CV_MK(CV_NULL);
    if (cap) {
        for (size_t i = 0; i < d->ncaps; i++) {
            const k8s_capacity *k = &d->caps[i];
            if (k->domain == dom && id_eq(k->id, id, idlen)) {
                *found = true;
                cel_val v = {.k = CV_QTY};
                v.q = &k->value;
                return v;
            }
        }
    } else {
        for (size_t i = 0, na = k8s_dev_nattrs(d); i < na; i++) {
            const k8s_attribute *a = k8s_dev_attr(d, i);
            if (a->domain == dom && id_eq(a->id, id, idlen)) {
                *found = true;
                return cel_dev_attr_value(c, a);
            }
        }
    }
    return CV_MK(CV_NULL);
}

/* Upstream converts every attribute of the device before evaluating, so one
 * unusable attribute (a version that does not parse, a list) fails every
 * selector on the device. The last attribute array found clean is remembered
 * per thread: attribute arrays are immutable once built (the inventory even
 * shares equal arrays between devices), so evaluating several selectors on a
 * device, or devices sharing an array, scans it once. */
static _Thread_local const k8s_attribute *s_ok_attrs;
static _Thread_local size_t s_ok_n;

void cel_devices_changed(void) {
    s_ok_attrs = NULL;
    s_ok_n = 0;
}

/* The first unusable attribute of a[0..n), as upstream's conversion error, or NULL. */
static cel_val check_run(cel_ctx *c, const k8s_attribute *a, size_t n) {
    for (size_t i = 0; i < n; i++, a++) {
        if (a->kind < ATTR_VERSION || (a->kind == ATTR_VERSION && a->v_ok)) continue;
        const char *qn = a->id;
        char buf[160];
        if (a->domain && c->driver && a->domain != c->driver) {
            snprintf(buf, sizeof buf, "%s/%s", a->domain, a->id);
            qn = buf;
        }
        if (a->kind == ATTR_VERSION) {
            const char *msg = "invalid semantic version";
            semver tmp;
            const char *txt = a->s ? a->s : "";
            if (semver_parse(txt, strlen(txt), false, &tmp, &msg) == 0) msg = "invalid semantic version";
            return cel_err(c, "attribute %s: parse semantic version: %s", qn, msg);
        }
        return cel_err(c, "attribute %s: unsupported attribute value", qn);
    }
    return CV_MK(CV_NULL);
}

/* Both runs in order; the shared run is remembered when clean. */
cel_val cel_dev_check_attrs(cel_ctx *c) {
    const k8s_device *d = c->dev;
    if (!d) return CV_MK(CV_NULL);
    if (d->nattrs && !(d->attrs == s_ok_attrs && d->nattrs == s_ok_n)) {
        cel_val e = check_run(c, d->attrs, d->nattrs);
        if (e.k == CV_ERROR) return e;
        s_ok_attrs = d->attrs;
        s_ok_n = d->nattrs;
    }
    return check_run(c, d->attrs_own, d->nattrs_own);
}

static cel_val mat_domain(cel_ctx *c, bool cap, const char *dom) {
    const k8s_device *d = c->dev;
    size_t cnt = 0, tot = d ? (cap ? d->ncaps : k8s_dev_nattrs(d)) : 0;
    for (size_t i = 0; i < tot; i++)
        if ((cap ? d->caps[i].domain : k8s_dev_attr(d, i)->domain) == dom) cnt++;
    cel_map *m = cel_scratch(c, sizeof *m);
    cel_val *ks = cel_scratch(c, sizeof *ks * (cnt + 1));
    cel_val *vs = cel_scratch(c, sizeof *vs * (cnt + 1));
    if (!m || !ks || !vs) return cel_oom();
    size_t o = 0;
    for (size_t i = 0; i < tot; i++) {
        if (cap) {
            const k8s_capacity *k = &d->caps[i];
            if (k->domain != dom) continue;
            ks[o] = cv_str(k->id, strlen(k->id));
            ks[o].x = 1;
            cel_val v = {.k = CV_QTY};
            v.q = &k->value;
            vs[o++] = v;
        } else {
            const k8s_attribute *a = k8s_dev_attr(d, i);
            if (a->domain != dom) continue;
            ks[o] = cv_str(a->id, strlen(a->id));
            ks[o].x = 1;
            vs[o] = cel_dev_attr_value(c, a);
            if (cv_is_err(vs[o])) return vs[o];
            o++;
        }
    }
    m->n = (uint32_t)o;
    m->k = ks;
    m->v = vs;
    return cv_map(m);
}

static cel_val mat_root(cel_ctx *c, bool cap) {
    const k8s_device *d = c->dev;
    size_t tot = d ? (cap ? d->ncaps : k8s_dev_nattrs(d)) : 0;
    const char **doms = cel_scratch(c, sizeof *doms * (tot + 1));
    if (!doms) return cel_oom();
    size_t nd = 0;
    for (size_t i = 0; i < tot; i++) {
        const char *dm = cap ? d->caps[i].domain : k8s_dev_attr(d, i)->domain;
        size_t j = 0;
        while (j < nd && doms[j] != dm) j++;
        if (j == nd) doms[nd++] = dm;
    }
    cel_map *m = cel_scratch(c, sizeof *m);
    cel_val *ks = cel_scratch(c, sizeof *ks * (nd + 1));
    cel_val *vs = cel_scratch(c, sizeof *vs * (nd + 1));
    if (!m || !ks || !vs) return cel_oom();
    for (size_t j = 0; j < nd; j++) {
        ks[j] = cv_str(doms[j] ? doms[j] : "", doms[j] ? strlen(doms[j]) : 0);
        ks[j].x = 1;
        cel_val v = {.k = cap ? CV_DOMCAP : CV_DOMATTR};
        v.s = doms[j];
        vs[j] = v;
    }
    m->n = (uint32_t)nd;
    m->k = ks;
    m->v = vs;
    return cv_map(m);
}

cel_val cel_materialize(cel_ctx *c, cel_val v) {
    switch (v.k) {
    case CV_DATTRS: return mat_root(c, false);
    case CV_DCAPS: return mat_root(c, true);
    case CV_DOMATTR: return mat_domain(c, false, v.s);
    case CV_DOMCAP: return mat_domain(c, true, v.s);
    case CV_DEVICE: {
        const k8s_device *d = c->dev;
        cel_map *m = cel_scratch(c, sizeof *m);
        cel_val *ks = cel_scratch(c, sizeof *ks * 4);
        cel_val *vs = cel_scratch(c, sizeof *vs * 4);
        if (!m || !ks || !vs) return cel_oom();
        ks[0] = cv_str("driver", 6);
        vs[0] = cv_str(c->driver ? c->driver : "", c->driver ? strlen(c->driver) : 0);
        ks[1] = cv_str("attributes", 10);
        vs[1] = CV_MK(CV_DATTRS);
        ks[2] = cv_str("capacity", 8);
        vs[2] = CV_MK(CV_DCAPS);
        ks[3] = cv_str("allowMultipleAllocations", 24);
        vs[3] = cv_bool(d && d->allow_multiple);
        m->n = 4;
        m->k = ks;
        m->v = vs;
        return cv_map(m);
    }
    default: return v;
    }
}

/* ---- equality and ordering ---------------------------------------------------------------- */

static bool is_num(uint8_t k) { return k == CV_INT || k == CV_UINT || k == CV_DOUBLE; }
static bool is_mapish(uint8_t k) { return k == CV_MAP || (k >= CV_DATTRS && k <= CV_DOMCAP); }

/* cel-go v0.26.0 compare helpers (lossy double conversions, as upstream). */
static int cmp_d(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }
static int cmp_double_int(double d, int64_t i) {
    if (d < -9223372036854775808.0) return -1;
    if (d > 9223372036854775807.0) return 1;
    return cmp_d(d, (double)i);
}
static int cmp_double_uint(double d, uint64_t u) {
    if (d < 0) return -1;
    if (d > 18446744073709551615.0) return 1;
    return cmp_d(d, (double)u);
}
static int cmp_int_uint(int64_t i, uint64_t u) {
    if (i < 0 || u > (uint64_t)INT64_MAX) return -1;
    return i < (int64_t)u ? -1 : i > (int64_t)u ? 1 : 0;
}

static int num_cmp(cel_val a, cel_val b) {
    switch (a.k) {
    case CV_INT:
        if (b.k == CV_INT) return a.i < b.i ? -1 : a.i > b.i;
        if (b.k == CV_UINT) return cmp_int_uint(a.i, b.u);
        return -cmp_double_int(b.d, a.i);
    case CV_UINT:
        if (b.k == CV_UINT) return a.u < b.u ? -1 : a.u > b.u;
        if (b.k == CV_INT) return -cmp_int_uint(b.i, a.u);
        return -cmp_double_uint(b.d, a.u);
    default:
        if (b.k == CV_DOUBLE) return cmp_d(a.d, b.d);
        if (b.k == CV_INT) return cmp_double_int(a.d, b.i);
        return cmp_double_uint(a.d, b.u);
    }
}

static int bytes_cmp(cel_val a, cel_val b) {
    size_t n = a.n < b.n ? a.n : b.n;
    int r = n ? memcmp(a.s, b.s, n) : 0;
    if (r) return r < 0 ? -1 : 1;
    return a.n < b.n ? -1 : a.n > b.n;
}

int cel_compare(cel_val a, cel_val b) {
    if (is_num(a.k) && is_num(b.k)) {
        if (a.k == CV_DOUBLE && isnan(a.d)) return 2;
        if (a.k == CV_DOUBLE && b.k == CV_DOUBLE && isnan(b.d)) return 2;
        return num_cmp(a, b);
    }
    if (a.k != b.k) return -2;
    switch (a.k) {
    case CV_STRING: case CV_BYTES: return bytes_cmp(a, b);
    case CV_BOOL: return (int)a.b - (int)b.b;
    default: return -2;
    }
}

bool cel_map_find(cel_ctx *c, cel_val m, cel_val key, cel_val *out, cel_val *err) {
    *err = CV_MK(CV_NULL);
    if (key.k == CV_ERROR) { *err = key; return false; }
    switch (m.k) {
    case CV_DATTRS: case CV_DCAPS: {
        if (key.k != CV_STRING) { *err = cel_err(c, "unsupported key type: %s", cv_type_name(key)); return false; }
        const char *dom = intern_lookup(key.s, key.n);
        cel_val v = {.k = m.k == CV_DATTRS ? CV_DOMATTR : CV_DOMCAP};
        v.s = dom ? dom : "\x01<none>";   /* unknown domain: an empty map */
        *out = v;
        return true;
    }
    case CV_DOMATTR: case CV_DOMCAP: {
        if (key.k != CV_STRING) { *err = cel_err(c, "unsupported key type: %s", cv_type_name(key)); return false; }
        bool found;
        cel_val v = cel_dev_lookup(c, m.k == CV_DOMCAP, m.s, key.s, key.n, &found);
        if (found) *out = v;
        return found;
    }
    case CV_MAP: break;
    default: *err = cel_err(c, "no such overload: _[_](%s, %s)", cv_type_name(m), cv_type_name(key)); return false;
    }
    const cel_map *mp = m.m;
    switch (key.k) {
    case CV_STRING:
        for (uint32_t i = 0; i < mp->n; i++) {
            const cel_val *k = &mp->k[i];
            if (k->k == CV_STRING && k->n == key.n && (k->s == key.s || !memcmp(k->s, key.s, key.n))) {
                *out = mp->v[i];
                return true;
            }
        }
        return false;
    case CV_BOOL:
        for (uint32_t i = 0; i < mp->n; i++)
            if (mp->k[i].k == CV_BOOL && mp->k[i].b == key.b) { *out = mp->v[i]; return true; }
        return false;
    case CV_INT: case CV_UINT: case CV_DOUBLE:
        if (key.k == CV_DOUBLE && (isnan(key.d) || isinf(key.d) || key.d != trunc(key.d))) return false;
        for (uint32_t i = 0; i < mp->n; i++) {
            const cel_val *k = &mp->k[i];
            if (is_num(k->k) && num_cmp(*k, key) == 0) { *out = mp->v[i]; return true; }
        }
        return false;
    default:
        *err = cel_err(c, "unsupported key type: %s", cv_type_name(key));
        return false;
    }
}

cel_val cel_equal(cel_ctx *c, cel_val a, cel_val b) {
    if (a.k == CV_ERROR) return a;
    if (b.k == CV_ERROR) return b;
    /* the Kubernetes Quantity and Semver types answer Equal with a
     * no-such-overload error for another type (MaybeNoSuchOverloadErr) */
    if ((a.k == CV_QTY || a.k == CV_SEMVER) && b.k != a.k)
        return cel_err(c, "no such overload: %s == %s", cv_type_name(a), cv_type_name(b));
    return cv_bool(cel_equal_b(c, a, b));
}

bool cel_equal_b(cel_ctx *c, cel_val a, cel_val b) {
    if (a.k == b.k) {
        switch (a.k) {
        case CV_NULL: return true;
        case CV_BOOL: return a.b == b.b;
        case CV_INT: return a.i == b.i;
        case CV_UINT: return a.u == b.u;
        case CV_DOUBLE: return a.d == b.d;
        case CV_STRING:
            if (a.x && b.x) return a.s == b.s;
            /* fallthrough */
        case CV_BYTES: return a.n == b.n && (a.s == b.s || !memcmp(a.s, b.s, a.n));
        case CV_LIST:
            if (a.l->n != b.l->n) return false;
            for (uint32_t i = 0; i < a.l->n; i++)
                if (!cel_equal_b(c, a.l->v[i], b.l->v[i])) return false;
            return true;
        case CV_MAP: break;
        case CV_QTY: return quantity_cmp(a.q, b.q) == 0;
        case CV_SEMVER: return semver_cmp(a.sv, b.sv) == 0;
        case CV_OPT:
            if (!a.o || !b.o) return a.o == b.o;
            return cel_equal_b(c, *a.o, *b.o);
        case CV_TYPE: return !strcmp(a.s, b.s);
        case CV_DEVICE: return true;
        case CV_DATTRS: case CV_DCAPS: return true;
        case CV_DOMATTR: case CV_DOMCAP: if (a.s == b.s) return true; break;
        default: return false;
        }
    } else if (is_num(a.k) && is_num(b.k)) {
        if ((a.k == CV_DOUBLE && isnan(a.d)) || (b.k == CV_DOUBLE && isnan(b.d))) return false;
        return num_cmp(a, b) == 0;
    } else if (!(is_mapish(a.k) && is_mapish(b.k))) {
        return false;
    }
    /* maps (after materialising device views) */
    cel_val ma = cel_materialize(c, a), mb = cel_materialize(c, b);
    if (ma.k != CV_MAP || mb.k != CV_MAP) return false;
    if (ma.m->n != mb.m->n) return false;
    for (uint32_t i = 0; i < ma.m->n; i++) {
        cel_val v, e;
        if (!cel_map_find(c, mb, ma.m->k[i], &v, &e)) return false;
        if (!cel_equal_b(c, ma.m->v[i], v)) return false;
    }
    return true;
}

/* ---- printing --------------------------------------------------------------------------------- */

/* Shortest round-trip digits: fills digits (no dot), returns decimal exponent E
 * with value = d.ddd x 10^E. */
static int shortest_digits(double d, char *digits, int *nd) {
    char buf[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, d);
        if (strtod(buf, NULL) == d) break;
    }
    /* buf: [-]d[.ddd]e[+-]XX */
    const char *s = buf;
    if (*s == '-') s++;
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.') digits[n++] = *s;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
    *nd = n;
    return atoi(s + 1);
}

static void fmt_exp(strbuf *out, const char *dg, int nd, int e) {
    sb_putc(out, dg[0]);
    if (nd > 1) {
        sb_putc(out, '.');
        sb_append(out, dg + 1, (size_t)nd - 1);
    }
    sb_printf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
}

static void fmt_fixed(strbuf *out, const char *dg, int nd, int e, bool dot0) {
    if (e < 0) {
        sb_puts(out, "0.");
        for (int i = 0; i < -e - 1; i++) sb_putc(out, '0');
        sb_append(out, dg, (size_t)nd);
    } else if (nd <= e + 1) {
        sb_append(out, dg, (size_t)nd);
        for (int i = nd; i < e + 1; i++) sb_putc(out, '0');
        if (dot0) sb_puts(out, ".0");
    } else {
        sb_append(out, dg, (size_t)e + 1);
        sb_putc(out, '.');
        sb_append(out, dg + e + 1, (size_t)(nd - e - 1));
    }
}

void cel_fmt_double_repr(strbuf *out, double d) {
    if (isnan(d)) { sb_puts(out, "nan"); return; }
    if (isinf(d)) { sb_puts(out, d < 0 ? "-inf" : "+inf"); return; }
    if (signbit(d)) sb_putc(out, '-');
    if (d == 0) { sb_puts(out, "0.0"); return; }
    char dg[40];
    int nd;
    int e = shortest_digits(fabs(d), dg, &nd);
    if (e >= -4 && e < 16) fmt_fixed(out, dg, nd, e, true);
    else fmt_exp(out, dg, nd, e);
}

void cel_fmt_double_go(strbuf *out, double d) {
    if (isnan(d)) { sb_puts(out, "NaN"); return; }
    if (isinf(d)) { sb_puts(out, d < 0 ? "-Inf" : "+Inf"); return; }
    if (signbit(d)) sb_putc(out, '-');
    if (d == 0) { sb_puts(out, "0"); return; }
    char dg[40];
    int nd;
    int e = shortest_digits(fabs(d), dg, &nd);
    if (e < -4 || e >= 6) fmt_exp(out, dg, nd, e);   /* strconv .FormatFloat(d, 'g', -1, 64) */
    else fmt_fixed(out, dg, nd, e, false);
}

static void print_string(strbuf *out, const char *s, size_t n) {
    sb_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': sb_puts(out, "\\\""); break;
        case '\\': sb_puts(out, "\\\\"); break;
        case '\n': sb_puts(out, "\\n"); break;
        case '\r': sb_puts(out, "\\r"); break;
        case '\t': sb_puts(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f) sb_printf(out, "\\u%04x", c);
            else sb_putc(out, (char)c);
        }
    }
    sb_putc(out, '"');
}

static void print_bytes(strbuf *out, const char *s, size_t n) {
    sb_puts(out, "b\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') sb_puts(out, "\\\"");
        else if (c == '\\') sb_puts(out, "\\\\");
        else if (c >= 0x20 && c <= 0x7e) sb_putc(out, (char)c);
        else sb_printf(out, "\\x%02x", c);
    }
    sb_putc(out, '"');
}

typedef struct kvtext { char *k; size_t kn; char *v; size_t vn; } kvtext;
static int kv_cmp(const void *x, const void *y) {
    const kvtext *a = x, *b = y;
    size_t n = a->kn < b->kn ? a->kn : b->kn;
    int r = memcmp(a->k, b->k, n);
    if (r) return r;
    return a->kn < b->kn ? -1 : a->kn > b->kn;
}

void cel_print(strbuf *out, cel_val v) {
    switch ((cv_kind)v.k) {
    case CV_NULL: sb_puts(out, "null"); break;
    case CV_BOOL: sb_puts(out, v.b ? "true" : "false"); break;
    case CV_INT: sb_printf(out, "%" PRId64, v.i); break;
    case CV_UINT: sb_printf(out, "%" PRIu64 "u", v.u); break;
    case CV_DOUBLE: cel_fmt_double_repr(out, v.d); break;
    case CV_STRING: print_string(out, v.s, v.n); break;
    case CV_BYTES: print_bytes(out, v.s, v.n); break;
    case CV_LIST:
        sb_putc(out, '[');
        for (uint32_t i = 0; i < v.l->n; i++) {
            if (i) sb_puts(out, ", ");
            cel_print(out, v.l->v[i]);
        }
        sb_putc(out, ']');
        break;
    case CV_MAP: {
        uint32_t n = v.m->n;
        kvtext *kv = xcalloc(n ? n : 1, sizeof *kv);
        for (uint32_t i = 0; i < n; i++) {
            strbuf a = {0}, b = {0};
            cel_print(&a, v.m->k[i]);
            cel_print(&b, v.m->v[i]);
            kv[i].k = a.s ? a.s : xstrdup("");
            kv[i].kn = a.len;
            kv[i].v = b.s ? b.s : xstrdup("");
            kv[i].vn = b.len;
        }
        qsort(kv, n, sizeof *kv, kv_cmp);
        sb_putc(out, '{');
        for (uint32_t i = 0; i < n; i++) {
            if (i) sb_puts(out, ", ");
            sb_append(out, kv[i].k, kv[i].kn);
            sb_puts(out, ": ");
            sb_append(out, kv[i].v, kv[i].vn);
            free(kv[i].k);
            free(kv[i].v);
        }
        sb_putc(out, '}');
        free(kv);
        break;
    }
    case CV_QTY: {
        char buf[128];
        quantity_format_str(v.q, buf, sizeof buf);
        sb_printf(out, "quantity(\"%s\")", buf);
        break;
    }
    case CV_SEMVER: {
        char buf[256];
        semver_format_str(v.sv, buf, sizeof buf);
        sb_printf(out, "semver(\"%s\")", buf);
        break;
    }
    case CV_OPT:
        if (!v.o) sb_puts(out, "optional.none()");
        else {
            sb_puts(out, "optional.of(");
            cel_print(out, *v.o);
            sb_putc(out, ')');
        }
        break;
    case CV_TYPE: sb_puts(out, v.s); break;
    case CV_DEVICE: case CV_DATTRS: case CV_DCAPS: case CV_DOMATTR: case CV_DOMCAP:
        sb_puts(out, "<device view>");   /* cel_eval_print materialises views first */
        break;
    case CV_ERROR: sb_printf(out, "<error: %s>", v.s); break;
    }
}

/* ---- copying constants into the program arena ------------------------------------------------ */

cel_val cel_val_copy(arena *a, cel_val v) {
    switch (v.k) {
    case CV_STRING: case CV_BYTES: {
        cel_val r = v;
        if (!v.x) r.s = arena_strndup(a, v.s, v.n);
        return r;
    }
    case CV_LIST: {
        cel_list *l = arena_alloc(a, sizeof *l);
        cel_val *items = arena_alloc(a, sizeof *items * (v.l->n + 1));
        for (uint32_t i = 0; i < v.l->n; i++) items[i] = cel_val_copy(a, v.l->v[i]);
        l->n = v.l->n;
        l->v = items;
        return cv_list(l);
    }
    case CV_MAP: {
        cel_map *m = arena_alloc(a, sizeof *m);
        cel_val *ks = arena_alloc(a, sizeof *ks * (v.m->n + 1));
        cel_val *vs = arena_alloc(a, sizeof *vs * (v.m->n + 1));
        for (uint32_t i = 0; i < v.m->n; i++) {
            ks[i] = cel_val_copy(a, v.m->k[i]);
            vs[i] = cel_val_copy(a, v.m->v[i]);
        }
        m->n = v.m->n;
        m->k = ks;
        m->v = vs;
        return cv_map(m);
    }
    case CV_QTY: {
        quantity *q = arena_memdup(a, v.q, sizeof *q);
        cel_val r = v;
        r.q = q;
        return r;
    }
    case CV_SEMVER: {
        semver *s = arena_memdup(a, v.sv, sizeof *s);
        cel_val r = v;
        r.sv = s;
        return r;
    }
    case CV_OPT: {
        if (!v.o) return v;
        cel_val *in = arena_alloc(a, sizeof *in);
        *in = cel_val_copy(a, *v.o);
        cel_val r = v;
        r.o = in;
        return r;
    }
    case CV_TYPE: {
        cel_val r = v;
        r.s = arena_strndup(a, v.s, strlen(v.s));
        return r;
    }
    default: return v;
    }
}
