/* state_source.c -- `cluster.state:` as a workload source (docs/STATE.md,
 * model/cluster_state.h). At time 0, before any other pod:
 *  - DRA mode: every allocated ResourceClaim of the dump takes its recorded
 *    devices (driver/pool/device, shares, consumed capacity) from the
 *    allocator, after checks: the device exists in the inventory, no device
 *    is allocated to two claims;
 *  - every running pod (a nodeName, phase Running) binds on its node with
 *    its cpu and memory (and, in device-plugin mode, its extended resources)
 *    and runs for its remaining time (annotation drasim.io/remaining, else
 *    state.remaining). A claim is given back when the last running pod of its
 *    status.reservedFor ends (completes, is evicted or deleted); a claim no
 *    running pod reserves stays held. Each pod's held claims are DRA records
 *    of it (claim_allocations, its GPU-hours);
 *  - every pending pod (no nodeName) arrives, through the queue layer when
 *    there is one, and runs for drasim.io/duration, else state.duration,
 *    once started.
 * Draws come from a stream of their own ("cluster.state"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "cel/quantity.h"
#include "model/cluster_state.h"
#include "model/kai.h"
#include "queue/kai_snapshot.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "util/rng.h"
#include "util/xalloc.h"
#include "workload/attach.h"
#include "workload/workload.h"

typedef struct held_claim {
    const k8s_resource_claim *claim;
    uint32_t users;               /* running pods of the dump that reserve it and have not ended */
} held_claim;

typedef struct state_end {
    uint32_t pod;                 /* a running pod of the dump holding claims (increasing) */
    uint32_t first, n;            /* its held claims: pod_claims[first, first + n) */
    int32_t node;
} state_end;

typedef struct state_source {
    int id;
    arena a;                      /* pod group specs (they outlive the run's classes) */
    rng rng;
    VEC(held_claim) held;
    VEC(uint32_t) pod_claims;     /* per running pod with claims: [first, first + n) of held indexes */
    VEC(state_end) ends;
} state_source;

#define RUNNING_GROUP "cluster-state-running"
#define PENDING_GROUP "cluster-state-pending"

static int fail_at(sim_run *r, const k8s_meta *m, const char *kind, const char *fmt, const char *a, const char *b) {
    sb_clear(&r->error);
    sb_printf(&r->error, "%s:%d:%d: %s %s%s%s: ", m->file ? m->file : "?", m->line, m->col, kind,
              m->namespace_ ? m->namespace_ : "", m->namespace_ ? "/" : "", m->name ? m->name : "");
    sb_printf(&r->error, fmt, a, b);
    return -1;
}

static const char *annotation(const k8s_meta *m, const char *key) {
    for (size_t i = 0; i < m->nannotations; i++)
        if (!strcmp(m->annotations[i].key, key)) return m->annotations[i].value;
    return NULL;
}

/* The pod's time: its annotation, else a draw from the distribution. */
static int pod_time(sim_run *r, state_source *ss, const k8s_pod *p, const char *key, bool has, const duration_dist *d,
                    const char *field, sim_time *out) {
    const char *v = annotation(&p->meta, key);
    if (v) {
        if (parse_duration_text(v, out) || *out < 0)
            return fail_at(r, &p->meta, "Pod", "annotation %s: '%s' is not a duration (e.g. 90m, 2h30m)", key, v);
        return 0;
    }
    if (!has)
        return fail_at(r, &p->meta, "Pod", "no annotation %s and no cluster.state.%s distribution", key, field);
    *out = workload_sample_duration(d, &ss->rng);
    return 0;
}

static bool same_ns(const char *a, const char *b) {
    return a == b || (!a && !strcmp(b, "default")) || (!b && !strcmp(a, "default"));
}

static const k8s_resource_claim *find_claim(const k8s_objects *o, const char *ns, const char *name) {
    for (size_t i = o->claims.len; i-- > 0;)
        if (o->claims.data[i]->meta.name == name && same_ns(o->claims.data[i]->meta.namespace_, ns))
            return o->claims.data[i];
    return NULL;
}

/* Node index by name: the nodes sorted by their interned name pointers. */
typedef struct node_ix { const char *name; uint32_t i; } node_ix;
static int cmp_node_ix(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const node_ix *)a)->name, y = (uintptr_t)((const node_ix *)b)->name;
    return (x > y) - (x < y);
}
static int64_t node_index(const node_ix *ix, size_t n, const char *name) {
    node_ix key = {intern(name), 0};
    const node_ix *hit = bsearch(&key, ix, n, sizeof *ix, cmp_node_ix);
    return hit ? (int64_t)hit->i : -1;
}

