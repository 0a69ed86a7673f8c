/*
 * report_prune.c -- plots with nothing to show are left out (issue 26): a
 * time series, column or bar plot whose every value is 0 (no pending pod, no
 * eviction, no MIG fragmentation) would be drawn as a flat line or no bar at
 * all. Its data file is removed and a sentence says why it is missing
 * ("no evictions in these runs"). Cumulative distributions are kept: a group
 * that never started is a flat line that says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

/* The sentence for a plot left out, by its file stem; NULL: say the title. */
static const char *empty_sentence(const char *stem) {
    static const char *const known[][2] = {
        {"pending", "no pod was pending in these runs"},
        {"compare_pods_pending_at_end", "no pod was pending at the end of any run"},
        {"evictions", "no evictions in these runs"},
        {"stranded_gpus", "no GPU was stranded in these runs"},
        {"compare_stranded_gpus_mean", "no GPU was stranded in these runs"},
        {"frag_over_time", "no FGD fragmentation in these runs"},
        {"frag_mig_over_time", "no MIG fragmentation in these runs"},
        {"idle_capacity", "no idle GPU capacity in these runs"},
        {"nodes_fit", "no node could take an 8-GPU pod at any time in these runs"},
        {"compare_nodes_fit_8_min", "no node could take an 8-GPU pod at some time in every run"},
        {"compare_wait_mean_s", "no pod waited in these runs"},
        {"compare_wait_p99_s", "no pod waited in these runs"},
        {"faults", "no GPU failed or was tainted in these runs"},
        {"mig_alloc", "no MIG device was allocated in these runs"},
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (!strcmp(known[i][0], stem)) return known[i][1];
    return NULL;
}

/* Does the data file hold a value other than 0 after column 1 (the x value
 * or the bar's category number) of some line? Missing file: no. */
static bool has_nonzero(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[8192];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *p = line, *end;
        strtod(p, &end);   /* column 1 */
        if (end == p) continue;
        for (p = end;;) {
            double v = strtod(p, &end);
            if (end == p) break;
            if (v != 0) {
                found = true;
                break;
            }
            p = end;
        }
    }
    fclose(f);
    return found;
}

void report_prune_empty(report *rp) {
    size_t kept = 0;
    for (size_t i = 0; i < rp->plots.len; i++) {
        rplot *p = &rp->plots.data[i];
        bool prunable = !strcmp(p->tmpl, "timeseries.gp") || !strcmp(p->tmpl, "columns.gp") || !strcmp(p->tmpl, "bars.gp");
        strbuf path = {0};
        sb_printf(&path, "%s/data/%s.dat", rp->dir, p->name);
        if (!prunable || has_nonzero(sb_str(&path))) {
            rp->plots.data[kept++] = *p;
            sb_free(&path);
            continue;
        }
        unlink(sb_str(&path));
        sb_free(&path);
        const char *s = empty_sentence(p->name);
        if (rp->empty_note.len) sb_puts(&rp->empty_note, "; ");
        if (s) sb_printf(&rp->empty_note, "%s (%s)", s, p->name);
        else sb_printf(&rp->empty_note, "%s: 0 in every run (%s)", p->title, p->name);
        free(p->name);
        free(p->title);
        free(p->tmpl);
        sb_free(&p->vars);
    }
    rp->plots.len = kept;
    if (rp->empty_note.len) sb_putc(&rp->empty_note, '.');
}
