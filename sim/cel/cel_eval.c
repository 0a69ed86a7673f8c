/*
 * cel_eval.c -- the evaluator (one C function per node kind, chosen at compile
 * time), error absorption in &&, || and ?:, comprehensions, optionals, cost
 * accounting, and the public API of cel.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"
#include "util/intern.h"

/* ---- helpers -------------------------------------------------------------------------- */

static const cel_val OPT_NONE = {.k = CV_OPT};

static cel_val mkopt(cel_ctx *c, cel_val v) {
    if (v.k == CV_ERROR) return v;
    cel_val *p = cel_scratch(c, sizeof *p);
    if (!p) return cel_oom();
    *p = v;
    cel_val r = {.k = CV_OPT};
    r.o = p;
    return r;
}

static bool is_mapish(uint8_t k) { return k == CV_MAP || (k >= CV_DATTRS && k <= CV_DOMCAP); }

static cel_val no_such_key(cel_ctx *c, cel_val key) {
    if (key.k == CV_STRING) return cel_err(c, "no such key: %.*s", (int)(key.n > 200 ? 200 : key.n), key.s);
    strbuf b = {0};
    cel_print(&b, key);
    cel_val e = cel_err(c, "no such key: %s", sb_str(&b));
    sb_free(&b);
    return e;
}

static cel_val dev_field(cel_ctx *c, const char *name, size_t n, bool *found) {
    *found = true;
    if (n == 6 && !memcmp(name, "driver", 6))
        return cv_str(c->driver ? c->driver : "", c->driver ? strlen(c->driver) : 0);
    if (n == 10 && !memcmp(name, "attributes", 10)) return CV_MK(CV_DATTRS);
    if (n == 8 && !memcmp(name, "capacity", 8)) return CV_MK(CV_DCAPS);
    if (n == 24 && !memcmp(name, "allowMultipleAllocations", 24)) return cv_bool(c->dev && c->dev->allow_multiple);
    *found = false;
    return CV_MK(CV_NULL);
}

/* o.key / o.?key (key is a string value). */
static cel_val do_select(cel_ctx *c, cel_val o, cel_val key, bool opt) {
    if (o.k == CV_OPT) {
        if (!o.o) return o;
        return do_select(c, *o.o, key, true);
    }
    if (o.k == CV_DEVICE) {
        bool found;
        cel_val v = dev_field(c, key.s, key.n, &found);
        if (found) return opt ? mkopt(c, v) : v;
        return opt ? OPT_NONE : cel_err(c, "undefined field '%.*s'", (int)key.n, key.s);
    }
    if (is_mapish(o.k)) {
        cel_val v, e;
        if (cel_map_find(c, o, key, &v, &e)) return opt ? mkopt(c, v) : v;
        if (e.k == CV_ERROR) return e;
        return opt ? OPT_NONE : no_such_key(c, key);
    }
    if (o.k == CV_ERROR) return o;
    return cel_err(c, "type '%s' does not support field selection", cv_type_name(o));
}

static cel_val do_index(cel_ctx *c, cel_val o, cel_val k, bool opt) {
    if (k.k == CV_ERROR) return k;
    if (o.k == CV_OPT) {
        if (!o.o) return o;
        return do_index(c, *o.o, k, true);
    }
    if (o.k == CV_LIST) {
        int64_t i;
        if (k.k == CV_INT) i = k.i;
        else if (k.k == CV_UINT) {
            if (k.u > (uint64_t)INT64_MAX) return cel_err(c, "index out of range");
            i = (int64_t)k.u;
        } else if (k.k == CV_DOUBLE) {
            if (!(k.d == trunc(k.d)) || fabs(k.d) > 9.2e18) return cel_err(c, "unsupported index value %g in list", k.d);
            i = (int64_t)k.d;
        } else {
            return cel_err(c, "unsupported index type '%s' in list", cv_type_name(k));
        }
        if (i < 0 || i >= (int64_t)o.l->n) {
            if (opt) return OPT_NONE;
            return cel_err(c, "index out of bounds: %lld", (long long)i);
        }
        return opt ? mkopt(c, o.l->v[i]) : o.l->v[i];
    }
    if (o.k == CV_DEVICE) {
        if (k.k != CV_STRING) return cel_err(c, "unsupported key type: %s", cv_type_name(k));
        return do_select(c, o, k, opt);
    }
    if (is_mapish(o.k)) {
        cel_val v, e;
        if (cel_map_find(c, o, k, &v, &e)) return opt ? mkopt(c, v) : v;
        if (e.k == CV_ERROR) return e;
        return opt ? OPT_NONE : no_such_key(c, k);
    }
    if (o.k == CV_ERROR) return o;
    return cel_err(c, "no such overload: _[_](%s, %s)", cv_type_name(o), cv_type_name(k));
}

