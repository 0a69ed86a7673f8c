/*
 * kai_decode.c -- KAI-Scheduler's objects (model/kai.h) from YAML trees, with
 * the decoding context of k8s_decode (FILE:LINE:COL, field paths). Field names
 * and defaults: NVIDIA/KAI-Scheduler v0.13.0, pkg/apis/scheduling/v2/
 * queue_types.go + resources.go, pkg/apis/scheduling/v2alpha2/podgroup_types.go.
 * Core and DRA kinds go to k8s_decode; Pods are read here (nodeName, phase).
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/kai.h"
#include "util/intern.h"
#include "util/xalloc.h"

void kai_objects_init(kai_objects *o) {
    memset(o, 0, sizeof *o);
    k8s_objects_init(&o->k);
}

void kai_objects_free(kai_objects *o) {
    yfile_list_free(&o->files);
    VEC_FREE(o->queues);
    VEC_FREE(o->groups);
    VEC_FREE(o->pods);
    VEC_FREE(o->topologies);
    VEC_FREE(o->classes);
    k8s_objects_free(&o->k);
    arena_free(&o->a);
    memset(o, 0, sizeof *o);
}

static bool api_is(const ynode *root, const char *prefix) {
    const ynode *av = ymap_get(root, "apiVersion");
    return av && av->kind == YN_SCALAR && strncmp(av->str, prefix, strlen(prefix)) == 0;
}

bool kai_is_kai_doc(const ynode *root) {
    if (!root || root->kind != YN_MAP) return false;
    if (api_is(root, "scheduling.run.ai/")) return true;
    const ynode *items = ymap_get(root, "items");
    if (items && items->kind == YN_SEQ)
        for (size_t i = 0; i < items->n; i++)
            if (items->vals[i]->kind == YN_MAP && api_is(items->vals[i], "scheduling.run.ai/")) return true;
    return false;
}

int kai_file_is_kai(const char *path) {
    yfile f;
    strbuf err = {0};
    if (yfile_load(path, &f, &err)) { sb_free(&err); return -1; }
    int r = kai_yfile_is_kai(&f);
    yfile_free(&f);
    return r;
}

bool kai_yfile_is_kai(const yfile *f) {
    for (size_t i = 0; i < f->ndocs; i++)
        if (kai_is_kai_doc(f->docs[i])) return true;
    return false;
}

/* metadata.creationTimestamp (dmeta does not keep it). */
static int dcreated(dctx *c, const ynode *root, const char **out) {
    const ynode *md = ymap_get(root, "metadata");
    if (!md || md->kind != YN_MAP) return 0;
    size_t m = dpush(c, "metadata");
    int r = dstr(c, md, "creationTimestamp", false, out);
    dpop(c, m);
    return r;
}

/* A number field of QueueResource (float64 upstream). */
static int dnum(dctx *c, const ynode *map, const char *key, double *out, bool *present) {
    const ynode *v = ymap_get(map, key);
    if (present) *present = v && !y_is_null(v);
    if (!v || y_is_null(v)) return 0;
    size_t m = dpush(c, ".%s", key);
    int r = y_double(v, dwhat(c), out, c->err);
    dpop(c, m);
    return r;
}

