/* cmd_sweep.c -- `drasim sweep SCENARIO --param KEY=V1,V2,... [--param ...] [--seeds LIST] -o OUT [--split]`:
 * run every point of a parameter grid (each point: --set KEY=Vi for every
 * parameter) into one database with a `sweep` table, or one database per point. */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/runner.h"
#include "report/sweep_job.h"
#include "util/input_files.h"
#include "store/output_path.h"
#include "store/store.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim sweep SCENARIO --param KEY=V1,V2,... [--param ...] [--seeds LIST]\n"
                 "                    [--set KEY=VALUE]... -o OUT [--split | --shard I/N] [--force] [--quiet]\n"
                 "       drasim sweep SCENARIO --param ... [--seeds LIST] [--set ...] --emit-job DIR\n"
                 "                    [--shard auto/N] [--image IMAGE] [--parallelism K] [--force]\n\n"
                 "Run the scenario at every point of the grid (the cartesian product of the\n"
                 "--param values; each value is applied like --set KEY=VALUE), once per seed.\n"
                 "Default: one database OUT with every run and a table sweep(run_id, param,\n"
                 "value). --split: OUT is a directory with one database per point, named\n"
                 "KEY=VALUE,KEY=VALUE.db. OUT and every point's database must be new paths or\n"
                 "drasim databases (--force: replace other files; docs/SECURITY.md).\n"
                 "--shard I/N: run only the I-th (0-based) of N equal parts of the sweep's\n"
                 "runs (points x seeds, points in grid order, last parameter fastest, then\n"
                 "seeds) into OUT; `drasim merge` joins the N databases (docs/SWEEPS.md).\n"
                 "--shard auto/N takes I from JOB_COMPLETION_INDEX (Kubernetes Indexed Job)\n"
                 "or else SLURM_ARRAY_TASK_ID (Slurm job array).\n"
                 "--emit-job DIR: run nothing; write into DIR a ConfigMap with the scenario and\n"
                 "the files it reads, a results volume, an Indexed Job running the N shards\n"
                 "(default: one per run) K at a time (default 10) in IMAGE (default\n"
                 "drasim:latest; Containerfile), a merge Job, collect.sh and a Slurm array\n"
                 "script slurm.sh (docs/SWEEPS.md).\n"
                 "exit codes: 0 ok, 2 usage or processing error, 3 invalid scenario\n");
}

typedef struct param {
    char *key;
    char **values;
    size_t n;
} param;

typedef struct sweep_ctx {
    sqlite3 *db;
    const param *params;
    size_t nparams;
    const size_t *point;
    int rc;
} sweep_ctx;

/* Record the parameter point of a stored run in the sweep table. */
static void record_point(const sim_run *run, size_t nnodes, int64_t run_id, void *ud) {
    (void)run;
    (void)nnodes;
    sweep_ctx *c = ud;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(c->db, "INSERT INTO sweep VALUES(?,?,?)", -1, &s, NULL) != SQLITE_OK) {
        c->rc = -1;
        return;
    }
    for (size_t p = 0; p < c->nparams; p++) {
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_text(s, 2, c->params[p].key, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, c->params[p].values[c->point[p]], -1, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_DONE) c->rc = -1;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
}

static int parse_param(const char *text, param *p) {
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1]) return -1;
    p->key = xstrndup(text, (size_t)(eq - text));
    const char *v = eq + 1;
    while (1) {
        size_t n = strcspn(v, ",");
        if (!n) return -1;
        p->values = xrealloc(p->values, (p->n + 1) * sizeof *p->values);
        p->values[p->n++] = xstrndup(v, n);
        if (!v[n]) return 0;
        v += n + 1;
    }
}

/* File name of a point: "key=value,key=value.db" with '/' and spaces replaced. */
static void point_name(const param *ps, size_t np, const size_t *pt, strbuf *out) {
    for (size_t p = 0; p < np; p++) {
        if (p) sb_putc(out, ',');
        strbuf t = {0};
        sb_printf(&t, "%s=%s", ps[p].key, ps[p].values[pt[p]]);
        for (const char *c = sb_str(&t); *c; c++) sb_putc(out, *c == '/' || *c == ' ' || *c == '\\' ? '_' : *c);
        sb_free(&t);
    }
    sb_puts(out, ".db");
}