/* ---- node evaluators ------------------------------------------------------------------------ */

static cel_val ev_const(cel_ctx *c, const cnode *n) {
    c->cost += n->cost;
    return n->cv;
}

static cel_val ev_var(cel_ctx *c, const cnode *n) {
    c->cost += 1;
    return c->slots[n->slot];
}

static cel_val ev_device(cel_ctx *c, const cnode *n) {
    c->cost += n->cost;
    if (!c->dev) return cel_err_static("no such attribute: device (no device given)");
    return CV_MK(CV_DEVICE);
}

static cel_val ev_select(cel_ctx *c, const cnode *n) {
    cel_val o = cel_ev(c, n->args[0]);
    c->cost += n->cost;
    if (o.k == CV_ERROR) return o;
    return do_select(c, o, n->cv, (n->flags & NF_OPTIONAL) != 0);
}

static cel_val ev_index(cel_ctx *c, const cnode *n) {
    cel_val o = cel_ev(c, n->args[0]);
    cel_val k = cel_ev(c, n->args[1]);
    c->cost += n->cost;
    if (o.k == CV_ERROR) return o;
    return do_index(c, o, k, (n->flags & NF_OPTIONAL) != 0);
}

static cel_val ev_dev_dom(cel_ctx *c, const cnode *n) {
    c->cost += n->cost;
    if (!c->dev) return cel_err_static("no such attribute: device (no device given)");
    cel_val v;
    if (n->sub == 1) v = CV_MK((n->flags & NF_CAP) ? CV_DCAPS : CV_DATTRS);
    else {
        v = CV_MK((n->flags & NF_CAP) ? CV_DOMCAP : CV_DOMATTR);
        v.s = n->name;
    }
    return v;
}

static cel_val ev_dev_attr(cel_ctx *c, const cnode *n) {
    c->cost += n->cost;
    const k8s_device *d = c->dev;
    if (!d) return cel_err_static("no such attribute: device (no device given)");
    const char *dom = n->name, *id = n->name2;
    const k8s_attribute *a = cel_dev_find_attr(d, dom, id);
    if (a) return cel_dev_attr_value(c, a);
    return cel_err(c, "no such key: %s", id);
}

static cel_val ev_dev_cap(cel_ctx *c, const cnode *n) {
    c->cost += n->cost;
    const k8s_device *d = c->dev;
    if (!d) return cel_err_static("no such attribute: device (no device given)");
    const char *dom = n->name, *id = n->name2;
    for (size_t i = 0; i < d->ncaps; i++)
        if (d->caps[i].id == id && d->caps[i].domain == dom) {
            cel_val v = {.k = CV_QTY};
            v.q = &d->caps[i].value;
            return v;
        }
    return cel_err(c, "no such key: %s", id);
}

static uint64_t vsize(cel_val v) {
    switch (v.k) {
    case CV_STRING: case CV_BYTES: return v.n;
    case CV_LIST: return v.l->n;
    case CV_MAP: return v.m->n;
    default: return 1;
    }
}

static uint64_t c01(uint64_t n) { return (n + 9) / 10; }

static uint64_t call_cost(const cel_func *f, const cel_val *a, int na) {
    switch (f->cost) {
    case FC_ZERO: return 0;
    case FC_STR01: return na ? (c01(vsize(a[0])) ? c01(vsize(a[0])) : 1) : 1;
    case FC_STR02: return na && vsize(a[0]) ? (2 * vsize(a[0]) + 9) / 10 : 1;
    case FC_MATCH: {
        uint64_t s = na ? c01(1 + vsize(a[0])) : 1, r = na > 1 ? (vsize(a[1]) + 3) / 4 : 1;
        return (s ? s : 1) * (r ? r : 1);
    }
    case FC_CONTAINS: {
        uint64_t s = na ? c01(vsize(a[0])) : 1, r = na > 1 ? c01(vsize(a[1])) : 1;
        return (s ? s : 1) * (r ? r : 1);
    }
    case FC_CMP:
        if (na == 2 && (a[0].k == CV_STRING || a[0].k == CV_BYTES) && a[0].k == a[1].k) {
            uint64_t m = a[0].n < a[1].n ? a[0].n : a[1].n;
            return m ? c01(m) : 1;
        }
        return 1;
    case FC_CONCAT:
        if (na == 2 && a[0].k == a[1].k && (a[0].k == CV_STRING || a[0].k == CV_BYTES || a[0].k == CV_LIST)) {
            uint64_t s = c01(vsize(a[0]) + vsize(a[1]));
            return s ? s : 1;
        }
        return 1;
    case FC_LIST: {
        uint64_t m = 1;
        for (int i = 0; i < na; i++)
            if (a[i].k == CV_LIST || a[i].k == CV_MAP) m += vsize(a[i]);
        return m;
    }
    case FC_LIST2: {
        uint64_t x = na > 0 ? vsize(a[0]) : 1, y = na > 1 ? vsize(a[1]) : 1;
        return 1 + x * y;
    }
    case FC_JOIN: {
        uint64_t t = 0;
        if (na && a[0].k == CV_LIST)
            for (uint32_t i = 0; i < a[0].l->n; i++) t += vsize(a[0].l->v[i]) + (na > 1 ? vsize(a[1]) : 0);
        return (t + 4) / 5 + 1;
    }
    case FC_SORT: {
        uint64_t n = na ? vsize(a[0]) : 1, lg = 1;
        while ((1ull << lg) < n) lg++;
        return 1 + n * lg;
    }
    default: return 1;
    }
}

