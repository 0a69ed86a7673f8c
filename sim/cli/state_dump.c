/* state_dump.c -- a run stopped at simulated time `at` as `kubectl get
 * pods,resourceclaims -A -o yaml` would print that cluster (a v1 List), the
 * input of `cluster.state` (docs/STATE.md). Written for `drasim state`
 * (cmd_state.c):
 *  - running pods: spec.nodeName, phase Running, their requests in one
 *    container, annotation drasim.io/remaining (start + duration - at);
 *  - pending pods (arrived, not bound): no nodeName, phase Pending, their
 *    nodeSelector, required node affinity and tolerations, annotation
 *    drasim.io/duration;
 *  - DRA mode: each claim a running pod holds, with status.allocation as the
 *    allocator made it (nodeSelector: the pod's node) and status.reservedFor
 *    naming its pods; a pending pod's template claims, created but not
 *    allocated, as the resourceclaim controller makes them
 *    (kubernetes/kubernetes pkg/controller/resourceclaim, v1.35): the pod
 *    names them in status.resourceClaimStatuses. A shared claim is written
 *    once, reserved by all its running pods.
 * Objects are built as YAML trees (model/yaml_tree.h: every string through
 * the one quoting rule). The run starts at 1970-01-01T00:00:00Z. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/state_dump.h"
#include "engine/sim.h"
#include "model/cluster_state.h"
#include "model/k8s_emit.h"
#include "sched/dra/dra.h"
#include "util/xalloc.h"

/* A Go duration as parse_duration_text reads it: 1h30m, 45s, 250ms, 0. */
static void put_duration(char *buf, size_t n, sim_time t) {
    if (t <= 0) {
        snprintf(buf, n, "0");
        return;
    }
    size_t len = 0;
    buf[0] = 0;
    static const struct { sim_time ms; const char *unit; } parts[] = {
        {3600000, "h"}, {60000, "m"}, {1000, "s"}, {1, "ms"}};
    for (size_t i = 0; i < 4 && len < n; i++)
        if (t >= parts[i].ms) {
            len += (size_t)snprintf(buf + len, n - len, "%lld%s", (long long)(t / parts[i].ms), parts[i].unit);
            t %= parts[i].ms;
        }
}

