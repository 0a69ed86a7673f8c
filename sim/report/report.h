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
} rplot;

typedef struct report {
    const rdb *r;
    const char *dir;
    VEC(rplot) plots;
    bool plotted;        /* gnuplot ran and drew them */
    char *gnuplot_note;  /* why plots are missing (HTML note), or NULL */
    strbuf data_note;    /* plots left out for lack of data: sentences (stderr and HTML) */
    VEC(char *) staged;  /* data files written as DIR/data/NAME.dat.tmp-PID until report_collect succeeds */
} report;

/* Write DIR/data/NAME.dat and describe the plots. 0 or -1 with err; on
 * failure (a database drasim cannot read) no data file is written or
 * replaced: each is built as NAME.dat.tmp-PID and renamed at the end. */
int report_collect(report *rp, strbuf *err);
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