static cel_val ev_call(cel_ctx *c, const cnode *n) {
    cel_val a[8];
    int na = n->nargs;
    cel_val *args = a;
    if (na > 8) {
        args = cel_scratch(c, sizeof *args * (size_t)na);
        if (!args) return cel_oom();
    }
    for (int i = 0; i < na; i++) {
        args[i] = cel_ev(c, n->args[i]);
        if (args[i].k == CV_ERROR) return args[i];
    }
    const cel_func *f = n->fn;
    c->cost += n->cost - 1 + call_cost(f, args, na);
    if (c->cost > c->limit) return cel_cost_exceeded();
    return f->impl(c, n, args, na);
}

/* Fast paths for the most common operators. */
static cel_val ev_eq(cel_ctx *c, const cnode *n) {
    cel_val a = cel_ev(c, n->args[0]);
    if (a.k == CV_ERROR) return a;
    cel_val b = cel_ev(c, n->args[1]);
    if (b.k == CV_ERROR) return b;
    c->cost += 1;
    if (a.k == CV_STRING && b.k == CV_STRING) {
        if (a.n > 10 && b.n > 10) c->cost += c01(a.n < b.n ? a.n : b.n) - 1;
        bool eq = (a.x && b.x) ? a.s == b.s : (a.n == b.n && !memcmp(a.s, b.s, a.n));
        return cv_bool(n->sub ? !eq : eq);
    }
    cel_val r = cel_equal(c, a, b);
    if (r.k == CV_BOOL && n->sub) r.b = !r.b;
    return r;
}

/* device.attributes[D].ID == CONST (and !=): one lookup, then a pointer compare
 * when both strings are interned. */
static cel_val ev_attr_eq_const(cel_ctx *c, const cnode *n) {
    bool swapped = n->args[0]->op == N_CONST;   /* CONST == device.attributes[D].ID */
    const cnode *an = n->args[swapped], *kn = n->args[!swapped];
    const k8s_device *d = c->dev;
    c->cost += an->cost + kn->cost + 1;
    if (!d) return cel_err_static("no such attribute: device (no device given)");
    const char *dom = an->name, *id = an->name2;
    const k8s_attribute *a = cel_dev_find_attr(d, dom, id);
    if (a) {
        cel_val k = kn->cv;
        if (a->kind == ATTR_STRING && k.k == CV_STRING && k.x) {
            if (k.n > 10) c->cost += c01(k.n) - 1;
            return cv_bool((a->s == k.s) != n->sub);
        }
        cel_val v = cel_dev_attr_value(c, a);
        if (v.k == CV_ERROR) return v;
        cel_val r = swapped ? cel_equal(c, k, v) : cel_equal(c, v, k);
        if (r.k == CV_BOOL && n->sub) r.b = !r.b;
        return r;
    }
    return cel_err(c, "no such key: %s", id);
}

static cel_val ev_and(cel_ctx *c, const cnode *n) {
    cel_val l = cel_ev(c, n->args[0]);
    if (l.k == CV_BOOL && !l.b) return l;
    if (l.k == CV_ERROR && l.x) return l;
    cel_val r = cel_ev(c, n->args[1]);
    if (r.k == CV_BOOL && !r.b) return r;
    if (r.k == CV_ERROR && r.x) return r;
    if (l.k == CV_BOOL && r.k == CV_BOOL) return r;
    if (l.k == CV_ERROR) return l;
    if (r.k == CV_ERROR) return r;
    cel_val ab[2] = {l, r};
    return cel_no_overload(c, "_&&_", ab, 2);
}

