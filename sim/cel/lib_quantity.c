/*
 * lib_quantity.c -- the Kubernetes CEL quantity library (kubernetes/apiserver
 * pkg/cel/library/quantity.go) on top of quantity.h: quantity(), isQuantity(),
 * sign(), isGreaterThan/isLessThan/compareTo (shared with semver), add/sub
 * (Quantity or int), asInteger, isInteger, asApproximateFloat.
 */
#include <string.h>

#include "cel/cel_internal.h"

#define NOOV return cel_no_overload(c, n->fn->name, a, na)

static cel_val mkq(cel_ctx *c, const quantity *q) {
    quantity *p = cel_scratch(c, sizeof *p);
    if (!p) return cel_oom();
    *p = *q;
    cel_val v = {.k = CV_QTY};
    v.q = p;
    return v;
}

cel_val celq_quantity(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING) NOOV;
    quantity q;
    const char *err = NULL;
    if (quantity_parse(a[0].s, a[0].n, &q, &err) != 0) return cel_err(c, "%s", err ? err : "invalid quantity");
    return mkq(c, &q);
}

cel_val celq_is_quantity(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_STRING) NOOV;
    quantity q;
    const char *err = NULL;
    return cv_bool(quantity_parse(a[0].s, a[0].n, &q, &err) == 0);
}

cel_val celq_sign(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_QTY) NOOV;
    return cv_int(quantity_sign(a[0].q));
}

/* compareTo / isGreaterThan / isLessThan work on quantities and semvers alike */
static int cmp2(cel_val x, cel_val y, bool *ok) {
    *ok = true;
    if (x.k == CV_QTY && y.k == CV_QTY) return quantity_cmp(x.q, y.q);
    if (x.k == CV_SEMVER && y.k == CV_SEMVER) {
        int r = semver_cmp(x.sv, y.sv);
        return r < 0 ? -1 : r > 0;
    }
    *ok = false;
    return 0;
}

cel_val celq_is_greater(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    bool ok;
    int r = cmp2(a[0], a[1], &ok);
    if (!ok) NOOV;
    return cv_bool(r > 0);
}

cel_val celq_is_less(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    bool ok;
    int r = cmp2(a[0], a[1], &ok);
    if (!ok) NOOV;
    return cv_bool(r < 0);
}

cel_val celq_compare_to(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    bool ok;
    int r = cmp2(a[0], a[1], &ok);
    if (!ok) NOOV;
    return cv_int(r < 0 ? -1 : r > 0);
}

static cel_val addsub(cel_ctx *c, const cnode *n, const cel_val *a, int na, bool sub) {
    if (a[0].k != CV_QTY) NOOV;
    quantity other, res;
    if (a[1].k == CV_QTY) other = *a[1].q;
    else if (a[1].k == CV_INT) other = quantity_from_int64(a[1].i, QF_DECIMAL_EXPONENT);
    else NOOV;
    int rc = sub ? quantity_sub(a[0].q, &other, &res) : quantity_add(a[0].q, &other, &res);
    if (rc != 0) return cel_err_static("quantity arithmetic overflow");
    return mkq(c, &res);
}

cel_val celq_add(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return addsub(c, n, a, na, false); }
cel_val celq_sub(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return addsub(c, n, a, na, true); }

cel_val celq_as_integer(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_QTY) NOOV;
    int64_t v;
    if (!quantity_as_int64(a[0].q, &v)) return cel_err_static("cannot convert value to integer");
    return cv_int(v);
}

cel_val celq_is_integer(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_QTY) NOOV;
    int64_t v;
    return cv_bool(quantity_as_int64(a[0].q, &v));
}

cel_val celq_as_approx(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    if (a[0].k != CV_QTY) NOOV;
    return cv_double(quantity_approx_float(a[0].q));
}
