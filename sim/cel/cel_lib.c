/*
 * cel_lib.c -- the function table of the Kubernetes DRA CEL environment and the
 * standard library: operators, conversions, size/contains/startsWith/endsWith/
 * matches, the strings extension (v2), the Kubernetes list library, ext.Lists
 * (v3), ext.Sets, the regex library (find/findAll) and optionals.
 * Quantity and semver bindings live in lib_quantity.c and lib_semver.c.
 *
 * Signatures: overloads separated by ';', each "M|G arg,arg>result" where M
 * marks a receiver-style (member) overload whose first argument is the
 * receiver. Types: int uint double bool string bytes null dyn qty semver type,
 * list(T), map(K,V), opt(T), and type parameters A B.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"

#define NOOV return cel_no_overload(c, n->fn->name, a, na)

/* lib_quantity.c / lib_semver.c */
cel_val celq_quantity(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_is_quantity(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_sign(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_is_greater(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_is_less(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_compare_to(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_add(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_sub(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_as_integer(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_is_integer(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val celq_as_approx(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cels_semver(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cels_is_semver(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cels_major(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cels_minor(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cels_patch(cel_ctx *c, const cnode *n, const cel_val *a, int na);
cel_val cel_sort_by_keys(cel_ctx *c, const cel_val *vals, const cel_val *keys, uint32_t n);

/* ---- helpers ------------------------------------------------------------------------- */

static char *sbuf(cel_ctx *c, size_t n) { return cel_scratch(c, n + 1); }

static cel_val mkstr(cel_ctx *c, const char *s, size_t n) {
    if (n > UINT32_MAX / 2) return cel_oom();
    char *d = sbuf(c, n);
    if (!d) return cel_oom();
    if (n) memcpy(d, s, n);
    d[n] = 0;
    return cv_str(d, n);
}

static cel_val mklist(cel_ctx *c, cel_val *items, uint32_t n) {
    cel_list *l = cel_scratch(c, sizeof *l);
    if (!l) return cel_oom();
    l->n = n;
    l->v = items;
    return cv_list(l);
}

static cel_val *items_alloc(cel_ctx *c, size_t n) { return cel_scratch(c, sizeof(cel_val) * (n ? n : 1)); }

static cel_val mkopt(cel_ctx *c, cel_val v) {
    cel_val *p = cel_scratch(c, sizeof *p);
    if (!p) return cel_oom();
    *p = v;
    cel_val r = {.k = CV_OPT};
    r.o = p;
    return r;
}

static const char *memfind(const char *h, size_t hn, const char *nd, size_t nn) {
    if (!nn) return h;
    if (nn > hn) return NULL;
    const char *end = h + hn - nn;
    for (const char *p = h; p <= end; p++) {
        p = memchr(p, nd[0], (size_t)(end - p) + 1);
        if (!p) return NULL;
        if (!memcmp(p, nd, nn)) return p;
    }
    return NULL;
}

/* byte offset of code point index i (i <= count) */
static size_t cp_off(const char *s, size_t n, size_t i) {
    size_t o = 0;
    while (i && o < n) {
        o++;
        while (o < n && ((unsigned char)s[o] & 0xC0) == 0x80) o++;
        i--;
    }
    return o;
}

/* ---- operators ------------------------------------------------------------------------- */

static cel_val f_add(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != a[1].k) NOOV;
    switch (a[0].k) {
    case CV_INT: {
        int64_t r;
        if (__builtin_add_overflow(a[0].i, a[1].i, &r)) return cel_err_static("integer overflow");
        return cv_int(r);
    }
    case CV_UINT: {
        uint64_t r;
        if (__builtin_add_overflow(a[0].u, a[1].u, &r)) return cel_err_static("unsigned integer overflow");
        return cv_uint(r);
    }
    case CV_DOUBLE: return cv_double(a[0].d + a[1].d);
    case CV_STRING: case CV_BYTES: {
        size_t l = (size_t)a[0].n + a[1].n;
        if (l > (size_t)1 << 30) return cel_oom();
        char *d = sbuf(c, l);
        if (!d) return cel_oom();
        memcpy(d, a[0].s, a[0].n);
        memcpy(d + a[0].n, a[1].s, a[1].n);
        d[l] = 0;
        cel_val r = a[0];
        r.s = d;
        r.n = (uint32_t)l;
        r.x = 0;
        return r;
    }
    case CV_LIST: {
        size_t l = (size_t)a[0].l->n + a[1].l->n;
        if (l > (size_t)1 << 26) return cel_oom();
        cel_val *it = items_alloc(c, l);
        if (!it) return cel_oom();
        memcpy(it, a[0].l->v, sizeof *it * a[0].l->n);
        memcpy(it + a[0].l->n, a[1].l->v, sizeof *it * a[1].l->n);
        return mklist(c, it, (uint32_t)l);
    }
    default: NOOV;
    }
}

static cel_val f_sub(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != a[1].k) NOOV;
    switch (a[0].k) {
    case CV_INT: {
        int64_t r;
        if (__builtin_sub_overflow(a[0].i, a[1].i, &r)) return cel_err_static("integer overflow");
        return cv_int(r);
    }
    case CV_UINT: {
        uint64_t r;
        if (__builtin_sub_overflow(a[0].u, a[1].u, &r)) return cel_err_static("unsigned integer overflow");
        return cv_uint(r);
    }
    case CV_DOUBLE: return cv_double(a[0].d - a[1].d);
    default: NOOV;
    }
}

static cel_val f_mul(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != a[1].k) NOOV;
    switch (a[0].k) {
    case CV_INT: {
        int64_t r;
        if (__builtin_mul_overflow(a[0].i, a[1].i, &r)) return cel_err_static("integer overflow");
        return cv_int(r);
    }
    case CV_UINT: {
        uint64_t r;
        if (__builtin_mul_overflow(a[0].u, a[1].u, &r)) return cel_err_static("unsigned integer overflow");
        return cv_uint(r);
    }
    case CV_DOUBLE: return cv_double(a[0].d * a[1].d);
    default: NOOV;
    }
}

static cel_val f_div(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != a[1].k) NOOV;
    switch (a[0].k) {
    case CV_INT:
        if (a[1].i == 0) return cel_err_static("division by zero");
        if (a[0].i == INT64_MIN && a[1].i == -1) return cel_err_static("integer overflow");
        return cv_int(a[0].i / a[1].i);
    case CV_UINT:
        if (a[1].u == 0) return cel_err_static("division by zero");
        return cv_uint(a[0].u / a[1].u);
    case CV_DOUBLE: return cv_double(a[0].d / a[1].d);
    default: NOOV;
    }
}

static cel_val f_mod(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != a[1].k) NOOV;
    switch (a[0].k) {
    case CV_INT:
        if (a[1].i == 0) return cel_err_static("modulus by zero");
        if (a[0].i == INT64_MIN && a[1].i == -1) return cel_err_static("integer overflow");
        return cv_int(a[0].i % a[1].i);
    case CV_UINT:
        if (a[1].u == 0) return cel_err_static("modulus by zero");
        return cv_uint(a[0].u % a[1].u);
    default: NOOV;
    }
}

static cel_val f_neg(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_INT) {
        if (a[0].i == INT64_MIN) return cel_err_static("integer overflow");
        return cv_int(-a[0].i);
    }
    if (a[0].k == CV_DOUBLE) return cv_double(-a[0].d);
    NOOV;
}

static cel_val f_not(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_BOOL) return cv_bool(!a[0].b);
    NOOV;
}

static cel_val f_eq(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return cel_equal(c, a[0], a[1]); }
static cel_val f_ne(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val r = cel_equal(c, a[0], a[1]);
    if (r.k == CV_BOOL) r.b = !r.b;
    return r;
}

static cel_val rel(cel_ctx *c, const cnode *n, const cel_val *a, int na, int op) {
    int r = cel_compare(a[0], a[1]);
    if (r == -2) NOOV;
    if (r == 2) return cel_err_static("NaN values cannot be ordered");
    switch (op) {
    case 0: return cv_bool(r < 0);
    case 1: return cv_bool(r <= 0);
    case 2: return cv_bool(r > 0);
    default: return cv_bool(r >= 0);
    }
}
static cel_val f_lt(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return rel(c, n, a, na, 0); }
static cel_val f_le(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return rel(c, n, a, na, 1); }
static cel_val f_gt(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return rel(c, n, a, na, 2); }
static cel_val f_ge(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return rel(c, n, a, na, 3); }

static cel_val f_in(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val x = a[0], cont = a[1];
    if (cont.k == CV_LIST) {
        for (uint32_t i = 0; i < cont.l->n; i++)
            if (cel_equal_b(c, x, cont.l->v[i])) return cv_bool(true);
        return cv_bool(false);
    }
    if (cont.k == CV_DATTRS || cont.k == CV_DCAPS) {
        if (x.k != CV_STRING) NOOV;
        const k8s_device *d = c->dev;
        if (!d) return cv_bool(false);
        if (cont.k == CV_DATTRS) {
            for (size_t i = 0, na = k8s_dev_nattrs(d); i < na; i++) {
                const char *dm = k8s_dev_attr(d, i)->domain;
                if (dm && strlen(dm) == x.n && !memcmp(dm, x.s, x.n)) return cv_bool(true);
            }
        } else {
            for (size_t i = 0; i < d->ncaps; i++) {
                const char *dm = d->caps[i].domain;
                if (dm && strlen(dm) == x.n && !memcmp(dm, x.s, x.n)) return cv_bool(true);
            }
        }
        return cv_bool(false);
    }
    if (cont.k == CV_MAP || cont.k == CV_DOMATTR || cont.k == CV_DOMCAP) {
        cel_val v, e;
        bool f = cel_map_find(c, cont, x, &v, &e);
        if (e.k == CV_ERROR) return e;
        return cv_bool(f);
    }
    NOOV;
}

/* ---- size, string predicates ---------------------------------------------------------- */

static cel_val f_size(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    if (v.k >= CV_DATTRS && v.k <= CV_DOMCAP) v = cel_materialize(c, v);
    switch (v.k) {
    case CV_STRING: return cv_int((int64_t)utf8_count(v.s, v.n));
    case CV_BYTES: return cv_int(v.n);
    case CV_LIST: return cv_int(v.l->n);
    case CV_MAP: return cv_int(v.m->n);
    case CV_ERROR: return v;
    default: NOOV;
    }
}

static cel_val f_contains(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING) NOOV;
    return cv_bool(memfind(a[0].s, a[0].n, a[1].s, a[1].n) != NULL);
}

static cel_val f_starts(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING) NOOV;
    return cv_bool(a[1].n <= a[0].n && !memcmp(a[0].s, a[1].s, a[1].n));
}

static cel_val f_ends(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING) NOOV;
    return cv_bool(a[1].n <= a[0].n && !memcmp(a[0].s + a[0].n - a[1].n, a[1].s, a[1].n));
}

/* The compiled pattern for a call: the precompiled literal, or a fresh one. */
static void *get_re(cel_ctx *c, const cnode *n, cel_val pat, bool *owned, cel_val *err) {
    *owned = false;
    if (n->re) return n->re;
    strbuf e = {0};
    void *re = cel_regex_compile(pat.s, pat.n, &e);
    if (!re) {
        *err = cel_err(c, "invalid regular expression: %s", sb_str(&e));
        sb_free(&e);
        return NULL;
    }
    sb_free(&e);
    *owned = true;
    return re;
}

static cel_val f_matches(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING) NOOV;
    bool owned;
    cel_val err;
    void *re = get_re(c, n, a[1], &owned, &err);
    if (!re) return err;
    const char *msg = NULL;
    int r = cel_regex_search(re, a[0].s, a[0].n, 0, NULL, NULL, &msg, NULL);
    if (owned) cel_regex_free(re);
    if (r < 0) return cel_err(c, "%s", msg ? msg : "regex match failed");
    return cv_bool(r == 1);
}

static cel_val f_find(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING) NOOV;
    bool owned;
    cel_val err;
    void *re = get_re(c, n, a[1], &owned, &err);
    if (!re) return err;
    const char *msg = NULL;
    size_t ms, me;
    int r = cel_regex_search(re, a[0].s, a[0].n, 0, &ms, &me, &msg, NULL);
    if (owned) cel_regex_free(re);
    if (r < 0) return cel_err(c, "%s", msg ? msg : "regex match failed");
    if (r == 0) return cv_str("", 0);
    return mkstr(c, a[0].s + ms, me - ms);
}

static cel_val f_find_all(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING || a[1].k != CV_STRING || (na == 3 && a[2].k != CV_INT)) NOOV;
    int64_t limit = na == 3 ? a[2].i : -1;
    if (limit == 0) return mklist(c, items_alloc(c, 0), 0);
    bool owned;
    cel_val err;
    void *re = get_re(c, n, a[1], &owned, &err);
    if (!re) return err;
    const char *s = a[0].s;
    size_t len = a[0].n, pos = 0;
    long long prev_end = -1;
    bool linear = false;
    size_t cap = 8, cnt = 0;
    cel_val *out = items_alloc(c, cap);
    cel_val res;
    if (!out) { res = cel_oom(); goto done; }
    while (pos <= len && (limit < 0 || (int64_t)cnt < limit)) {
        size_t ms, me;
        const char *msg = NULL;
        int r = cel_regex_search(re, s, len, pos, &ms, &me, &msg, &linear);
        if (r < 0) { res = cel_err(c, "%s", msg ? msg : "regex match failed"); goto done; }
        if (r == 0) break;
        bool accept = true;
        if (me == ms && (long long)ms == prev_end) accept = false;
        if (me == ms) {
            if (ms >= len) pos = len + 1;
            else {
                uint32_t cp;
                pos = ms + (size_t)utf8_decode(s + ms, len - ms, &cp);
            }
        } else {
            pos = me;
        }
        prev_end = (long long)me;
        if (accept) {
            if (cnt == cap) {
                cel_val *nw = items_alloc(c, cap * 2);
                if (!nw) { res = cel_oom(); goto done; }
                memcpy(nw, out, sizeof *nw * cnt);
                out = nw;
                cap *= 2;
            }
            out[cnt] = mkstr(c, s + ms, me - ms);
            if (out[cnt].k == CV_ERROR) { res = out[cnt]; goto done; }
            cnt++;
            c->cost += 1;
            if (c->cost > c->limit) { res = cel_cost_exceeded(); goto done; }
        }
    }
    res = mklist(c, out, (uint32_t)cnt);
done:
    if (owned) cel_regex_free(re);
    return res;
}

/* ---- conversions ---------------------------------------------------------------------------- */

static bool parse_i64(const char *s, size_t n, int64_t *out) {
    if (!n || n > 40) return false;
    char buf[48];
    memcpy(buf, s, n);
    buf[n] = 0;
    size_t i = 0;
    if (buf[0] == '+' || buf[0] == '-') i++;
    if (!buf[i]) return false;
    for (size_t j = i; j < n; j++)
        if (buf[j] < '0' || buf[j] > '9') return false;
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno) return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out) {
    if (!n || n > 40) return false;
    char buf[48];
    memcpy(buf, s, n);
    buf[n] = 0;
    size_t i = buf[0] == '+' ? 1 : 0;
    if (!buf[i]) return false;
    for (size_t j = i; j < n; j++)
        if (buf[j] < '0' || buf[j] > '9') return false;
    errno = 0;
    unsigned long long v = strtoull(buf + i, NULL, 10);
    if (errno) return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, size_t n, double *out) {
    if (!n || n > 400) return false;
    char buf[408];
    memcpy(buf, s, n);
    buf[n] = 0;
    const char *p = buf;
    if (*p == '+' || *p == '-') p++;
    /* Go ParseFloat: decimal, or inf/infinity/nan (any case); no spaces */
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
        *out = buf[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    if (!strcasecmp(p, "nan")) {
        *out = NAN;
        return true;
    }
    bool digit = false;
    for (const char *q = p; *q; q++) {
        if ((*q >= '0' && *q <= '9')) digit = true;
        else if (*q == '.' || *q == 'e' || *q == 'E' || ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))) continue;
        else return false;
    }
    if (!digit) return false;
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (*end) return false;
    if (errno == ERANGE && isinf(d)) return false;
    *out = d;
    return true;
}