static cel_val ev_or(cel_ctx *c, const cnode *n) {
    cel_val l = cel_ev(c, n->args[0]);
    if (l.k == CV_BOOL && l.b) return l;
    if (l.k == CV_ERROR && l.x) return l;
    cel_val r = cel_ev(c, n->args[1]);
    if (r.k == CV_BOOL && r.b) return r;
    if (r.k == CV_ERROR && r.x) return r;
    if (l.k == CV_BOOL && r.k == CV_BOOL) return r;
    if (l.k == CV_ERROR) return l;
    if (r.k == CV_ERROR) return r;
    cel_val ab[2] = {l, r};
    return cel_no_overload(c, "_||_", ab, 2);
}

static cel_val ev_cond(cel_ctx *c, const cnode *n) {
    cel_val k = cel_ev(c, n->args[0]);
    if (k.k == CV_BOOL) return cel_ev(c, n->args[k.b ? 1 : 2]);
    if (k.k == CV_ERROR) return k;
    return cel_no_overload(c, "_?_:_", &k, 1);
}

static cel_val ev_has(cel_ctx *c, const cnode *n) {
    cel_val o = cel_ev(c, n->args[0]);
    for (;;) {
        if (o.k == CV_ERROR) return o;
        if (o.k == CV_OPT) {
            if (!o.o) return cv_bool(false);
            o = *o.o;
            continue;
        }
        if (o.k == CV_DEVICE) {
            bool found;
            dev_field(c, n->cv.s, n->cv.n, &found);
            return cv_bool(found);
        }
        if (is_mapish(o.k)) {
            cel_val v, e;
            bool f = cel_map_find(c, o, n->cv, &v, &e);
            if (e.k == CV_ERROR) return e;
            return cv_bool(f);
        }
        return cel_err(c, "invalid type for field selection: %s", cv_type_name(o));
    }
}

static cel_val ev_list(cel_ctx *c, const cnode *n) {
    uint32_t cnt = n->cv.n;
    cel_val *v = cel_scratch(c, sizeof *v * (cnt ? cnt : 1));
    cel_list *l = cel_scratch(c, sizeof *l);
    if (!v || !l) return cel_oom();
    uint32_t o = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        cel_val e = cel_ev(c, n->args[i]);
        if (e.k == CV_ERROR) return e;
        if (n->optel && n->optel[i]) {
            if (e.k != CV_OPT) return cel_err(c, "cannot initialize optional list element from non-optional value %s", cv_type_name(e));
            if (!e.o) continue;
            e = *e.o;
        }
        v[o++] = e;
    }
    c->cost += n->cost;
    l->n = o;
    l->v = v;
    return cv_list(l);
}

static bool valid_key(cel_val k) { return k.k == CV_INT || k.k == CV_UINT || k.k == CV_BOOL || k.k == CV_STRING; }

static cel_val ev_map(cel_ctx *c, const cnode *n) {
    uint32_t cnt = n->cv.n;
    cel_val *ks = cel_scratch(c, sizeof *ks * (cnt ? cnt : 1));
    cel_val *vs = cel_scratch(c, sizeof *vs * (cnt ? cnt : 1));
    cel_map *m = cel_scratch(c, sizeof *m);
    if (!ks || !vs || !m) return cel_oom();
    m->n = 0;
    m->k = ks;
    m->v = vs;
    uint32_t o = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        cel_val k = cel_ev(c, n->args[2 * i]);
        if (k.k == CV_ERROR) return k;
        cel_val v = cel_ev(c, n->args[2 * i + 1]);
        if (v.k == CV_ERROR) return v;
        if (!valid_key(k)) return cel_err(c, "unsupported key type: %s", cv_type_name(k));
        if (n->optel && n->optel[i]) {
            if (v.k != CV_OPT) return cel_err(c, "cannot initialize optional entry from non-optional value %s", cv_type_name(v));
            if (!v.o) continue;
            v = *v.o;
        }
        cel_val f, e;
        m->n = o;
        if (cel_map_find(c, cv_map(m), k, &f, &e)) return cel_err(c, "Failed with repeated key");
        ks[o] = k;
        vs[o++] = v;
    }
    m->n = o;
    c->cost += n->cost;
    return cv_map(m);
}

static cel_val range_items(cel_ctx *c, cel_val r, const cel_val **items, uint32_t *cnt) {
    if (r.k >= CV_DEVICE && r.k <= CV_DOMCAP) r = cel_materialize(c, r);
    if (r.k == CV_ERROR) return r;
    if (r.k == CV_LIST) {
        *items = r.l->v;
        *cnt = r.l->n;
    } else if (r.k == CV_MAP) {
        *items = r.m->k;
        *cnt = r.m->n;
    } else {
        return cel_err(c, "got '%s', expected iterable type", cv_type_name(r));
    }
    return CV_MK(CV_NULL);
}

