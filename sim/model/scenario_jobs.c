/*
 * scenario_jobs.c -- `workload.jobs:` (see scenario_jobs.h, docs/TRACES.md):
 *
 *   workload:
 *     jobs:
 *     - file: cluster_log.csv          # relative to the scenario file
 *       format: helios                 # helios, acme-seren, acme-kalos, slurm, alibaba-spot-v2026, philly,
 *                                      # pai-v2020 (with jobTable: pai_job_table.csv), or columns
 *       mode: submit                   # or as-recorded
 *       columns: {gpus: gpu_num, tenant: vc, labels: {user: user}}   # overrides or, with format columns, all
 *       separator: ","                 # columns only: "," or "|"
 *       gpuUnit: gpus                  # or percent (100 = one GPU)
 *       memoryUnit: GiB                # GB, GiB, MB, MiB: a plain memory number's unit
 *       memoryPer: job                 # or pod
 *       skip: {states: [CANCELLED], gpuless: true}
 *       gpuTypeLabel: nvidia.com/gpu.product   # the GPU type column must match this node label
 */
#include "model/scenario_jobs.h"

#include <string.h>

#include "util/intern.h"

static const char *const COL_KEYS[JC_N] = {"id", "submit", "start", "end", "duration", "gpus", "cpus",
                                           "memory", "gpuType", "nodes", "tenant", "state", "fail"};

static int parse_columns(const ynode *m, job_trace_cfg *c, strbuf *err) {
    if (y_expect(m, YN_MAP, "workload.jobs.columns", err)) return -1;
    for (size_t i = 0; i < m->n; i++) {
        const ynode *k = m->keys[i], *v = m->vals[i];
        if (y_scalar_eq(k, "labels")) {
            if (y_expect(v, YN_MAP, "workload.jobs.columns.labels", err)) return -1;
            c->nlabels = 0;
            if (v->n > JOB_MAX_LABELS) {
                yerr(err, v, "workload.jobs.columns.labels: at most %d labels", JOB_MAX_LABELS);
                return -1;
            }
            for (size_t l = 0; l < v->n; l++) {
                if (y_str(v->keys[l], "label key", &c->label_keys[l], err) ||
                    y_str(v->vals[l], "label column", &c->label_cols[l], err))
                    return -1;
            }
            c->nlabels = v->n;
            continue;
        }
        int f = -1;
        for (int j = 0; j < JC_N; j++)
            if (y_scalar_eq(k, COL_KEYS[j])) f = j;
        if (f < 0) {
            yerr(err, k, "workload.jobs.columns: unknown field '%s' (expected id, submit, start, end, duration, gpus, "
                 "cpus, memory, gpuType, nodes, tenant, state, fail, labels)", k->kind == YN_SCALAR ? k->str : "?");
            return -1;
        }
        if (y_str(v, "workload.jobs.columns", &c->cols[f], err)) return -1;
        c->required[f] = true;   /* a column the user names must be there */
    }
    return 0;
}

static int parse_skip(const ynode *m, job_trace_cfg *c, strbuf *err) {
    static const char *const keys[] = {"states", "gpuless", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "workload.jobs.skip", err)) return -1;
    if ((v = ymap_get(m, "gpuless")) && y_bool(v, "workload.jobs.skip.gpuless", &c->skip_no_gpu, err)) return -1;
    if ((v = ymap_get(m, "states"))) {
        if (y_expect(v, YN_SEQ, "workload.jobs.skip.states", err)) return -1;
        if (v->n > JOB_MAX_SKIP_STATES) {
            yerr(err, v, "workload.jobs.skip.states: at most %d states", JOB_MAX_SKIP_STATES);
            return -1;
        }
        for (size_t i = 0; i < v->n; i++)
            if (y_str(v->vals[i], "a state", &c->skip_states[i], err)) return -1;
        c->nskip_states = v->n;
    }
    return 0;
}

/* Read the whole file once: every row checked, the jobs counted, the origin found. */
static int scan(jobs_spec *j, strbuf *err) {
    job_reader *r;
    if (job_reader_open(&j->cfg, &r, err)) return -1;
    job_row row;
    int k;
    int64_t origin = INT64_MAX;
    while ((k = job_reader_next(r, &row, err)) > 0) {
        j->jobs++;
        if (row.submit_ms < origin) origin = row.submit_ms;
    }
    j->rows = job_reader_rows(r);
    memcpy(j->skipped, job_reader_skipped(r), sizeof j->skipped);
    job_reader_close(r);
    j->origin_ms = origin == INT64_MAX ? 0 : origin;
    return k < 0 ? -1 : 0;
}

