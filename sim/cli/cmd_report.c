/* cmd_report.c -- `drasim report RESULTS.db... [-o DIR]`: plots and index.html
 * (several databases: merged into a temporary one, one page comparing them). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/rdb.h"
#include "report/report.h"
#include "store/output_path.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim report RESULTS.db [MORE.db]... [-o DIR] [--force]\n\n"
                 "Draw plots (PNG and SVG, through gnuplot) and write DIR/index.html, a\n"
                 "self-contained page with every plot and a metrics table per run\n"
                 "(docs/REPORTS.md). Several runs are grouped by configuration (scenario,\n"
                 "mode, policy, sweep point) and drawn as mean with a min-max band over seeds.\n"
                 "Several databases (device plugin vs DRA, ...) are drawn on one page, each\n"
                 "configuration labelled with its file name.\n\n"
                 "  -o, --output DIR   output directory (default report), created if needed; an\n"
                 "                     existing one must be empty or hold a drasim report\n"
                 "  --force            write into DIR even when it holds other files\n"
                 "Without gnuplot (or $DRASIM_GNUPLOT) the page is written with the tables only\n"
                 "and a message on stderr; the exit code is still 0.\n"
                 "exit codes: 0 ok, 2 usage error or gnuplot failure, 3 unreadable database\n");
}

/* DIR and DIR/data, real directories (not symbolic links elsewhere). */
static int make_dir(const char *dir) {
    strbuf d = {0};
    sb_printf(&d, "%s/data", dir);
    int rc = (mkdir(dir, 0755) && errno != EEXIST) || (mkdir(sb_str(&d), 0755) && errno != EEXIST) ? -1 : 0;
    struct stat st;
    if (!rc && (lstat(sb_str(&d), &st) || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        rc = -1;
    }
    sb_free(&d);
    return rc;
}

int cmd_report(int argc, char **argv) {
    const char *db = NULL, *dir = "report";
    const char **dbs = xcalloc((size_t)argc, sizeof *dbs);
    size_t ndbs = 0;
    bool force = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(dbs);
            return EXIT_OK;
        } else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "--force")) {
            force = true;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "drasim report: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            free(dbs);
            return EXIT_ERROR;
        } else {
            dbs[ndbs++] = argv[i];
        }
    }
    if (!ndbs) {
        usage(stderr);
        free(dbs);
        return EXIT_ERROR;
    }
    db = dbs[0];
    strbuf err = {0}, merged = {0};
    char tmpdir[] = "/tmp/drasim-report-XXXXXX";
    bool have_tmp = false;
    output_target target = {.path = dir, .kind = OUTPUT_DIRECTORY, .force = force, .inputs = dbs, .ninputs = ndbs};
    if (output_check(&target, &err)) {
        fprintf(stderr, "drasim report: %s\n", sb_str(&err));
        sb_free(&err);
        free(dbs);
        return EXIT_ERROR;
    }
    if (ndbs > 1) {   /* one page comparing the databases: their runs in one temporary database */
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "drasim report: cannot create a temporary directory: %s\n", strerror(errno));
            free(dbs);
            return EXIT_ERROR;
        }
        have_tmp = true;
        sb_printf(&merged, "%s/merged.db", tmpdir);
        if (rdb_merge(dbs, ndbs, sb_str(&merged), stderr, &err)) {
            fprintf(stderr, "drasim report: %s\n", sb_str(&err));
            unlink(sb_str(&merged));
            rmdir(tmpdir);
            sb_free(&merged);
            sb_free(&err);
            free(dbs);
            return EXIT_BAD_INPUT;
        }
        db = sb_str(&merged);
    }
    rdb r;
    if (rdb_open(db, &r, &err)) {
        fprintf(stderr, "drasim report: %s\n", sb_str(&err));
        if (have_tmp) unlink(sb_str(&merged)), rmdir(tmpdir);
        sb_free(&merged);
        sb_free(&err);
        free(dbs);
        return EXIT_BAD_INPUT;
    }
    if (ndbs > 1) {   /* messages name the files, not the temporary database */
        strbuf names = {0};
        for (size_t i = 0; i < ndbs; i++) sb_printf(&names, "%s%s", i ? " + " : "", dbs[i]);
        free(r.path);
        r.path = xstrdup(sb_str(&names));
        sb_free(&names);
    }
    int rc = EXIT_OK;
    report rp = {.r = &r, .dir = dir};
    strbuf data_dir = {0};
    sb_printf(&data_dir, "%s/data", dir);
    struct stat st;
    bool new_dir = lstat(dir, &st) != 0, new_data = lstat(sb_str(&data_dir), &st) != 0;
    if (make_dir(dir)) {
        fprintf(stderr, "drasim report: cannot create %s: %s\n", dir, strerror(errno));
        rc = EXIT_ERROR;
        goto done;
    }
    if (report_collect(&rp, &err)) {   /* no data file written: remove the folders made for them */
        fprintf(stderr, "drasim report: %s\n", sb_str(&err));
        if (new_data) rmdir(sb_str(&data_dir));
        if (new_dir) rmdir(dir);
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    if (rp.data_note.len) fprintf(stderr, "drasim report: %s\n", sb_str(&rp.data_note));
    int drawn = rp.plots.len ? report_draw(&rp, &err) : 0;
    if (drawn < 0) {
        fprintf(stderr, "drasim report: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
    } else if (drawn == 1) {
        fprintf(stderr, "drasim report: %s: no plots drawn; writing %s/index.html with the tables only "
                        "(install gnuplot, or set DRASIM_GNUPLOT to its path)\n", rp.gnuplot_note, dir);
    }
    if (report_html(&rp, &err)) {
        fprintf(stderr, "drasim report: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    if (rc == EXIT_OK)
        printf("%s/index.html: %zu run%s, %zu plot%s%s\n", dir, r.nruns, r.nruns == 1 ? "" : "s",
               rp.plotted ? rp.plots.len : 0, rp.plotted && rp.plots.len == 1 ? "" : "s",
               rp.plotted ? " (PNG + SVG)" : "");
done:
    sb_free(&data_dir);
    report_free(&rp);
    rdb_close(&r);
    if (have_tmp) {
        unlink(sb_str(&merged));
        rmdir(tmpdir);
    }
    sb_free(&merged);
    sb_free(&err);
    free(dbs);
    return rc;
}