static _Thread_local int sort_cmp_err;
typedef struct sortent { cel_val key, val; uint32_t idx; } sortent;

static void merge_sort(sortent *a, sortent *tmp, uint32_t n) {
    if (n < 2) return;
    uint32_t h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        int r = cel_compare(a[j].key, a[i].key);
        if (r == -2 || r == 2) sort_cmp_err = 1;
        if (r < 0 && r != -2) tmp[k++] = a[j++];
        else tmp[k++] = a[i++];
    }
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof *a * n);
}

/* Stable sort of vals by keys; returns a list or an error. */
cel_val cel_sort_by_keys(cel_ctx *c, const cel_val *vals, const cel_val *keys, uint32_t n);
cel_val cel_sort_by_keys(cel_ctx *c, const cel_val *vals, const cel_val *keys, uint32_t n) {
    sortent *e = cel_scratch(c, sizeof *e * (n ? n : 1));
    sortent *t = cel_scratch(c, sizeof *t * (n ? n : 1));
    cel_val *out = cel_scratch(c, sizeof *out * (n ? n : 1));
    cel_list *l = cel_scratch(c, sizeof *l);
    if (!e || !t || !out || !l) return cel_oom();
    for (uint32_t i = 0; i < n; i++) {
        e[i].key = keys[i];
        e[i].val = vals[i];
        e[i].idx = i;
        if (i && cel_compare(keys[0], keys[i]) == -2)
            return cel_err(c, "no such overload: sort(%s, %s)", cv_type_name(keys[0]), cv_type_name(keys[i]));
    }
    if (n == 1 && cel_compare(keys[0], keys[0]) == -2) return cel_err(c, "no such overload: sort(%s)", cv_type_name(keys[0]));
    sort_cmp_err = 0;
    merge_sort(e, t, n);
    if (sort_cmp_err) return cel_err(c, "list elements are not comparable");
    for (uint32_t i = 0; i < n; i++) out[i] = e[i].val;
    l->n = n;
    l->v = out;
    return cv_list(l);
}

static cel_val ev_comp(cel_ctx *c, const cnode *n) {
    cel_val r = cel_ev(c, n->args[0]);
    if (r.k == CV_ERROR) return r;
    const cel_val *items = NULL;
    uint32_t cnt = 0;
    cel_val e = range_items(c, r, &items, &cnt);
    if (e.k == CV_ERROR) return e;
    cel_val *slot = &c->slots[n->slot];
    const cnode *body = n->args[1];
    switch (n->sub) {
    case COMP_ALL: case COMP_EXISTS: {
        bool all = n->sub == COMP_ALL;
        cel_val acc = cv_bool(all);
        for (uint32_t i = 0; i < cnt; i++) {
            c->cost += 3;
            if (c->cost > c->limit) return cel_cost_exceeded();
            *slot = items[i];
            cel_val p = cel_ev(c, body);
            if (p.k == CV_BOOL) {
                if (p.b != all) return p;   /* short circuit */
                continue;
            }
            if (p.k == CV_ERROR) {
                if (p.x) return p;
                if (acc.k != CV_ERROR) acc = p;
                continue;
            }
            if (acc.k != CV_ERROR) acc = cel_no_overload(c, all ? "_&&_" : "_||_", &p, 1);
        }
        c->cost += 1;
        return acc;
    }
    case COMP_EXISTS_ONE: {
        uint32_t k = 0;
        for (uint32_t i = 0; i < cnt; i++) {
            c->cost += 2;
            if (c->cost > c->limit) return cel_cost_exceeded();
            *slot = items[i];
            cel_val p = cel_ev(c, body);
            if (p.k == CV_ERROR) return p;
            if (p.k != CV_BOOL) return cel_no_overload(c, "_?_:_", &p, 1);
            k += p.b;
        }
        c->cost += 2;
        return cv_bool(k == 1);
    }
    case COMP_MAP: case COMP_MAP_FILTER: case COMP_FILTER: case COMP_SORTBY: {
        cel_val *out = cel_scratch(c, sizeof *out * (cnt ? cnt : 1));
        cel_val *keys = n->sub == COMP_SORTBY ? cel_scratch(c, sizeof *keys * (cnt ? cnt : 1)) : NULL;
        cel_list *l = cel_scratch(c, sizeof *l);
        if (!out || !l || (n->sub == COMP_SORTBY && !keys)) return cel_oom();
        uint32_t o = 0;
        for (uint32_t i = 0; i < cnt; i++) {
            c->cost += 3;
            if (c->cost > c->limit) return cel_cost_exceeded();
            *slot = items[i];
            cel_val p = cel_ev(c, body);
            if (p.k == CV_ERROR) return p;
            if (n->sub == COMP_MAP) out[o++] = p;
            else if (n->sub == COMP_SORTBY) {
                keys[o] = p;
                out[o++] = items[i];
            } else {
                if (p.k != CV_BOOL) return cel_no_overload(c, "_?_:_", &p, 1);
                if (!p.b) continue;
                if (n->sub == COMP_FILTER) out[o++] = items[i];
                else {
                    cel_val t = cel_ev(c, n->args[2]);
                    if (t.k == CV_ERROR) return t;
                    out[o++] = t;
                }
            }
        }
        c->cost += 1;
        if (n->sub == COMP_SORTBY) return cel_sort_by_keys(c, out, keys, o);
        l->n = o;
        l->v = out;
        return cv_list(l);
    }
    }
    return cel_err_static("internal error: bad comprehension");
}