static int decode_queue(dctx *c, kai_objects *o, const ynode *root) {
    kai_queue *q = ARENA_NEW(&o->a, kai_queue, 1);
    memset(q, 0, sizeof *q);
    q->where = root;
    q->priority = 100;   /* constants.DefaultQueuePriority */
    if (dmeta(c, root, &q->meta, true) || dcreated(c, root, &q->created)) return -1;
    const ynode *spec, *res;
    if (dmap(c, root, "spec", 100, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const keys[] = {"displayName", "parentQueue", "resources", "priority", "preemptMinRuntime",
                                       "reclaimMinRuntime", NULL};
    if (dkeys(c, spec, keys)) return -1;
    if (dstr(c, spec, "parentQueue", false, &q->parent)) return -1;
    if (q->parent && !*q->parent) q->parent = NULL;
    q->parent_where = ymap_get(spec, "parentQueue");
    int64_t prio = 100;
    bool has = false;
    if (dint(c, spec, "priority", false, &prio, &has)) return -1;
    q->priority = (int)prio;
    if (dmap(c, spec, "resources", 10, &res)) return -1;
    /* queue_webhook.go ValidateCreate: "resources must be specified" */
    if (!res) return derr(c, spec, "resources must be specified");
    size_t m2 = dpush(c, ".resources");
    static const char *const rkeys[] = {"gpu", "cpu", "memory", NULL};
    static const char *const names[KAI_NRES] = {"gpu", "cpu", "memory"};
    if (dkeys(c, res, rkeys)) return -1;   /* quota on an unknown resource */
    for (int r = 0; r < KAI_NRES; r++) {
        const ynode *e;
        kai_quota *k = &q->res[r];
        if (dmap(c, res, names[r], 10, &e)) return -1;
        k->where = e ? e : res;
        if (!e) continue;
        size_t m3 = dpush(c, ".%s", names[r]);
        static const char *const qkeys[] = {"quota", "overQuotaWeight", "limit", NULL};
        if (dkeys(c, e, qkeys) || dnum(c, e, "quota", &k->quota, NULL) ||
            dnum(c, e, "overQuotaWeight", &k->weight, NULL) || dnum(c, e, "limit", &k->limit, &k->has_limit))
            return -1;
        if (k->quota < 0 && k->quota != KAI_UNLIMITED)
            return derr(c, ymap_get(e, "quota"), "quota: must be >= 0 or -1 (unlimited)");
        if (k->limit < 0 && k->limit != KAI_UNLIMITED)
            return derr(c, ymap_get(e, "limit"), "limit: must be >= 0 or -1 (no limit)");
        if (k->weight < 0) return derr(c, ymap_get(e, "overQuotaWeight"), "overQuotaWeight: must be >= 0");
        if (k->has_limit && k->limit != KAI_UNLIMITED && k->quota != KAI_UNLIMITED && k->limit < k->quota)
            return derr(c, ymap_get(e, "limit"), "limit (%g) is less than quota (%g)", k->limit, k->quota);
        if (k->has_limit && k->limit != KAI_UNLIMITED && k->quota == KAI_UNLIMITED)
            return derr(c, ymap_get(e, "limit"), "limit (%g) is less than quota (-1, unlimited)", k->limit);
        dpop(c, m3);
    }
    /* proportion.go: memory quota and limit are MB (10^6 bytes); -1 stays -1 */
    kai_quota *mem = &q->res[KAI_MEM];
    if (mem->quota != KAI_UNLIMITED) mem->quota *= 1e6;
    if (mem->limit != KAI_UNLIMITED) mem->limit *= 1e6;
    dpop(c, m2);
    dpop(c, m);
    VEC_PUSH(o->queues, q);
    return 0;
}

static int decode_pod_group(dctx *c, kai_objects *o, const ynode *root) {
    kai_pod_group *g = ARENA_NEW(&o->a, kai_pod_group, 1);
    memset(g, 0, sizeof *g);
    g->where = root;
    if (dmeta(c, root, &g->meta, true) || dcreated(c, root, &g->created)) return -1;
    if (!g->meta.namespace_) g->meta.namespace_ = intern("default");
    const ynode *spec;
    if (dmap(c, root, "spec", 100, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const keys[] = {"minMember", "queue", "priorityClassName", "preemptibility", "parallelism",
                                       "completions", "backoffLimit", "markUnschedulable", "schedulingBackoff",
                                       "topologyConstraint", "subGroups", NULL};
    if (dkeys(c, spec, keys)) return -1;
    if (dstr(c, spec, "queue", false, &g->queue) || dstr(c, spec, "priorityClassName", false, &g->priority_class))
        return -1;
    g->queue_where = ymap_get(spec, "queue") ? ymap_get(spec, "queue") : spec;
    int64_t mm = 0;
    if (dint(c, spec, "minMember", false, &mm, NULL)) return -1;
    g->min_member = (int32_t)mm;
    const char *p = NULL;
    if (dstr(c, spec, "preemptibility", false, &p)) return -1;
    if (p && !strcmp(p, "preemptible")) g->preemptibility = KAI_PREEMPTIBLE;
    else if (p && !strcmp(p, "non-preemptible")) g->preemptibility = KAI_NON_PREEMPTIBLE;
    else if (p && *p)
        return derr(c, ymap_get(spec, "preemptibility"), "preemptibility: expected preemptible or non-preemptible");
    dpop(c, m);
    VEC_PUSH(o->groups, g);
    return 0;
}

static int decode_pod(dctx *c, kai_objects *o, const ynode *root) {
    kai_pod *p = ARENA_NEW(&o->a, kai_pod, 1);
    memset(p, 0, sizeof *p);
    if (dmeta(c, root, &p->pod.meta, true) || dcreated(c, root, &p->created)) return -1;
    if (!p->pod.meta.namespace_) p->pod.meta.namespace_ = intern("default");
    const ynode *spec, *st;
    if (dmap(c, root, "spec", 1000, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, ".spec");
    if (k8s_decode_pod_spec(c, spec, &p->pod)) return -1;
    if (dstr(c, spec, "nodeName", false, &p->node_name) ||
        dstr(c, spec, "priorityClassName", false, &p->priority_class))
        return -1;
    dpop(c, m);
    if (dmap(c, root, "status", 1000, &st)) return -1;
    if (st) {
        m = dpush(c, "status");
        if (dstr(c, st, "phase", false, &p->phase)) return -1;
        dpop(c, m);
    }
    VEC_PUSH(o->pods, p);
    return 0;
}

static int decode_priority_class(dctx *c, kai_objects *o, const ynode *root) {
    kai_priority_class *p = ARENA_NEW(&o->a, kai_priority_class, 1);
    memset(p, 0, sizeof *p);
    if (dmeta(c, root, &p->meta, true)) return -1;
    int64_t v = 0;
    if (dint(c, root, "value", true, &v, NULL)) return -1;
    p->value = (int32_t)v;
    VEC_PUSH(o->classes, p);
    return 0;
}

/* How a walk decodes: into O, skipping kinds that are not KAI's or core's when
 * SKIP_OTHER, and only Queues and PriorityClasses when QUEUES_ONLY. */
typedef struct kai_walk {
    kai_objects *o;
    bool skip_other, queues_only;
} kai_walk;

/* One object (not a List) whose header the walker read: dispatch by kind. */
static int decode_object(void *ctx, const ynode *root, const k8s_header *h, strbuf *err) {
    const kai_walk *w = ctx;
    kai_objects *o = w->o;
    bool skip_other = w->skip_other, queues_only = w->queues_only;
    const ynode *kn = h->kind_node, *av = h->api_node;
    const char *kind = h->kind, *api = h->api;
    static const struct {
        const char *kind, *api;
        int (*decode)(dctx *, kai_objects *, const ynode *);
        bool in_queues;
    } own[] = {
        {"Queue", "scheduling.run.ai/v2", decode_queue, true},
        {"PodGroup", "scheduling.run.ai/v2alpha2", decode_pod_group, false},
        {"PriorityClass", "scheduling.k8s.io/v1", decode_priority_class, true},
        {"Pod", "v1", decode_pod, false},
        {"Topology", "kai.scheduler/v1alpha1", kai_decode_topology, true},
    };
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        if (strcmp(kind, own[i].kind) != 0) continue;
        if (queues_only && !own[i].in_queues) break;
        if (!api) { yerr(err, root, "%s without 'apiVersion'", kind); return -1; }
        if (strcmp(api, own[i].api) != 0) {
            yerr(err, av, "%s: unsupported apiVersion '%s' (expected %s)", kind, api, own[i].api);
            return -1;
        }
        dctx c = {.o = &o->k, .a = &o->a, .err = err, .kind = own[i].kind, .name = ""};
        return own[i].decode(&c, o, root);
    }
    static const char *const core[] = {"Node", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice",
                                       "DeviceClass", NULL};
    for (size_t i = 0; !queues_only && core[i]; i++)
        if (!strcmp(kind, core[i])) return k8s_decode_node(&o->k, root, err);
    if (skip_other) return 0;
    yerr(err, kn, queues_only ? "unsupported kind '%s' in queues (expected KAI's Queue, Topology or a PriorityClass; "
                                "workloads come from workload.podGroups with label kai.scheduler/queue)"
                              : "unsupported kind '%s' (expected Queue, PodGroup, PriorityClass, Pod, Node, "
                                "ResourceClaim, ResourceClaimTemplate, ResourceSlice or a List of them)",
         kind);
    return -1;
}

int kai_decode_node(kai_objects *o, const ynode *root, bool skip_other, bool queues_only, strbuf *err) {
    kai_walk w = {o, skip_other, queues_only};
    return k8s_walk_object(root, 0, decode_object, &w, err);
}

static int decode_doc(void *w, const ynode *doc, strbuf *err) { return k8s_walk_object(doc, 0, decode_object, w, err); }

int kai_decode_file(kai_objects *o, const char *path, bool skip_other, bool queues_only, strbuf *err) {
    kai_walk w = {o, skip_other, queues_only};
    return k8s_walk_load(&o->files, path, NULL, NULL, 0, decode_doc, &w, err);
}

int kai_decode_mem(kai_objects *o, const char *name, const char *data, size_t len, bool skip_other, strbuf *err) {
    kai_walk w = {o, skip_other, false};
    return k8s_walk_load(&o->files, NULL, name, data, len, decode_doc, &w, err);
}

/* An object of a KAI snapshot's rawObjects list (cluster.state: model/cluster_state_kai.c):
 * informer caches drop apiVersion and kind, so the list names it. An item
 * that does carry a kind is decoded as any other document. */
int kai_decode_raw(kai_objects *o, const char *kind, const ynode *root, strbuf *err) {
    if (y_expect(root, YN_MAP, kind, err)) return -1;
    if (ymap_get(root, "kind")) {
        kai_walk w = {o, false, false};
        return k8s_walk_object(root, 1, decode_object, &w, err);
    }
    int (*decode)(dctx *, kai_objects *, const ynode *) = !strcmp(kind, "Queue")      ? decode_queue
                                                          : !strcmp(kind, "PodGroup") ? decode_pod_group
                                                                                      : decode_priority_class;
    dctx c = {.o = &o->k, .a = &o->a, .err = err, .kind = kind, .name = ""};
    return decode(&c, o, root);
}

/* ---- lookups and cross-object checks ---------------------------------------- */

const kai_queue *kai_find_queue(const kai_objects *o, const char *name) {
    for (size_t i = 0; name && i < o->queues.len; i++)
        if (!strcmp(o->queues.data[i]->meta.name, name)) return o->queues.data[i];
    return NULL;
}

const kai_pod_group *kai_find_group(const kai_objects *o, const char *ns, const char *name) {
    for (size_t i = 0; i < o->groups.len; i++) {
        const kai_pod_group *g = o->groups.data[i];
        if (!strcmp(g->meta.name, name) && !strcmp(g->meta.namespace_, ns)) return g;
    }
    return NULL;
}

int32_t kai_priority_value(const kai_objects *o, const char *name, bool *found) {
    static const struct { const char *name; int32_t v; } predefined[] = {
        {"train", 50}, {"build-preemptible", 75}, {"build", 100}, {"inference", 125}};
    *found = true;
    for (size_t i = 0; name && i < o->classes.len; i++)
        if (!strcmp(o->classes.data[i]->meta.name, name)) return o->classes.data[i]->value;
    for (size_t i = 0; name && i < sizeof predefined / sizeof *predefined; i++)
        if (!strcmp(predefined[i].name, name)) return predefined[i].v;
    *found = false;
    return 50;   /* constants.DefaultPodGroupPriority */
}

static void at_meta(strbuf *err, const k8s_meta *m, const ynode *where, const char *fmt, const char *a,
                    const char *b) {
    ynode at = {.kind = YN_MAP, .file = m->file, .line = m->line, .col = m->col};
    yerr(err, where ? where : &at, fmt, a, b);
}

int kai_objects_check(const kai_objects *o, strbuf *err) {
    for (size_t i = 0; i < o->queues.len; i++) {
        const kai_queue *q = o->queues.data[i];
        for (size_t j = 0; j < i; j++)
            if (!strcmp(o->queues.data[j]->meta.name, q->meta.name)) {
                at_meta(err, &q->meta, NULL, "Queue %s: declared twice%s", q->meta.name, "");
                return -1;
            }
        if (q->parent && !kai_find_queue(o, q->parent)) {
            at_meta(err, &q->meta, q->parent_where, "Queue %s: spec.parentQueue: Queue %s does not exist",
                    q->meta.name, q->parent);
            return -1;
        }
    }
    for (size_t i = 0; i < o->queues.len; i++) {   /* parent cycles */
        const kai_queue *q = o->queues.data[i];
        size_t steps = 0;
        for (const kai_queue *p = q; p && p->parent; p = kai_find_queue(o, p->parent))
            if (++steps > o->queues.len) {
                at_meta(err, &q->meta, q->parent_where, "Queue %s: spec.parentQueue: cycle through Queue %s",
                        q->meta.name, q->parent);
                return -1;
            }
    }
    for (size_t i = 0; i < o->groups.len; i++) {
        const kai_pod_group *g = o->groups.data[i];
        if (!g->queue) continue;
        for (size_t j = 0; j < o->queues.len; j++)
            if (o->queues.data[j]->parent && !strcmp(o->queues.data[j]->parent, g->queue)) {
                at_meta(err, &g->meta, g->queue_where,
                        "PodGroup %s: spec.queue: Queue %s is not a leaf queue (only leaf queues schedule jobs)",
                        g->meta.name, g->queue);
                return -1;
            }
    }
    return 0;
}