/* RFC 3339 time of simulated time t (the run starts at the Unix epoch). */
static ynode *timestamp(arena *a, sim_time t) {
    time_t s = (time_t)(t / 1000);
    struct tm tm;
    char buf[40];
    gmtime_r(&s, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return yb_str(a, buf);
}

/* A DNS subdomain from any text: lower case, [a-z0-9.-], '-' for the rest. */
static const char *dns_name(arena *a, const char *s) {
    size_t n = strlen(s);
    if (n > 253) n = 253;
    char *o = arena_strndup(a, s, n);
    for (size_t i = 0; i < n; i++) {
        char c = o[i];
        if (c >= 'A' && c <= 'Z') o[i] = (char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) o[i] = '-';
    }
    return o;
}

typedef struct pod_id {
    const char *ns, *name, *uid;
} pod_id;

/* Pod i's namespace, name ("<group>-<ordinal>", or a source's own name;
 * "ns/name" for a pod of an earlier dump) and uid (made from its id). */
static pod_id identify(arena *a, const sim_run *r, uint32_t i) {
    const sim_pod *p = &r->pods.data[i];
    const pod_group_spec *g = sim_class_spec(r, p->group);
    pod_id id = {g->namespace_, NULL, NULL};
    char buf[600];
    const char *own = sim_pod_name(r, i);
    if (own) {
        const char *slash = strchr(own, '/');
        if (slash) {
            id.ns = arena_strndup(a, own, (size_t)(slash - own));
            snprintf(buf, sizeof buf, "%s", slash + 1);
        } else {
            snprintf(buf, sizeof buf, "%s", own);
        }
    } else {
        snprintf(buf, sizeof buf, "%s-%u", g->name, p->ordinal);
    }
    id.name = dns_name(a, buf);
    snprintf(buf, sizeof buf, "d5a51000-0000-4000-8000-%012x", i);
    id.uid = arena_strndup(a, buf, strlen(buf));
    return id;
}

static ynode *metadata(arena *a, const pod_id *id, const char *name) {
    ynode *md = yb_map(a);
    yb_add(a, md, "name", yb_str(a, name));
    if (id->ns) yb_add(a, md, "namespace", yb_str(a, id->ns));
    return md;
}

static ynode *kv_map(arena *a, const k8s_kv *kv, size_t n) {
    ynode *m = yb_map(a);
    for (size_t i = 0; i < n; i++) yb_add(a, m, kv[i].key, yb_str(a, kv[i].value));
    return m;
}

/* A pod's requests as the scheduler takes them: cpu, memory, ... and its
 * extended resources in device-plugin mode or when DRA serves them (KEP-5004). */
static ynode *requests(arena *a, const pod_group_spec *g, bool dp) {
    ynode *m = yb_map(a);
    for (size_t i = 0; i < g->nrequests; i++) yb_add(a, m, g->requests[i].name, k8s_emit_quantity(a, &g->requests[i].value));
    if (dp || (g->has_dp && !g->ndra_claims))
        for (size_t i = 0; i < g->ndp_resources; i++)
            yb_add(a, m, g->dp_resources[i].name, k8s_emit_quantity(a, &g->dp_resources[i].value));
    return m;
}

/* One shared claim's running users (for its reservedFor). */
typedef struct shared_users {
    const k8s_resource_claim *claim;
    const char *ns;
    const k8s_allocation *al;     /* copied into the arena */
    ynode *reserved;              /* reservedFor list */
} shared_users;

/* The allocation with nodeSelector = the pod's node (node-local devices),
 * copied into the arena: dra_record_allocation's buffer is reused. */
static const k8s_allocation *keep_allocation(arena *a, const k8s_allocation *al, const char *node) {
    k8s_allocation *c = ARENA_NEW(a, k8s_allocation, 1);
    *c = *al;
    c->results = ARENA_NEW(a, k8s_device_result, al->nresults ? al->nresults : 1);
    memcpy(c->results, al->results, al->nresults * sizeof *al->results);
    if (!c->has_node_selector && node) {
        k8s_selector_req *q = ARENA_NEW(a, k8s_selector_req, 1);
        const char **v = ARENA_NEW(a, const char *, 1);
        v[0] = node;
        q->key = "metadata.name";
        q->op = SEL_OP_IN;
        q->values = v;
        q->nvalues = 1;
        k8s_selector_term *t = ARENA_NEW(a, k8s_selector_term, 1);
        t->match_fields = q;
        t->nmatch_fields = 1;
        c->node_selector.terms = t;
        c->node_selector.nterms = 1;
        c->has_node_selector = true;
    }
    return c;
}

static ynode *consumer(arena *a, const pod_id *id) {
    ynode *m = yb_map(a);
    yb_add(a, m, "resource", yb_str(a, "pods"));
    yb_add(a, m, "name", yb_str(a, id->name));
    yb_add(a, m, "uid", yb_str(a, id->uid));
    return m;
}

typedef VEC(shared_users) shared_vec;

static shared_users *shared_entry(shared_vec *sh, const k8s_resource_claim *c) {
    for (size_t k = 0; k < sh->len; k++)
        if (sh->data[k].claim == c) return &sh->data[k];
    shared_users e = {c, c->meta.namespace_, NULL, NULL};
    VEC_PUSH(*sh, e);
    return &sh->data[sh->len - 1];
}

/* The claim of cluster.state behind a held record (dra_hold_record): the
 * dump's ResourceClaim of that name in the pod's namespace. */
static const k8s_resource_claim *held_claim(const sim_run *r, const dra_record *rec, const char *ns) {
    const cluster_state *st = r->sc->state;
    for (size_t i = 0; st && i < st->objs.claims.len; i++) {
        const k8s_resource_claim *c = st->objs.claims.data[i];
        const char *cns = c->meta.namespace_ ? c->meta.namespace_ : "default";
        if (c->meta.name == rec->claim && !strcmp(cns, ns ? ns : "default")) return c;
    }
    return NULL;
}

size_t state_dump_build(const sim_run *r, sim_time at, arena *a, strbuf *out) {
    bool dp = r->sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN;
    ynode *root = yb_map(a), *md = yb_map(a), *items = yb_seq(a), *claims = yb_seq(a);
    yb_add(a, root, "apiVersion", yb_str(a, "v1"));
    yb_add(a, root, "kind", yb_str(a, "List"));
    yb_add(a, md, "resourceVersion", yb_str(a, ""));
    yb_add(a, root, "metadata", md);
    shared_vec shared = {0};
    size_t left_out = 0;
    for (uint32_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        bool running = p->state == POD_RUNNING && p->node >= 0 && p->start >= 0;
        bool pending = p->state == POD_PENDING;
        if (p->state == POD_TERMINATING) left_out++;
        if (!running && !pending) continue;
        const pod_group_spec *g = sim_class_spec(r, p->group);
        pod_id id = identify(a, r, i);
        ynode *pod = yb_map(a), *pmd = metadata(a, &id, id.name), *spec = yb_map(a), *st = yb_map(a);
        yb_add(a, pod, "apiVersion", yb_str(a, "v1"));
        yb_add(a, pod, "kind", yb_str(a, "Pod"));
        yb_add(a, pmd, "uid", yb_str(a, id.uid));
        yb_add(a, pmd, "creationTimestamp", timestamp(a, p->arrival));
        if (g->nlabels) yb_add(a, pmd, "labels", kv_map(a, g->labels, g->nlabels));
        char dur[64];
        bool timed = true;
        if (running) {
            timed = p->duration != SIM_TIME_NEVER;
            if (timed) put_duration(dur, sizeof dur, p->start + p->duration - at);
        } else {
            timed = p->duration != SIM_TIME_NEVER;
            if (timed) put_duration(dur, sizeof dur, p->duration);
        }
        if (timed) {
            ynode *an = yb_map(a);
            yb_add(a, an, running ? STATE_ANNOTATION_REMAINING : STATE_ANNOTATION_DURATION, yb_str(a, dur));
            yb_add(a, pmd, "annotations", an);
        }
        yb_add(a, pod, "metadata", pmd);
        if (running) yb_add(a, spec, "nodeName", yb_str(a, r->nodes[p->node].meta.name));
        if (g->priority) yb_add(a, spec, "priority", yb_int(a, g->priority));
        if (!running) {
            bool dp_sel = dp || (g->has_dp && !g->ndra_claims);
            if (g->nnode_selector || (dp_sel && g->ndp_node_selector)) {
                ynode *sel = kv_map(a, g->node_selector, g->nnode_selector);
                for (size_t k = 0; dp_sel && k < g->ndp_node_selector; k++)
                    yb_add(a, sel, g->dp_node_selector[k].key, yb_str(a, g->dp_node_selector[k].value));
                yb_add(a, spec, "nodeSelector", sel);
            }
            if (g->has_affinity) {
                ynode *aff = yb_map(a), *na = yb_map(a);
                yb_add(a, na, "requiredDuringSchedulingIgnoredDuringExecution",
                       k8s_emit_node_selector(a, &g->required_affinity));
                yb_add(a, aff, "nodeAffinity", na);
                yb_add(a, spec, "affinity", aff);
            }
        }
        if (g->ntolerations) yb_add(a, spec, "tolerations", k8s_emit_tolerations(a, g->tolerations, g->ntolerations));
        ynode *ctr = yb_map(a), *res = yb_map(a), *ctrs = yb_seq(a), *pclaims = yb_seq(a), *cnames = yb_seq(a),
              *statuses = yb_seq(a);
        yb_add(a, ctr, "name", yb_str(a, "main"));
        yb_add(a, res, "requests", requests(a, g, dp));
        /* the pod's claims: what it holds (running) or its template and shared claims (pending) */
        if (r->dra && running) {
            size_t n;
            const dra_record *rec = dra_pod_records(r->dra, i, &n);
            for (size_t k = 0; k < n; k++) {
                if (rec[k].deleted) continue;
                bool ext;
                const k8s_resource_claim *c = dra_record_claim(r->dra, p->group, &rec[k], &ext);
                bool held = !c && (c = held_claim(r, &rec[k], id.ns));   /* a pod of an earlier dump */
                if (!c) continue;
                const k8s_allocation *al = dra_record_allocation(r->dra, &rec[k]);
                const char *node = r->nodes[p->node].meta.name;
                if (rec[k].shared || held) {
                    shared_users *su = shared_entry(&shared, c);
                    if (!su->al) su->al = keep_allocation(a, al, node);
                    if (!su->reserved) su->reserved = yb_seq(a);
                    yb_push(a, su->reserved, consumer(a, &id));
                    if (!su->ns) su->ns = id.ns;
                } else {
                    char cn[600];
                    snprintf(cn, sizeof cn, "%s-%s", id.name, ext ? "extended-resources" : rec[k].claim);
                    k8s_resource_claim obj = *c;
                    obj.meta = (k8s_meta){.name = dns_name(a, cn), .namespace_ = id.ns};
                    obj.allocated = false;
                    ynode *cy = k8s_emit_claim(a, &obj, keep_allocation(a, al, node));
                    ynode *cst = cy->vals[cy->n - 1], *rf = yb_seq(a);   /* status */
                    yb_push(a, rf, consumer(a, &id));
                    yb_add(a, cst, "reservedFor", rf);
                    yb_push(a, claims, cy);
                    if (!ext) {
                        ynode *ref = yb_map(a), *cs = yb_map(a), *cnm = yb_map(a);
                        char tn[600];
                        snprintf(tn, sizeof tn, "%s-%s", g->name, rec[k].claim);
                        yb_add(a, ref, "name", yb_str(a, rec[k].claim));
                        yb_add(a, ref, "resourceClaimTemplateName", yb_str(a, dns_name(a, tn)));
                        yb_push(a, pclaims, ref);
                        yb_add(a, cs, "name", yb_str(a, rec[k].claim));
                        yb_add(a, cs, "resourceClaimName", yb_str(a, obj.meta.name));
                        yb_push(a, statuses, cs);
                        yb_add(a, cnm, "name", yb_str(a, rec[k].claim));
                        yb_push(a, cnames, cnm);
                    }
                    continue;
                }
                ynode *ref = yb_map(a), *cnm = yb_map(a);
                yb_add(a, ref, "name", yb_str(a, c->meta.name));
                yb_add(a, ref, "resourceClaimName", yb_str(a, c->meta.name));
                yb_push(a, pclaims, ref);
                yb_add(a, cnm, "name", yb_str(a, c->meta.name));
                yb_push(a, cnames, cnm);
            }
        } else if (r->dra) {
            for (size_t k = 0; k < g->ndra_claims; k++) {
                const dra_pod_claim *pc = &g->dra_claims[k];
                ynode *ref = yb_map(a), *cnm = yb_map(a);
                yb_add(a, ref, "name", yb_str(a, pc->name));
                yb_add(a, cnm, "name", yb_str(a, pc->name));
                yb_push(a, cnames, cnm);
                if (pc->shared) {
                    yb_add(a, ref, "resourceClaimName", yb_str(a, pc->shared));
                    yb_push(a, pclaims, ref);
                    dra_record probe = {.claim = pc->shared, .shared = true};
                    bool ext;
                    const k8s_resource_claim *c = dra_record_claim(r->dra, p->group, &probe, &ext);
                    if (c) {
                        shared_users *su = shared_entry(&shared, c);
                        if (!su->ns) su->ns = id.ns;
                    }
                    continue;
                }
                char tn[600], cn[600];
                snprintf(tn, sizeof tn, "%s-%s", g->name, pc->name);
                snprintf(cn, sizeof cn, "%s-%s", id.name, pc->name);
                yb_add(a, ref, "resourceClaimTemplateName", yb_str(a, dns_name(a, tn)));
                yb_push(a, pclaims, ref);
                ynode *cs = yb_map(a);
                const char *cname = dns_name(a, cn);
                yb_add(a, cs, "name", yb_str(a, pc->name));
                yb_add(a, cs, "resourceClaimName", yb_str(a, cname));
                yb_push(a, statuses, cs);
                k8s_resource_claim obj = {.meta = {.name = cname, .namespace_ = id.ns}, .spec = pc->spec};
                yb_push(a, claims, k8s_emit_claim(a, &obj, NULL));
            }
        }
        if (cnames->n) yb_add(a, res, "claims", cnames);
        yb_add(a, ctr, "resources", res);
        yb_push(a, ctrs, ctr);
        yb_add(a, spec, "containers", ctrs);
        if (pclaims->n) yb_add(a, spec, "resourceClaims", pclaims);
        yb_add(a, pod, "spec", spec);
        yb_add(a, st, "phase", yb_str(a, running ? "Running" : "Pending"));
        if (running) yb_add(a, st, "startTime", timestamp(a, p->start));
        if (statuses->n) yb_add(a, st, "resourceClaimStatuses", statuses);
        yb_add(a, pod, "status", st);
        yb_push(a, items, pod);
    }
    for (size_t k = 0; k < shared.len; k++) {
        shared_users *su = &shared.data[k];
        k8s_resource_claim obj = *su->claim;
        obj.meta = (k8s_meta){.name = su->claim->meta.name, .namespace_ = su->ns};
        obj.allocated = false;
        ynode *cy = k8s_emit_claim(a, &obj, su->al);
        if (su->reserved) yb_add(a, cy->vals[cy->n - 1], "reservedFor", su->reserved);
        yb_push(a, claims, cy);
    }
    VEC_FREE(shared);
    for (size_t k = 0; k < claims->n; k++) yb_push(a, items, claims->vals[k]);
    yb_add(a, root, "items", items);
    ydump(out, root);
    return left_out;
}
