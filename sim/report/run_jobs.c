/* run_jobs.c -- recorded versus simulated waits of a job-trace run (see run_jobs.h). */
#include "report/run_jobs.h"

#include <math.h>
#include <string.h>

#include "report/escape.h"

enum { MAX_ROWS = 12 };   /* the whole trace, size classes, then tenants */

enum { C_JOBS, C_EXACT, C_REC_MEAN, C_SIM_MEAN, C_REC_P99, C_SIM_P99, NC };
static const char *const METRIC[NC] = {"jobs", "jobs_started_as_recorded", "recorded_wait_mean_s", "job_wait_mean_s",
                                       "recorded_wait_p99_s", "job_wait_p99_s"};

typedef struct row {
    const char *group;   /* NULL: the whole trace */
    double v[NC];
} row;

static void print_row(FILE *out, strbuf *b, const row *r) {
    if (isnan(r->v[C_REC_MEAN])) return;
    sb_clear(b);
    if (r->group) terminal_text(b, r->group);
    else sb_puts(b, "(all)");
    fprintf(out, "    %-20.20s  %8.0f  %11.0f  %14.1f  %14.1f  %14.1f  %14.1f\n", sb_str(b), r->v[C_JOBS], r->v[C_EXACT],
            r->v[C_REC_MEAN], r->v[C_SIM_MEAN], r->v[C_REC_P99], r->v[C_SIM_P99]);
}

/* One pass over the summary: a job group's rows follow each other, "jobs" first
 * (workload/jobs_source.c, emit). */
void run_jobs_print(const sim_run *run, FILE *out) {
    if (!out) return;
    strbuf b = {0};
    row cur = {0};
    bool open = false;
    size_t shown = 0, more = 0;
    for (size_t i = 0; i <= run->summary.len; i++) {
        const sim_metric *m = i < run->summary.len ? &run->summary.data[i] : NULL;
        bool starts = m && !strcmp(m->name, "jobs");
        if (open && (!m || starts || m->group != cur.group)) {   /* the row ends */
            open = false;
            if (!isnan(cur.v[C_REC_MEAN])) {
                if (!shown && !more)
                    fprintf(out, "  jobs (workload.jobs): recorded vs simulated waits, by tenant and size:\n"
                                 "    %-20s  %8s  %11s  %14s  %14s  %14s  %14s\n",
                            "group", "jobs", "as recorded", "recorded mean", "simulated mean", "recorded p99",
                            "simulated p99");
                if (shown < MAX_ROWS) print_row(out, &b, &cur), shown++;
                else more++;
            }
        }
        if (!m) break;
        if (starts) {
            cur.group = m->group;
            for (int k = 0; k < NC; k++) cur.v[k] = NAN;
            open = true;
        }
        if (!open) continue;
        for (int k = 0; k < NC; k++)
            if (!strcmp(m->name, METRIC[k])) cur.v[k] = m->value;
    }
    if (more) fprintf(out, "    and %zu more groups (table summary, metric recorded_wait_mean_s)\n", more);
    sb_free(&b);
}
