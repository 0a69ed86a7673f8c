/*
 * report.h -- `drasim report`: plots (PNG + SVG through gnuplot) and a
 * self-contained index.html from a results database.
 *
 * Data files (DIR/data/NAME.dat) and the gnuplot script (DIR/plots.gp) are
 * generated; the plot styles are templates in reports/NAME.gp (found like the
 * GPU catalog: $DRASIM_DATADIR, install dir, source tree). gnuplot runs as a
 * child process in DIR (no shell); $DRASIM_GNUPLOT names another program.
 */
#ifndef DRASIM_REPORT_REPORT_H
#define DRASIM_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/escape.h"
#include "report/rdb.h"
#include "util/strbuf.h"
#include "util/vec.h"

typedef struct rplot {
    char *name;          /* file stem: DIR/NAME.png, DIR/NAME.svg, DIR/data/NAME.dat */
    char *title;
    char *tmpl;          /* template under reports/ */
    strbuf vars;         /* gnuplot assignments the template reads */
    int page;            /* 0: index.html; k > 0: the page of pod group k (report_group_page_name);
                          * -k: of ClusterQueue k (report_queue_page_name) */
    int width, height;   /* pixels; 0: 1100 x 650 */
} rplot;

typedef struct report {
    const rdb *r;
    const char *dir;
    VEC(rplot) plots;
    bool plotted;        /* gnuplot ran and drew them */
    char *gnuplot_note;  /* why plots are missing (HTML note), or NULL */
    strbuf data_note;    /* plots left out for lack of data: sentences (stderr and HTML) */
    strbuf empty_note;   /* plots left out because every value is 0: sentences (HTML only) */
    VEC(char *) staged;  /* data files written as DIR/data/NAME.dat.tmp-PID until report_collect succeeds */
} report;

/* Write DIR/data/NAME.dat and describe the plots. 0 or -1 with err; on
 * failure (a database drasim cannot read) no data file is written or
 * replaced: each is built as NAME.dat.tmp-PID and renamed at the end. */
int report_collect(report *rp, strbuf *err);
/* report_prune.c: leave out the plots whose every value is 0, with a
 * sentence each in empty_note (report_collect calls it last, once the data
 * files have their names). */
void report_prune_empty(report *rp);
/* Write DIR/plots.gp and run gnuplot. Returns 0 (drawn), 1 (gnuplot not
 * found: rp->gnuplot_note set), or -1 (gnuplot failed, err set). */
int report_draw(report *rp, strbuf *err);
/* Async-signal-safe: ends the gnuplot child report_draw is waiting for (if
 * any) and reaps it, so a signal to drasim alone does not leave gnuplot
 * running (cli_signals.c calls it before dying of the signal). */
void report_gnuplot_stop(void);
/* Write DIR/index.html. 0 or -1 with err. */
int report_html(const report *rp, strbuf *err);
void report_free(report *rp);
/* report_warnings.c: "<h3 id=warnings>" and the run's warnings as an HTML
 * list (groups that never started, CEL errors, pods on fewer GPUs, scoring
 * hints and every other row of run_warnings, ...), per configuration.
 * Returns how many. */
size_t report_warnings_html(const rdb *r, strbuf *b);
/* report_group_page.c: the file name of pod group k's page (k from 1, in
 * rdb_pod_groups order): "group-NAME.html", or "group.K.html" when NAME is
 * not made of [A-Za-z0-9_-] (at most 64). */
enum { REPORT_GROUP_PLOTS_MAX = 8 };   /* groups whose pages get plots */
void report_group_page_name(const char *name, size_t k, strbuf *out);
/* One page per pod group (DIR/group-*.html): its SLO table per configuration,
 * why its pods wait, its plots, every metric of the group. 0 or -1 with err. */
int report_group_pages(const report *rp, strbuf *err);
/* report_queues.c (runs with `queues:`): the ClusterQueues in first-seen
 * order (summary rows queue_admitted; *n of them, free each and the array);
 * the file name of ClusterQueue k's page (k from 1): "queue-NAME.html" or
 * "queue.K.html"; its plots have page -k. index.html's "ClusterQueues"
 * table (nothing without ClusterQueues); one page per ClusterQueue: time to
 * admission, usage against nominal quota and borrowed, preemptions by
 * reason, its plots. 0 or -1 with err. */
enum { REPORT_QUEUE_PLOTS_MAX = 8 };   /* ClusterQueues whose pages get plots */
char **report_queue_names(const rdb *r, size_t *n);
void report_queue_page_name(const char *name, size_t k, strbuf *out);
void report_queues_index(const rdb *r, strbuf *b);
int report_queue_pages(const report *rp, strbuf *err);
/* report_html.c, for the pages: the figures of page `page` (0: index.html)
 * with the notes on plots left out; DIR/FILE written from b. */
void report_figures_html(const report *rp, int page, strbuf *b);
int report_write_page(const report *rp, const char *file, const strbuf *b, strbuf *err);
/* For pages other than `drasim report`'s (plan --report): the head of an
 * index.html with the report's style (title escaped), and the figures of
 * rp's plots (or the note why none were drawn). */
void report_html_begin(strbuf *b, const char *title);
void report_html_figures(const report *rp, strbuf *b);
/* Create or truncate a file of the report for writing, never through a
 * symbolic link and only a regular file (a planted link in DIR cannot
 * redirect a write). NULL with errno set on failure. */
FILE *report_file_create(const char *path);

#endif
