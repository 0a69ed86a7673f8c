/* cmd_check.c -- `drasim check SCENARIO --expect EXPECT.yaml [--junit FILE] [--seeds LIST]`:
 * run the scenario into a temporary database and check thresholds (CI mode). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/expect.h"
#include "report/rdb.h"
#include "report/runner.h"
#include "store/output_path.h"
#include "store/store.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim check SCENARIO --expect EXPECT.yaml [--junit FILE] [--seeds LIST]\n"
                 "                    [--set KEY=VALUE]... [-o RESULTS.db] [--allow-other-baseline] [--force] [--quiet]\n\n"
                 "Run the scenario (once per seed) and check the thresholds and baseline of\n"
                 "EXPECT.yaml (docs/CI.md) on its summary metrics. Prints a table; exits 1\n"
                 "when any check fails.\n\n"
                 "  --expect FILE      expectations (required)\n"
                 "  --junit FILE       also write a JUnit XML report\n"
                 "  --seeds LIST       42..51 or 1,5,9 (overrides the expect file's seeds)\n"
                 "  --set KEY=VALUE    scenario override, after the expect file's `set`\n"
                 "  -o, --output FILE  keep the results database (default: a temporary one)\n"
                 "  --allow-other-baseline  compare with a baseline of another scenario or other seeds\n"
                 "  --force            replace FILE / the JUnit file even when drasim did not write it\n"
                 "  -q, --quiet        print only failures\n"
                 "exit codes: 0 all checks pass, 1 a check failed, 2 usage or processing error,\n"
                 "            3 invalid scenario, expect file or baseline\n");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* First bytes of a JUnit file written by check_report_junit(). */
