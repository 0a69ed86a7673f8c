/* groups_source.c -- the scenario's pod groups as a workload source of the
 * engine (engine/sim.h sim_source): each group announces its next pod with
 * an event at its arrival time, drawn from the group's own stream
 * (workload.h), and the pod arrives when the event fires. */
#include <stdlib.h>

#include "engine/sim.h"
#include "util/xalloc.h"
#include "workload/attach.h"
#include "workload/workload.h"

typedef struct groups_source {
    int id;
    size_t n;
    workload_group *groups;
    sim_time *next_arrival, *next_duration;   /* per group: the pod announced by its pending event */
} groups_source;

/* Announce group g's next pod with an event, if it has one. */
static void announce(sim_run *r, groups_source *gs, size_t g) {
    if (workload_next(&gs->groups[g], &gs->next_arrival[g], &gs->next_duration[g]))
        sim_schedule_source(r, gs->id, gs->next_arrival[g], g);
}

static int groups_start(sim_run *r, void *ctx) {
    groups_source *gs = ctx;
    for (size_t g = 0; g < gs->n; g++) {
        workload_group_init(&gs->groups[g], &r->sc->groups[g], r->sc->seed);
        announce(r, gs, g);
    }
    return 0;
}

static int groups_event(sim_run *r, void *ctx, uint64_t g, sim_time t) {
    groups_source *gs = ctx;
    sim_arrive(r, gs->id, (uint32_t)g, NULL, gs->next_duration[g], t);
    announce(r, gs, (size_t)g);
    return 0;
}

static void groups_free(void *ctx) {
    groups_source *gs = ctx;
    free(gs->groups);
    free(gs->next_arrival);
    free(gs->next_duration);
    free(gs);
}

int groups_source_attach(sim_run *r) {
    groups_source *gs = xcalloc(1, sizeof *gs);
    size_t n = r->sc->ngroups;
    gs->n = n;
    gs->groups = xcalloc(n ? n : 1, sizeof *gs->groups);
    gs->next_arrival = xcalloc(n ? n : 1, sizeof *gs->next_arrival);
    gs->next_duration = xcalloc(n ? n : 1, sizeof *gs->next_duration);
    sim_source src = {.ctx = gs, .start = groups_start, .event = groups_event, .free = groups_free};
    int id = gs->id = sim_add_source(r, &src);
    if (id < 0) groups_free(gs);
    return id;
}
