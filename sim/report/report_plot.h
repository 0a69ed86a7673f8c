/*
 * report_plot.h -- inside `drasim report`: the helpers with which the parts
 * of report_*.c describe a plot (its data file DIR/data/NAME.dat and the
 * variables of its gnuplot template). Defined in report_data.c.
 */
#ifndef DRASIM_REPORT_REPORT_PLOT_H
#define DRASIM_REPORT_REPORT_PLOT_H

#include <sqlite3.h>

#include "report/report.h"

/* Where a curve's x values come from: a table, its x column and the factor
 * that turns them into axis units. */
typedef struct xaxis {
    const char *table, *column;
    double scale;                /* x value = column / scale */
    const char *label;
} xaxis;
extern const xaxis RP_TIME_AXIS;   /* samples.time_ms in hours */

/* `NAME = 'value'` (a gnuplot string literal) */
void rp_gp_var(strbuf *b, const char *name, const char *value);
/* `undefine NAME; array NAME[n] = ['a', 'b']` */
void rp_gp_array(strbuf *b, const char *name, char *const *items, size_t n);
/* "# TEXT SUFFIX" as one line of a data file, whatever TEXT holds. */
void rp_data_comment(FILE *f, const char *text, const char *suffix);
/* A new plot of the report (its datafile and plot_title set). */
rplot *rp_new_plot(report *rp, const char *name, const char *tmpl, const char *title);
/* DIR/data/NAME.dat for writing (NAME a plain name), or NULL with err. */
FILE *rp_open_data(report *rp, const char *name, strbuf *err);
sqlite3_stmt *rp_prep(const report *rp, const char *sql, strbuf *err);
/* "1,2,5": the run ids of configuration g; how many runs it has. */
void rp_group_ids(const rdb *r, size_t g, strbuf *b);
size_t rp_group_size(const rdb *r, size_t g);
void rp_free_strings(char **v, size_t n);
/* One curve per configuration of `expr` over x (mean and 95% CI over its runs). */
int rp_curve(report *rp, const char *name, const char *title, const xaxis *x, const char *expr, const char *ylabel,
             strbuf *err);
/* Bars: categories x configurations, values[run * ncat + c] (NAN: absent),
 * mean with min..max whiskers over each configuration's runs. */
int rp_bar_plot(report *rp, const char *name, const char *title, const char *ylabel, char **cats, size_t ncat,
                const double *values, strbuf *err);
/* Bars from `sql` (bound to each run's id; rows: category, value). */
int rp_sql_bars(report *rp, const char *name, const char *title, const char *ylabel, const char *sql, strbuf *err);

/* report_wait_groups.c: the wait of every arrived pod of each pod group (one
 * plot, or small multiples beyond 8 curves) and each group's page's plot. */
int rp_wait_cdf_by_group(report *rp, strbuf *err);
/* report_user.c: a Lua generator's user_samples series over time and its
 * user_* summary metrics. */
int rp_user_plots(report *rp, strbuf *err);

/* report_queues.c: per ClusterQueue (the first REPORT_QUEUE_PLOTS_MAX) its
 * usage, nominal quota and borrowed over time, and its Workloads over time. */
int rp_queue_plots(report *rp, strbuf *err);

/* plan_pareto.c: a `drasim plan --minimize` database (table plan_pareto):
 * its Pareto front of the objective against the SLO, as plan --report draws it. */
int rp_plan_pareto(report *rp, strbuf *err);

/* report_power.c: runs with `cluster.power`, the facility's power over time
 * against the site's envelope. */
int rp_power(report *rp, strbuf *err);

/* report_mig.c: DRA mode, MIG devices allocated per profile over time. */
int rp_mig_alloc(report *rp, strbuf *err);
/* report_racks.c: runs with racks, GPUs in use per rack over time (a heat map). */
int rp_rack_heatmap(report *rp, strbuf *err);

#endif