static cel_val ev_comp2(cel_ctx *c, const cnode *n) {
    cel_val r = cel_ev(c, n->args[0]);
    if (r.k == CV_ERROR) return r;
    if (r.k >= CV_DEVICE && r.k <= CV_DOMCAP) r = cel_materialize(c, r);
    if (r.k == CV_ERROR) return r;
    uint32_t cnt;
    if (r.k == CV_LIST) cnt = r.l->n;
    else if (r.k == CV_MAP) cnt = r.m->n;
    else return cel_err(c, "got '%s', expected iterable type", cv_type_name(r));
    cel_val *k1 = &c->slots[n->slot], *k2 = &c->slots[n->slot2];
    bool filtered = n->nargs == 3;
    bool quant = n->sub <= COMP2_EXISTS_ONE;
    cel_val acc = cv_bool(n->sub == COMP2_ALL);
    uint32_t ones = 0, o = 0;
    cel_val *ok = NULL, *ov = NULL;
    if (!quant) {
        ok = cel_scratch(c, sizeof *ok * (cnt ? cnt : 1));
        ov = cel_scratch(c, sizeof *ov * (cnt ? cnt : 1));
        if (!ok || !ov) return cel_oom();
    }
    for (uint32_t i = 0; i < cnt; i++) {
        c->cost += 3;
        if (c->cost > c->limit) return cel_cost_exceeded();
        if (r.k == CV_LIST) {
            *k1 = cv_int(i);
            *k2 = r.l->v[i];
        } else {
            *k1 = r.m->k[i];
            *k2 = r.m->v[i];
        }
        cel_val p = cel_ev(c, n->args[1]);
        if (quant) {
            if (n->sub == COMP2_EXISTS_ONE) {
                if (p.k == CV_ERROR) return p;
                if (p.k != CV_BOOL) return cel_no_overload(c, "_?_:_", &p, 1);
                ones += p.b;
                continue;
            }
            bool all = n->sub == COMP2_ALL;
            if (p.k == CV_BOOL) {
                if (p.b != all) return p;
                continue;
            }
            if (p.k == CV_ERROR && p.x) return p;
            if (acc.k != CV_ERROR) acc = p.k == CV_ERROR ? p : cel_no_overload(c, all ? "_&&_" : "_||_", &p, 1);
            continue;
        }
        if (p.k == CV_ERROR) return p;
        if (filtered) {
            if (p.k != CV_BOOL) return cel_no_overload(c, "_?_:_", &p, 1);
            if (!p.b) continue;
            p = cel_ev(c, n->args[2]);
            if (p.k == CV_ERROR) return p;
        }
        if (n->sub == COMP2_TMAPENTRY) {
            cel_val m = p.k >= CV_DATTRS && p.k <= CV_DOMCAP ? cel_materialize(c, p) : p;
            if (m.k != CV_MAP) return cel_no_overload(c, "transformMapEntry", &p, 1);
            for (uint32_t j = 0; j < m.m->n; j++) {
                cel_val f, e;
                cel_map tmp = {o, ok, ov};
                if (cel_map_find(c, cv_map(&tmp), m.m->k[j], &f, &e)) return cel_err(c, "insert failed: key already exists");
                if (o == cnt) {   /* entries may hold several keys */
                    cel_val *nk = cel_scratch(c, sizeof *nk * (2 * (size_t)cnt + m.m->n));
                    cel_val *nv = cel_scratch(c, sizeof *nv * (2 * (size_t)cnt + m.m->n));
                    if (!nk || !nv) return cel_oom();
                    memcpy(nk, ok, sizeof *nk * o);
                    memcpy(nv, ov, sizeof *nv * o);
                    ok = nk;
                    ov = nv;
                    cnt = 2 * cnt + m.m->n;
                }
                ok[o] = m.m->k[j];
                ov[o++] = m.m->v[j];
            }
            continue;
        }
        ok[o] = *k1;
        ov[o++] = p;
    }
    c->cost += 1;
    if (quant) return n->sub == COMP2_EXISTS_ONE ? cv_bool(ones == 1) : acc;
    if (n->sub == COMP2_TLIST) {
        cel_list *l = cel_scratch(c, sizeof *l);
        if (!l) return cel_oom();
        l->n = o;
        l->v = ov;
        return cv_list(l);
    }
    cel_map *m = cel_scratch(c, sizeof *m);
    if (!m) return cel_oom();
    m->n = o;
    m->k = ok;
    m->v = ov;
    return cv_map(m);
}

