/* fuzz_job_trace_pai.c -- the PAI v2020 reader (model/job_trace.h, preset
 * pai-v2020): a task table without a header row joined with a job table
 * (read whole, keyed by job_name) must never crash, hang or leak. The input
 * is the task table, a NUL byte, then the job table (no NUL: an empty job
 * table). Every job it returns must have a known submit time, a run time
 * >= 0, >= 1 pod and a tenant. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/job_trace.h"

/* A temporary file holding data[0..n); 0 or -1. */
static int put_file(char *path, const uint8_t *data, size_t n) {
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, data + off, n - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    close(fd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *nul = memchr(data, 0, size);
    size_t ntask = nul ? (size_t)(nul - data) : size;
    char tasks[] = "/tmp/drasim-fuzz-pai-tasks-XXXXXX", jobs[] = "/tmp/drasim-fuzz-pai-jobs-XXXXXX";
    if (put_file(tasks, data, ntask)) return 0;
    if (put_file(jobs, nul ? nul + 1 : data, nul ? size - ntask - 1 : 0)) {
        unlink(tasks);
        return 0;
    }
    job_trace_cfg cfg;
    job_trace_preset("pai-v2020", &cfg);
    cfg.path = tasks;
    cfg.join_path = jobs;
    job_reader *r = NULL;
    strbuf err = {0};
    if (job_reader_open(&cfg, &r, &err) == 0) {
        job_row row;
        while (job_reader_next(r, &row, &err) == 1)
            if (row.submit_ms < 0 || row.duration_ms < 0 || row.nodes < 1 || !row.tenant) abort();
        job_reader_close(r);
    }
    sb_free(&err);
    unlink(tasks);
    unlink(jobs);
    return 0;
}
