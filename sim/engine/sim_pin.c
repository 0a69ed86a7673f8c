/* sim_pin.c -- pods the queue pinned to nodes (see sim_pin.h). */
#include "engine/sim_pin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"

typedef struct pinned_class {
    uint32_t origin;                 /* the class it was made from */
    const k8s_kv *selector;          /* the queue's selector (its identity) */
    uint32_t cls;
    pod_group_spec *spec;            /* owned, with its merged node selector */
} pinned_class;

typedef struct sim_pins {
    VEC(pinned_class) cls;
    VEC(uint32_t) origin;            /* per class index - ngroups: origin + 1, 0 = not pinned */
} sim_pins;

uint32_t sim_class_origin(const sim_run *r, uint32_t c) {
    if (!r->pins || c < r->sc->ngroups) return c;
    size_t k = c - r->sc->ngroups;
    return k < r->pins->origin.len && r->pins->origin.data[k] ? r->pins->origin.data[k] - 1 : c;
}

/* The class of `origin` with `sel` added to its nodeSelector (a key the
 * selector sets replaces the pod's own value, as maps.Copy does). */
static int pinned_class_of(sim_run *r, uint32_t origin, const k8s_kv *sel, size_t nsel) {
    sim_pins *P = r->pins;
    for (size_t i = 0; i < P->cls.len; i++)
        if (P->cls.data[i].origin == origin && P->cls.data[i].selector == sel) return (int)P->cls.data[i].cls;
    const pod_group_spec *g = sim_class_spec(r, origin);
    pod_group_spec *spec = xmalloc(sizeof *spec);
    *spec = *g;
    spec->count = 0;
    k8s_kv *ns = xmalloc((g->nnode_selector + nsel) * sizeof *ns);
    size_t n = 0;
    for (size_t i = 0; i < g->nnode_selector; i++) {
        bool over = false;
        for (size_t j = 0; j < nsel; j++) over |= !strcmp(g->node_selector[i].key, sel[j].key);
        if (!over) ns[n++] = g->node_selector[i];
    }
    for (size_t j = 0; j < nsel; j++) ns[n++] = sel[j];
    spec->node_selector = ns;
    spec->nnode_selector = n;
    int c = sim_add_pinned_class(r, spec);
    if (c < 0) {
        free(ns);
        free(spec);
        return -1;
    }
    pinned_class pc = {origin, sel, (uint32_t)c, spec};
    VEC_PUSH(P->cls, pc);
    size_t k = (size_t)c - r->sc->ngroups;
    while (P->origin.len <= k) VEC_PUSH(P->origin, 0);
    P->origin.data[k] = origin + 1;
    return c;
}

void sim_pin_pod(sim_run *r, const queue_pin *pin) {
    if (!r->pins) r->pins = xcalloc(1, sizeof *r->pins);
    sim_pod *p = &r->pods.data[pin->pod];
    uint32_t origin = sim_class_origin(r, p->group);
    int c = pinned_class_of(r, origin, pin->selector, pin->nselector);
    if (c < 0) return;   /* (cannot happen: the class's resources are known) */
    p = &r->pods.data[pin->pod];
    if (!sim_pod_name(r, pin->pod)) {   /* keep the name the store would give it: <group>-<ordinal> */
        char buf[320];
        snprintf(buf, sizeof buf, "%s-%llu", sim_class_spec(r, origin)->name, (unsigned long long)p->ordinal);
        sim_pod_set_name(r, pin->pod, intern(buf));
        p = &r->pods.data[pin->pod];
    }
    sim_late_class *lc = &r->late.data[(size_t)c - r->sc->ngroups];
    size_t next = r->sched.classes[c].next;
    p->group = (uint32_t)c;
    p->ordinal = (uint32_t)lc->spec->count++;
    VEC_RESERVE(lc->units, (size_t)(p->ordinal + 1) * next);
    for (size_t k = 0; k < next; k++) lc->units.data[lc->units.len++] = 0;
}

void sim_pins_free(sim_run *r) {
    sim_pins *P = r->pins;
    if (!P) return;
    for (size_t i = 0; i < P->cls.len; i++) {
        free(P->cls.data[i].spec->node_selector);
        free(P->cls.data[i].spec);
    }
    VEC_FREE(P->cls);
    VEC_FREE(P->origin);
    free(P);
    r->pins = NULL;
}