static cel_val ev_bind(cel_ctx *c, const cnode *n) {
    cel_val v = cel_ev(c, n->args[0]);
    if (v.k == CV_ERROR && v.x) return v;
    c->slots[n->slot] = v;
    return cel_ev(c, n->args[1]);
}

static cel_val ev_optmap(cel_ctx *c, const cnode *n) {
    cel_val o = cel_ev(c, n->args[0]);
    if (o.k == CV_ERROR) return o;
    if (o.k != CV_OPT) return cel_no_overload(c, n->op == N_OPTMAP ? "optMap" : "optFlatMap", &o, 1);
    c->cost += 1;
    if (!o.o) return o;
    c->slots[n->slot] = *o.o;
    cel_val r = cel_ev(c, n->args[1]);
    if (r.k == CV_ERROR) return r;
    if (n->op == N_OPTMAP) return mkopt(c, r);
    if (r.k != CV_OPT) return cel_no_overload(c, "optFlatMap", &r, 1);
    return r;
}

static cel_val ev_bad(cel_ctx *c, const cnode *n) {
    (void)c;
    (void)n;
    return cel_err_static("internal error: node without evaluator");
}

void cel_bind_evaluators(cnode *n) {
    switch ((node_op)n->op) {
    case N_CONST: n->ev = ev_const; break;
    case N_VAR: n->ev = ev_var; break;
    case N_DEVICE: n->ev = ev_device; break;
    case N_SELECT:
        n->ev = ev_select;
        n->cv = cv_str(n->name, strlen(n->name));
        break;
    case N_INDEX: n->ev = ev_index; break;
    case N_HAS:
        n->ev = ev_has;
        n->cv = cv_str(n->name, strlen(n->name));
        break;
    case N_CALL:
        n->ev = ev_call;
        if (n->fn && n->nargs == 2 && (!strcmp(n->fn->name, "_==_") || !strcmp(n->fn->name, "_!=_"))) {
            n->ev = ev_eq;
            n->sub = n->fn->name[1] == '!';
            if ((n->args[0]->op == N_DEV_ATTR && n->args[1]->op == N_CONST) ||
                (n->args[1]->op == N_DEV_ATTR && n->args[0]->op == N_CONST))
                n->ev = ev_attr_eq_const;
        }
        break;
    case N_LIST: n->ev = ev_list; break;
    case N_MAP: n->ev = ev_map; break;
    case N_AND: n->ev = ev_and; break;
    case N_OR: n->ev = ev_or; break;
    case N_COND: n->ev = ev_cond; break;
    case N_COMP: n->ev = ev_comp; break;
    case N_COMP2: n->ev = ev_comp2; break;
    case N_BIND: n->ev = ev_bind; break;
    case N_OPTMAP: case N_OPTFLATMAP: n->ev = ev_optmap; break;
    case N_DEV_DOM: n->ev = ev_dev_dom; break;
    case N_DEV_ATTR: n->ev = ev_dev_attr; break;
    case N_DEV_CAP: n->ev = ev_dev_cap; break;
    default: n->ev = ev_bad; break;
    }
}

/* ---- public API -------------------------------------------------------------------------- */

static cel_program *compile(const char *expr, size_t len, const cel_options *opts, bool any_result, strbuf *err) {
    static const cel_options defaults = {0};
    if (!opts) opts = &defaults;
    if (len > CEL_MAX_EXPRESSION_BYTES) {
        sb_clear(err);
        sb_printf(err, "compilation failed: expression is %zu bytes long, more than the limit of %d", len,
                  CEL_MAX_EXPRESSION_BYTES);
        return NULL;
    }
    cel_program *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->device_env = opts->device_env;
    p->list_attributes = opts->list_attributes;
    int nslots = 0;
    p->root = cel_parse(&p->a, expr, len, err, &nslots);
    if (!p->root) {
        cel_program_free(p);
        return NULL;
    }
    p->nslots = nslots;
    if (cel_check(p, expr, len, opts, any_result, err) != 0) {
        cel_program_free(p);
        return NULL;
    }
    return p;
}

