/*
 * dra_selectors.c -- CEL selectors that do not compile are input errors.
 *
 * The allocator compiles a selector when a pod first needs it and turns a
 * compile error into a per-pod reason; a typo then leaves every pod of the
 * group pending. dra_new and dra_add_class call these first, with the
 * allocator's CEL options, so the run stops at load with the expression's
 * FILE:LINE:COL (scenario files), the object's position (DeviceClasses of a
 * recorded inventory), or the pod's group and claim (Lua: the script adds
 * its own position).
 */
#include <string.h>

#include "cel/cel.h"
#include "model/yaml_tree.h"
#include "sched/dra/dra_internal.h"

static cel_options sel_options(const dra_state *d) {
    cel_options o = {.consumable_capacity = d->features.consumable_capacity,
                     .list_attributes = d->features.list_type_attributes,
                     .device_env = true};
    return o;
}

/* Compile expr; on failure set err to "<what>: CEL selector does not compile: <why>". */
static int compile(const dra_state *d, const char *expr, size_t len, const ynode *at, const char *what, strbuf *err) {
    cel_options o = sel_options(d);
    strbuf why = {0};
    cel_program *p = cel_compile(expr, len, &o, &why);
    if (p) {
        cel_program_free(p);
        sb_free(&why);
        return 0;
    }
    yerr(err, at, "%s: CEL selector does not compile: %s", what, why.len ? sb_str(&why) : "compilation failed");
    sb_free(&why);
    return -1;
}

/* Every `cel: {expression: ...}` under the YAML tree n (a claim as written). */
int dra_check_selector_tree(const dra_state *d, const ynode *n, const char *what, strbuf *err) {
    if (!n) return 0;
    if (n->kind == YN_MAP)
        for (size_t i = 0; i < n->n; i++) {
            const ynode *k = n->keys[i], *v = n->vals[i];
            if (k->kind == YN_SCALAR && !strcmp(k->str, "cel") && v && v->kind == YN_MAP) {
                const ynode *e = ymap_get(v, "expression");
                if (e && e->kind == YN_SCALAR && compile(d, e->str, e->len, e, what, err)) return -1;
            } else if (dra_check_selector_tree(d, v, what, err)) {
                return -1;
            }
        }
    else if (n->kind == YN_SEQ)
        for (size_t i = 0; i < n->n; i++)
            if (dra_check_selector_tree(d, n->vals[i], what, err)) return -1;
    return 0;
}

/* The selectors of the DeviceClasses (a recorded inventory's, or the generated ones). */
int dra_check_class_selectors(const dra_state *d, strbuf *err) {
    for (size_t i = 0; i < d->nclasses; i++) {
        const k8s_device_class *c = d->classes[i];
        for (size_t k = 0; k < c->nselectors; k++) {
            cel_options o = sel_options(d);
            strbuf why = {0};
            cel_program *p = cel_compile(c->selectors[k], strlen(c->selectors[k]), &o, &why);
            if (p) {
                cel_program_free(p);
            } else {
                sb_clear(err);
                if (c->meta.file) sb_printf(err, "%s:%d:%d: ", c->meta.file, c->meta.line, c->meta.col);
                sb_printf(err, "DeviceClass %s: spec.selectors[%zu].cel.expression: CEL selector does not compile: %s",
                          c->meta.name, k, why.len ? sb_str(&why) : "compilation failed");
            }
            sb_free(&why);
            if (!p) return -1;
        }
    }
    return 0;
}