static cel_val f_int(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    switch (v.k) {
    case CV_INT: return v;
    case CV_UINT:
        if (v.u > (uint64_t)INT64_MAX) return cel_err_static("integer overflow");
        return cv_int((int64_t)v.u);
    case CV_DOUBLE:
        if (isnan(v.d) || v.d <= -9223372036854775808.0 || v.d >= 9223372036854775808.0)
            return cel_err_static("integer overflow");
        return cv_int((int64_t)v.d);
    case CV_STRING: {
        int64_t r;
        if (!parse_i64(v.s, v.n, &r)) return cel_err(c, "cannot convert string '%.*s' to int", (int)(v.n > 100 ? 100 : v.n), v.s);
        return cv_int(r);
    }
    default: NOOV;
    }
}

static cel_val f_uint(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    switch (v.k) {
    case CV_UINT: return v;
    case CV_INT:
        if (v.i < 0) return cel_err_static("unsigned integer overflow");
        return cv_uint((uint64_t)v.i);
    case CV_DOUBLE:
        if (isnan(v.d) || v.d < 0 || v.d >= 18446744073709551616.0) return cel_err_static("unsigned integer overflow");
        return cv_uint((uint64_t)v.d);
    case CV_STRING: {
        uint64_t r;
        if (!parse_u64(v.s, v.n, &r)) return cel_err(c, "cannot convert string '%.*s' to uint", (int)(v.n > 100 ? 100 : v.n), v.s);
        return cv_uint(r);
    }
    default: NOOV;
    }
}

