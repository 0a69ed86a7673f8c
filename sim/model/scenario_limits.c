/*
 * scenario_limits.c -- limits on the memory-hungry settings of a scenario,
 * checked up front (before any node or pod exists) so that a careless or
 * hostile scenario fails with a message naming its field instead of
 * exhausting memory half-way through a run (issue 10):
 *   - pods: the pod groups' counts together, at most SCENARIO_MAX_PODS_DEFAULT
 *     (DRASIM_MAX_PODS overrides);
 *   - output.sampleInterval: at least 1s, and at most SCENARIO_MAX_SAMPLES
 *     samples over stop.time.
 */
#include <stdlib.h>

#include "model/scenario.h"

/* The cap on the total number of pods now in force. */
int64_t scenario_max_pods(void) {
    const char *env = getenv("DRASIM_MAX_PODS");
    if (env && *env) {
        char *end;
        long long v = strtoll(env, &end, 10);
        if (*end == 0 && v > 0) return v;
    }
    return SCENARIO_MAX_PODS_DEFAULT;
}

int scenario_check_limits(const ynode *root, const scenario *s, strbuf *err) {
    int64_t max_pods = scenario_max_pods(), total = 0;
    for (size_t i = 0; i < s->ngroups; i++) {
        const pod_group_spec *g = &s->groups[i];
        total += g->count;   /* each count is at most 1e8: no overflow */
        if (total > max_pods) {
            const ynode *where = ymap_get(g->where, "count");
            yerr(err, where ? where : g->where,
                 "%s: the pod groups ask for %lld pods, more than the limit of %lld pods per run "
                 "(set DRASIM_MAX_PODS to raise it)",
                 where ? "count" : "arrival.times", (long long)total, (long long)max_pods);
            return -1;
        }
    }
    const ynode *out = ymap_get(root, "output");
    const ynode *si = ymap_get(out, "sampleInterval");
    const ynode *where = si ? si : out ? out : root;
    if (s->sample_interval < SCENARIO_MIN_SAMPLE_INTERVAL) {
        yerr(err, where, "output.sampleInterval: expected at least 1s, found %lldms",
             (long long)s->sample_interval);
        return -1;
    }
    if (s->stop_time != SIM_TIME_NEVER && s->stop_time / s->sample_interval > SCENARIO_MAX_SAMPLES) {
        yerr(err, where, "output.sampleInterval: stop.time would take %lld samples, more than %d; "
             "choose a longer interval", (long long)(s->stop_time / s->sample_interval), SCENARIO_MAX_SAMPLES);
        return -1;
    }
    return 0;
}
