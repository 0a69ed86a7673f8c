/* run_groups.c -- pending pods per group and groups that never started a pod (see run_groups.h). */
#include "report/run_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_reasons.h"
#include "report/escape.h"
#include "util/xalloc.h"

enum { MAX_LISTED = 8 };   /* groups named per line (trace runs have a group per shape) */
enum { MAX_TABLE = 12 };   /* rows of the per-group table */

/* s as terminal text (a Lua group name or a reason may hold control characters). */
static const char *term(strbuf *b, const char *s) {
    sb_clear(b);
    terminal_text(b, s);
    return sb_str(b);
}

/* The values of the table's columns for every group, in one pass over the
 * summary (a group's rows follow each other, engine/sim_groups.c). */
enum { COL_ARRIVED, COL_STARTED, COL_P50, COL_P99, COL_GPU_H, NCOL };
static double *group_columns(const sim_run *run) {
    static const char *const metric[NCOL] = {"pods_arrived", "pods_scheduled", "wait_censored_p50_s",
                                             "wait_censored_p99_s", "gpu_hours_allocated"};
    size_t ng = run->groups.len, g = 0;
    double *v = xmalloc((ng ? ng : 1) * NCOL * sizeof *v);
    for (size_t i = 0; i < ng * NCOL; i++) v[i] = NAN;
    for (size_t i = 0; i < run->summary.len && ng; i++) {
        const sim_metric *m = &run->summary.data[i];
        if (!m->group) continue;
        if (m->group != run->groups.data[g].name)   /* interned: equal names are equal pointers */
            for (g = 0; g < ng && run->groups.data[g].name != m->group; g++) {}
        if (g == ng) { g = 0; continue; }
        for (int k = 0; k < NCOL; k++)
            if (!strcmp(m->name, metric[k])) v[g * NCOL + k] = m->value;
    }
    return v;
}

/* "  by group (waits censored: a pod that never started waits until the end):"
 * and one aligned row per group (MAX_TABLE at most: the groups with the
 * most pods that never started, then in class order). */
static void group_table(const sim_run *run, FILE *out, strbuf *b) {
    size_t ng = run->groups.len;
    if (!ng) return;
    double *v = group_columns(run);
    size_t *order = xmalloc(ng * sizeof *order), shown = ng < MAX_TABLE ? ng : MAX_TABLE;
    for (size_t g = 0; g < ng; g++) order[g] = g;
    if (ng > MAX_TABLE) {   /* stable selection: most never started first */
        for (size_t i = 0; i < shown; i++) {
            size_t best = i;
            for (size_t j = i + 1; j < ng; j++) {
                const sim_group *x = &run->groups.data[order[j]], *y = &run->groups.data[order[best]];
                if (x->arrived - x->scheduled > y->arrived - y->scheduled) best = j;
            }
            size_t t = order[best];
            memmove(&order[i + 1], &order[i], (best - i) * sizeof *order);
            order[i] = t;
        }
    }
    int w = (int)strlen("group");
    for (size_t i = 0; i < shown; i++) {
        int len = (int)strlen(term(b, run->groups.data[order[i]].name));
        if (len > w) w = len > 40 ? 40 : len;
    }
    fprintf(out, "  by group (censored waits: a pod that never started waits until the end of the run):\n"
                 "    %-*s  %8s  %8s  %13s  %12s  %12s  %10s\n",
            w, "group", "arrived", "started", "never started", "wait p50 s", "wait p99 s", "GPU-hours");
    for (size_t i = 0; i < shown; i++) {
        const sim_group *x = &run->groups.data[order[i]];
        const double *c = &v[order[i] * NCOL];
        fprintf(out, "    %-*.*s  %8lld  %8lld  %13lld  %12.1f  %12.1f  %10.2f\n", w, w, term(b, x->name),
                (long long)x->arrived, (long long)x->scheduled, (long long)(x->arrived - x->scheduled), c[COL_P50],
                c[COL_P99], c[COL_GPU_H]);
    }
    if (ng > shown) fprintf(out, "    and %zu more groups (table summary, column grp)\n", ng - shown);
    free(order);
    free(v);
}

void run_groups_print(const sim_run *run, FILE *out, FILE *warn) {
    strbuf b = {0}, c = {0};
    if (out) group_table(run, out, &b);
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
        if (!m->group && !strcmp(m->name, "preemption_blocked_by_dra") && m->value > 0)
            fprintf(warn, "warning: %.0f preemption attempts found only DRA devices in the way: in Kubernetes 1.36 the "
                    "preemption dry run does not free victims' devices (scheduling.features.DRAPreemption models "
                    "KEP-5690)\n", m->value);
        if (m->group && !strcmp(m->name, "topology_unlabelled_nodes") && m->value > 0)   /* engine/sim_gang.c */
            fprintf(warn, "warning: group %s: %.0f nodes lack its gang's topology label; KEP-5732 never places "
                    "the gang on them\n", term(&b, m->group), m->value);
        if (!m->group && !strcmp(m->name, "kai_topology_unlabelled_nodes") && m->value > 0)   /* queue/kai_gate.c */
            fprintf(warn, "warning: %.0f nodes lack a level label of a KAI Topology that jobs ask for; KAI never "
                    "places a topology-constrained job on them\n", m->value);
        if (m->group && !strcmp(m->name, "queue_tas_unlabelled_nodes") && m->value > 0)   /* queue/kq_gate.c */
            fprintf(warn, "warning: ClusterQueue %s: %.0f nodes of its TAS flavors lack a level label of the "
                    "flavor's Topology; Kueue TAS never places a Workload on them\n", term(&b, m->group), m->value);
        if (m->group && !strcmp(m->name, "pods_on_fewer_gpus"))
            fprintf(warn, "warning: group %s: %.0f pods asked for several GPUs and got shared replicas of fewer "
                    "physical GPUs (device-plugin time-slicing or MPS)\n", term(&b, m->group), m->value);
    }
    for (size_t i = 0; warn && i < run->warnings.len; i++)   /* engine/sim_hints.c */
        fprintf(warn, "warning: %s\n", term(&b, run->warnings.data[i].message));
    sb_free(&b);
    sb_free(&c);
}
