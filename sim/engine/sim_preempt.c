/* sim_preempt.c -- the engine's side of preemption (see sim_preempt.h). */
#include "engine/sim_preempt.h"

#include <string.h>

#include "engine/sim_gang.h"
#include "engine/sim_evict.h"
#include "sched/plugins/preempt.h"
#include "util/intern.h"

void sim_preempt_config(const scenario *sc, sched_config *cfg) {
    cfg->dra_preemption = sc->sched.dra_preemption;
    if (!sc->sched.preemption || sc->trace) return;
    bool priorities = sc->lua != NULL;
    for (size_t i = 0; i < sc->ngroups && !priorities; i++) priorities = sc->groups[i].priority != 0;
    cfg->preemption = priorities;
}

/* The victim's DisruptionTarget condition says PreemptionByScheduler
 * (k8s.io/api core/v1 PodReasonPreemptionByScheduler, v1.36). */
void sim_preempt_evict(sim_run *r, sim_time t) {
    uint32_t victim, by;
    while (preempt_take_victim(&r->sched, &victim, &by)) {
        if (sim_gang_reject_waiting(r, victim, t)) continue;   /* waitingPod.Preempt: its gang is rejected */
        sim_evict(r, victim, EVICT_PREEMPTION, "PreemptionByScheduler", -1, t);
    }
}

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

void sim_preempt_summary(sim_run *r) {
    uint64_t attempts, preemptions, victims;
    preempt_counts(&r->sched, &attempts, &preemptions, &victims);
    uint64_t blocked = preempt_blocked_by_dra(&r->sched);
    /* every counter, 0 when nothing happened (issue 26) */
    add(r, NULL, "preemption_attempts", (double)attempts);
    add(r, NULL, "preemptions", (double)preemptions);
    add(r, NULL, "preemption_victims", (double)victims);
    add(r, NULL, "preemption_blocked_by_dra", (double)blocked);
    for (size_t g = 0; g < r->groups.len; g++) {   /* a group is every class with its name */
        int64_t by = 0, of = 0;
        for (size_t c = 0; r->sched.pre && c < r->sched.nclasses; c++) {
            if (strcmp(r->sched.classes[c].name, r->groups.data[g].name)) continue;
            int64_t b, o;
            preempt_class_counts(&r->sched, (uint32_t)c, &b, &o);
            by += b;
            of += o;
        }
        add(r, r->groups.data[g].name, "preemptions", (double)by);
        add(r, r->groups.data[g].name, "preempted", (double)of);
    }
}