/* Requests a pod class takes from the pod: cpu and memory, and in
 * device-plugin mode (or for a pending pod, whose extended resources DRA may
 * serve) the extended resources (names with a '/'). */
static void split_requests(state_source *ss, const k8s_pod *p, bool extended, pod_group_spec *g) {
    g->requests = ARENA_NEW(&ss->a, k8s_resource_amount, p->nrequests + 1);
    g->dp_resources = ARENA_NEW(&ss->a, k8s_resource_amount, p->nrequests + 1);
    for (size_t i = 0; i < p->nrequests; i++) {
        const k8s_resource_amount *q = &p->requests[i];
        if (!strcmp(q->name, "cpu") || !strcmp(q->name, "memory")) g->requests[g->nrequests++] = *q;
        else if (extended && strchr(q->name, '/')) g->dp_resources[g->ndp_resources++] = *q;
    }
    g->has_dp = g->ndp_resources > 0;
}

typedef struct taken_dev {
    uint32_t uid;
    const k8s_resource_claim *by;
} taken_dev;

/* DRA mode: check and take every allocated claim's devices. */
static int hold_claims(sim_run *r, state_source *ss, const k8s_objects *o) {
    size_t ndev = 0;
    for (size_t i = 0; i < o->claims.len; i++) ndev += o->claims.data[i]->allocation.nresults;
    VEC(taken_dev) taken = {0};
    int rc = 0;
    for (size_t i = 0; i < o->claims.len && !rc; i++) {
        const k8s_resource_claim *c = o->claims.data[i];
        if (!c->allocated) continue;
        for (size_t k = 0; k < c->allocation.nresults && !rc; k++) {
            const k8s_device_result *res = &c->allocation.results[k];
            uint32_t uid;
            char dev[1024];
            snprintf(dev, sizeof dev, "%s/%s/%s", res->driver ? res->driver : "", res->pool ? res->pool : "",
                     res->device ? res->device : "");
            if (!res->driver || !res->pool || !res->device ||
                !allocator_device_uid(r->dra->A, res->driver, res->pool, res->device, &uid)) {
                rc = fail_at(r, &c->meta, "ResourceClaim", "status.allocation.devices.results[%s]: device %s does "
                             "not exist in the inventory", res->request ? res->request : "?", dev);
                break;
            }
            if (res->admin_access || res->share_id) continue;   /* not dedicated use (alloc.h alloc_state) */
            for (size_t j = 0; j < taken.len; j++)
                if (taken.data[j].uid == uid) {
                    char other[600];
                    const k8s_meta *m = &taken.data[j].by->meta;
                    snprintf(other, sizeof other, "%s%s%s (%s:%d:%d)", m->namespace_ ? m->namespace_ : "",
                             m->namespace_ ? "/" : "", m->name, m->file ? m->file : "?", m->line, m->col);
                    rc = fail_at(r, &c->meta, "ResourceClaim", "device %s is also allocated to ResourceClaim %s", dev,
                                 other);
                    break;
                }
            taken_dev t = {uid, c};
            VEC_PUSH(taken, t);
        }
        if (rc) break;
        dra_hold(r->dra, &c->allocation, +1);
        held_claim h = {c, 0};
        VEC_PUSH(ss->held, h);
    }
    VEC_FREE(taken);
    (void)ndev;
    if (!rc)
        for (size_t n = 0; n < r->nnodes; n++) sched_node_changed(&r->sched, n);   /* their devices are taken */
    return rc;
}

/* Is claim c reserved for pod p (same namespace, reservedFor names it)? */
static bool reserved_for(const k8s_resource_claim *c, const k8s_pod *p) {
    if (!same_ns(c->meta.namespace_, p->meta.namespace_)) return false;
    for (size_t k = 0; k < c->nreserved_pods; k++)
        if (c->reserved_pods[k] == p->meta.name) return true;
    return false;
}

/* Running pod p's held claims (those whose reservedFor names it) into
 * ss->pod_claims, each with a record for pod `id` (dra_hold_record). */