/* One point's file: its name under --split and the KEY=VALUE text it stands for. */
typedef struct point_file {
    char *name, *point;
} point_file;

static int point_file_cmp(const void *a, const void *b) {
    return strcmp(((const point_file *)a)->name, ((const point_file *)b)->name);
}

/* --split: every point of the grid gets a file of its own. Values that agree
 * once '/', ' ' and '\\' become '_' (lib/a.lua and lib_a.lua), or a value given
 * twice, would write one database over the other: refused, naming both points.
 * A name longer than a file name may be is refused too. Sorted: n log n. */
#define SPLIT_MAX_FILES 1000000
static int check_point_names(const param *params, size_t nparams, strbuf *err) {
    size_t npoints = 1;
    for (size_t p = 0; p < nparams; p++) {
        if (params[p].n > SPLIT_MAX_FILES / npoints) {
            sb_clear(err);
            sb_printf(err, "--split: more than %d points, one database each in one directory: sweep into one "
                           "database (no --split), or in shards (--shard I/N)", SPLIT_MAX_FILES);
            return -1;
        }
        npoints *= params[p].n;
    }
    point_file *f = xcalloc(npoints ? npoints : 1, sizeof *f);
    size_t *pt = xcalloc(nparams ? nparams : 1, sizeof *pt);
    strbuf b = {0};
    int rc = 0;
    for (size_t i = 0; i < npoints; i++) {
        sb_clear(&b);
        point_name(params, nparams, pt, &b);
        f[i].name = xstrdup(sb_str(&b));
        sb_clear(&b);
        for (size_t p = 0; p < nparams; p++) sb_printf(&b, "%s%s=%s", p ? "," : "", params[p].key, params[p].values[pt[p]]);
        f[i].point = xstrdup(sb_str(&b));
        if (!rc && strlen(f[i].name) > 255) {   /* NAME_MAX of Linux file systems */
            sb_clear(err);
            sb_printf(err, "--split: the point '%s' would need a file name of %zu bytes (at most 255): use shorter "
                           "values or a single database (no --split)", f[i].point, strlen(f[i].name));
            sb_cut_echoes(err, SB_ECHO_MAX);
            rc = -1;
        }
        for (size_t k = nparams; k > 0 && ++pt[k - 1] == params[k - 1].n; k--) pt[k - 1] = 0;
    }
    qsort(f, npoints, sizeof *f, point_file_cmp);
    for (size_t i = 1; i < npoints && !rc; i++)
        if (!strcmp(f[i - 1].name, f[i].name)) {
            sb_clear(err);
            if (!strcmp(f[i - 1].point, f[i].point))
                sb_printf(err, "--split: the point '%s' is given twice (a --param value repeated)", f[i].point);
            else
                sb_printf(err, "--split: the points '%s' and '%s' would both be written to %s (in a file name '/', "
                               "' ' and '\\' become '_'): give values that differ otherwise",
                          f[i - 1].point, f[i].point, f[i].name);
            sb_cut_echoes(err, SB_ECHO_MAX);
            rc = -1;
        }
    for (size_t i = 0; i < npoints; i++) free(f[i].name), free(f[i].point);
    free(f);
    free(pt);
    sb_free(&b);
    return rc;
}

/* Before any run: OUT (a database, or with --split a directory) and every
 * point's database may be written (store/output_path.h). */
static int check_outputs(const char *scenario, const char *out, bool split, bool force, const param *params,
                         size_t nparams, strbuf *err) {
    const char *inputs[] = {scenario};
    output_target t = {.path = out, .kind = split ? OUTPUT_DIRECTORY : OUTPUT_DATABASE, .force = force || split,
                       .inputs = inputs, .ninputs = 1};
    if (output_check(&t, err)) return -1;
    if (split && check_point_names(params, nparams, err)) return -1;
    struct stat st;
    if (!split || stat(out, &st)) return 0;   /* a new directory holds no old file */
    size_t *pt = xcalloc(nparams, sizeof *pt);
    strbuf path = {0};
    int rc = 0;
    while (!rc) {
        sb_clear(&path);
        sb_printf(&path, "%s/", out);
        point_name(params, nparams, pt, &path);
        output_target p = {.path = sb_str(&path), .kind = OUTPUT_DATABASE, .force = force, .inputs = inputs,
                           .ninputs = 1};
        rc = output_check(&p, err);
        size_t k = nparams;
        while (k > 0 && ++pt[k - 1] == params[k - 1].n) pt[--k] = 0;
        if (k == 0) break;
    }
    sb_free(&path);
    free(pt);
    return rc;
}