static const char JUNIT_SIGNATURE[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"drasim check\"";

int cmd_check(int argc, char **argv) {
    const char *scenario = NULL, *expect_path = NULL, *junit = NULL, *keep = NULL;
    const char *seeds_text = NULL;
    bool quiet = false, force = false, allow_other = false;
    const char **cli_sets = xcalloc((size_t)argc, sizeof *cli_sets);
    size_t ncli_sets = 0;
    int rc = EXIT_OK;
    strbuf err = {0};
    expect_spec e = {0};
    bool have_e = false;
    uint64_t *seeds = NULL;
    size_t nseeds = 0;
    const char **sets = NULL, **origins = NULL;
    char tmpdir[] = "/tmp/drasim-check-XXXXXX";
    bool have_tmp = false;
    strbuf dbpath = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto done;
        } else if (!strcmp(a, "--expect") && i + 1 < argc) {
            expect_path = argv[++i];
        } else if (!strcmp(a, "--junit") && i + 1 < argc) {
            junit = argv[++i];
        } else if (!strcmp(a, "--seeds") && i + 1 < argc) {
            seeds_text = argv[++i];
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            cli_sets[ncli_sets++] = argv[++i];
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            keep = argv[++i];
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--allow-other-baseline")) {
            allow_other = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' || scenario) {
            fprintf(stderr, "drasim check: unexpected argument '%s'\n", a);
            usage(stderr);
            rc = EXIT_ERROR;
            goto done;
        } else {
            scenario = a;
        }
    }
    if (!scenario || !expect_path) {
        if (scenario) fprintf(stderr, "drasim check: --expect FILE is required\n");
        usage(stderr);
        rc = EXIT_ERROR;
        goto done;
    }
    if (expect_load(expect_path, &e, &err)) {
        fprintf(stderr, "drasim check: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    have_e = true;
    /* both outputs are checked before the run (docs/SECURITY.md) */
    const char *inputs[] = {scenario, expect_path, e.baseline_file};
    output_target targets[2] = {
        {.path = keep, .kind = OUTPUT_DATABASE, .force = force, .inputs = inputs, .ninputs = 3, .option = "-o"},
        {.path = junit, .kind = OUTPUT_FILE, .signature = JUNIT_SIGNATURE, .force = force, .inputs = inputs,
         .ninputs = 3, .option = "--junit"}};
    for (int k = 0; k < 2; k++)
        if (targets[k].path && output_check(&targets[k], &err)) {
            fprintf(stderr, "drasim check: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
            goto done;
        }
    if (keep && junit && !strcmp(keep, junit)) {
        fprintf(stderr, "drasim check: -o and --junit name the same file %s\n", keep);
        rc = EXIT_ERROR;
        goto done;
    }
    if (seeds_text && parse_seed_list(seeds_text, &seeds, &nseeds, &err)) {
        fprintf(stderr, "drasim check: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    sets = xcalloc(e.nsets + ncli_sets + 1, sizeof *sets);
    origins = xcalloc(e.nsets + ncli_sets + 1, sizeof *origins);
    for (size_t i = 0; i < e.nsets; i++) {
        sets[i] = e.sets[i];
        origins[i] = e.set_origins[i];   /* errors name the expect file's entry */
    }
    for (size_t i = 0; i < ncli_sets; i++) sets[e.nsets + i] = cli_sets[i];

    double t0 = now_s();
    if (keep) {
        sb_puts(&dbpath, keep);
    } else {
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "drasim check: cannot create a temporary directory: %s\n", strerror(errno));
            rc = EXIT_ERROR;
            goto done;
        }
        have_tmp = true;
        sb_printf(&dbpath, "%s/results.db", tmpdir);
    }
    volatile sig_atomic_t *interrupt = cli_catch_interrupts();
    store st = {0};
    run_batch b = {.scenario_path = scenario, .sets = sets, .set_origins = origins, .nsets = e.nsets + ncli_sets,
                   .seeds = seeds ? seeds : e.seeds, .nseeds = seeds ? nseeds : e.nseeds,
                   .progress = !quiet && isatty(2), .interrupt = interrupt};
    int brc = store_open(&st, sb_str(&dbpath), &err) ? RUN_ERROR : run_batch_execute(&b, &st, &err);
    if (brc == RUN_OK && *interrupt) brc = RUN_INTERRUPTED;
    if (brc == RUN_OK && store_commit(&st, &err)) brc = RUN_ERROR;
    if (brc != RUN_OK) {
        store_abort(&st);
        fprintf(stderr, "drasim check: %s\n", brc == RUN_INTERRUPTED ? "interrupted" : sb_str(&err));
        rc = brc == RUN_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_ERROR;
        goto done;
    }
    rdb res, base;
    bool have_base = false;
    if (rdb_open(sb_str(&dbpath), &res, &err)) {
        fprintf(stderr, "drasim check: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    if (e.baseline_file) {
        if (rdb_open(e.baseline_file, &base, &err)) {
            fprintf(stderr, "drasim check: baseline: %s\n", sb_str(&err));
            rdb_close(&res);
            rc = EXIT_BAD_INPUT;
            goto done;
        }
        have_base = true;
        if (!allow_other && expect_check_baseline(&e, &res, &base, &err)) {
            fprintf(stderr, "drasim check: %s\n", sb_str(&err));
            rdb_close(&res);
            rdb_close(&base);
            rc = EXIT_BAD_INPUT;
            goto done;
        }
    }
    if (expect_check_groups(&e, &res, &err)) {   /* a group no run has: a typo in the expect file */
        fprintf(stderr, "drasim check: %s\n", sb_str(&err));
        rdb_close(&res);
        if (have_base) rdb_close(&base);
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    check_report cr;
    expect_evaluate(&e, &res, have_base ? &base : NULL, &cr);
    strbuf out = {0};
    check_report_table(&cr, &out);
    if (!quiet || cr.failures) fputs(sb_str(&out), cr.failures ? stderr : stdout);
    if (junit) {
        sb_clear(&out);
        const char *suite = res.nruns ? res.runs[0].scenario : "scenario";
        check_report_junit(&cr, suite, now_s() - t0, &out);
        if (output_write_file(junit, out.s, out.len, &err)) {
            fprintf(stderr, "drasim check: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
        }
    }
    if (rc == EXIT_OK && cr.failures) rc = EXIT_NEGATIVE;
    sb_free(&out);
    check_report_free(&cr);
    rdb_close(&res);
    if (have_base) rdb_close(&base);
done:
    if (have_tmp) {
        unlink(sb_str(&dbpath));
        rmdir(tmpdir);
    }
    if (have_e) expect_free(&e);
    free(seeds);
    free(sets);
    free(origins);
    free(cli_sets);
    sb_free(&dbpath);
    sb_free(&err);
    intern_reset();
    return rc;
}