static uint32_t claims_of(sim_run *r, state_source *ss, const k8s_pod *p, uint32_t id) {
    uint32_t n = 0;
    for (size_t h = 0; h < ss->held.len; h++) {
        const k8s_resource_claim *c = ss->held.data[h].claim;
        if (!reserved_for(c, p)) continue;
        dra_hold_record(r->dra, id, c, ss->held.data[h].users++ == 0);
        VEC_PUSH(ss->pod_claims, (uint32_t)h);
        n++;
    }
    return n;
}

/* The GPUs of the held claims whose reservedFor names running pod p, counted
 * per pod as KAI counts a pod's claims (countGPUDevicesFromClaim,
 * queue/kai_snapshot.c), for KAI's queue usage in DRA mode. */
static double held_gpus(const state_source *ss, const k8s_pod *p) {
    double n = 0;
    for (size_t h = 0; h < ss->held.len; h++)
        if (reserved_for(ss->held.data[h].claim, p)) n += kai_claim_gpus(&ss->held.data[h].claim->spec);
    return n;
}

/* sim_place_running's hook: the pod is bound, not started yet. */
typedef struct bind_ctx {
    state_source *ss;
    const k8s_pod *p;
} bind_ctx;
static void on_bound(sim_run *r, void *ctx, uint32_t id) {
    bind_ctx *b = ctx;
    uint32_t first = (uint32_t)b->ss->pod_claims.len, n = claims_of(r, b->ss, b->p, id);
    if (n) {
        state_end e = {id, first, n, r->pods.data[id].node};
        VEC_PUSH(b->ss->ends, e);
    }
}

static const char *pod_name(const k8s_pod *p) {
    char buf[600];
    snprintf(buf, sizeof buf, "%s/%s", p->meta.namespace_ ? p->meta.namespace_ : "default", p->meta.name);
    return intern(buf);
}

static void warn(sim_run *r, const char *msg) {
    sim_warning w = {NULL, "cluster-state", xstrdup(msg)};
    VEC_PUSH(r->warnings, w);
}

static int place_running(sim_run *r, state_source *ss, const k8s_objects *o, const node_ix *ix) {
    bool dp = r->sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN;
    for (size_t i = 0; i < o->pods.len; i++) {
        const k8s_pod *p = o->pods.data[i];
        if (!cluster_state_pod_running(p)) continue;
        int64_t node = node_index(ix, r->nnodes, p->node_name);
        if (node < 0)
            return fail_at(r, &p->meta, "Pod", "spec.nodeName: node '%s' is not in the inventory%s", p->node_name, "");
        /* an autoscaled group's node beyond its count starts absent: the recorded cluster had it up */
        if (!sched_node_present(&r->sched, (size_t)node) &&
            !(r->node_recorded && r->node_recorded(r, (size_t)node, 0)))
            return fail_at(r, &p->meta, "Pod", "spec.nodeName: node '%s' is not up at time 0%s", p->node_name, "");
        sim_time left;
        const cluster_state *st = r->sc->state;
        if (pod_time(r, ss, p, STATE_ANNOTATION_REMAINING, st->has_remaining, &st->remaining, "remaining", &left))
            return -1;
        pod_group_spec *g = ARENA_NEW(&ss->a, pod_group_spec, 1);
        g->name = RUNNING_GROUP;
        g->priority = p->priority;
        /* it runs there already: NoSchedule taints do not concern it; NoExecute ones
         * evict it unless it tolerates them (its own tolerations, as the taint manager
         * sees them: kubernetes/kubernetes pkg/controller/tainteviction, v1.35) */
        g->tolerations = ARENA_NEW(&ss->a, k8s_toleration, p->ntolerations + 1);
        if (p->ntolerations) memcpy(g->tolerations, p->tolerations, p->ntolerations * sizeof *p->tolerations);
        g->tolerations[p->ntolerations] =
            (k8s_toleration){.op = TOL_OP_EXISTS, .has_op = true, .has_effect = true, .effect = TAINT_NO_SCHEDULE};
        g->ntolerations = p->ntolerations + 1;
        g->namespace_ = p->meta.namespace_;
        g->labels = p->meta.labels;
        g->nlabels = p->meta.nlabels;
        split_requests(ss, p, dp, g);
        g->held_gpus = held_gpus(ss, p);
        int c = sim_add_class(r, g);
        if (c < 0) {
            char why[600];
            snprintf(why, sizeof why, "%s", r->error.len ? sb_str(&r->error) : "a resource no node offers");
            return fail_at(r, &p->meta, "Pod", "cannot run in this cluster: %s%s", why, "");
        }
        bind_ctx b = {ss, p};
        if (sim_place_running(r, ss->id, (uint32_t)c, pod_name(p), left, (size_t)node, 0, r->dra ? on_bound : NULL, &b) <
            0)
            return fail_at(r, &p->meta, "Pod", "does not fit on node '%s' (its requests exceed what is left there%s)",
                           p->node_name, dp ? "" : ", or a device it holds is gone");
    }
    size_t idle = 0;
    for (size_t h = 0; h < ss->held.len; h++) idle += ss->held.data[h].users == 0;
    if (idle) {
        char msg[200];
        snprintf(msg, sizeof msg, "cluster.state: %zu allocated ResourceClaim(s) reserved by no running pod keep "
                 "their devices for the whole run", idle);
        warn(r, msg);
    }
    return 0;
}