/* Parse --shard "I/N" or "auto/N" (I from the environment): 0, or -1 with err. */
static int parse_shard(const char *text, uint64_t total, uint64_t *idx, uint64_t *n, strbuf *err) {
    const char *slash = strchr(text, '/');
    char *end;
    if (!slash || slash == text || !slash[1]) {
        sb_printf(err, "--shard %s: expected I/N or auto/N", text);
        return -1;
    }
    errno = 0;
    unsigned long long nn = strtoull(slash + 1, &end, 10);
    if (*end || errno || slash[1] < '0' || slash[1] > '9' || nn < 1) {
        sb_printf(err, "--shard %s: N must be a whole number >= 1", text);
        return -1;
    }
    const char *itext = text, *from = NULL;
    size_t ilen = (size_t)(slash - text);
    if (ilen == 4 && !strncmp(text, "auto", 4)) {
        const char *vars[] = {"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"};
        for (size_t v = 0; v < 2 && !from; v++)
            if ((itext = getenv(vars[v])) && *itext) from = vars[v];
        if (!from) {
            sb_printf(err, "--shard %s: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID "
                           "(Slurm array) is set",
                      text);
            return -1;
        }
        ilen = strlen(itext);
    }
    char buf[32];
    if (ilen == 0 || ilen >= sizeof buf) ilen = sizeof buf - 1;
    memcpy(buf, itext, ilen);
    buf[ilen] = 0;
    errno = 0;
    unsigned long long ii = strtoull(buf, &end, 10);
    if (*end || errno || buf[0] < '0' || buf[0] > '9') {
        sb_printf(err, "--shard %s: index '%s'%s%s is not a whole number", text, buf, from ? " from " : "", from ? from : "");
        return -1;
    }
    if (ii >= nn) {
        sb_printf(err, "--shard %s: index %llu%s%s out of range 0..%llu", text, ii, from ? " from " : "", from ? from : "",
                  nn - 1);
        return -1;
    }
    if (nn > total) {
        sb_printf(err, "--shard %s: the sweep has only %llu run%s, fewer than %llu shards", text,
                  (unsigned long long)total, total == 1 ? "" : "s", nn);
        return -1;
    }
    *idx = ii;
    *n = nn;
    return 0;
}

/* --emit-job: a short run (stop.time=1s, the first seed) of EVERY point notes
 * every file a point reads when it loads (scenario, inventory, trace, each
 * point's Lua script) and every directory a Lua generator may read from at
 * any later time (util/input_files.h); then the manifests
 * (report/sweep_job.h), which ship all of them. */
