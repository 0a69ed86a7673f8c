/* plan_probe.c -- run `drasim plan`'s probes in child processes (see plan.h).
 *
 * One child per point (at most ctx->jobs at once): it simulates every seed
 * of the batch into DIR/probe-N.db (the runner of run/check/sweep) and writes
 * its answer to a pipe:
 *   "P\t<ca_cost>\t<ca_node_hours>\t<runs>\t<objective>\n" (means over the seeds,
 *   nan when the scenario has no node group; the objective: --minimize's metric), per run "V\t<value of threshold 1>\t...\n"
 *   (expect_threshold_values, as `drasim check` reads them), per baseline check
 *   "B<pass>\t<name>\n"; "N\n" when the point has no node at all (a failing
 *   point); "E<exit code>\n<message>" when the run failed (a group the expect
 *   file names that no run has: exit 3, as `drasim check`).
 * The parent evaluates the thresholds on the values of every batch (plan_evaluate).
 * The parent owns the interning table's copy; a child never returns (_exit). */
#include "report/plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/rdb.h"
#include "report/runner.h"
#include "store/store.h"
#include "util/xalloc.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_all(int fd, const char *s, size_t n) {
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

void plan_sets_copy(const plan_ctx *c, size_t room, const char ***sets, const char ***origins) {
    *sets = xcalloc(c->nsets + room + 1, sizeof **sets);
    *origins = xcalloc(c->nsets + room + 1, sizeof **origins);
    for (size_t i = 0; i < c->nsets; i++) {
        (*sets)[i] = c->sets[i];
        (*origins)[i] = c->set_origins ? c->set_origins[i] : NULL;
    }
}

