/*
 * lua_arrivals.c -- the pods a script submitted that have not arrived yet.
 *
 * A generator typically submits its pods in time order, often all of them
 * from the main chunk at time 0 (bench_lua_yaml: 100,000 at once). Giving
 * the engine one event per pod put them all in its heap, where every pop
 * walked a tree of 100,000 events in random order (issue 31: ~460
 * instructions and several cache misses a pod). So a pod whose arrival is
 * not before the last one queued here joins a FIFO run (w->fifo, in time
 * order) and only the run's head is in the engine's queue; a pod submitted
 * out of order has an event of its own as before (a slot in w->arrivals).
 *
 * Each pod takes its place in the event order when it is submitted
 * (sim_reserve_source_seq) and its event carries that place
 * (sim_schedule_source_seq), so every event fires exactly where it fired
 * when each pod was scheduled at once: the same results, byte for byte.
 * A FIFO run is ordered by (time, place) like the engine's queue: times
 * never decrease along it and places only grow.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "engine/sim_labels.h"
#include "util/huge_vec.h"
#include "util/xalloc.h"
#include "workload/lua_internal.h"

/* Keep arrival a (to come at `at`) and schedule it: pods never go here
 * without an engine (tests) other than into a slot. */
void luaw_arrival_queue(luaw *w, luaw_arrival a, sim_time at) {
    luaw_arrival_fifo *f = &w->fifo;
    if (w->run && (f->head == f->q.len || at >= f->q.data[f->q.len - 1].at)) {   /* joins the run */
        if (f->head == f->q.len) {   /* empty: start over at the front */
            f->base += f->head;
            f->head = f->q.len = 0;
        } else if (f->head >= 4096 && 2 * f->head >= f->q.len) {   /* half consumed: move the rest down */
            memmove(f->q.data, f->q.data + f->head, (f->q.len - f->head) * sizeof *f->q.data);
            f->q.len -= f->head;
            f->base += f->head;
            f->head = 0;
        }
        luaw_queued_pod e = {.at = at, .seq = sim_reserve_source_seq(w->run), .a = a};
        HUGE_VEC_PUSH(f->q, e);
        uint64_t pos = f->base + f->q.len - 1;
        w->podref.data[a.k] = luaw_ref_fifo(pos);
        if (f->q.len - f->head == 1)   /* the new head: the engine hears of it */
            sim_schedule_source_seq(w->run, w->source_id, at, e.seq, LUAW_EV_FIFO);
        return;
    }
    size_t slot;
    if (w->free_arrival) {   /* reuse the slot of a pod that arrived */
        slot = w->free_arrival - 1;
        w->free_arrival = w->arrivals.data[slot].next_free;
        w->arrivals.data[slot] = a;
    } else {
        VEC_PUSH(w->arrivals, a);
        slot = w->arrivals.len - 1;
    }
    if (!w->run) return;
    w->podref.data[a.k] = luaw_ref_slot(slot);
    luaw_schedule(w, at, ((uint64_t)slot << LUAW_EV_SHIFT) | LUAW_EV_ARRIVAL);
}

/* The record of a queued pod from its podref value (luaw_ref_slot / luaw_ref_fifo). */
luaw_arrival *luaw_arrival_of(luaw *w, int64_t ref) {
    uint64_t i = (uint64_t)(-(ref + 1));
    if (i < LUAW_REF_FIFO) return &w->arrivals.data[i];
    return &w->fifo.q.data[i - LUAW_REF_FIFO - w->fifo.base].a;
}

/* The pod of record a arrives now (unless deleted before). */
static void arrive(sim_run *r, luaw *w, luaw_arrival a, sim_time t) {
    luaw_charge(w->L, w, -LUAW_QUEUED_COST);
    if (a.cls == LUAW_CANCELLED) return;   /* deleted before it arrived */
    if (a.due_now) w->due.data[a.cls]--;
    uint32_t id = sim_arrive(r, w->source_id, a.cls, w->names.name.data[a.k], a.duration, t);
    if (a.labels) sim_pod_set_labels(r, id, a.labels);   /* view pod_labels, and drasim.pod(name).labels */
    w->podref.data[a.k] = id;
}

/* An arrival event: a slot's pod, or the FIFO run's head (then the next head is scheduled). */
int luaw_arrival_event(sim_run *r, luaw *w, uint32_t kind, size_t idx, sim_time t) {
    if (kind == LUAW_EV_ARRIVAL) {
        luaw_arrival a = w->arrivals.data[idx];
        w->arrivals.data[idx].next_free = w->free_arrival;   /* the slot serves the next submitted pod */
        w->free_arrival = (uint32_t)idx + 1;
        arrive(r, w, a, t);
        return 0;
    }
    luaw_arrival_fifo *f = &w->fifo;
    luaw_arrival a = f->q.data[f->head++].a;
    if (f->head < f->q.len)   /* before the arrival: the pod's own hooks may queue more */
        sim_schedule_source_seq(r, w->source_id, f->q.data[f->head].at, f->q.data[f->head].seq, LUAW_EV_FIFO);
    arrive(r, w, a, t);
    return 0;
}

/* After the main chunk: tell the engine how many pods of each class are
 * queued, so that its arrays get room for them at once (sim_expect_arrivals). */
void luaw_arrivals_expect(luaw *w) {
    if (!w->run) return;
    size_t nc = w->run->sched.nclasses, total = 0;
    size_t *n = xcalloc(nc ? nc : 1, sizeof *n);
    const luaw_arrival_fifo *f = &w->fifo;
    for (size_t i = f->head; i < f->q.len; i++)
        if (f->q.data[i].a.cls < nc) n[f->q.data[i].a.cls]++, total++;
    for (size_t i = 0; i < w->arrivals.len; i++)   /* free slots hold arrived pods' records: counted too (a hint) */
        if (w->arrivals.data[i].cls < nc) n[w->arrivals.data[i].cls]++, total++;
    sim_expect_arrivals(w->run, total, n, nc, true);
    free(n);
}

void luaw_arrivals_free(luaw *w) {
    VEC_FREE(w->arrivals);
    HUGE_VEC_FREE(w->fifo.q);
    memset(&w->fifo, 0, sizeof w->fifo);
}
