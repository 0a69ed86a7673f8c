/* fuzz_job_trace.c -- the job-trace reader (model/job_trace.h, workload.jobs)
 * must never crash, hang or leak on any file, with any preset: the first
 * byte picks the preset (helios, acme-seren, acme-kalos, slurm, alibaba-spot-v2026; percent GPUs
 * and per-pod memory on odd selectors), the rest is the trace file. Every
 * job it returns must have a known submit time, a run time >= 0 and >= 1 pod. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/job_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const char *const presets[] = {"helios", "acme-seren", "acme-kalos", "slurm", "alibaba-spot-v2026"};
    job_trace_cfg cfg;
    job_trace_preset(presets[data[0] % 5], &cfg);
    if (data[0] & 4) cfg.gpu_scale = 0.01;
    if (data[0] & 8) cfg.mem_per_pod = true;
    if (data[0] & 16) cfg.skip_no_gpu = false;
    char path[] = "/tmp/drasim-fuzz-jobs-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t off = 1;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    close(fd);
    cfg.path = path;
    job_reader *r = NULL;
    strbuf err = {0};
    if (job_reader_open(&cfg, &r, &err) == 0) {
        job_row row;
        while (job_reader_next(r, &row, &err) == 1)
            if (row.submit_ms < 0 || row.duration_ms < 0 || row.nodes < 1 || strlen(row.id) > (1u << 20)) abort();
        job_reader_close(r);
    }
    sb_free(&err);
    unlink(path);
    return 0;
}