static int emit_job(sweep_job *j, const param *params, size_t nparams, const char **sets, size_t nbase,
                    const uint64_t *seeds, size_t nseeds, strbuf *err) {
    struct stat st;
    bool made = stat(j->dir, &st) != 0;   /* DIR is new: removed again if nothing gets written */
    if (!made ? !S_ISDIR(st.st_mode) : mkdir(j->dir, 0755) != 0) {
        sb_printf(err, "--emit-job %s: %s", j->dir, errno ? strerror(errno) : "exists and is not a directory");
        return EXIT_ERROR;
    }
    char tmpl[] = "/tmp/drasim-emit-XXXXXX";
    if (!mkdtemp(tmpl)) {
        sb_printf(err, "cannot create a temporary directory: %s", strerror(errno));
        if (made) rmdir(j->dir);
        return EXIT_ERROR;
    }
    strbuf probe = {0};
    sb_printf(&probe, "%s/probe.db", tmpl);
    char **point = xcalloc(nparams ? nparams : 1, sizeof *point);
    size_t *at = xcalloc(nparams ? nparams : 1, sizeof *at);   /* the point: one value index per parameter */
    sets[nbase + nparams] = "stop.time=1s";
    input_files_reset();
    int rc = EXIT_OK;
    for (bool more = true; more && rc == EXIT_OK;) {
        for (size_t p = 0; p < nparams; p++) {
            strbuf t = {0};
            sb_printf(&t, "%s=%s", params[p].key, params[p].values[at[p]]);
            free(point[p]);
            point[p] = xstrdup(sb_str(&t));
            sets[nbase + p] = point[p];
            sb_free(&t);
        }
        store ps;
        if (store_open(&ps, sb_str(&probe), err)) {
            rc = EXIT_ERROR;
        } else {
            run_batch b = {.scenario_path = j->scenario, .sets = sets, .nsets = nbase + nparams + 1, .seeds = seeds,
                           .nseeds = nseeds ? 1 : 0};
            int brc = run_batch_execute(&b, &ps, err);
            store_abort(&ps);
            if (brc != RUN_OK) rc = brc == RUN_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_ERROR;
        }
        more = false;   /* the next point, odometer order */
        for (size_t p = nparams; p-- > 0 && !more;) {
            if (++at[p] < params[p].n) more = true;
            else at[p] = 0;
        }
    }
    rmdir(tmpl);
    sb_free(&probe);
    size_t n = input_files_count(), nt = input_files_tree_count();
    const char **inputs = xcalloc(n + 1, sizeof *inputs), **trees = xcalloc(nt + 1, sizeof *trees);
    for (size_t i = 0; i < n; i++) inputs[i] = input_files_path(i);
    for (size_t i = 0; i < nt; i++) trees[i] = input_files_tree(i);
    j->inputs = inputs;
    j->ninputs = n;
    j->trees = trees;
    j->ntrees = nt;
    if (rc == EXIT_OK && sweep_emit_job(j, err)) rc = EXIT_ERROR;
    if (rc != EXIT_OK && made) rmdir(j->dir);   /* only if still empty */
    free(inputs);
    free(trees);
    for (size_t p = 0; p < nparams; p++) free(point[p]);
    free(point);
    free(at);
    return rc;
}

