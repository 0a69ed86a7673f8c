/*
 * sim_crash.c -- pods whose container a GPU failure killed: progress,
 * kubelet's back-off, the Never path and the measures (sim_crash.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_crash.h"
#include "engine/sim_evict.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* The engine's completion event (engine/sim.c: EV_COMPLETION). */

typedef struct crash_rec {
    uint32_t pod;
    bool stalls;                 /* its completion waits for its progress */
    bool failed;                 /* restartPolicy Never: the pod failed */
    sim_time shift;              /* run time since its start that was no progress */
    sim_time saved;              /* its progress when its process died last */
    sim_time down_since;         /* -1: its process runs; else dead since then */
    sim_time due;                /* stalls: the completion that counts (-1: none queued) */
    sim_time backoff, last;      /* kubelet's back-off entry: delay (0: none), time of its last restart */
    double eq;                   /* the GPUs it holds */
    int64_t crashes, restarts;
    sim_time lost, looping;      /* work lost (ms), time held while dead (ms) */
} crash_rec;

struct sim_crash {
    VEC(crash_rec) rec;
    uint32_t *slot;              /* per pod id < nslot: 1 + index into rec, 0: none */
    size_t nslot;
};

static crash_rec *find(const sim_run *r, uint32_t id) {
    const struct sim_crash *c = r->crash;
    if (!c || id >= c->nslot || !c->slot[id]) return NULL;
    return &c->rec.data[c->slot[id] - 1];
}

static crash_rec *get(sim_run *r, uint32_t id) {
    crash_rec *x = find(r, id);
    if (x) return x;
    if (!r->crash) r->crash = xcalloc(1, sizeof *r->crash);
    struct sim_crash *c = r->crash;
    if (id >= c->nslot) {
        size_t n = r->pods.len > id ? r->pods.len : (size_t)id + 1;
        c->slot = xrealloc(c->slot, n * sizeof *c->slot);
        memset(c->slot + c->nslot, 0, (n - c->nslot) * sizeof *c->slot);
        c->nslot = n;
    }
    crash_rec e = {.pod = id, .down_since = -1, .due = -1};
    VEC_PUSH(c->rec, e);
    c->slot[id] = (uint32_t)c->rec.len;
    return &c->rec.data[c->rec.len - 1];
}

sim_time sim_crash_progress(const sim_run *r, uint32_t id, sim_time t) {
    const sim_pod *p = &r->pods.data[id];
    const crash_rec *x = find(r, id);
    if (!x || !x->stalls) return p->start >= 0 ? t - p->start : 0;
    return x->down_since >= 0 ? x->saved : t - p->start - x->shift;
}

/* The progress of a pod that survives its process's death: a job's up to its
 * last checkpoint, a service's all of it (its lifetime goes on), a bare pod's
 * none (it starts over). */
static sim_time saved_progress(const pod_group_spec *g, sim_time progress) {
    switch (g->owner) {
    case POD_OWNER_JOB: return g->checkpoint > 0 ? progress / g->checkpoint * g->checkpoint : 0;
    case POD_OWNER_SERVICE: return progress;
    default: return 0;
    }
}

bool sim_crash_kill(sim_run *r, uint32_t id, bool stalls, sim_time t) {
    crash_rec *x = get(r, id);
    if (x->down_since >= 0) return false;
    const sim_pod *p = &r->pods.data[id];
    sim_time progress = sim_crash_progress(r, id, t);
    double eq = sim_pod_gpu_equiv(r, id);
    x->eq = isnan(eq) ? 0 : eq;
    x->saved = saved_progress(sim_class_spec(r, p->group), progress);
    x->lost += progress - x->saved;
    x->crashes++;
    x->down_since = t;
    if (stalls) {
        /* its queued completion no longer counts (sim_crash_stale skips it, uncounted) */
        bool queued = x->stalls ? x->due >= 0 : p->duration != SIM_TIME_NEVER;
        if (queued) r->live_events--;
        x->due = -1;
        x->stalls = true;
    }
    return true;
}

/* kubelet (client-go flowcontrol.Backoff as kuberuntime's doBackOff uses it):
 * when the container exited at t, it is in back-off while its entry has not
 * expired (t - last restart <= 2 x max) and t + delay is still ahead; once
 * started, Next() sets the delay to the initial one (no entry, or expired)
 * or doubles it up to the max, and the entry's time to the start. */
sim_time sim_crash_restart_at(sim_run *r, uint32_t id, sim_time t) {
    crash_rec *x = get(r, id);
    sim_time at;
    if (!x->backoff || t - x->last > 2 * CRASH_BACKOFF_MAX) {
        at = t;
        x->backoff = CRASH_BACKOFF_INITIAL;
    } else {
        at = t + x->backoff;
        x->backoff = x->backoff * 2 < CRASH_BACKOFF_MAX ? x->backoff * 2 : CRASH_BACKOFF_MAX;
    }
    x->last = at;
    return at;
}