static int parse_one(const ynode *m, jobs_spec *j, strbuf *err) {
    static const char *const keys[] = {"file", "format", "mode", "columns", "separator", "gpuUnit", "memoryUnit",
                                       "memoryPer", "skip", "gpuTypeLabel", "name", "jobTable", "localQueue", NULL};
    const ynode *v;
    const char *s;
    if (y_expect(m, YN_MAP, "workload.jobs[]", err) || ymap_check_keys(m, keys, "workload.jobs[]", err)) return -1;
    j->where = m;
    if (ymap_need(m, "format", "workload.jobs[]", &v, err) || y_str(v, "workload.jobs.format", &s, err)) return -1;
    if (!strcmp(s, "columns")) {
        memset(&j->cfg, 0, sizeof j->cfg);
        j->cfg.format = "columns";
        j->cfg.sep = ',';
        j->cfg.gpu_scale = 1;
        j->cfg.cpu_scale = 1;
        j->cfg.mem_unit = 1073741824.0;
        j->cfg.skip_no_gpu = true;
        if (!ymap_get(m, "columns")) {
            yerr(err, m, "workload.jobs[]: format columns needs a columns map");
            return -1;
        }
    } else if (job_trace_preset(s, &j->cfg)) {
        yerr(err, v, "workload.jobs.format: expected one of %s, columns; found '%s'", job_trace_preset_names(), s);
        return -1;
    }
    j->name = j->cfg.format;
    if ((v = ymap_get(m, "name")) && y_str(v, "workload.jobs.name", &j->name, err)) return -1;
    if (ymap_need(m, "file", "workload.jobs[]", &v, err) ||
        scenario_parse_path(v, "workload.jobs.file", &j->cfg.path, err))
        return -1;
    if ((v = ymap_get(m, "jobTable"))) {   /* PAI: the job table the tasks join */
        if (!j->cfg.join_key) {
            yerr(err, v, "workload.jobs.jobTable: only format pai-v2020 joins a job table");
            return -1;
        }
        if (scenario_parse_path(v, "workload.jobs.jobTable", &j->cfg.join_path, err)) return -1;
    } else if (j->cfg.join_key) {
        yerr(err, m, "workload.jobs[]: format %s needs jobTable (the job table, e.g. pai_job_table.csv)", j->cfg.format);
        return -1;
    }
    if ((v = ymap_get(m, "mode"))) {
        if (y_scalar_eq(v, "submit")) j->mode = JOBS_SUBMIT;
        else if (y_scalar_eq(v, "as-recorded")) j->mode = JOBS_AS_RECORDED;
        else {
            yerr(err, v, "workload.jobs.mode: expected submit or as-recorded");
            return -1;
        }
    }
    if ((v = ymap_get(m, "columns")) && parse_columns(v, &j->cfg, err)) return -1;
    if ((v = ymap_get(m, "separator"))) {
        if (y_scalar_eq(v, ",")) j->cfg.sep = ',';
        else if (y_scalar_eq(v, "|")) j->cfg.sep = '|';
        else if (y_scalar_eq(v, ";")) j->cfg.sep = ';';
        else {
            yerr(err, v, "workload.jobs.separator: expected \",\", \"|\" or \";\"");
            return -1;
        }
    }
    if ((v = ymap_get(m, "gpuUnit"))) {
        if (y_scalar_eq(v, "gpus")) j->cfg.gpu_scale = 1;
        else if (y_scalar_eq(v, "percent")) j->cfg.gpu_scale = 0.01;
        else {
            yerr(err, v, "workload.jobs.gpuUnit: expected gpus or percent");
            return -1;
        }
    }
    if ((v = ymap_get(m, "memoryUnit"))) {
        static const char *const units[] = {"GB", "GiB", "MB", "MiB", NULL};
        static const double bytes[] = {1e9, 1073741824.0, 1e6, 1048576.0};
        int u = -1;
        for (int i = 0; units[i]; i++)
            if (y_scalar_eq(v, units[i])) u = i;
        if (u < 0) {
            yerr(err, v, "workload.jobs.memoryUnit: expected GB, GiB, MB or MiB");
            return -1;
        }
        j->cfg.mem_unit = bytes[u];
    }
    if ((v = ymap_get(m, "memoryPer"))) {
        if (y_scalar_eq(v, "job")) j->cfg.mem_per_pod = false;
        else if (y_scalar_eq(v, "pod")) j->cfg.mem_per_pod = true;
        else {
            yerr(err, v, "workload.jobs.memoryPer: expected job or pod");
            return -1;
        }
    }
    if ((v = ymap_get(m, "skip")) && parse_skip(v, &j->cfg, err)) return -1;
    if ((v = ymap_get(m, "gpuTypeLabel")) && y_str(v, "workload.jobs.gpuTypeLabel", &j->gpu_type_label, err)) return -1;
    if ((v = ymap_get(m, "localQueue"))) {   /* Kueue: the pods' LocalQueue, in the tenant's namespace */
        if (y_str(v, "workload.jobs.localQueue", &s, err)) return -1;
        if (!*s) {
            yerr(err, v, "workload.jobs.localQueue: expected tenant or a LocalQueue name");
            return -1;
        }
        if (!strcmp(s, "tenant")) j->queue_per_tenant = true;
        else j->local_queue = s;
    }
    if ((!j->cfg.cols[JC_SUBMIT] && !j->cfg.join_path) || !j->cfg.cols[JC_GPUS]) {
        yerr(err, m, "workload.jobs[]: the columns need at least submit and gpus");
        return -1;
    }
    if (!j->cfg.cols[JC_DURATION] && !(j->cfg.cols[JC_START] && j->cfg.cols[JC_END])) {
        yerr(err, m, "workload.jobs[]: the columns need duration, or start and end");
        return -1;
    }
    if (j->mode == JOBS_AS_RECORDED && !j->cfg.cols[JC_START] && !j->cfg.cols[JC_END]) {
        yerr(err, ymap_get(m, "mode"), "workload.jobs.mode as-recorded: needs a start (or end) column");
        return -1;
    }
    return scan(j, err);
}

int scenario_parse_jobs(const ynode *seq, scenario *s, strbuf *err) {
    if (y_expect(seq, YN_SEQ, "workload.jobs", err)) return -1;
    if (seq->n == 0 || seq->n > JOBS_MAX_FILES) {
        yerr(err, seq, "workload.jobs: expected 1 to %d job traces", JOBS_MAX_FILES);
        return -1;
    }
    s->jobs = ARENA_NEW(&s->a, jobs_spec, seq->n);
    s->njobs = seq->n;
    for (size_t i = 0; i < seq->n; i++)
        if (parse_one(seq->vals[i], &s->jobs[i], err)) return -1;
    return 0;
}