int cmd_sweep(int argc, char **argv) {
    const char *scenario = NULL, *out = NULL, *shard = NULL, *emit = NULL, *image = "drasim:latest";
    const char **rep = xcalloc((size_t)argc + 1, sizeof *rep);   /* --param/--set/--seeds as given, for --emit-job */
    size_t nrep = 0;
    uint64_t parallelism = 0;
    bool split = false, quiet = false, force = false;
    param *params = xcalloc((size_t)argc, sizeof *params);
    size_t nparams = 0, nbase = 0;
    const char **sets = xcalloc((size_t)argc * 2 + 1, sizeof *sets);
    uint64_t *seeds = NULL;
    size_t nseeds = 0;
    int rc = EXIT_OK;
    strbuf err = {0};
    size_t *pt = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto done;
        } else if (!strcmp(a, "--emit-job") && i + 1 < argc) {
            emit = argv[++i];
        } else if (!strcmp(a, "--image") && i + 1 < argc) {
            image = argv[++i];
            if (!*image || strspn(image, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:/@-") != strlen(image)) {
                fprintf(stderr, "drasim sweep: --image %s: expected an image reference (letters, digits, . _ : / @ -)\n", image);
                rc = EXIT_ERROR;
                goto done;
            }
        } else if (!strcmp(a, "--parallelism") && i + 1 < argc) {
            char *end;
            errno = 0;
            parallelism = strtoull(argv[++i], &end, 10);
            if (*end || errno || argv[i][0] < '1' || argv[i][0] > '9' || parallelism > 100000) {
                fprintf(stderr, "drasim sweep: --parallelism %s: expected a whole number 1..100000\n", argv[i]);
                rc = EXIT_ERROR;
                goto done;
            }
        } else if (!strcmp(a, "--param") && i + 1 < argc) {
            rep[nrep++] = a, rep[nrep++] = argv[i + 1];
            if (parse_param(argv[++i], &params[nparams++])) {
                fprintf(stderr, "drasim sweep: --param %s: expected KEY=V1,V2,...\n", argv[i]);
                rc = EXIT_ERROR;
                goto done;
            }
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            rep[nrep++] = a, rep[nrep++] = argv[i + 1];
            sets[nbase++] = argv[++i];
        } else if (!strcmp(a, "--seeds") && i + 1 < argc) {
            rep[nrep++] = a, rep[nrep++] = argv[i + 1];
            if (parse_seed_list(argv[++i], &seeds, &nseeds, &err)) {
                fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
                rc = EXIT_ERROR;
                goto done;
            }
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--shard") && i + 1 < argc) {
            shard = argv[++i];
        } else if (!strcmp(a, "--split")) {
            split = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-' || scenario) {
            fprintf(stderr, "drasim sweep: unexpected argument '%s'\n", a);
            usage(stderr);
            rc = EXIT_ERROR;
            goto done;
        } else {
            scenario = a;
        }
    }
    if (emit && scenario && nparams && !out && !split) {
        uint64_t per = nseeds ? nseeds : 1, total = per, n = 0;
        for (size_t p = 0; p < nparams; p++) total *= params[p].n;
        n = total;
        if (shard) {
            char *end;
            errno = 0;
            n = strncmp(shard, "auto/", 5) ? 0 : strtoull(shard + 5, &end, 10);
            if (!n || *end || errno || n > total) {
                fprintf(stderr, "drasim sweep: --emit-job takes --shard auto/N with N in 1..%llu (the sweep's runs), not "
                                "'%s'\n", (unsigned long long)total, shard);
                rc = EXIT_ERROR;
                goto done;
            }
        }
        if (!parallelism) parallelism = n < 10 ? n : 10;
        if (parallelism > n) parallelism = n;
        sweep_job j = {.scenario = scenario, .args = rep, .nargs = nrep, .shards = n, .parallelism = parallelism,
                       .image = image, .dir = emit, .force = force};
        rc = emit_job(&j, params, nparams, sets, nbase, seeds, nseeds, &err);
        if (rc) fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
        else if (!quiet)
            printf("wrote %s/job.yaml (%llu shards, %llu at a time), configmap.yaml, results-pvc.yaml, merge-job.yaml, "
                   "collect.sh, slurm.sh\n", emit, (unsigned long long)n, (unsigned long long)parallelism);
        goto done;
    }
    if (emit) {
        fprintf(stderr, "drasim sweep: --emit-job DIR writes manifests and runs nothing: give SCENARIO and --param, "
                        "and no -o or --split\n");
        rc = EXIT_ERROR;
        goto done;
    }
    if (!scenario || !out || !nparams) {
        if (scenario) fprintf(stderr, "drasim sweep: %s\n", !out ? "-o OUT is required" : "give at least one --param");
        usage(stderr);
        rc = EXIT_ERROR;
        goto done;
    }
    /* the runs, in order: point by point (odometer), seed by seed; a shard runs [lo, hi) */
    uint64_t per = nseeds ? nseeds : 1, total = per, lo = 0, hi, sidx = 0, nshards = 1;
    for (size_t p = 0; p < nparams; p++) total *= params[p].n;
    hi = total;
    if (shard) {
        if (split) {
            fprintf(stderr, "drasim sweep: --shard and --split do not go together\n");
            rc = EXIT_ERROR;
            goto done;
        }
        if (parse_shard(shard, total, &sidx, &nshards, &err)) {
            fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
            goto done;
        }
        lo = sidx * total / nshards;   /* parts differ by at most one run */
        hi = (sidx + 1) * total / nshards;
    }
    if (check_outputs(scenario, out, split, force, params, nparams, &err)) {
        fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    if (split && mkdir(out, 0755) && errno != EEXIST) {
        fprintf(stderr, "drasim sweep: cannot create %s: %s\n", out, strerror(errno));
        rc = EXIT_ERROR;
        goto done;
    }
    volatile sig_atomic_t *interrupt = cli_catch_interrupts();

    pt = xcalloc(nparams, sizeof *pt);
    store st = {0};
    bool open = false;
    size_t npoints = 0;
    uint64_t point_index = 0;
    strbuf set_text = {0}, path = {0};
    char **point_sets = xcalloc(nparams, sizeof *point_sets);
    while (rc == EXIT_OK) {
        /* open a database: once, or per point with --split */
        if (!open) {
            sb_clear(&path);
            if (split) {
                sb_printf(&path, "%s/", out);
                point_name(params, nparams, pt, &path);
            } else {
                sb_puts(&path, out);
            }
            if (store_open(&st, sb_str(&path), &err) ||
                sqlite3_exec(st.db, "CREATE TABLE sweep(run_id INTEGER NOT NULL, param TEXT NOT NULL, value TEXT NOT NULL,"
                                    " PRIMARY KEY(run_id, param));", NULL, NULL, NULL) != SQLITE_OK) {
                if (!err.len) sb_printf(&err, "%s: cannot create the sweep table", sb_str(&path));
                store_abort(&st);
                fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
                rc = EXIT_ERROR;
                break;
            }
            open = true;
        }
        /* this point's runs: [point_index * per, + per), cut to [lo, hi) */
        uint64_t p0 = point_index * per, first = p0 < lo ? lo - p0 : 0, last_run = p0 + per > hi ? hi > p0 ? hi - p0 : 0 : per;
        point_index++;
        if (first < last_run) {
            for (size_t p = 0; p < nparams; p++) {
                sb_clear(&set_text);
                sb_printf(&set_text, "%s=%s", params[p].key, params[p].values[pt[p]]);
                free(point_sets[p]);
                point_sets[p] = xstrdup(sb_str(&set_text));
                sets[nbase + p] = point_sets[p];
            }
            sweep_ctx ctx = {st.db, params, nparams, pt, 0};
            run_batch b = {.scenario_path = scenario, .sets = sets, .nsets = nbase + nparams, .seeds = nseeds ? seeds + first : NULL,
                           .nseeds = nseeds ? last_run - first : 0, .progress = !quiet && isatty(2), .interrupt = interrupt,
                           .on_run = record_point, .ud = &ctx};
            int brc = run_batch_execute(&b, &st, &err);
            if (brc == RUN_OK && ctx.rc) {
                sb_clear(&err);
                sb_printf(&err, "%s: cannot write the sweep table", sb_str(&path));
                brc = RUN_ERROR;
            }
            if (brc == RUN_OK && *interrupt) brc = RUN_INTERRUPTED;
            if (brc != RUN_OK) {
                store_abort(&st);
                open = false;
                fprintf(stderr, "drasim sweep: %s\n", brc == RUN_INTERRUPTED ? "interrupted" : sb_str(&err));
                rc = brc == RUN_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_ERROR;
                break;
            }
            npoints++;
            if (!quiet) {
                printf("point %zu:", npoints);
                for (size_t p = 0; p < nparams; p++) printf(" %s", point_sets[p]);
                printf(" (%llu run%s)\n", (unsigned long long)(last_run - first), last_run - first > 1 ? "s" : "");
            }
        }
        /* next point (odometer, last parameter fastest) */
        size_t p = nparams;
        while (p > 0 && ++pt[p - 1] == params[p - 1].n) pt[--p] = 0;
        bool last = p == 0;
        if (split || last) {
            if (store_commit(&st, &err)) {
                store_abort(&st);
                fprintf(stderr, "drasim sweep: %s\n", sb_str(&err));
                rc = EXIT_ERROR;
            }
            open = false;
        }
        if (last) break;
    }
    if (rc == EXIT_OK && !quiet && shard)
        printf("wrote shard %llu/%llu (runs %llu..%llu of %llu, %zu point%s) to %s\n", (unsigned long long)sidx,
               (unsigned long long)nshards, (unsigned long long)lo + 1, (unsigned long long)hi, (unsigned long long)total,
               npoints, npoints == 1 ? "" : "s", out);
    else if (rc == EXIT_OK && !quiet)
        printf("wrote %zu point%s to %s\n", npoints, npoints == 1 ? "" : "s", out);
    for (size_t p = 0; p < nparams; p++) free(point_sets[p]);
    free(point_sets);
    sb_free(&set_text);
    sb_free(&path);
done:
    for (size_t p = 0; p < nparams; p++) {
        free(params[p].key);
        for (size_t v = 0; v < params[p].n; v++) free(params[p].values[v]);
        free(params[p].values);
    }
    free(params);
    free(sets);
    free(rep);
    free(seeds);
    free(pt);
    sb_free(&err);
    intern_reset();
    return rc;
}
