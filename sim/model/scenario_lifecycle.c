/*
 * scenario_lifecycle.c -- what happens to a pod group's pods when they are
 * evicted (faults, preemption, a drained node): who owns them, how often a
 * job checkpoints, and the grace period a terminating pod keeps its
 * resources for.
 *
 *   owner: none | job | service      (default none: an evicted pod is lost)
 *   checkpoint: 1h                   (owner job only: work since the last
 *                                     checkpoint is lost, the rest survives)
 *   terminationGracePeriodSeconds: 30   (core/v1 PodSpec; default 30)
 *   restartPolicy: Always | OnFailure | Never
 *                                    (core/v1 PodSpec; what kubelet does when
 *                                     the container fails, e.g. a fatal XID:
 *                                     docs/DYNAMICS.md; default by owner,
 *                                     pod_restart_policy)
 */
#include <string.h>

#include "model/scenario.h"
#include "model/yaml_tree.h"

int scenario_parse_lifecycle(const ynode *m, pod_group_spec *g, strbuf *err) {
    const ynode *v;
    g->owner = POD_OWNER_NONE;
    if ((v = ymap_get(m, "owner"))) {
        if (y_scalar_eq(v, "none")) g->owner = POD_OWNER_NONE;
        else if (y_scalar_eq(v, "job")) g->owner = POD_OWNER_JOB;
        else if (y_scalar_eq(v, "service")) g->owner = POD_OWNER_SERVICE;
        else {
            yerr(err, v, "owner: expected none, job or service");
            return -1;
        }
    }
    if ((v = ymap_get(m, "checkpoint"))) {
        if (scenario_parse_duration(v, "checkpoint", &g->checkpoint, err)) return -1;
        if (g->checkpoint <= 0) {
            yerr(err, v, "checkpoint: expected a positive duration");
            return -1;
        }
        if (g->owner != POD_OWNER_JOB) {
            yerr(err, v, "checkpoint: only a pod group with owner: job resumes from a checkpoint");
            return -1;
        }
    }
    g->grace = POD_DEFAULT_GRACE;
    if ((v = ymap_get(m, "terminationGracePeriodSeconds"))) {
        int64_t s;
        if (y_int(v, "terminationGracePeriodSeconds", &s, err)) return -1;
        if (s < 0 || s > 31536000) {   /* a year: beyond that the run could never end */
            yerr(err, v, "terminationGracePeriodSeconds: expected an integer from 0 to 31536000");
            return -1;
        }
        g->grace = SIM_SECONDS(s);
        g->has_grace = true;
    }
    if ((v = ymap_get(m, "restartPolicy"))) {
        if (y_scalar_eq(v, "Always")) g->restart = RESTART_ALWAYS;
        else if (y_scalar_eq(v, "OnFailure")) g->restart = RESTART_ON_FAILURE;
        else if (y_scalar_eq(v, "Never")) g->restart = RESTART_NEVER;
        else {
            yerr(err, v, "restartPolicy: expected Always, OnFailure or Never");
            return -1;
        }
        /* API validation: a Job's template (pkg/apis/batch/validation) and a ReplicaSet's
         * (pkg/apis/apps/validation) accept only these */
        if (g->owner == POD_OWNER_JOB && g->restart == RESTART_ALWAYS) {
            yerr(err, v, "restartPolicy: a Job's pods must say OnFailure or Never (owner: job)");
            return -1;
        }
        if (g->owner == POD_OWNER_SERVICE && g->restart != RESTART_ALWAYS) {
            yerr(err, v, "restartPolicy: a ReplicaSet's pods must say Always (owner: service)");
            return -1;
        }
    }
    return 0;
}

pod_restart pod_restart_policy(const pod_group_spec *g) {
    if (g->restart != RESTART_DEFAULT) return (pod_restart)g->restart;
    return g->owner == POD_OWNER_JOB ? RESTART_ON_FAILURE : RESTART_ALWAYS;
}

const char *pod_restart_name(pod_restart r) {
    return r == RESTART_NEVER ? "Never" : r == RESTART_ON_FAILURE ? "OnFailure" : "Always";
}
