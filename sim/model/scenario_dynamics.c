/*
 * scenario_dynamics.c -- the scenario fields of preemption and gangs
 * (docs/PREEMPTION.md):
 *   pod group:  preemptionPolicy: PreemptLowerPriority | Never
 *               disruptionBudget: {minAvailable: N} | {maxUnavailable: N}   (a PodDisruptionBudget per group)
 *               gang: {minCount: N, timeout: 5m}                            (a Workload PodGroup, policy gang)
 *               gang.topology: {level: cloud.provider.com/topology-rack}     (KEP-5732: the PodGroup's
 *                   schedulingConstraints.topology[0].level; needs 1.36+; sched/topology/)
 *   scheduling: features: {DefaultPreemption: false, DRAPreemption: false}
 *               (kube-scheduler enables DefaultPreemption by default; drasim
 *               asks for it, so scenarios written before it run as they did)
 *               (cluster.kubernetesVersion: 1.35/1.36 gangs wait at Permit; 1.37 the workload scheduling cycle)
 */
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/scenario.h"
#include "util/intern.h"

/* Upstream bounds: PodSpec.preemptionPolicy is PreemptLowerPriority or Never
 * (k8s.io/api core/v1 types.go, v1.36). */
int scenario_parse_group_dynamics(const ynode *m, pod_group_spec *g, strbuf *err) {
    const ynode *v;
    if ((v = ymap_get(m, "preemptionPolicy"))) {
        if (y_scalar_eq(v, "Never")) g->preempt_never = true;
        else if (!y_scalar_eq(v, "PreemptLowerPriority")) {
            yerr(err, v, "preemptionPolicy: expected PreemptLowerPriority or Never, found %s%s%s",
                 v->kind == YN_SCALAR ? "'" : "", v->kind == YN_SCALAR ? v->str : ykind_name(v),
                 v->kind == YN_SCALAR ? "'" : "");
            return -1;
        }
    }
    if ((v = ymap_get(m, "disruptionBudget"))) {
        static const char *const keys[] = {"minAvailable", "maxUnavailable", NULL};
        if (y_expect(v, YN_MAP, "disruptionBudget", err) || ymap_check_keys(v, keys, "disruptionBudget", err)) return -1;
        const ynode *mn = ymap_get(v, "minAvailable"), *mx = ymap_get(v, "maxUnavailable");
        if ((mn != NULL) == (mx != NULL)) {   /* PodDisruptionBudgetSpec: one of them */
            yerr(err, v, "disruptionBudget: expected exactly one of minAvailable or maxUnavailable");
            return -1;
        }
        int64_t n;
        const char *what = mn ? "disruptionBudget.minAvailable" : "disruptionBudget.maxUnavailable";
        if (y_int(mn ? mn : mx, what, &n, err)) return -1;
        if (n < 0 || n > 100000000) {
            yerr(err, mn ? mn : mx, "%s: expected a number of pods from 0 to 100000000, found %lld", what, (long long)n);
            return -1;
        }
        g->has_pdb = true;
        g->pdb_max = mx != NULL;
        g->pdb_value = (int32_t)n;
    }
    if ((v = ymap_get(m, "gang"))) {
        static const char *const keys[] = {"minCount", "timeout", "topology", NULL};
        const ynode *mc;
        if (y_expect(v, YN_MAP, "gang", err) || ymap_check_keys(v, keys, "gang", err) ||
            ymap_need(v, "minCount", "gang", &mc, err))
            return -1;
        int64_t n;
        if (y_int(mc, "gang.minCount", &n, err)) return -1;
        if (n < 1 || (g->count > 0 && n > g->count)) {
            yerr(err, mc, "gang.minCount: expected 1 to the group's count (%lld), found %lld", (long long)g->count,
                 (long long)n);
            return -1;
        }
        g->gang_min = (int32_t)n;
        const ynode *tp = ymap_get(v, "topology");
        if (tp) {   /* PodGroup.spec.schedulingConstraints.topology: one constraint, its label key */
            static const char *const tkeys[] = {"level", NULL};
            const ynode *lv;
            if (y_expect(tp, YN_MAP, "gang.topology", err) || ymap_check_keys(tp, tkeys, "gang.topology", err) ||
                ymap_need(tp, "level", "gang.topology", &lv, err) || y_str(lv, "gang.topology.level", &g->gang_topology, err))
                return -1;
            if (!k8s_label_key_ok(g->gang_topology)) {
                yerr(err, lv, "gang.topology.level: '%s' is not a valid label key", g->gang_topology);
                return -1;
            }
            g->gang_topology = intern(g->gang_topology);
        }
        const ynode *t = ymap_get(v, "timeout");
        if (t) {
            if (scenario_parse_duration(t, "gang.timeout", &g->gang_timeout, err)) return -1;
            if (g->gang_timeout <= 0) {
                yerr(err, t, "gang.timeout: expected a duration > 0");
                return -1;
            }
        }
    }
    return 0;
}

int scenario_parse_sched_dynamics(const ynode *m, scenario *s, strbuf *err) {
    const ynode *v;
    if ((v = ymap_get(m, "features"))) {
        static const char *const keys[] = {"DefaultPreemption", "DRAPreemption", NULL};
        if (y_expect(v, YN_MAP, "scheduling.features", err) || ymap_check_keys(v, keys, "scheduling.features", err))
            return -1;
        const ynode *f;
        if ((f = ymap_get(v, "DefaultPreemption")) &&
            y_bool(f, "scheduling.features.DefaultPreemption", &s->sched.preemption, err))
            return -1;
        if ((f = ymap_get(v, "DRAPreemption")) && y_bool(f, "scheduling.features.DRAPreemption", &s->sched.dra_preemption, err))
            return -1;
    }
    if ((v = ymap_get(m, "topologyPack"))) {   /* drasim's TopologyPack score (sched/policies/policy_topology_pack.c) */
        static const char *const keys[] = {"level", "weight", NULL};
        const ynode *lv, *w;
        if (y_expect(v, YN_MAP, "scheduling.topologyPack", err) ||
            ymap_check_keys(v, keys, "scheduling.topologyPack", err) ||
            ymap_need(v, "level", "scheduling.topologyPack", &lv, err) ||
            y_str(lv, "scheduling.topologyPack.level", &s->sched.topology_pack, err))
            return -1;
        if (!k8s_label_key_ok(s->sched.topology_pack)) {
            yerr(err, lv, "scheduling.topologyPack.level: '%s' is not a valid label key", s->sched.topology_pack);
            return -1;
        }
        s->sched.topology_pack = intern(s->sched.topology_pack);
        s->sched.topology_pack_weight = 1000;
        if ((w = ymap_get(v, "weight"))) {
            if (y_int(w, "scheduling.topologyPack.weight", &s->sched.topology_pack_weight, err)) return -1;
            if (s->sched.topology_pack_weight < 1 || s->sched.topology_pack_weight > 100000) {
                yerr(err, w, "scheduling.topologyPack.weight: expected 1 to 100000");
                return -1;
            }
        }
    }
    return 0;
}