/* A pending pod's claims (DRA mode): the claim objects its references name. */
static int pending_claims(sim_run *r, state_source *ss, const k8s_objects *o, const k8s_pod *p, pod_group_spec *g) {
    if (!p->nclaims) return 0;
    g->dra_claims = ARENA_NEW(&ss->a, dra_pod_claim, p->nclaims);
    for (size_t k = 0; k < p->nclaims; k++) {
        const k8s_pod_claim_ref *ref = &p->claims[k];
        const char *cname = ref->resource_claim_name;
        for (size_t j = 0; !cname && j < p->nclaim_statuses; j++)
            if (p->claim_statuses[j].key == ref->name) cname = p->claim_statuses[j].value;
        const k8s_resource_claim *c = cname ? find_claim(o, p->meta.namespace_, cname) : NULL;
        const k8s_claim_spec *spec = c ? &c->spec : NULL;
        if (c && c->allocated) continue;   /* allocated already: held as recorded (hold_claims) */
        for (size_t j = 0; !spec && ref->template_name && j < o->templates.len; j++)
            if (o->templates.data[j]->meta.name == ref->template_name &&
                same_ns(o->templates.data[j]->meta.namespace_, p->meta.namespace_))
                spec = &o->templates.data[j]->spec;
        if (!spec)
            return fail_at(r, &p->meta, "Pod", "spec.resourceClaims[%s]: its ResourceClaim%s is not in the state files",
                           ref->name, ref->template_name ? " (or ResourceClaimTemplate)" : "");
        dra_pod_claim *dc = &g->dra_claims[g->ndra_claims++];
        dc->name = ref->name;
        dc->spec = *spec;
    }
    return 0;
}

static int queue_pending(sim_run *r, state_source *ss, const k8s_objects *o) {
    bool dra = r->dra != NULL;
    size_t ignored = 0;
    for (size_t i = 0; i < o->pods.len; i++) {
        const k8s_pod *p = o->pods.data[i];
        if (!cluster_state_pod_pending(p)) continue;
        sim_time dur;
        const cluster_state *st = r->sc->state;
        if (pod_time(r, ss, p, STATE_ANNOTATION_DURATION, st->has_duration, &st->duration, "duration", &dur)) return -1;
        pod_group_spec *g = ARENA_NEW(&ss->a, pod_group_spec, 1);
        g->name = PENDING_GROUP;
        g->priority = p->priority;
        g->node_selector = p->node_selector;
        g->nnode_selector = p->nnode_selector;
        g->has_affinity = p->has_affinity;
        g->required_affinity = p->required_affinity;
        g->tolerations = p->tolerations;
        g->ntolerations = p->ntolerations;
        g->namespace_ = p->meta.namespace_;
        g->labels = p->meta.labels;
        g->nlabels = p->meta.nlabels;
        split_requests(ss, p, true, g);
        if (dra && pending_claims(r, ss, o, p, g)) return -1;
        if (!dra && p->nclaims) ignored++;
        sb_clear(&r->error);
        int c = sim_add_class(r, g);
        if (c < 0) {
            char why[600];
            snprintf(why, sizeof why, "%s", r->error.len ? sb_str(&r->error) : "a resource no node offers");
            return fail_at(r, &p->meta, "Pod", "cannot run in this cluster: %s%s", why, "");
        }
        sim_arrive(r, ss->id, (uint32_t)c, pod_name(p), dur, 0);
    }
    if (ignored) {
        char msg[200];
        snprintf(msg, sizeof msg, "cluster.state: device-plugin mode: the ResourceClaims of %zu pending pod(s) "
                 "are ignored (only their extended resources count)", ignored);
        warn(r, msg);
    }
    return 0;
}

