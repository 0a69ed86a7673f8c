/* fuzz_job_trace_philly.c -- Philly's cluster_job_log reader (model/
 * job_trace_philly.h, preset philly) must never crash, hang or leak on any
 * document. Every job it returns must have a known submit time, a run time
 * >= 0, >= 1 pod, and its runs in order inside [submit, end]. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/job_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/drasim-fuzz-philly-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    close(fd);
    job_trace_cfg cfg;
    job_trace_preset("philly", &cfg);
    cfg.path = path;
    job_reader *r = NULL;
    strbuf err = {0};
    if (job_reader_open(&cfg, &r, &err) == 0) {
        job_row row;
        while (job_reader_next(r, &row, &err) == 1) {
            if (row.submit_ms < 0 || row.duration_ms < 0 || row.nodes < 1 || row.nattempts < 1) abort();
            for (int k = 0; k < row.nattempts; k++)
                if (row.attempts[2 * k] < row.submit_ms || row.attempts[2 * k + 1] < row.attempts[2 * k] ||
                    (k && row.attempts[2 * k] < row.attempts[2 * k - 1]))
                    abort();
        }
        job_reader_close(r);
    }
    sb_free(&err);
    unlink(path);
    return 0;
}