static cel_val f_double(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    switch (v.k) {
    case CV_DOUBLE: return v;
    case CV_INT: return cv_double((double)v.i);
    case CV_UINT: return cv_double((double)v.u);
    case CV_STRING: {
        double d;
        if (!parse_double(v.s, v.n, &d)) return cel_err(c, "cannot convert string '%.*s' to double", (int)(v.n > 100 ? 100 : v.n), v.s);
        return cv_double(d);
    }
    default: NOOV;
    }
}

static cel_val f_string(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    char buf[64];
    switch (v.k) {
    case CV_STRING: return v;
    case CV_INT: snprintf(buf, sizeof buf, "%" PRId64, v.i); return mkstr(c, buf, strlen(buf));
    case CV_UINT: snprintf(buf, sizeof buf, "%" PRIu64, v.u); return mkstr(c, buf, strlen(buf));
    case CV_BOOL: return v.b ? cv_str("true", 4) : cv_str("false", 5);
    case CV_DOUBLE: {
        strbuf b = {0};
        cel_fmt_double_go(&b, v.d);
        cel_val r = mkstr(c, b.s, b.len);
        sb_free(&b);
        return r;
    }
    case CV_BYTES:
        if (!utf8_valid(v.s, v.n)) return cel_err_static("invalid UTF-8 in bytes, cannot convert to string");
        return cv_str(v.s, v.n);
    case CV_QTY: {
        char q[128];
        size_t l = quantity_format_str(v.q, q, sizeof q);
        return mkstr(c, q, l < sizeof q ? l : sizeof q - 1);
    }
    case CV_SEMVER: {
        char q[256];
        size_t l = semver_format_str(v.sv, q, sizeof q);
        return mkstr(c, q, l < sizeof q ? l : sizeof q - 1);
    }
    default: NOOV;
    }
}

