/* run_queues.c -- the per-ClusterQueue table of `drasim run` (run_queues.h):
 * the planner's three questions per team, from the queue_* summary rows the
 * queue layer writes (sim/queue/kq_gate.c): how long it waits for admission,
 * how often it borrows, how often it is preempted. */
#include "report/run_queues.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "util/xalloc.h"

enum { Q_ADMITTED, Q_BORROWING, Q_PENDING, Q_P50, Q_P99, Q_PREEMPTED, Q_PREEMPTIONS, Q_COST, NQ };
static const char *const METRIC[NQ] = {"queue_admitted", "queue_admitted_borrowing", "queue_pending_at_end",
                                       "queue_wait_censored_p50_s", "queue_wait_censored_p99_s", "queue_preempted",
                                       "queue_preemptions", "queue_cost"};   /* queue_cost: priced runs (docs/COST.md) */

static const int WIDTH[NQ] = {8, 9, 7, 10, 10, 9, 11, 10};   /* the header's column widths */

/* One column: the value with `prec` decimals, or "-" where the queue has none
 * (a KAI parent Queue has a cost, the rolled-up sum of its subtree, but no jobs). */
static void cell(FILE *out, int width, int prec, double v) {
    if (isnan(v)) fprintf(out, "  %*s", width, "-");
    else fprintf(out, "  %*.*f", width, prec, v);
}

typedef struct {
    const char *name;                /* interned group name of the summary rows */
    double v[NQ];
} queue_row;

void run_queues_print(const sim_run *run, FILE *out) {
    queue_row *rows = NULL;
    size_t n = 0;
    bool kai = false;   /* KAI-Scheduler's Queues (sim/queue/kai_gate.c) */
    for (size_t i = 0; i < run->summary.len; i++) {
        const sim_metric *m = &run->summary.data[i];
        if (!m->group || strncmp(m->name, "queue_", 6)) continue;
        if (!strcmp(m->name, "queue_preemptions_Reclaim")) kai = true;
        int k = -1;
        for (int j = 0; j < NQ; j++)
            if (!strcmp(m->name, METRIC[j])) k = j;
        if (k < 0) continue;
        size_t r = 0;
        while (r < n && rows[r].name != m->group) r++;   /* interned: equal names are equal pointers */
        if (r == n) {
            rows = xrealloc(rows, (n + 1) * sizeof *rows);
            rows[n].name = m->group;
            for (int j = 0; j < NQ; j++) rows[n].v[j] = NAN;
            n++;
        }
        rows[r].v[k] = m->value;
    }
    if (!n) return;
    bool priced = false;   /* a cost column only when the run has prices */
    for (size_t r = 0; r < n; r++) priced |= !isnan(rows[r].v[Q_COST]);
    strbuf b = {0};
    const char *title = kai ? "Queue" : "ClusterQueue";
    int w = (int)strlen(title);
    for (size_t r = 0; r < n; r++) {
        sb_clear(&b);
        terminal_text(&b, rows[r].name);
        int len = (int)strlen(sb_str(&b));
        if (len > w) w = len > 40 ? 40 : len;
    }
    if (kai)
        fputs("  by Queue (KAI-Scheduler; admitted = allocated, borrowing = allocated above its quota; time to\n"
              "  allocation, censored: a job still pending waits until the end):\n", out);
    else
        fputs("  by ClusterQueue (Kueue; time to admission, censored: a Workload still pending waits until the end):\n", out);
    fprintf(out, "    %-*s  %8s  %9s  %7s  %10s  %10s  %9s  %11s%s\n", w, title, "admitted", "borrowing", "pending",
            "wait p50 s", "wait p99 s", "preempted", "preemptions", priced ? "        cost" : "");
    for (size_t r = 0; r < n; r++) {
        const double *v = rows[r].v;
        sb_clear(&b);
        terminal_text(&b, rows[r].name);
        fprintf(out, "    %-*.*s", w, w, sb_str(&b));
        for (int k = 0; k < (priced ? NQ : Q_COST); k++) cell(out, WIDTH[k], k == Q_COST ? 2 : k == Q_P50 || k == Q_P99, v[k]);
        fputc('\n', out);
    }
    sb_free(&b);
    free(rows);
}
