/*
 * kueue_config.c -- the parts of Kueue's Configuration (config.kueue.x-k8s.io
 * v1beta1 and v1beta2, kubernetes-sigs/kueue ff69552e79
 * apis/config/v1beta2/configuration_types.go) that drasim models:
 *
 *   apiVersion: config.kueue.x-k8s.io/v1beta2
 *   kind: Configuration
 *   fairSharing:
 *     preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
 *
 * v1beta2 turns fair sharing on by the presence of `fairSharing`; v1beta1 by
 * `enable: true` (both forms are read). Other keys of the Configuration
 * (namespace, integrations, ...) are accepted and ignored: they do not
 * change admission. The same `fairSharing` map is a scenario's
 * queues.fairSharing (model/scenario_queues.c).
 */
#include <string.h>

#include "model/kueue.h"

int kq_decode_fair_sharing(kq_config *c, const ynode *fs, bool default_on, strbuf *err) {
    static const char *const keys[] = {"enable", "preemptionStrategies", NULL};
    if (y_expect(fs, YN_MAP, "fairSharing", err) || ymap_check_keys(fs, keys, "fairSharing", err)) return -1;
    bool on = default_on;
    const ynode *v;
    if ((v = ymap_get(fs, "enable")) && y_bool(v, "fairSharing.enable", &on, err)) return -1;
    c->fair_sharing = on;
    c->where = fs;
    /* Kueue's default (v1beta1 defaults.go): both strategies */
    c->fs_strategies[0] = KQ_FS_LE_FINAL;
    c->fs_strategies[1] = KQ_FS_LT_INITIAL;
    c->nfs_strategies = 2;
    if (!(v = ymap_get(fs, "preemptionStrategies"))) return 0;
    if (y_expect(v, YN_SEQ, "fairSharing.preemptionStrategies", err)) return -1;
    kq_fs_strategy got[2] = {0};
    bool ok = v->n >= 1 && v->n <= 2;
    for (size_t i = 0; ok && i < v->n; i++) {
        if (y_scalar_eq(v->vals[i], "LessThanOrEqualToFinalShare")) got[i] = KQ_FS_LE_FINAL;
        else if (y_scalar_eq(v->vals[i], "LessThanInitialShare")) got[i] = KQ_FS_LT_INITIAL;
        else ok = false;
    }
    if (ok && v->n == 2) ok = got[0] == KQ_FS_LE_FINAL && got[1] == KQ_FS_LT_INITIAL;
    if (!ok) {
        yerr(err, v, "fairSharing.preemptionStrategies: supported values: [LessThanOrEqualToFinalShare], "
                     "[LessThanInitialShare], [LessThanOrEqualToFinalShare, LessThanInitialShare]");
        return -1;
    }
    memcpy(c->fs_strategies, got, sizeof got);
    c->nfs_strategies = v->n;
    return 0;
}

int kq_decode_configuration(kq_objects *o, const ynode *root, bool v1beta1, strbuf *err) {
    if (o->config.where) {
        yerr(err, root, "a second Kueue Configuration (the first at line %d)", o->config.where->line);
        return -1;
    }
    o->config.where = root;
    const ynode *fs = ymap_get(root, "fairSharing");
    if (fs && !y_is_null(fs) && kq_decode_fair_sharing(&o->config, fs, !v1beta1, err)) return -1;
    o->config.where = root;
    return 0;
}