static cel_val f_bytes(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_BYTES) return a[0];
    if (a[0].k == CV_STRING) return cv_bytes(a[0].s, a[0].n);
    NOOV;
}

static cel_val f_bool(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    if (v.k == CV_BOOL) return v;
    if (v.k != CV_STRING) NOOV;
    static const char *const t[] = {"1", "t", "T", "TRUE", "true", "True"}, *const f[] = {"0", "f", "F", "FALSE", "false", "False"};
    for (int i = 0; i < 6; i++) {
        if (strlen(t[i]) == v.n && !memcmp(t[i], v.s, v.n)) return cv_bool(true);
        if (strlen(f[i]) == v.n && !memcmp(f[i], v.s, v.n)) return cv_bool(false);
    }
    return cel_err(c, "cannot convert string '%.*s' to bool", (int)(v.n > 100 ? 100 : v.n), v.s);
}

static cel_val f_dyn(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return a[0]; }

static cel_val f_type(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val t = {.k = CV_TYPE};
    t.s = cv_type_name(a[0]);
    return t;
}

/* ---- strings extension (version 2) --------------------------------------------------------- */

#define NEEDS(i, kind) if (a[i].k != (kind)) NOOV

static cel_val f_char_at(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_INT);
    size_t len = utf8_count(a[0].s, a[0].n);
    int64_t i = a[1].i;
    if (i < 0 || (uint64_t)i > len) return cel_err(c, "index out of range: %lld", (long long)i);
    if ((size_t)i == len) return cv_str("", 0);
    size_t o = cp_off(a[0].s, a[0].n, (size_t)i), e = cp_off(a[0].s, a[0].n, (size_t)i + 1);
    return cv_str(a[0].s + o, e - o);
}

static cel_val list_index_of(cel_ctx *c, const cel_val *a, bool last) {
    const cel_list *l = a[0].l;
    if (!last) {
        for (uint32_t i = 0; i < l->n; i++)
            if (cel_equal_b(c, l->v[i], a[1])) return cv_int(i);
    } else {
        for (uint32_t i = l->n; i-- > 0;)
            if (cel_equal_b(c, l->v[i], a[1])) return cv_int(i);
    }
    return cv_int(-1);
}

static cel_val f_index_of(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_LIST && na == 2) return list_index_of(c, a, false);
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_STRING);
    if (na == 3) NEEDS(2, CV_INT);
    int64_t off = na == 3 ? a[2].i : 0;
    if (a[1].n == 0) return cv_int(off);
    size_t len = utf8_count(a[0].s, a[0].n);
    if (off < 0 || (uint64_t)off >= len) return cel_err(c, "index out of range: %lld", (long long)off);
    size_t bo = cp_off(a[0].s, a[0].n, (size_t)off);
    const char *p = memfind(a[0].s + bo, a[0].n - bo, a[1].s, a[1].n);
    if (!p) return cv_int(-1);
    return cv_int((int64_t)utf8_count(a[0].s, (size_t)(p - a[0].s)));
}

static cel_val f_last_index_of(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_LIST && na == 2) return list_index_of(c, a, true);
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_STRING);
    if (na == 3) NEEDS(2, CV_INT);
    int64_t len = (int64_t)utf8_count(a[0].s, a[0].n);
    int64_t sublen = (int64_t)utf8_count(a[1].s, a[1].n);
    int64_t off;
    if (na == 2) {
        if (a[1].n == 0) return cv_int(len);
        off = len - 1;
    } else {
        off = a[2].i;
        if (a[1].n == 0) return cv_int(off);
    }
    if (off < 0 || off >= len) return cel_err(c, "index out of range: %lld", (long long)off);
    if (off > len - sublen) off = len - sublen;
    for (int64_t i = off; i >= 0; i--) {
        size_t bo = cp_off(a[0].s, a[0].n, (size_t)i);
        if (bo + a[1].n <= a[0].n && !memcmp(a[0].s + bo, a[1].s, a[1].n)) return cv_int(i);
    }
    return cv_int(-1);
}

static cel_val f_case(cel_ctx *c, const cnode *n, const cel_val *a, int na, bool upper) {
    NEEDS(0, CV_STRING);
    char *d = sbuf(c, a[0].n);
    if (!d) return cel_oom();
    for (uint32_t i = 0; i < a[0].n; i++) {
        char ch = a[0].s[i];
        if (upper && ch >= 'a' && ch <= 'z') ch = (char)(ch - 32);
        else if (!upper && ch >= 'A' && ch <= 'Z') ch = (char)(ch + 32);
        d[i] = ch;
    }
    d[a[0].n] = 0;
    return cv_str(d, a[0].n);
}
static cel_val f_lower(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return f_case(c, n, a, na, false); }
static cel_val f_upper(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return f_case(c, n, a, na, true); }

