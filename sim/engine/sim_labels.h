/*
 * sim_labels.h -- labels of pods (a Lua generator's `labels`, a job trace's
 * label columns) as shared label sets: the pods of a group or a job mostly
 * carry one of a few sets, so a pod keeps only its set's id (4 bytes) and a
 * set is stored once however many pods carry it. The results store them the
 * same way (store/store_labels.c): label_sets, a set id per pod in
 * pod_label_sets, and the view pod_labels with a row per label of each pod.
 */
#ifndef DRASIM_ENGINE_SIM_LABELS_H
#define DRASIM_ENGINE_SIM_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/sim.h"

/* A set: n labels (interned strings) from kv[off]. */
typedef struct sim_label_set {
    uint32_t off, n;
} sim_label_set;

typedef struct sim_labels {
    VEC(k8s_kv) kv;                  /* the labels of every set, one after the other */
    VEC(sim_label_set) sets;         /* set id = index + 1 */
    uint32_t *slot;                  /* hash of the sets: set id, 0 = empty; cap slots */
    size_t cap;
    VEC(uint32_t) pod_set;           /* per pod id: its set id, 0 = none (grown on demand) */
    size_t npods;                    /* pods with a set */
} sim_labels;

/* The id (> 0) of the set of n labels kv (keys and values interned, no key
 * twice; the order is the set's row order): an equal set (same labels in the
 * same order) is shared. */
uint32_t sim_label_set_id(sim_run *r, const k8s_kv *kv, size_t n);
/* Pod `pod` carries set `set` (0: none). */
void sim_pod_set_labels(sim_run *r, uint32_t pod, uint32_t set);
/* The labels of pod `pod`: their count, *kv set (NULL and 0 when it has none). */
size_t sim_pod_labels(const sim_run *r, uint32_t pod, const k8s_kv **kv);
void sim_labels_free(sim_run *r);

#endif
