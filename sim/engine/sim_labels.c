/* sim_labels.c -- label sets of pods (sim_labels.h): an open-addressing hash
 * of the sets (keys and values are interned, so sets compare by pointer). */
#include <stdlib.h>

#include "engine/sim_labels.h"
#include "util/xalloc.h"

static uint64_t set_hash(const k8s_kv *kv, size_t n) {
    uint64_t h = 1469598103934665603ULL ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint64_t)(uintptr_t)kv[i].key) * 0x100000001b3ULL;
        h = (h ^ (uint64_t)(uintptr_t)kv[i].value) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    return h;
}

static bool set_equal(const sim_labels *l, uint32_t id, const k8s_kv *kv, size_t n) {
    const sim_label_set *s = &l->sets.data[id - 1];
    if (s->n != n) return false;
    const k8s_kv *o = &l->kv.data[s->off];
    for (size_t i = 0; i < n; i++)
        if (o[i].key != kv[i].key || o[i].value != kv[i].value) return false;
    return true;
}

static void grow(sim_labels *l) {
    size_t ncap = l->cap ? l->cap * 2 : 64;
    uint32_t *ns = xcalloc(ncap, sizeof *ns);
    for (size_t i = 0; i < l->cap; i++) {
        uint32_t id = l->slot[i];
        if (!id) continue;
        const sim_label_set *s = &l->sets.data[id - 1];
        size_t j = set_hash(&l->kv.data[s->off], s->n) & (ncap - 1);
        while (ns[j]) j = (j + 1) & (ncap - 1);
        ns[j] = id;
    }
    free(l->slot);
    l->slot = ns;
    l->cap = ncap;
}

uint32_t sim_label_set_id(sim_run *r, const k8s_kv *kv, size_t n) {
    if (!r->labels) r->labels = xcalloc(1, sizeof *r->labels);
    sim_labels *l = r->labels;
    if (2 * (l->sets.len + 1) > l->cap) grow(l);
    size_t j = set_hash(kv, n) & (l->cap - 1);
    for (; l->slot[j]; j = (j + 1) & (l->cap - 1))
        if (set_equal(l, l->slot[j], kv, n)) return l->slot[j];
    sim_label_set s = {(uint32_t)l->kv.len, (uint32_t)n};
    for (size_t i = 0; i < n; i++) VEC_PUSH(l->kv, kv[i]);
    VEC_PUSH(l->sets, s);
    l->slot[j] = (uint32_t)l->sets.len;
    return l->slot[j];
}

void sim_pod_set_labels(sim_run *r, uint32_t pod, uint32_t set) {
    if (!set && (!r->labels || pod >= r->labels->pod_set.len)) return;
    if (!r->labels) r->labels = xcalloc(1, sizeof *r->labels);
    sim_labels *l = r->labels;
    if (pod >= l->pod_set.len) {
        VEC_RESERVE(l->pod_set, (size_t)pod + 1);
        while (l->pod_set.len <= pod) l->pod_set.data[l->pod_set.len++] = 0;
    }
    l->npods += (set != 0) - (l->pod_set.data[pod] != 0);
    l->pod_set.data[pod] = set;
}

size_t sim_pod_labels(const sim_run *r, uint32_t pod, const k8s_kv **kv) {
    const sim_labels *l = r->labels;
    uint32_t id = l && pod < l->pod_set.len ? l->pod_set.data[pod] : 0;
    if (!id) {
        *kv = NULL;
        return 0;
    }
    const sim_label_set *s = &l->sets.data[id - 1];
    *kv = &l->kv.data[s->off];
    return s->n;
}

void sim_labels_free(sim_run *r) {
    sim_labels *l = r->labels;
    if (!l) return;
    VEC_FREE(l->kv);
    VEC_FREE(l->sets);
    VEC_FREE(l->pod_set);
    free(l->slot);
    free(l);
    r->labels = NULL;
}