static cel_val f_replace(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_STRING);
    NEEDS(2, CV_STRING);
    if (na == 4) NEEDS(3, CV_INT);
    int64_t lim = na == 4 ? a[3].i : -1;
    const char *s = a[0].s, *old = a[1].s, *nw = a[2].s;
    size_t sn = a[0].n, on = a[1].n, nn = a[2].n;
    if ((on == nn && !memcmp(old, nw, on)) || lim == 0) return a[0];
    /* count matches */
    int64_t m = 0;
    if (on == 0) m = (int64_t)utf8_count(s, sn) + 1;
    else
        for (const char *p = s; (p = memfind(p, sn - (size_t)(p - s), old, on)); p += on) m++;
    if (m == 0) return a[0];
    if (lim < 0 || m < lim) lim = m;
    size_t outn = sn + (size_t)lim * nn;
    if (outn > (size_t)1 << 30) return cel_oom();
    char *d = sbuf(c, outn);
    if (!d) return cel_oom();
    size_t w = 0, start = 0;
    for (int64_t i = 0; i < lim; i++) {
        size_t j = start;
        if (on == 0) {
            if (i > 0) {
                uint32_t cp;
                j += (size_t)utf8_decode(s + start, sn - start, &cp);
            }
        } else {
            j = (size_t)(memfind(s + start, sn - start, old, on) - s);
        }
        memcpy(d + w, s + start, j - start);
        w += j - start;
        memcpy(d + w, nw, nn);
        w += nn;
        start = j + on;
    }
    memcpy(d + w, s + start, sn - start);
    w += sn - start;
    d[w] = 0;
    return cv_str(d, w);
}

static cel_val f_split(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_STRING);
    if (na == 3) NEEDS(2, CV_INT);
    int64_t lim = na == 3 ? a[2].i : -1;
    const char *s = a[0].s, *sep = a[1].s;
    size_t sn = a[0].n, pn = a[1].n;
    if (lim == 0) return mklist(c, items_alloc(c, 0), 0);
    size_t cnt;
    if (pn == 0) cnt = utf8_count(s, sn);
    else {
        cnt = 1;
        for (const char *p = s; (p = memfind(p, sn - (size_t)(p - s), sep, pn)); p += pn) cnt++;
    }
    if (lim > 0 && (uint64_t)lim < cnt) cnt = (size_t)lim;
    cel_val *out = items_alloc(c, cnt);
    if (!out) return cel_oom();
    size_t start = 0;
    for (size_t i = 0; i < cnt; i++) {
        if (i == cnt - 1) {
            out[i] = cv_str(s + start, sn - start);
            break;
        }
        size_t j;
        if (pn == 0) {
            uint32_t cp;
            j = start + (size_t)utf8_decode(s + start, sn - start, &cp);
            out[i] = cv_str(s + start, j - start);
            start = j;
        } else {
            j = (size_t)(memfind(s + start, sn - start, sep, pn) - s);
            out[i] = cv_str(s + start, j - start);
            start = j + pn;
        }
    }
    return mklist(c, out, (uint32_t)cnt);
}

static cel_val f_substring(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    NEEDS(1, CV_INT);
    if (na == 3) NEEDS(2, CV_INT);
    int64_t l = (int64_t)utf8_count(a[0].s, a[0].n);
    int64_t st = a[1].i, en = na == 3 ? a[2].i : l;
    if (na == 3 && st > en) return cel_err(c, "invalid substring range. start: %lld, end: %lld", (long long)st, (long long)en);
    if (st < 0 || st > l) return cel_err(c, "index out of range: %lld", (long long)st);
    if (en < 0 || en > l) return cel_err(c, "index out of range: %lld", (long long)en);
    size_t bo = cp_off(a[0].s, a[0].n, (size_t)st), eo = cp_off(a[0].s, a[0].n, (size_t)en);
    return cv_str(a[0].s + bo, eo - bo);
}

static bool is_space_cp(uint32_t r) {
    switch (r) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
        return true;
    default: return r >= 0x2000 && r <= 0x200A;
    }
}

static cel_val f_trim(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    const char *s = a[0].s;
    size_t b = 0, e = a[0].n;
    while (b < e) {
        uint32_t cp;
        int l = utf8_decode(s + b, e - b, &cp);
        if (!is_space_cp(cp)) break;
        b += (size_t)l;
    }
    while (e > b) {
        size_t k = e - 1;
        while (k > b && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
        uint32_t cp;
        utf8_decode(s + k, e - k, &cp);
        if (!is_space_cp(cp)) break;
        e = k;
    }
    return cv_str(s + b, e - b);
}

static cel_val f_join(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    if (na == 2) NEEDS(1, CV_STRING);
    const cel_list *l = a[0].l;
    size_t tot = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->v[i].k != CV_STRING) return cel_err(c, "join: list element %u is not a string", i);
        tot += l->v[i].n + (i && na == 2 ? a[1].n : 0);
    }
    if (tot > (size_t)1 << 30) return cel_oom();
    char *d = sbuf(c, tot);
    if (!d) return cel_oom();
    size_t w = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        if (i && na == 2) { memcpy(d + w, a[1].s, a[1].n); w += a[1].n; }
        memcpy(d + w, l->v[i].s, l->v[i].n);
        w += l->v[i].n;
    }
    d[w] = 0;
    return cv_str(d, w);
}

static cel_val f_quote(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_STRING);
    strbuf b = {0};
    sb_putc(&b, '"');
    const char *s = a[0].s;
    for (size_t i = 0; i < a[0].n;) {
        uint32_t cp;
        int l = utf8_decode(s + i, a[0].n - i, &cp);
        switch (cp) {
        case '\a': sb_puts(&b, "\\a"); break;
        case '\b': sb_puts(&b, "\\b"); break;
        case '\f': sb_puts(&b, "\\f"); break;
        case '\n': sb_puts(&b, "\\n"); break;
        case '\r': sb_puts(&b, "\\r"); break;
        case '\t': sb_puts(&b, "\\t"); break;
        case '\v': sb_puts(&b, "\\v"); break;
        case '\\': sb_puts(&b, "\\\\"); break;
        case '"': sb_puts(&b, "\\\""); break;
        default: {
            char e[4];
            int el = utf8_encode(cp, e);
            sb_append(&b, e, (size_t)el);
        }
        }
        i += (size_t)l;
    }
    sb_putc(&b, '"');
    cel_val r = mkstr(c, b.s, b.len);
    sb_free(&b);
    return r;
}

/* ---- Kubernetes list library ---------------------------------------------------------------------- */

