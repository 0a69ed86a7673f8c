/*
 * lib_semver.c -- the Kubernetes CEL semver library (kubernetes/apiserver
 * pkg/cel/library/semverlib.go, SemverVersion 1) on top of semver.h:
 * semver(s[, normalize]), isSemver(s[, normalize]), major(), minor(), patch().
 * compareTo / isGreaterThan / isLessThan are shared with quantities
 * (lib_quantity.c); `==` ignores build metadata (semver_cmp).
 */
#include <string.h>

#include "cel/cel_internal.h"

#define NOOV return cel_no_overload(c, n->fn->name, a, na)

static bool norm_arg(const cel_val *a, int na, bool *norm) {
    *norm = false;
    if (a[0].k != CV_STRING) return false;
    if (na == 2) {
        if (a[1].k != CV_BOOL) return false;
        *norm = a[1].b;
    }
    return true;
}

cel_val cels_semver(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    bool norm;
    if (!norm_arg(a, na, &norm)) NOOV;
    semver v;
    const char *err = NULL;
    if (semver_parse(a[0].s, a[0].n, norm, &v, &err) != 0) return cel_err(c, "%s", err ? err : "invalid semantic version");
    semver *p = cel_scratch(c, sizeof *p);
    if (!p) return cel_oom();
    *p = v;
    cel_val r = {.k = CV_SEMVER};
    r.sv = p;
    return r;
}

cel_val cels_is_semver(cel_ctx *c, const cnode *n, const cel_val *a, int na) {
    bool norm;
    if (!norm_arg(a, na, &norm)) NOOV;
    semver v;
    const char *err = NULL;
    return cv_bool(semver_parse(a[0].s, a[0].n, norm, &v, &err) == 0);
}

static cel_val part(cel_ctx *c, const cnode *n, const cel_val *a, int na, int which) {
    if (a[0].k != CV_SEMVER) NOOV;
    uint64_t v = which == 0 ? a[0].sv->major : which == 1 ? a[0].sv->minor : a[0].sv->patch;
    return cv_int((int64_t)v);
}

cel_val cels_major(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return part(c, n, a, na, 0); }
cel_val cels_minor(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return part(c, n, a, na, 1); }
cel_val cels_patch(cel_ctx *c, const cnode *n, const cel_val *a, int na) { return part(c, n, a, na, 2); }