static const quantity *amount_of(const k8s_resource_amount *a, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].name, name)) return &a[i].value;
    return NULL;
}

/* A KAI snapshot's Nodes and ResourceSlices against the run's fleet: its Nodes
 * that the fleet lacks, fleet nodes it lacks, allocatable cpu, memory (and in
 * device-plugin mode extended resources) that differ, and in DRA mode devices
 * of its slices the allocator does not know. Any disagreement is one warning
 * naming the first case of each kind (docs/STATE.md). */
static void check_snapshot_inventory(sim_run *r, const k8s_objects *o, const node_ix *ix) {
    if (!o->nodes.len && !o->slices.len) return;
    bool dp = r->sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN;
    size_t missing = 0, differ = 0, devices = 0, extra = 0;
    char first_missing[300] = "", first_differ[600] = "", first_device[600] = "";
    bool *seen = xcalloc(r->nnodes ? r->nnodes : 1, sizeof *seen);
    for (size_t i = 0; i < o->nodes.len; i++) {
        const k8s_node *sn = o->nodes.data[i];
        int64_t n = node_index(ix, r->nnodes, sn->meta.name);
        if (n < 0) {
            if (!missing++) snprintf(first_missing, sizeof first_missing, "%s", sn->meta.name);
            continue;
        }
        seen[n] = true;
        const k8s_node *fn = &r->nodes[n];
        for (size_t k = 0; k < sn->nallocatable; k++) {
            const k8s_resource_amount *a = &sn->allocatable[k];
            bool ext = strchr(a->name, '/') != NULL;
            if (!(!strcmp(a->name, "cpu") || !strcmp(a->name, "memory") || (dp && ext && strstr(a->name, "nvidia.com/"))))
                continue;
            const quantity *fq = amount_of(fn->allocatable, fn->nallocatable, a->name);
            if (fq && !quantity_cmp(fq, &a->value)) continue;
            if (!differ++) {
                char sq[64], fl[64] = "none";
                quantity_format_str(&a->value, sq, sizeof sq);
                if (fq) quantity_format_str(fq, fl, sizeof fl);
                snprintf(first_differ, sizeof first_differ, "node %s: %s %s in the snapshot, %s in the fleet",
                         sn->meta.name, a->name, sq, fl);
            }
            break;
        }
    }
    if (o->nodes.len)
        for (size_t n = 0; n < r->nnodes; n++) extra += !seen[n];
    free(seen);
    for (size_t i = 0; r->dra && i < o->slices.len; i++) {
        const k8s_resource_slice *sl = o->slices.data[i];
        for (size_t d = 0; d < sl->ndevices; d++) {
            uint32_t uid;
            if (sl->driver && sl->pool && allocator_device_uid(r->dra->A, sl->driver, sl->pool, sl->devices[d].name, &uid))
                continue;
            if (!devices++)
                snprintf(first_device, sizeof first_device, "%s/%s/%s", sl->driver ? sl->driver : "",
                         sl->pool ? sl->pool : "", sl->devices[d].name ? sl->devices[d].name : "");
        }
    }
    if (!missing && !differ && !devices && !extra) return;
    strbuf b = {0};
    sb_puts(&b, "cluster.state: the snapshot's inventory does not agree with the fleet:");
    if (missing) sb_printf(&b, " %zu of its Nodes are not in the fleet (e.g. %s);", missing, first_missing);
    if (extra) sb_printf(&b, " %zu fleet nodes are not in it;", extra);
    if (differ) sb_printf(&b, " %zu Nodes differ in allocatable resources (e.g. %s);", differ, first_differ);
    if (devices) sb_printf(&b, " %zu devices of its ResourceSlices are not in the fleet (e.g. %s);", devices, first_device);
    sb_puts(&b, " give the snapshot as cluster.inventory too to run on its nodes");
    warn(r, sb_str(&b));
    sb_free(&b);
}