static cel_val f_is_sorted(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    const cel_list *l = a[0].l;
    for (uint32_t i = 1; i < l->n; i++) {
        int r = cel_compare(l->v[i - 1], l->v[i]);
        if (r == -2 || r == 2) return cel_no_overload(c, "isSorted", &l->v[i], 1);
        if (r > 0) return cv_bool(false);
    }
    if (l->n == 1 && cel_compare(l->v[0], l->v[0]) == -2) return cel_no_overload(c, "isSorted", &l->v[0], 1);
    return cv_bool(true);
}

static cel_val f_sum(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    const cel_list *l = a[0].l;
    if (!l->n) {
        const ctype *t = n->type;
        if (t && t->k == T_UINT) return cv_uint(0);
        if (t && t->k == T_DOUBLE) return cv_double(0);
        return cv_int(0);
    }
    cel_val acc = l->v[0];
    if (acc.k != CV_INT && acc.k != CV_UINT && acc.k != CV_DOUBLE) return cel_no_overload(c, "sum", &acc, 1);
    for (uint32_t i = 1; i < l->n; i++) {
        cel_val ab[2] = {acc, l->v[i]};
        acc = f_add(c, n, ab, 2);
        if (acc.k == CV_ERROR) return acc;
    }
    return acc;
}

static cel_val f_minmax(cel_ctx *c, const cnode *n, const cel_val *a, int na, bool mx) {
    NEEDS(0, CV_LIST);
    const cel_list *l = a[0].l;
    if (!l->n) return cel_err_static(mx ? "max called on empty list" : "min called on empty list");
    cel_val best = l->v[0];
    if (cel_compare(best, best) == -2) return cel_no_overload(c, mx ? "max" : "min", &best, 1);
    for (uint32_t i = 1; i < l->n; i++) {
        int r = cel_compare(l->v[i], best);
        if (r == -2 || r == 2) return cel_no_overload(c, mx ? "max" : "min", &l->v[i], 1);
        if (mx ? r > 0 : r < 0) best = l->v[i];
    }
    return best;
}
static cel_val f_min(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return f_minmax(c, n, a, na, false); }
static cel_val f_max(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return f_minmax(c, n, a, na, true); }

/* ---- ext.Lists (version 3) -------------------------------------------------------------------------- */

static cel_val f_slice(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    NEEDS(1, CV_INT);
    NEEDS(2, CV_INT);
    int64_t s = a[1].i, e = a[2].i, len = a[0].l->n;
    if (s < 0 || e < 0) return cel_err(c, "cannot slice(%lld, %lld), negative indexes not supported", (long long)s, (long long)e);
    if (s > e) return cel_err(c, "cannot slice(%lld, %lld), start index must be less than or equal to end index", (long long)s, (long long)e);
    if (e > len) return cel_err(c, "cannot slice(%lld, %lld), list is length %lld", (long long)s, (long long)e, (long long)len);
    cel_list *l = cel_scratch(c, sizeof *l);
    if (!l) return cel_oom();
    l->n = (uint32_t)(e - s);
    l->v = a[0].l->v + s;
    return cv_list(l);
}

static size_t flat_count(const cel_list *l, int64_t depth) {
    size_t t = 0;
    for (uint32_t i = 0; i < l->n; i++)
        t += (l->v[i].k == CV_LIST && depth > 0) ? flat_count(l->v[i].l, depth - 1) : 1;
    return t;
}
static void flat_fill(const cel_list *l, int64_t depth, cel_val *out, size_t *o) {
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->v[i].k == CV_LIST && depth > 0) flat_fill(l->v[i].l, depth - 1, out, o);
        else out[(*o)++] = l->v[i];
    }
}

static cel_val f_flatten(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    int64_t depth = 1;
    if (na == 2) {
        NEEDS(1, CV_INT);
        depth = a[1].i;
        if (depth < 0) return cel_err_static("level must be non-negative");
        if (depth > 64) depth = 64;
    }
    size_t cnt = flat_count(a[0].l, depth);
    if (cnt > (size_t)1 << 26) return cel_oom();
    c->cost += cnt / 10;
    cel_val *out = items_alloc(c, cnt);
    if (!out) return cel_oom();
    size_t o = 0;
    flat_fill(a[0].l, depth, out, &o);
    return mklist(c, out, (uint32_t)o);
}

static cel_val f_distinct(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    const cel_list *l = a[0].l;
    cel_val *out = items_alloc(c, l->n);
    if (!out) return cel_oom();
    uint32_t o = 0;
    c->cost += (uint64_t)l->n * l->n / 10;
    if (c->cost > c->limit) return cel_cost_exceeded();
    for (uint32_t i = 0; i < l->n; i++) {
        bool dup = false;
        for (uint32_t j = 0; j < o && !dup; j++) dup = cel_equal_b(c, out[j], l->v[i]);
        if (!dup) out[o++] = l->v[i];
    }
    return mklist(c, out, o);
}

static cel_val f_reverse(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    const cel_list *l = a[0].l;
    cel_val *out = items_alloc(c, l->n);
    if (!out) return cel_oom();
    for (uint32_t i = 0; i < l->n; i++) out[i] = l->v[l->n - 1 - i];
    return mklist(c, out, l->n);
}

static cel_val f_sort(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    return cel_sort_by_keys(c, a[0].l->v, a[0].l->v, a[0].l->n);
}

static cel_val f_range(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_INT);
    int64_t k = a[0].i;
    if (k < 0) k = 0;
    if (k > (1 << 24)) return cel_cost_exceeded();
    c->cost += (uint64_t)k / 10;
    if (c->cost > c->limit) return cel_cost_exceeded();
    cel_val *out = items_alloc(c, (size_t)k);
    if (!out) return cel_oom();
    for (int64_t i = 0; i < k; i++) out[i] = cv_int(i);
    return mklist(c, out, (uint32_t)k);
}

static cel_val f_first(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    if (!a[0].l->n) return CV_MK(CV_OPT);
    return mkopt(c, a[0].l->v[0]);
}

static cel_val f_last(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    if (!a[0].l->n) return CV_MK(CV_OPT);
    return mkopt(c, a[0].l->v[a[0].l->n - 1]);
}

