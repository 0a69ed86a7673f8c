/*
 * scenario_queues.c -- a scenario's `queues:` section (issue 27, docs/QUEUES.md):
 *
 *   queues:
 *     manager: kueue              # or kai (KAI-Scheduler: Queues, PriorityClasses; below)
 *     implicitCohorts: false      # Kueue creates Cohorts that are named but not
 *                                 # declared; by default drasim refuses them (typos)
 *     objects: [...]              # ResourceFlavor, ClusterQueue, Cohort, LocalQueue,
 *                                 # WorkloadPriorityClass as `kubectl get -o yaml` prints them
 *     files: [kueue.yaml]         # and/or YAML files of them (relative to the scenario)
 *     fairSharing:                # Kueue Configuration fairSharing: on when present
 *       preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
 *
 * Objects are decoded by model/kueue_decode.c and checked across by
 * model/kueue_check.c: FILE:LINE:COL errors. Workloads come from the
 * scenario's pod groups (label kueue.x-k8s.io/queue-name), never from here.
 *
 *   queues: {manager: kai, objects: [...], files: [...]}
 *
 * holds KAI-Scheduler's scheduling.run.ai/v2 Queues (with parentQueue) and
 * scheduling.k8s.io/v1 PriorityClasses, decoded and checked by
 * model/kai_decode.c (a parent Queue that does not exist, a cycle: FILE:LINE:COL);
 * pod groups reach a Queue by the label kai.scheduler/queue (queue/kai_gate.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model/kai.h"
#include "model/kueue.h"
#include "model/scenario.h"
#include "util/xalloc.h"

void scenario_free_queues(scenario *s) {
    if (s->queues) kq_objects_free(s->queues);
    free(s->queues);
    s->queues = NULL;
    if (s->kai_queues) kai_objects_free(s->kai_queues);
    free(s->kai_queues);
    s->kai_queues = NULL;
}

/* `queues: {manager: kai}`: KAI Queues and PriorityClasses, inline or in files. */
static int parse_kai(const ynode *q, scenario *s, strbuf *err) {
    static const char *const keys[] = {"manager", "objects", "files", NULL};
    const ynode *v;
    if (ymap_check_keys(q, keys, "queues (manager: kai)", err)) return -1;
    s->kai_queues = xcalloc(1, sizeof *s->kai_queues);
    kai_objects_init(s->kai_queues);
    if ((v = ymap_get(q, "objects"))) {
        if (y_expect(v, YN_SEQ, "queues.objects", err)) return -1;
        for (size_t i = 0; i < v->n; i++)
            if (kai_decode_node(s->kai_queues, v->vals[i], false, true, err)) return -1;
    }
    if ((v = ymap_get(q, "files"))) {
        if (y_expect(v, YN_SEQ, "queues.files", err)) return -1;
        for (size_t i = 0; i < v->n; i++) {
            const char *path;
            if (scenario_parse_path(v->vals[i], "queues.files entry", &path, err)) return -1;
            if (kai_decode_file(s->kai_queues, path, false, true, err)) return -1;
        }
    }
    if (!ymap_get(q, "objects") && !ymap_get(q, "files")) {
        yerr(err, q, "queues: expected objects or files (KAI's scheduling.run.ai/v2 Queues)");
        return -1;
    }
    if (!s->kai_queues->queues.len) {
        yerr(err, q, "queues: no KAI Queue (scheduling.run.ai/v2) in objects or files");
        return -1;
    }
    if (kai_objects_check(s->kai_queues, err)) return -1;
    /* jobs run in leaf Queues only (KAI's proportion plugin divides a parent's
     * share among its children): a group labelled with a parent Queue is refused */
    for (size_t i = 0; i < s->ngroups; i++) {
        const pod_group_spec *g = &s->groups[i];
        for (size_t k = 0; k < g->nlabels; k++) {
            if (strcmp(g->labels[k].key, KAI_QUEUE_LABEL) != 0) continue;
            for (size_t c = 0; c < s->kai_queues->queues.len; c++) {
                const char *parent = s->kai_queues->queues.data[c]->parent;
                if (!parent || strcmp(parent, g->labels[k].value) != 0) continue;
                const ynode *at = ymap_get(ymap_get(g->where, "labels"), KAI_QUEUE_LABEL);
                yerr(err, at ? at : g->where, "pod group '%s': label %s: Queue '%s' is a parent Queue (of '%s'); "
                     "KAI schedules jobs in leaf Queues only", g->name, KAI_QUEUE_LABEL, parent,
                     s->kai_queues->queues.data[c]->meta.name);
                return -1;
            }
        }
    }
    return 0;
}

int scenario_parse_queues(const ynode *q, scenario *s, strbuf *err) {
    static const char *const keys[] = {"manager", "implicitCohorts", "fairSharing", "objects", "files", NULL};
    const ynode *v;
    if (y_expect(q, YN_MAP, "queues", err) || ymap_check_keys(q, keys, "queues", err)) return -1;
    if (ymap_need(q, "manager", "queues", &v, err)) return -1;
    if (y_scalar_eq(v, "kai")) return parse_kai(q, s, err);
    if (!y_scalar_eq(v, "kueue")) {
        yerr(err, v, "queues.manager: expected kueue or kai, found %s", v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    bool implicit = false;
    if ((v = ymap_get(q, "implicitCohorts")) && y_bool(v, "queues.implicitCohorts", &implicit, err)) return -1;
    s->queues = xcalloc(1, sizeof *s->queues);
    kq_objects_init(s->queues);
    if ((v = ymap_get(q, "objects"))) {
        if (y_expect(v, YN_SEQ, "queues.objects", err)) return -1;
        for (size_t i = 0; i < v->n; i++)
            if (kq_decode_node(s->queues, v->vals[i], false, err)) return -1;
    }
    if ((v = ymap_get(q, "files"))) {
        if (y_expect(v, YN_SEQ, "queues.files", err)) return -1;
        for (size_t i = 0; i < v->n; i++) {
            const char *path;
            if (scenario_parse_path(v->vals[i], "queues.files entry", &path, err)) return -1;
            if (kq_decode_file(s->queues, path, false, err)) return -1;
        }
    }
    if ((v = ymap_get(q, "fairSharing"))) {   /* Kueue's Configuration fairSharing (model/kueue_config.c) */
        if (s->queues->config.where) {
            yerr(err, v, "queues.fairSharing: a Kueue Configuration in queues.objects/files already sets it");
            return -1;
        }
        if (kq_decode_fair_sharing(&s->queues->config, v, true, err)) return -1;
    }
    if (!ymap_get(q, "objects") && !ymap_get(q, "files")) {
        yerr(err, q, "queues: expected objects or files (Kueue's ClusterQueues, LocalQueues, ...)");
        return -1;
    }
    if (s->queues->workloads.len) {
        const kq_workload *w = s->queues->workloads.data[0];
        ynode at = {.kind = YN_MAP, .file = w->meta.file, .line = w->meta.line, .col = w->meta.col};
        yerr(err, &at, "Workload %s: queues hold Kueue's configuration; workloads come from workload.podGroups "
             "(label kueue.x-k8s.io/queue-name)", w->meta.name);
        return -1;
    }
    return kq_objects_check(s->queues, implicit, err);
}
