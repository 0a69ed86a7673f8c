/* run_groups.c -- pending pods per group and groups that never started a pod (see run_groups.h). */
#include "report/run_groups.h"

#include <stdlib.h>
#include <string.h>

#include "engine/sim_reasons.h"
#include "report/escape.h"

enum { MAX_LISTED = 8 };   /* groups named per line (trace runs have a group per shape) */

/* s as terminal text (a Lua group name or a reason may hold control characters). */
static const char *term(strbuf *b, const char *s) {
    sb_clear(b);
    terminal_text(b, s);
    return sb_str(b);
}

void run_groups_print(const sim_run *run, FILE *out, FILE *warn) {
    strbuf b = {0}, c = {0};
    int64_t pending = 0;
    for (size_t g = 0; g < run->groups.len; g++) pending += run->groups.data[g].pending;
    if (out && pending) {
        fputs("  pending at end (never started), by group:", out);
        const char *sep = " ";
        size_t shown = 0, more = 0;
        for (size_t g = 0; g < run->groups.len; g++) {
            const sim_group *x = &run->groups.data[g];
            if (!x->pending) continue;
            if (shown++ == MAX_LISTED) more = 1;
            if (more) { more++; continue; }
            fprintf(out, "%s%s %lld of %lld", sep, term(&b, x->name), (long long)x->pending, (long long)x->arrived);
            sep = ", ";
        }
        if (more) fprintf(out, " and %zu more (summary table, grp)", more - 1);
        fputc('\n', out);
        size_t nr;
        sim_reason_row *rows = sim_pending_reasons(run, &nr);
        fputs("  why pods wait (pending at end, by group and reason):\n", out);
        for (size_t i = 0; i < nr && i < MAX_LISTED; i++)
            fprintf(out, "    %s: %lld %s: %s\n", term(&b, rows[i].grp), (long long)rows[i].pods,
                    rows[i].pods == 1 ? "pod" : "pods",
                    rows[i].reason ? term(&c, rows[i].reason) : "none recorded (no scheduling attempt finished)");
        if (nr > MAX_LISTED) fprintf(out, "    and %zu more (table pending_reasons)\n", nr - MAX_LISTED);
        free(rows);
    }
    if (out) fflush(out);   /* the warnings come after the lines above */
    size_t nwarn = 0;
    for (size_t g = 0; warn && g < run->groups.len; g++) {
        const sim_group *x = &run->groups.data[g];
        if (!x->arrived || x->scheduled) continue;
        if (nwarn++ >= MAX_LISTED) continue;
        fprintf(warn, "warning: group %s: 0 of %lld pods ever started; reason: %s\n", term(&b, x->name), (long long)x->arrived,
                x->reason ? term(&c, x->reason) : "none recorded (no scheduling attempt finished)");
    }
    if (warn && nwarn > MAX_LISTED) fprintf(warn, "warning: %zu more groups: no pod ever started\n", nwarn - MAX_LISTED);
    for (size_t i = 0; warn && i < run->summary.len; i++) {   /* engine/sim_sharing.c, sim_preempt.c */
        const sim_metric *m = &run->summary.data[i];
        if (!m->group && !strcmp(m->name, "preemption_blocked_by_dra"))
            fprintf(warn, "warning: %.0f preemption attempts found only DRA devices in the way: in Kubernetes 1.36 the "
                    "preemption dry run does not free victims' devices (scheduling.features.DRAPreemption models "
                    "KEP-5690)\n", m->value);
        if (m->group && !strcmp(m->name, "topology_unlabelled_nodes") && m->value > 0)   /* engine/sim_gang.c */
            fprintf(warn, "warning: group %s: %.0f nodes lack its gang's topology label; KEP-5732 never places "
                    "the gang on them\n", term(&b, m->group), m->value);
        if (m->group && !strcmp(m->name, "pods_on_fewer_gpus"))
            fprintf(warn, "warning: group %s: %.0f pods asked for several GPUs and got shared replicas of fewer "
                    "physical GPUs (device-plugin time-slicing or MPS)\n", term(&b, m->group), m->value);
    }
    sb_free(&b);
    sb_free(&c);
}