/* ---- ext.Sets -------------------------------------------------------------------------------------- */

static bool list_has(cel_ctx *c, const cel_list *l, cel_val x) {
    for (uint32_t i = 0; i < l->n; i++)
        if (cel_equal_b(c, l->v[i], x)) return true;
    return false;
}

static bool set_contains(cel_ctx *c, const cel_list *a, const cel_list *b) {
    for (uint32_t i = 0; i < b->n; i++)
        if (!list_has(c, a, b->v[i])) return false;
    return true;
}

static cel_val f_sets_contains(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    NEEDS(1, CV_LIST);
    return cv_bool(set_contains(c, a[0].l, a[1].l));
}

static cel_val f_sets_equivalent(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    NEEDS(1, CV_LIST);
    return cv_bool(set_contains(c, a[0].l, a[1].l) && set_contains(c, a[1].l, a[0].l));
}

static cel_val f_sets_intersects(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_LIST);
    NEEDS(1, CV_LIST);
    for (uint32_t i = 0; i < a[1].l->n; i++)
        if (list_has(c, a[0].l, a[1].l->v[i])) return cv_bool(true);
    return cv_bool(false);
}

/* ---- optionals ---------------------------------------------------------------------------------------- */

static cel_val f_opt_of(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return mkopt(c, a[0]); }
static cel_val f_opt_none(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return CV_MK(CV_OPT); }

static bool is_zero(cel_val v) {
    switch (v.k) {
    case CV_NULL: return true;
    case CV_BOOL: return !v.b;
    case CV_INT: return v.i == 0;
    case CV_UINT: return v.u == 0;
    case CV_DOUBLE: return v.d == 0;
    case CV_STRING: case CV_BYTES: return v.n == 0;
    case CV_LIST: return v.l->n == 0;
    case CV_MAP: return v.m->n == 0;
    case CV_OPT: return v.o == NULL;
    case CV_QTY: return quantity_sign(v.q) == 0;
    default: return false;
    }
}

static cel_val f_opt_nonzero(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    cel_val v = a[0];
    if (v.k >= CV_DATTRS && v.k <= CV_DOMCAP) v = cel_materialize(c, v);
    if (is_zero(v)) return CV_MK(CV_OPT);
    return mkopt(c, a[0]);
}

static cel_val f_has_value(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_OPT);
    return cv_bool(a[0].o != NULL);
}

static cel_val f_value(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_OPT);
    if (!a[0].o) return cel_err_static("optional.none() dereference");
    return *a[0].o;
}

static cel_val f_or(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_OPT);
    NEEDS(1, CV_OPT);
    return a[0].o ? a[0] : a[1];
}

static cel_val f_or_value(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    NEEDS(0, CV_OPT);
    return a[0].o ? *a[0].o : a[1];
}

/* DRA `includes` (1.36, DRAListTypeAttributes): a list target is searched in its
 * first 48 values; a scalar target is compared. */
static cel_val f_includes(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k == CV_LIST) {
        for (uint32_t i = 0; i < a[0].l->n && i < 48; i++)
            if (cel_equal_b(c, a[0].l->v[i], a[1])) return cv_bool(true);
        return cv_bool(false);
    }
    return cv_bool(cel_equal_b(c, a[0], a[1]));
}

/* ---- the table -------------------------------------------------------------------------------------- */

#define REL_SIGS "G bool,bool>bool; G int,int>bool; G uint,uint>bool; G double,double>bool; G string,string>bool;" \
                 "G bytes,bytes>bool; G int,uint>bool; G int,double>bool; G uint,int>bool; G uint,double>bool;"    \
                 "G double,int>bool; G double,uint>bool"