/* The child: run, evaluate, answer, _exit. */
static void child(plan_ctx *c, const int64_t *x, const char *db, int fd) {
    strbuf err = {0}, out = {0};
    size_t n = c->nsets;
    const char **sets, **origins;
    plan_sets_copy(c, 2 * c->k, &sets, &origins);
    for (size_t d = 0; d < c->k; d++) {
        const plan_dim *pd = &c->dims[d];
        strbuf s = {0};
        /* a group starts with min..max nodes (autoscaler_spec.c): a start size above the probed max is lowered */
        if (pd->autoscaled && pd->start_count > x[d])
            sb_printf(&s, "cluster.nodePools.%s.count=%lld", pd->pool, (long long)x[d]);
        if (s.len) sets[n++] = xstrdup(sb_str(&s));
        sb_clear(&s);
        sb_printf(&s, "cluster.nodePools.%s.%s=%lld", pd->pool, plan_dim_field(pd), (long long)x[d]);
        sets[n++] = xstrdup(sb_str(&s));
        sb_free(&s);
    }
    store st = {0};
    bool no_nodes = false;
    run_batch b = {.scenario_path = c->scenario, .sets = sets, .set_origins = origins, .nsets = n,
                   .seeds = c->batch_seeds ? c->batch_seeds : c->seeds,
                   .nseeds = c->batch_seeds ? c->nbatch : c->nseeds, .interrupt = c->interrupt, .no_nodes = &no_nodes};
    bool opened = !store_open(&st, db, &err);
    int brc = opened ? run_batch_execute(&b, &st, &err) : RUN_ERROR;
    if (brc == RUN_OK && c->interrupt && *c->interrupt) brc = RUN_INTERRUPTED;
    if (brc == RUN_OK && no_nodes) {   /* the all-zero fleet: a failing point, no database */
        store_abort(&st);
        write_all(fd, "N\n", 2);
        close(fd);
        _exit(0);
    }
    if (brc == RUN_OK && store_commit(&st, &err)) brc = RUN_ERROR;
    else if (brc != RUN_OK && opened) store_abort(&st);
    rdb res, base;
    if (brc == RUN_OK && rdb_open(db, &res, &err)) brc = RUN_ERROR;
    /* a group no run has is a typo in the expect file: the error `drasim check` gives (exit 3) */
    if (brc == RUN_OK && expect_check_groups(c->expect, &res, &err)) brc = RUN_BAD_INPUT;
    if (brc == RUN_OK && c->expect->baseline_file && rdb_open(c->expect->baseline_file, &base, &err)) {
        strbuf m = {0};
        sb_printf(&m, "baseline: %s", sb_str(&err));
        sb_clear(&err);
        sb_puts(&err, sb_str(&m));
        sb_free(&m);
        brc = RUN_BAD_INPUT;
    }
    if (brc != RUN_OK) {
        sb_printf(&out, "E%d\n%s", brc == RUN_BAD_INPUT ? 3 : 2,
                  brc == RUN_INTERRUPTED ? "interrupted" : sb_str(&err));
    } else {
        int ic = rdb_metric_index(&res, "ca_cost"), ih = rdb_metric_index(&res, "ca_node_hours");
        double cost = ic < 0 ? NAN : rdb_group_stats(&res, SIZE_MAX, ic).mean;
        double hours = ih < 0 ? NAN : rdb_group_stats(&res, SIZE_MAX, ih).mean;
        /* --minimize: the objective metric (cost_total, energy_kwh), mean over the seeds */
        int io = c->objective ? rdb_metric_index(&res, c->objective) : -1;
        double objective = io < 0 ? NAN : rdb_group_stats(&res, SIZE_MAX, io).mean;
        sb_printf(&out, "P\t%.17g\t%.17g\t%zu\t%.17g\n", cost, hours, res.nruns, objective);
        size_t nt = c->expect->nthresholds;
        double **v = xcalloc(nt ? nt : 1, sizeof *v);
        for (size_t t = 0; t < nt; t++) expect_threshold_values(&c->expect->thresholds[t], &res, &v[t]);
        for (size_t r = 0; r < res.nruns; r++) {   /* one line per run: its value of every threshold */
            sb_putc(&out, 'V');
            for (size_t t = 0; t < nt; t++) sb_printf(&out, "\t%.17g", v[t][r]);
            sb_putc(&out, '\n');
        }
        for (size_t t = 0; t < nt; t++) free(v[t]);
        free(v);
        if (c->expect->nbaseline) {   /* baselines: evaluated here, on this batch's runs */
            check_report cr;
            expect_evaluate(c->expect, &res, &base, &cr);
            for (size_t i = nt; i < cr.n; i++) sb_printf(&out, "B%d\t%s\n", cr.items[i].pass, cr.items[i].name);
        }
    }
    write_all(fd, out.s ? out.s : "", out.len);
    close(fd);
    _exit(0);
}

/* Append a batch's answer to p (runs, values, baseline failures). 0, or -1 with err and *code. */
static int parse_answer(plan_ctx *c, const char *s, plan_probe *p, int *code, strbuf *err) {
    if (s[0] == 'E') {
        *code = s[1] == '3' ? 3 : 2;
        const char *nl = strchr(s, '\n');
        sb_clear(err);
        sb_puts(err, nl ? nl + 1 : "a probe failed");
        return -1;
    }
    if (s[0] == 'N') {
        p->no_nodes = true;
        p->objective = NAN;
        return 0;
    }
    if (s[0] != 'P') {
        *code = 2;
        sb_clear(err);
        sb_puts(err, "a probe ended without an answer (killed?)");
        return -1;
    }
    char *end;
    double cost = strtod(s + 2, &end), hours = strtod(end + 1, &end);
    size_t runs = (size_t)strtoull(end + 1, &end, 10), nt = c->expect->nthresholds, before = p->nruns;
    double objective = strtod(end + 1, &end);
    if (!before || isnan(p->objective)) p->objective = objective;
    else if (!isnan(objective))
        p->objective = (p->objective * (double)before + objective * (double)runs) / (double)(before + runs);
    /* the measured cost: the mean over every run so far */
    if (!before || isnan(p->ca_cost)) p->ca_cost = cost, p->ca_node_hours = hours;
    else if (!isnan(cost)) {
        p->ca_cost = (p->ca_cost * (double)before + cost * (double)runs) / (double)(before + runs);
        p->ca_node_hours = (p->ca_node_hours * (double)before + hours * (double)runs) / (double)(before + runs);
    }
    p->runv = xrealloc(p->runv, ((before + runs) * nt + 1) * sizeof *p->runv);
    const char *line = strchr(s, '\n');
    size_t r = before;
    while (line && line[1]) {
        line++;
        if (line[0] == 'V' && r < before + runs) {
            const char *q = line + 1;
            for (size_t t = 0; t < nt; t++) {
                p->runv[r * nt + t] = strtod(q + 1, &end);
                q = end;
            }
            r++;
        } else if (line[0] == 'B' && line[1] == '0' && !p->baseline_failing) {
            const char *nl = strchr(line, '\n');
            p->baseline_failing = xstrndup(line + 3, nl ? (size_t)(nl - line - 3) : strlen(line + 3));
        }
        line = strchr(line, '\n');
    }
    for (; r < before + runs; r++)
        for (size_t t = 0; t < nt; t++) p->runv[r * nt + t] = NAN;
    p->nruns = before + runs;
    return 0;
}

