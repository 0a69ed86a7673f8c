/*
 * cluster_state_kai.c -- the KAI side of a KAI-Scheduler snapshot given as
 * `cluster.state` (docs/STATE.md "A KAI-Scheduler snapshot"): its Queues,
 * PodGroups and PriorityClasses (rawObjects.queues, .podGroups,
 * .priorityClasses; NVIDIA/KAI-Scheduler v0.13.0
 * pkg/scheduler/plugins/snapshot/snapshot.go RawKubernetesObjects).
 *
 *  - A pod of the snapshot belongs to the PodGroup its annotation
 *    pod-group-name names (pkg/scheduler/api/pod_info/pod_info.go
 *    getPodGroupID; cache/cluster_info/indexers.go podByPodGroupIndexer). KAI
 *    takes the job's Queue, priority and preemptibility from the PodGroup
 *    (podgroup_info/job_info.go SetPodGroup; cluster_info.go
 *    setPodGroupPriorityAndPreemptibility), so the pod gets them as the labels
 *    drasim's KAI model reads: kai.scheduler/queue, priorityClassName,
 *    kai.scheduler/preemptibility (queue/kai_gate.c resolve). Upstream's
 *    indexer matches the PodGroup by name alone; drasim also asks for the
 *    pod's namespace.
 *  - The snapshot's Queues become the scenario's `queues: {manager: kai}` when
 *    the scenario has no `queues:` (the recorded cluster's own Queues); a
 *    scenario's KAI Queues win over them (a what-if on quotas), the snapshot's
 *    PriorityClasses are added to them where the scenario has no class of that
 *    name; with Kueue queues the snapshot's KAI objects are not used.
 */
#include <stdlib.h>
#include <string.h>

#include "model/cluster_state.h"
#include "model/kai.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* The rawObjects lists read here, with the kind each holds. */
static const struct { const char *list, *kind; } kai_lists[] = {
    {"queues", "Queue"}, {"podGroups", "PodGroup"}, {"priorityClasses", "PriorityClass"}};

int cluster_state_read_kai(cluster_state *st, strbuf *err) {
    for (size_t f = 0; f < st->objs.files.len; f++) {
        const yfile *yf = st->objs.files.data[f];
        for (size_t d = 0; d < yf->ndocs; d++) {
            const ynode *root = yf->docs[d];
            if (!root || root->kind != YN_MAP || ymap_get(root, "kind")) continue;
            const ynode *raw = ymap_get(root, "rawObjects");
            if (!raw || raw->kind != YN_MAP) continue;
            st->snapshot = true;
            for (size_t l = 0; l < sizeof kai_lists / sizeof *kai_lists; l++) {
                const ynode *items = ymap_get(raw, kai_lists[l].list);
                if (y_is_null(items)) continue;
                if (y_expect(items, YN_SEQ, kai_lists[l].list, err)) return -1;
                if (!st->kai) {
                    st->kai = xcalloc(1, sizeof *st->kai);
                    kai_objects_init(st->kai);
                }
                for (size_t i = 0; i < items->n; i++)
                    if (kai_decode_raw(st->kai, kai_lists[l].kind, items->vals[i], err)) return -1;
            }
        }
    }
    if (st->kai && kai_objects_check(st->kai, err)) return -1;
    return 0;
}

static const char *annotation(const k8s_meta *m, const char *key) {
    for (size_t i = 0; i < m->nannotations; i++)
        if (!strcmp(m->annotations[i].key, key)) return m->annotations[i].value;
    return NULL;
}

/* Set label KEY of pod P to VALUE (replacing it), in the state's arena. */
static void set_label(cluster_state *st, k8s_pod *p, const char *key, const char *value) {
    for (size_t i = 0; i < p->meta.nlabels; i++)
        if (!strcmp(p->meta.labels[i].key, key)) {
            p->meta.labels[i].value = value;
            return;
        }
    k8s_kv *l = ARENA_NEW(&st->objs.a, k8s_kv, p->meta.nlabels + 1);
    if (p->meta.nlabels) memcpy(l, p->meta.labels, p->meta.nlabels * sizeof *l);
    l[p->meta.nlabels] = (k8s_kv){intern(key), intern(value)};
    p->meta.labels = l;
    p->meta.nlabels++;
}

void cluster_state_apply_groups(cluster_state *st) {
    if (!st->kai || !st->kai->groups.len) return;
    for (size_t i = 0; i < st->objs.pods.len; i++) {
        k8s_pod *p = st->objs.pods.data[i];
        const char *gn = annotation(&p->meta, KAI_POD_GROUP_ANNOTATION);
        if (!gn || !*gn) continue;
        const kai_pod_group *g =
            kai_find_group(st->kai, p->meta.namespace_ ? p->meta.namespace_ : "default", gn);
        if (!g) {
            st->pods_without_group++;
            continue;
        }
        st->pods_in_groups++;
        if (g->queue && *g->queue) set_label(st, p, KAI_QUEUE_LABEL, g->queue);
        /* queue/kai_gate.c reads these two labels (podgrouper constants) */
        if (g->priority_class && *g->priority_class) set_label(st, p, "priorityClassName", g->priority_class);
        if (g->preemptibility != KAI_PREEMPT_UNSET)
            set_label(st, p, "kai.scheduler/preemptibility",
                      g->preemptibility == KAI_PREEMPTIBLE ? "preemptible" : "non-preemptible");
        if (g->min_member > 1) st->gang_pods++;
    }
}

int cluster_state_adopt_queues(scenario *s, strbuf *err) {
    cluster_state *st = s->state;
    if (!st || !st->kai) return 0;
    kai_objects *k = st->kai;
    if (s->queues) {   /* Kueue: KAI's objects do not apply */
        st->kai_use = STATE_KAI_IGNORED;
        return 0;
    }
    if (s->kai_queues) {   /* the scenario's Queues win; the snapshot's classes fill in */
        st->kai_use = k->queues.len ? STATE_KAI_SCENARIO_QUEUES : STATE_KAI_NONE;
        for (size_t i = 0; i < k->classes.len; i++) {
            bool have = false;
            for (size_t j = 0; j < s->kai_queues->classes.len && !have; j++)
                have = !strcmp(s->kai_queues->classes.data[j]->meta.name, k->classes.data[i]->meta.name);
            if (!have) VEC_PUSH(s->kai_queues->classes, k->classes.data[i]);
        }
        return 0;
    }
    if (!k->queues.len) return 0;
    /* the recorded cluster's Queues run this one (checked by kai_objects_check on reading) */
    s->kai_queues = k;
    st->kai = NULL;
    st->kai_use = STATE_KAI_ADOPTED;
    st->kai_adopted = k->queues.len;
    (void)err;
    return 0;
}