static const cel_func funcs[] = {
    {"_+_", "G int,int>int; G uint,uint>uint; G double,double>double; G string,string>string; G bytes,bytes>bytes;"
            "G list(A),list(A)>list(A)", f_add, FC_CONCAT, 1, 0},
    {"_-_", "G int,int>int; G uint,uint>uint; G double,double>double", f_sub, FC_ONE, 1, 0},
    {"_*_", "G int,int>int; G uint,uint>uint; G double,double>double", f_mul, FC_ONE, 1, 0},
    {"_/_", "G int,int>int; G uint,uint>uint; G double,double>double", f_div, FC_ONE, 1, 0},
    {"_%_", "G int,int>int; G uint,uint>uint", f_mod, FC_ONE, 1, 0},
    {"-_", "G int>int; G double>double", f_neg, FC_ONE, 1, 0},
    {"!_", "G bool>bool", f_not, FC_ONE, 1, 0},
    {"_==_", "G A,A>bool", f_eq, FC_CMP, 1, 0},
    {"_!=_", "G A,A>bool", f_ne, FC_CMP, 1, 0},
    {"_<_", REL_SIGS, f_lt, FC_CMP, 1, 0},
    {"_<=_", REL_SIGS, f_le, FC_CMP, 1, 0},
    {"_>_", REL_SIGS, f_gt, FC_CMP, 1, 0},
    {"_>=_", REL_SIGS, f_ge, FC_CMP, 1, 0},
    {"@in", "G A,list(A)>bool; G A,map(A,B)>bool", f_in, FC_LIST, 1, 0},
    {"size", "G string>int; G bytes>int; G list(A)>int; G map(A,B)>int; M string>int; M bytes>int; M list(A)>int;"
             "M map(A,B)>int", f_size, FC_ONE, 1, 0},
    {"contains", "M string,string>bool", f_contains, FC_CONTAINS, 1, 0},
    {"startsWith", "M string,string>bool", f_starts, FC_STR01, 1, 0},
    {"endsWith", "M string,string>bool", f_ends, FC_STR01, 1, 0},
    {"matches", "M string,string>bool; G string,string>bool", f_matches, FC_MATCH, 1, 0},
    {"int", "G int>int; G uint>int; G double>int; G string>int", f_int, FC_ONE, 1, 0},
    {"uint", "G uint>uint; G int>uint; G double>uint; G string>uint", f_uint, FC_ONE, 1, 0},
    {"double", "G double>double; G int>double; G uint>double; G string>double", f_double, FC_ONE, 1, 0},
    {"string", "G string>string; G int>string; G uint>string; G double>string; G bool>string; G bytes>string",
     f_string, FC_STR01, 1, 0},
    {"bytes", "G bytes>bytes; G string>bytes", f_bytes, FC_STR01, 1, 0},
    {"bool", "G bool>bool; G string>bool", f_bool, FC_ONE, 1, 0},
    {"dyn", "G A>dyn", f_dyn, FC_ZERO, 1, 0},
    {"type", "G A>type", f_type, FC_ONE, 1, 0},
    /* strings extension v2 */
    {"charAt", "M string,int>string", f_char_at, FC_STR01, 1, 0},
    {"indexOf", "M string,string>int; M string,string,int>int; M list(A),A>int", f_index_of, FC_STR01, 1, 0},
    {"lastIndexOf", "M string,string>int; M string,string,int>int; M list(A),A>int", f_last_index_of, FC_STR01, 1, 0},
    {"lowerAscii", "M string>string", f_lower, FC_STR01, 1, 0},
    {"upperAscii", "M string>string", f_upper, FC_STR01, 1, 0},
    {"replace", "M string,string,string>string; M string,string,string,int>string", f_replace, FC_STR02, 1, 0},
    {"split", "M string,string>list(string); M string,string,int>list(string)", f_split, FC_STR02, 1, 0},
    {"substring", "M string,int>string; M string,int,int>string", f_substring, FC_STR01, 1, 0},
    {"trim", "M string>string", f_trim, FC_STR01, 1, 0},
    {"join", "M list(string)>string; M list(string),string>string", f_join, FC_JOIN, 1, 0},
    {"strings.quote", "G string>string", f_quote, FC_STR01, 1, 0},
    /* Kubernetes list library */
    {"isSorted", "M list(A)>bool", f_is_sorted, FC_LIST, 1, 0},
    {"sum", "M list(int)>int; M list(uint)>uint; M list(double)>double", f_sum, FC_LIST, 1, 0},
    {"min", "M list(A)>A", f_min, FC_LIST, 1, 0},
    {"max", "M list(A)>A", f_max, FC_LIST, 1, 0},
    /* ext.Lists v3 */
    {"slice", "M list(A),int,int>list(A)", f_slice, FC_ONE, 1, 0},
    {"flatten", "M list(A)>list(dyn); M list(A),int>list(dyn)", f_flatten, FC_LIST, 1, 0},
    {"distinct", "M list(A)>list(A)", f_distinct, FC_LIST, 1, 0},
    {"reverse", "M list(A)>list(A)", f_reverse, FC_LIST, 1, 0},
    {"sort", "M list(A)>list(A)", f_sort, FC_SORT, 1, 0},
    {"lists.range", "G int>list(int)", f_range, FC_ONE, 1, 0},
    {"first", "M list(A)>opt(A)", f_first, FC_ONE, 1, 0},
    {"last", "M list(A)>opt(A)", f_last, FC_ONE, 1, 0},
    /* ext.Sets */
    {"sets.contains", "G list(A),list(A)>bool", f_sets_contains, FC_LIST2, 1, 0},
    {"sets.equivalent", "G list(A),list(A)>bool", f_sets_equivalent, FC_LIST2, 1, 0},
    {"sets.intersects", "G list(A),list(A)>bool", f_sets_intersects, FC_LIST2, 1, 0},
    /* regex library */
    {"find", "M string,string>string", f_find, FC_MATCH, 1, 0},
    {"findAll", "M string,string>list(string); M string,string,int>list(string)", f_find_all, FC_MATCH, 1, 0},
    /* optionals */
    {"optional.of", "G A>opt(A)", f_opt_of, FC_ONE, 1, 0},
    {"optional.none", "G >opt(free)", f_opt_none, FC_ONE, 1, 0},
    {"optional.ofNonZeroValue", "G A>opt(A)", f_opt_nonzero, FC_ONE, 1, 0},
    {"hasValue", "M opt(A)>bool", f_has_value, FC_ONE, 1, 0},
    {"value", "M opt(A)>A", f_value, FC_ONE, 1, 0},
    {"or", "M opt(A),opt(A)>opt(A)", f_or, FC_ONE, 1, 0},
    {"orValue", "M opt(A),A>A", f_or_value, FC_ONE, 1, 0},
    /* Kubernetes quantity library */
    {"quantity", "G string>qty", celq_quantity, FC_STR01, 1, 0},
    {"isQuantity", "G string>bool", celq_is_quantity, FC_STR01, 1, 0},
    {"sign", "G qty>int", celq_sign, FC_ONE, 1, 0},
    {"isGreaterThan", "M qty,qty>bool; M semver,semver>bool", celq_is_greater, FC_ONE, 1, 0},
    {"isLessThan", "M qty,qty>bool; M semver,semver>bool", celq_is_less, FC_ONE, 1, 0},
    {"compareTo", "M qty,qty>int; M semver,semver>int", celq_compare_to, FC_ONE, 1, 0},
    {"add", "M qty,qty>qty; M qty,int>qty", celq_add, FC_ONE, 1, 0},
    {"sub", "M qty,qty>qty; M qty,int>qty", celq_sub, FC_ONE, 1, 0},
    {"asInteger", "M qty>int", celq_as_integer, FC_ONE, 1, 0},
    {"isInteger", "M qty>bool", celq_is_integer, FC_ONE, 1, 0},
    {"asApproximateFloat", "M qty>double", celq_as_approx, FC_ONE, 1, 0},
    /* Kubernetes semver library (version 1: with the normalize flag) */
    {"semver", "G string>semver; G string,bool>semver", cels_semver, FC_STR01, 1, 0},
    {"isSemver", "G string>bool; G string,bool>bool", cels_is_semver, FC_STR01, 1, 0},
    {"major", "M semver>int", cels_major, FC_ONE, 1, 0},
    {"minor", "M semver>int", cels_minor, FC_ONE, 1, 0},
    {"patch", "M semver>int", cels_patch, FC_ONE, 1, 0},
    /* DRA */
    {"includes", "M dyn,dyn>bool", f_includes, FC_LIST, 1, 1},
};

const cel_func *cel_func_lookup(const char *name) {
    for (size_t i = 0; i < sizeof funcs / sizeof *funcs; i++)
        if (!strcmp(funcs[i].name, name)) return &funcs[i];
    return NULL;
}