void sim_crash_start(sim_run *r, uint32_t id, bool runs, sim_time t) {
    crash_rec *x = get(r, id);
    x->restarts++;
    if (!runs || x->down_since < 0) return;
    const sim_pod *p = &r->pods.data[id];
    x->looping += t - x->down_since;
    x->down_since = -1;
    if (!x->stalls) return;
    x->shift = t - p->start - x->saved;   /* progress resumes from what was saved */
    if (p->duration == SIM_TIME_NEVER) return;
    x->due = t + p->duration - x->saved;
    evq_push(&r->q, x->due, EV_COMPLETION, id);
    r->live_events++;
}

void sim_crash_close(sim_run *r, uint32_t id, sim_time t) {
    crash_rec *x = find(r, id);
    if (!x || x->down_since < 0) return;
    x->looping += t - x->down_since;
    x->down_since = -1;
}

void sim_crash_fail(sim_run *r, uint32_t id, sim_time t) {
    sim_pod *p = &r->pods.data[id];
    if (p->state != POD_RUNNING) return;
    sim_crash_kill(r, id, true, t);
    crash_rec *x = find(r, id);
    x->failed = true;
    sim_time saved = x->saved;
    sim_end_pod(r, id, t, POD_FAILED);   /* kubelet frees a terminated pod's devices */
    struct sim_deleted d = {id, "Error"};
    VEC_PUSH(r->deleted, d);
    if (sim_class_spec(r, p->group)->owner != POD_OWNER_NONE) {   /* the Job controller's new pod */
        sim_time redo = p->duration == SIM_TIME_NEVER ? SIM_TIME_NEVER : p->duration - saved;
        sim_replace(r, id, redo, t);
    }
}

bool sim_crash_down(const sim_run *r, uint32_t id) {
    const crash_rec *x = find(r, id);
    return x && x->down_since >= 0;
}

bool sim_crash_stale(const sim_run *r, uint32_t id, sim_time t) {
    const crash_rec *x = find(r, id);
    return x && x->stalls && (x->down_since >= 0 || x->due != t);
}

bool sim_crash_has_completion(const sim_run *r, uint32_t id) {
    const crash_rec *x = find(r, id);
    return !x || !x->stalls || x->due >= 0;
}

void sim_crash_ended(sim_run *r, uint32_t id, sim_time t) {
    crash_rec *x = find(r, id);
    if (x && x->stalls) x->due = -1;
    sim_crash_close(r, id, t);
}

void sim_crash_free(sim_run *r) {
    if (!r->crash) return;
    VEC_FREE(r->crash->rec);
    free(r->crash->slot);
    free(r->crash);
    r->crash = NULL;
}

/* ---- measures ------------------------------------------------------------------------- */

typedef struct crash_totals {
    double crashes, restarts, failed, lost_pods, lost_h, looping_h;
} crash_totals;

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

static void add_totals(sim_run *r, const char *group, const crash_totals *x) {
    add(r, group, "xid_pod_crashes", x->crashes);
    add(r, group, "xid_container_restarts", x->restarts);
    add(r, group, "xid_pods_failed", x->failed);
    add(r, group, "xid_pods_lost", x->lost_pods);
    add(r, group, "gpu_hours_lost_xid", x->lost_h);
    add(r, group, "gpu_hours_crashloop", x->looping_h);
}

void sim_crash_summary(sim_run *r) {
    size_t ng = r->groups.len, n = r->crash ? r->crash->rec.len : 0;
    crash_totals all = {0}, *per = xcalloc(ng ? ng : 1, sizeof *per);
    for (size_t i = 0; i < n; i++) {
        crash_rec *x = &r->crash->rec.data[i];
        if (x->down_since >= 0) sim_crash_close(r, x->pod, r->end_time);   /* still dead at the end */
        const sim_pod *p = &r->pods.data[x->pod];
        const char *gname = r->sched.classes[p->group].name;
        size_t g = 0;
        while (g < ng && strcmp(r->groups.data[g].name, gname)) g++;
        crash_totals *t[2] = {&all, g < ng ? &per[g] : NULL};
        for (int k = 0; k < 2; k++) {
            if (!t[k]) continue;
            t[k]->crashes += (double)x->crashes;
            t[k]->restarts += (double)x->restarts;
            t[k]->failed += x->failed;
            t[k]->lost_pods += x->failed && sim_class_spec(r, p->group)->owner == POD_OWNER_NONE;
            t[k]->lost_h += x->eq * (double)x->lost / 3600000.0;
            t[k]->looping_h += x->eq * (double)x->looping / 3600000.0;
        }
    }
    add_totals(r, NULL, &all);
    for (size_t g = 0; g < ng; g++) add_totals(r, r->groups.data[g].name, &per[g]);
    free(per);
}
