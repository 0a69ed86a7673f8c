/*
 * plugins_filter.c -- the state-independent filters of kube-scheduler's
 * default profile: NodeUnschedulable, TaintToleration, NodeAffinity (which
 * also applies the pod's nodeSelector). Reason texts are upstream's.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/framework.h"
#include "util/intern.h"

static void add_reason(sched_reasons *why, const char *r) {
    if (why && why->n < (int)(sizeof why->r / sizeof *why->r)) why->r[why->n++] = r;
}

static const char *node_label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (n->meta.labels[i].key == key) return n->meta.labels[i].value;
    return NULL;
}

/* ---- NodeUnschedulable -------------------------------------------------------- */

static bool unschedulable_filter(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    if (!s->nodes[node].unschedulable) return true;
    static const char *key;
    if (!key) key = intern("node.kubernetes.io/unschedulable");
    k8s_taint t = {.key = key, .effect = TAINT_NO_SCHEDULE};
    for (size_t i = 0; i < c->ntolerations; i++)
        if (toleration_tolerates(&c->tolerations[i], &t)) return true;
    add_reason(why, "node(s) were unschedulable");
    return false;
}

const sched_plugin plugin_node_unschedulable = {.name = "NodeUnschedulable", .filter_static = unschedulable_filter};

/* ---- TaintToleration ----------------------------------------------------------- */

/* v1.Toleration.ToleratesTaint */
bool toleration_tolerates(const k8s_toleration *t, const k8s_taint *taint) {
    if (t->has_effect && t->effect != taint->effect) return false;
    const char *tkey = t->key && *t->key ? t->key : NULL;
    if (tkey && tkey != taint->key) return false;
    if (t->op == TOL_OP_EXISTS) return true;
    if (!tkey) return false;   /* empty key needs Exists */
    const char *tv = t->value ? t->value : "", *nv = taint->value ? taint->value : "";
    return strcmp(tv, nv) == 0;
}

static bool taint_filter(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    const k8s_node *n = &s->nodes[node];
    for (size_t i = 0; i < n->ntaints; i++) {
        const k8s_taint *t = &n->taints[i];
        if (t->effect != TAINT_NO_SCHEDULE && t->effect != TAINT_NO_EXECUTE) continue;
        bool ok = false;
        for (size_t j = 0; j < c->ntolerations && !ok; j++) ok = toleration_tolerates(&c->tolerations[j], t);
        if (!ok) {
            if (why) {
                strbuf b = {0};
                sb_printf(&b, "node(s) had untolerated taint {%s: %s}", t->key, t->value ? t->value : "");
                add_reason(why, intern(sb_str(&b)));
                sb_free(&b);
            }
            return false;
        }
    }
    return true;
}

const sched_plugin plugin_taint_toleration = {.name = "TaintToleration", .filter_static = taint_filter};

/* ---- NodeAffinity --------------------------------------------------------------- */

static bool req_matches(const k8s_selector_req *r, const k8s_node *n, bool field) {
    const char *v = field ? n->meta.name : node_label(n, r->key);
    bool in = false;
    if (v)
        for (size_t i = 0; i < r->nvalues; i++) in = in || r->values[i] == v;
    switch (r->op) {
    case SEL_OP_IN: return in;
    case SEL_OP_NOT_IN: return !in;
    case SEL_OP_EXISTS: return v != NULL;
    case SEL_OP_DOES_NOT_EXIST: return v == NULL;
    case SEL_OP_GT:
    case SEL_OP_LT: {
        if (!v || r->nvalues != 1) return false;
        char *e1, *e2;
        long long lv = strtoll(v, &e1, 10), rv = strtoll(r->values[0], &e2, 10);
        if (*e1 || *e2 || e1 == v) return false;
        return r->op == SEL_OP_GT ? lv > rv : lv < rv;
    }
    }
    return false;
}

/* Terms are ORed, requirements inside a term ANDed; an empty term matches nothing. */
bool node_selector_matches(const k8s_node_selector *sel, const k8s_node *n) {
    for (size_t t = 0; t < sel->nterms; t++) {
        const k8s_selector_term *term = &sel->terms[t];
        if (!term->nmatch_expressions && !term->nmatch_fields) continue;
        bool ok = true;
        for (size_t i = 0; i < term->nmatch_expressions && ok; i++) ok = req_matches(&term->match_expressions[i], n, false);
        for (size_t i = 0; i < term->nmatch_fields && ok; i++) ok = req_matches(&term->match_fields[i], n, true);
        if (ok) return true;
    }
    return false;
}

static bool affinity_filter(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    const k8s_node *n = &s->nodes[node];
    bool ok = true;
    for (size_t i = 0; i < c->nnode_selector && ok; i++) ok = node_label(n, c->node_selector[i].key) == c->node_selector[i].value;
    if (ok && c->affinity) ok = node_selector_matches(c->affinity, n);
    if (!ok) add_reason(why, "node(s) didn't match Pod's node affinity/selector");
    return ok;
}

const sched_plugin plugin_node_affinity = {.name = "NodeAffinity", .filter_static = affinity_filter};
