/*
 * sim_evict.c -- evictions: graceful termination, the owner's replacement
 * and the work lost (sim_evict.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_crash.h"
#include "engine/sim_evict.h"
#include "engine/sim_pin.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* The engine's event for the end of a grace period (engine/sim.c). */
#define EV_TERMINATED_KIND (EV_KIND_USER + 9)

static const char *const CAUSE_NAMES[EVICT_NCAUSES] = {"fault", "preemption", "drain"};

const char *evict_cause_name(evict_cause c) { return c < EVICT_NCAUSES ? CAUSE_NAMES[c] : "unknown"; }

/* The run time of pod p whose work is lost when it stops at t, and the run
 * time its replacement needs (SIM_TIME_NEVER stays never). */
static void work_after_eviction(const sim_run *r, uint32_t id, const pod_group_spec *g, const sim_pod *p,
                                sim_time t, sim_time *lost, sim_time *redo) {
    sim_time elapsed = p->start < 0 ? 0 : r->crash ? sim_crash_progress(r, id, t) : t - p->start;
    switch (g->owner) {
    case POD_OWNER_JOB: {   /* work up to the last checkpoint survives */
        sim_time saved = g->checkpoint > 0 ? elapsed / g->checkpoint * g->checkpoint : 0;
        *lost = elapsed - saved;
        *redo = p->duration == SIM_TIME_NEVER ? SIM_TIME_NEVER : p->duration - saved;
        break;
    }
    case POD_OWNER_SERVICE:   /* a replica: its successor serves the rest of the lifetime */
        *lost = 0;
        *redo = p->duration == SIM_TIME_NEVER ? SIM_TIME_NEVER : p->duration > elapsed ? p->duration - elapsed : 0;
        break;
    default:   /* a bare pod: everything it did is lost, nobody redoes it */
        *lost = elapsed;
        *redo = 0;
        break;
    }
}

/* The name of the replacement of named pod id (a source's pod: Lua): its
 * first predecessor's name and "-r<n>" for the n-th replacement, as a
 * controller names a new pod (the engine names unnamed pods "<group>-<ordinal>"). */
static const char *replacement_name(const sim_run *r, uint32_t id) {
    uint32_t root = id, n = 1;
    for (uint32_t prev; (prev = sim_pod_replaces(r, root));) root = prev - 1, n++;
    char buf[300];
    snprintf(buf, sizeof buf, "%s-r%u", sim_pod_name(r, root), n);
    return intern(buf);
}

uint32_t sim_replace(sim_run *r, uint32_t id, sim_time duration, sim_time t) {
    const sim_pod *p = &r->pods.data[id];
    const char *name = sim_pod_name(r, id) ? replacement_name(r, id) : NULL;
    uint32_t rep = sim_arrive(r, p->source, sim_class_origin(r, p->group), name, duration, t);   /* unpinned */
    sim_pod_set_replaces(r, rep, id + 1);
    return rep;
}

int sim_evict(sim_run *r, uint32_t id, evict_cause cause, const char *reason, sim_time grace, sim_time t) {
    sim_pod *p = &r->pods.data[id];
    int was = p->state;
    if (was != POD_PENDING && was != POD_RUNNING) return -1;
    const pod_group_spec *g = sim_class_spec(r, p->group);
    sim_eviction ev = {.pod = id, .cause = (uint8_t)cause, .was = (uint8_t)was, .at = t};
    sim_time redo;
    work_after_eviction(r, id, g, p, t, &ev.lost, &redo);
    if (was == POD_RUNNING) {
        double eq = sim_pod_gpu_equiv(r, id);
        ev.gpu_equiv = isnan(eq) ? 0 : eq;
        if (grace < 0) grace = g->has_grace ? g->grace : POD_DEFAULT_GRACE;
        sim_stop_completion(r, id);
        p->state = POD_TERMINATING;
        evq_push(&r->q, t + grace, EV_TERMINATED_KIND, id);
        r->live_events++;
    } else {
        ev.lost = 0;
        if (!p->dropped) sched_remove(&r->sched, p->group, id);
        p->state = POD_DELETED;
        p->end = t;
    }
    struct sim_deleted d = {id, reason};
    VEC_PUSH(r->deleted, d);
    if (g->owner != POD_OWNER_NONE)   /* its controller creates the replacement now */
        ev.replacement = sim_replace(r, id, was == POD_RUNNING ? redo : p->duration, t) + 1;
    VEC_PUSH(r->evictions, ev);
    return was;
}

void sim_evict_terminated(sim_run *r, uint32_t id, sim_time t) {
    if (r->pods.data[id].state == POD_TERMINATING) sim_end_pod(r, id, t, POD_DELETED);
}

typedef struct evict_totals {
    double n[EVICT_NCAUSES], lost_h[EVICT_NCAUSES], lost_pods, replaced;
} evict_totals;

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

static void add_totals(sim_run *r, const char *group, const evict_totals *x) {
    double n = 0, h = 0;
    for (int c = 0; c < EVICT_NCAUSES; c++) n += x->n[c], h += x->lost_h[c];
    char name[64];
    add(r, group, "evictions", n);
    for (int c = 0; c < EVICT_NCAUSES; c++) {
        snprintf(name, sizeof name, "evictions_%s", CAUSE_NAMES[c]);
        add(r, group, name, x->n[c]);
    }
    add(r, group, "pods_lost", x->lost_pods);
    add(r, group, "pods_replaced", x->replaced);
    add(r, group, "gpu_hours_lost", h);
    for (int c = 0; c < EVICT_NCAUSES; c++) {
        snprintf(name, sizeof name, "gpu_hours_lost_%s", CAUSE_NAMES[c]);
        add(r, group, name, x->lost_h[c]);
    }
}

void sim_evict_summary(sim_run *r) {
    size_t ng = r->groups.len;
    evict_totals all = {0}, *per = xcalloc(ng ? ng : 1, sizeof *per);
    for (size_t i = 0; i < r->evictions.len; i++) {
        const sim_eviction *e = &r->evictions.data[i];
        const char *gname = r->sched.classes[r->pods.data[e->pod].group].name;
        size_t g = 0;
        while (g < ng && strcmp(r->groups.data[g].name, gname)) g++;
        evict_totals *t[2] = {&all, g < ng ? &per[g] : NULL};
        for (int k = 0; k < 2; k++) {
            if (!t[k]) continue;
            t[k]->n[e->cause] += 1;
            t[k]->lost_h[e->cause] += e->gpu_equiv * (double)e->lost / 3600000.0;
            if (e->replacement) t[k]->replaced += 1;
            else t[k]->lost_pods += 1;
        }
    }
    add_totals(r, NULL, &all);
    for (size_t g = 0; g < ng; g++) add_totals(r, r->groups.data[g].name, &per[g]);
    free(per);
}
