/*
 * scenario_queues.c -- a scenario's `queues:` section (issue 27, docs/QUEUES.md):
 *
 *   queues:
 *     manager: kueue              # the only manager so far
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
 */
#include <stdlib.h>
#include <string.h>

#include "model/kueue.h"
#include "model/scenario.h"
#include "util/xalloc.h"

void scenario_free_queues(scenario *s) {
    kq_objects_free(s->queues);
    free(s->queues);
    s->queues = NULL;
}

int scenario_parse_queues(const ynode *q, scenario *s, strbuf *err) {
    static const char *const keys[] = {"manager", "implicitCohorts", "fairSharing", "objects", "files", NULL};
    const ynode *v;
    if (y_expect(q, YN_MAP, "queues", err) || ymap_check_keys(q, keys, "queues", err)) return -1;
    if (ymap_need(q, "manager", "queues", &v, err)) return -1;
    if (!y_scalar_eq(v, "kueue")) {
        yerr(err, v, "queues.manager: expected kueue, found %s", v->kind == YN_SCALAR ? v->str : ykind_name(v));
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
            if (y_str(v->vals[i], "queues.files entry", &path, err)) return -1;
            path = y_resolve_path(v->vals[i], path);
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