typedef struct slot {
    pid_t pid;
    int fd;
    size_t index;
    double t0;
    strbuf buf;
} slot;

/* Read a child's pipe to the end, reap it. */
static void finish(slot *s) {
    char chunk[4096];
    ssize_t r;
    while ((r = read(s->fd, chunk, sizeof chunk)) != 0) {
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        sb_append(&s->buf, chunk, (size_t)r);
    }
    close(s->fd);
    int status;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
}

int plan_probe_run(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    size_t jobs = (size_t)(c->jobs > 0 ? c->jobs : 1), next = 0, done = 0;
    slot *run = xcalloc(jobs, sizeof *run);
    size_t nrun = 0;
    int rc = 0;
    static unsigned serial;
    while (done < n) {
        while (!rc && nrun < jobs && next < n) {   /* start children */
            plan_probe *p = &out[next];
            strbuf db = {0};
            sb_printf(&db, "%s/probe-%u.db", c->tmpdir, ++serial);
            p->dbs = xrealloc(p->dbs, (p->ndbs + 1) * sizeof *p->dbs);
            p->dbs[p->ndbs++] = xstrdup(sb_str(&db));
            sb_free(&db);
            int fds[2];
            fflush(NULL);
            if (pipe(fds)) {
                *code = 2;
                sb_clear(err);
                sb_printf(err, "cannot create a pipe: %s", strerror(errno));
                rc = -1;
                break;
            }
            pid_t pid = fork();
            if (pid < 0) {
                close(fds[0]);
                close(fds[1]);
                *code = 2;
                sb_clear(err);
                sb_printf(err, "cannot start a probe: %s", strerror(errno));
                rc = -1;
                break;
            }
            if (pid == 0) {
                close(fds[0]);
                child(c, points[next], p->dbs[p->ndbs - 1], fds[1]);
            }
            close(fds[1]);
            run[nrun++] = (slot){.pid = pid, .fd = fds[0], .index = next, .t0 = now_s()};
            next++;
        }
        if (!nrun) break;
        /* the oldest child first: answers are collected in the order of the points */
        slot s = run[0];
        memmove(run, run + 1, (nrun - 1) * sizeof *run);
        nrun--;
        finish(&s);
        plan_probe *p = &out[s.index];
        p->seconds = now_s() - s.t0;
        int prc = parse_answer(c, sb_str(&s.buf), p, code, err);
        if (!prc) plan_evaluate(c, p);
        sb_free(&s.buf);
        if (prc && !rc) rc = -1;
        done++;
        if (rc && next < n) n = next;   /* start no more; collect the running ones */
    }
    free(run);
    return rc;
}
