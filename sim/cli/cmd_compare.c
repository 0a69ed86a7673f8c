/* cmd_compare.c -- `drasim compare A.db B.db [--format text|csv]`. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/compare.h"
#include "report/rdb.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim compare A.db B.db [--format text|csv]\n\n"
                 "Every summary metric of A and B with the absolute (B - A) and relative\n"
                 "((B - A) / |A|) deltas. Runs are matched by scenario, mode, policy, sweep\n"
                 "point and seed; when the seeds differ, by configuration (mean over seeds).\n"
                 "exit codes: 0 ok, 2 usage error, 3 unreadable database\n");
}

int cmd_compare(int argc, char **argv) {
    const char *paths[2] = {NULL, NULL};
    bool csv = false;
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            if (strcmp(f, "csv") && strcmp(f, "text")) {
                fprintf(stderr, "drasim compare: --format: expected text or csv, found '%s'\n", f);
                return EXIT_ERROR;
            }
            csv = !strcmp(f, "csv");
        } else if (argv[i][0] == '-' || np == 2) {
            fprintf(stderr, "drasim compare: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_ERROR;
        } else {
            paths[np++] = argv[i];
        }
    }
    if (np != 2) {
        usage(stderr);
        return EXIT_ERROR;
    }
    strbuf err = {0}, out = {0};
    rdb a, b;
    if (rdb_open(paths[0], &a, &err)) {
        fprintf(stderr, "drasim compare: %s\n", sb_str(&err));
        sb_free(&err);
        return EXIT_BAD_INPUT;
    }
    if (rdb_open(paths[1], &b, &err)) {
        fprintf(stderr, "drasim compare: %s\n", sb_str(&err));
        rdb_close(&a);
        sb_free(&err);
        return EXIT_BAD_INPUT;
    }
    compare_dbs(&a, &b, csv, &out);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    sb_free(&err);
    rdb_close(&a);
    rdb_close(&b);
    return EXIT_OK;
}