/* What became of a KAI snapshot's Queues and PodGroups (model/cluster_state_kai.c). */
static void report_snapshot_kai(sim_run *r, const cluster_state *st) {
    char msg[400];
    if (st->kai_use == STATE_KAI_ADOPTED) {
        snprintf(msg, sizeof msg, "cluster.state: the snapshot's %zu KAI Queue(s) are the run's queues (the scenario "
                 "has no queues:)", st->kai_adopted);
        warn(r, msg);
    } else if (st->kai_use == STATE_KAI_SCENARIO_QUEUES && st->kai) {
        snprintf(msg, sizeof msg, "cluster.state: the snapshot's %zu KAI Queue(s) are not used: the scenario's "
                 "queues: are", st->kai->queues.len);
        warn(r, msg);
    } else if (st->kai_use == STATE_KAI_IGNORED && st->kai) {
        snprintf(msg, sizeof msg, "cluster.state: the snapshot's %zu KAI Queue(s) and %zu PodGroup(s) are not used: "
                 "the scenario's queues are Kueue's", st->kai->queues.len, st->kai->groups.len);
        warn(r, msg);
    }
    if (st->pods_without_group) {
        snprintf(msg, sizeof msg, "cluster.state: %zu pod(s) name a PodGroup (annotation pod-group-name) the snapshot "
                 "does not have", st->pods_without_group);
        warn(r, msg);
    }
    if (st->gang_pods) {
        snprintf(msg, sizeof msg, "cluster.state: %zu pod(s) belong to PodGroups of minMember > 1: drasim charges and "
                 "queues them pod by pod", st->gang_pods);
        warn(r, msg);
    }
}

static int state_start(sim_run *r, void *ctx) {
    state_source *ss = ctx;
    const k8s_objects *o = &r->sc->state->objs;
    rng base;
    rng_seed(&base, r->sc->seed);
    rng_fork(&base, rng_name_tag("cluster.state"), &ss->rng);
    node_ix *ix = xcalloc(r->nnodes ? r->nnodes : 1, sizeof *ix);
    for (size_t i = 0; i < r->nnodes; i++) ix[i] = (node_ix){r->nodes[i].meta.name, (uint32_t)i};
    qsort(ix, r->nnodes, sizeof *ix, cmp_node_ix);
    if (r->sc->state->snapshot) {
        check_snapshot_inventory(r, o, ix);
        report_snapshot_kai(r, r->sc->state);
    }
    int rc = 0;
    if (r->dra) rc = hold_claims(r, ss, o);
    else {
        size_t alloc = 0;
        for (size_t i = 0; i < o->claims.len; i++) alloc += o->claims.data[i]->allocated;
        if (alloc) {
            char msg[200];
            snprintf(msg, sizeof msg, "cluster.state: device-plugin mode: %zu allocated ResourceClaim(s) ignored "
                     "(running pods hold their extended resources)", alloc);
            warn(r, msg);
        }
    }
    if (!rc) rc = place_running(r, ss, o, ix);
    free(ix);
    if (!rc) rc = queue_pending(r, ss, o);
    return rc;
}

/* A running pod of the dump stopped (its time ended, or it was evicted or
 * deleted before): its claims that no other running pod reserves are given
 * back now, as the resourceclaim controller deallocates a claim whose
 * reservedFor empties (kubernetes/kubernetes pkg/controller/resourceclaim,
 * v1.35). */
static void state_ended(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    (void)t;
    state_source *ss = ctx;
    size_t lo = 0, hi = ss->ends.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ss->ends.data[mid].pod < pod) lo = mid + 1;
        else hi = mid;
    }
    if (lo == ss->ends.len || ss->ends.data[lo].pod != pod) return;
    const state_end *e = &ss->ends.data[lo];
    bool freed = false;
    for (uint32_t k = 0; k < e->n; k++) {
        held_claim *h = &ss->held.data[ss->pod_claims.data[e->first + k]];
        if (--h->users == 0) {
            dra_hold(r->dra, &h->claim->allocation, -1);
            freed = true;
        }
    }
    dra_hold_records_end(r->dra, pod);
    if (freed) {
        sched_node_changed(&r->sched, (size_t)e->node);
        r->cur_gpu_equiv = r->dra->cur_gpu_equiv;
    }
}

static void state_free(void *ctx) {
    state_source *ss = ctx;
    arena_free(&ss->a);
    VEC_FREE(ss->held);
    VEC_FREE(ss->pod_claims);
    VEC_FREE(ss->ends);
    free(ss);
}

int state_source_attach(sim_run *r) {
    state_source *ss = xcalloc(1, sizeof *ss);
    sim_source src = {.ctx = ss, .start = state_start, .ended = state_ended, .free = state_free};
    int id = ss->id = sim_add_source(r, &src);
    if (id < 0) state_free(ss);
    return id;
}