cel_program *cel_compile(const char *expr, size_t len, const cel_options *opts, strbuf *err) {
    return compile(expr, len, opts, false, err);
}

cel_program *cel_compile_any(const char *expr, size_t len, const cel_options *opts, strbuf *err) {
    return compile(expr, len, opts, true, err);
}

void cel_program_free(cel_program *p) {
    if (!p) return;
    for (size_t i = 0; i < p->nregexes; i++) cel_regex_free(p->regexes[i]);
    free(p->regexes);
    arena_free(&p->a);
    free(p);
}

cel_val cel_run(const cel_program *p, const k8s_device *dev, const char *driver, cel_ctx *c) {
    cel_val slots[p->nslots > 0 ? p->nslots : 1];
    c->slots = slots;
    c->dev = dev;
    c->driver = driver;
    c->limit = CEL_MAX_COST;
    c->cost = 0;
    c->compile_time = false;
    if (dev) {
        cel_val e = cel_dev_check_attrs(c);
        if (e.k == CV_ERROR) return e;
    }
    cel_val r = cel_ev(c, p->root);
    if (r.k != CV_ERROR && c->cost > c->limit) r = cel_cost_exceeded();
    c->slots = NULL;
    return r;
}

int cel_match_device(const cel_program *p, const k8s_device *dev, const char *driver, bool *matches, strbuf *err) {
    cel_ctx c;
    cel_val r = cel_run(p, dev, driver, &c);
    if (r.k == CV_BOOL) {
        *matches = r.b;
        cel_scratch_reset();
        return 0;
    }
    sb_clear(err);
    if (r.k == CV_ERROR) sb_puts(err, r.s);
    else sb_printf(err, "CEL result of type %s could not be converted to bool", cv_type_name(r));
    cel_scratch_reset();
    return -1;
}

/* Replace device views by plain maps, recursively (for printing). */
static cel_val deep_mat(cel_ctx *c, cel_val v, int depth) {
    if (depth > 64) return v;
    if (v.k >= CV_DEVICE && v.k <= CV_DOMCAP) v = cel_materialize(c, v);
    if (v.k == CV_LIST) {
        cel_val *it = cel_scratch(c, sizeof *it * (v.l->n + 1));
        cel_list *l = cel_scratch(c, sizeof *l);
        if (!it || !l) return cel_oom();
        for (uint32_t i = 0; i < v.l->n; i++) it[i] = deep_mat(c, v.l->v[i], depth + 1);
        l->n = v.l->n;
        l->v = it;
        return cv_list(l);
    }
    if (v.k == CV_MAP) {
        cel_val *vs = cel_scratch(c, sizeof *vs * (v.m->n + 1));
        cel_map *m = cel_scratch(c, sizeof *m);
        if (!vs || !m) return cel_oom();
        for (uint32_t i = 0; i < v.m->n; i++) vs[i] = deep_mat(c, v.m->v[i], depth + 1);
        m->n = v.m->n;
        m->k = v.m->k;
        m->v = vs;
        return cv_map(m);
    }
    if (v.k == CV_OPT && v.o) {
        cel_val *in = cel_scratch(c, sizeof *in);
        if (!in) return cel_oom();
        *in = deep_mat(c, *v.o, depth + 1);
        cel_val r = v;
        r.o = in;
        return r;
    }
    return v;
}

int cel_eval_print(const cel_program *p, const k8s_device *dev, const char *driver, strbuf *out, strbuf *err) {
    cel_ctx c;
    cel_val r = cel_run(p, dev, driver, &c);
    if (r.k != CV_ERROR) r = deep_mat(&c, r, 0);
    if (r.k == CV_ERROR) {
        sb_clear(err);
        sb_puts(err, r.s);
        cel_scratch_reset();
        return -1;
    }
    cel_print(out, r);
    cel_scratch_reset();
    return 0;
}

int cel_eval_cost(const cel_program *p, const k8s_device *dev, const char *driver, unsigned long long *cost,
                  strbuf *err) {
    cel_ctx c;
    cel_val r = cel_run(p, dev, driver, &c);
    *cost = c.cost;
    int rc = 0;
    if (r.k == CV_ERROR) {
        sb_clear(err);
        sb_puts(err, r.s);
        rc = -1;
    }
    cel_scratch_reset();
    return rc;
}
