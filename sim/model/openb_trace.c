/* openb_trace.c -- OpenB trace CSV readers and the artifact's workload inflation (see openb_trace.h). */
#include "model/openb_trace.h"

#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/rng.h"
#include "util/xalloc.h"

/* Column `name` of t, or an error naming the file and its header line. */
static int need_col(const csv_table *t, const char *name, int *col, strbuf *err) {
    *col = csv_col(t, name);
    if (*col < 0) {
        sb_clear(err);
        sb_printf(err, "%s:%d: missing column '%s'", t->name, t->lines[0], name);
        return -1;
    }
    return 0;
}

/* An integer cell within [lo, hi]; empty cells are errors unless `dflt_ok`. */
static int int_cell(const csv_table *t, size_t r, int c, int64_t lo, int64_t hi, bool dflt_ok, int64_t dflt,
                    int64_t *out, strbuf *err) {
    if (!*csv_cell(t, r, c) && !dflt_ok) {
        sb_clear(err);
        sb_printf(err, "%s:%d: column %s: expected an integer, found an empty cell", t->name, t->lines[r + 1],
                  t->cells[c]);
        return -1;
    }
    if (csv_int(t, r, c, dflt, out, err)) return -1;
    if (*csv_cell(t, r, c) && (*out < lo || *out > hi)) {
        sb_clear(err);
        sb_printf(err, "%s:%d: column %s: expected %lld to %lld, found %lld", t->name, t->lines[r + 1], t->cells[c],
                  (long long)lo, (long long)hi, (long long)*out);
        return -1;
    }
    return 0;
}

static const char *dup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

int openb_load_nodes(const char *path, arena *a, openb_node **out, size_t *n, strbuf *err) {
    csv_table t;
    if (csv_load(path, &t, err)) return -1;
    int c_name, c_cpu, c_mem, c_gpu, c_model, rc = -1;
    if (need_col(&t, "sn", &c_name, err) || need_col(&t, "cpu_milli", &c_cpu, err) ||
        need_col(&t, "memory_mib", &c_mem, err) || need_col(&t, "gpu", &c_gpu, err) ||
        need_col(&t, "model", &c_model, err))
        goto done;
    *out = ARENA_NEW(a, openb_node, t.nrows ? t.nrows : 1);
    *n = t.nrows;
    for (size_t r = 0; r < t.nrows; r++) {
        openb_node *nd = &(*out)[r];
        int64_t v;
        nd->name = dup(a, csv_cell(&t, r, c_name));
        if (!*nd->name) {
            sb_clear(err);
            sb_printf(err, "%s:%d: column sn: empty node name", t.name, t.lines[r + 1]);
            goto done;
        }
        if (int_cell(&t, r, c_cpu, 1, INT64_MAX / 4, false, 0, &nd->cpu_milli, err) ||
            int_cell(&t, r, c_mem, 0, INT64_MAX / 4, false, 0, &nd->memory_mib, err) ||
            int_cell(&t, r, c_gpu, 0, OPENB_MAX_GPUS, false, 0, &v, err))
            goto done;
        nd->gpus = (int)v;
        nd->model = dup(a, csv_cell(&t, r, c_model));
        if (nd->gpus > 0 && !*nd->model) {
            sb_clear(err);
            sb_printf(err, "%s:%d: column model: a node with GPUs needs a GPU model", t.name, t.lines[r + 1]);
            goto done;
        }
        for (size_t k = 0; k < r; k++)
            if (!strcmp((*out)[k].name, nd->name)) {
                sb_clear(err);
                sb_printf(err, "%s:%d: duplicate node name '%s'", t.name, t.lines[r + 1], nd->name);
                goto done;
            }
    }
    rc = 0;
done:
    csv_free(&t);
    return rc;
}

int openb_load_pods(const char *path, arena *a, openb_pod **out, size_t *n, strbuf *err) {
    csv_table t;
    if (csv_load(path, &t, err)) return -1;
    int c_name, c_cpu, c_mem, c_num, c_milli, rc = -1;
    if (need_col(&t, "name", &c_name, err) || need_col(&t, "cpu_milli", &c_cpu, err) ||
        need_col(&t, "memory_mib", &c_mem, err) || need_col(&t, "num_gpu", &c_num, err) ||
        need_col(&t, "gpu_milli", &c_milli, err))
        goto done;
    int c_spec = csv_col(&t, "gpu_spec"), c_ct = csv_col(&t, "creation_time"), c_dt = csv_col(&t, "deletion_time");
    *out = ARENA_NEW(a, openb_pod, t.nrows ? t.nrows : 1);
    *n = t.nrows;
    for (size_t r = 0; r < t.nrows; r++) {
        openb_pod *p = &(*out)[r];
        int64_t num, milli;
        int line = t.lines[r + 1];
        p->name = dup(a, csv_cell(&t, r, c_name));
        if (int_cell(&t, r, c_cpu, 0, INT64_MAX / 4, false, 0, &p->cpu_milli, err) ||
            int_cell(&t, r, c_mem, 0, INT64_MAX / 4, false, 0, &p->memory_mib, err) ||
            int_cell(&t, r, c_num, 0, OPENB_MAX_GPUS, false, 0, &num, err) ||
            int_cell(&t, r, c_milli, 0, 1000, false, 0, &milli, err))
            goto done;
        p->num_gpu = (int)num;
        p->gpu_milli = (int)milli;
        if ((num == 0) != (milli == 0)) {
            sb_clear(err);
            sb_printf(err, "%s:%d: num_gpu %lld with gpu_milli %lld: both must be 0 or both positive", t.name, line,
                      (long long)num, (long long)milli);
            goto done;
        }
        if (milli > 0 && milli < 1000 && num != 1) {
            sb_clear(err);
            sb_printf(err, "%s:%d: a GPU-sharing pod (gpu_milli %lld < 1000) must ask for exactly 1 GPU, not %lld",
                      t.name, line, (long long)milli, (long long)num);
            goto done;
        }
        p->gpu_spec = c_spec >= 0 ? dup(a, csv_cell(&t, r, c_spec)) : "";
        p->creation_s = p->deletion_s = -1;
        if (c_ct >= 0 && int_cell(&t, r, c_ct, 0, INT64_MAX / 4000, true, -1, &p->creation_s, err)) goto done;
        if (c_dt >= 0 && int_cell(&t, r, c_dt, 0, INT64_MAX / 4000, true, -1, &p->deletion_s, err)) goto done;
        if (p->creation_s >= 0 && p->deletion_s >= 0 && p->deletion_s < p->creation_s) {
            sb_clear(err);
            sb_printf(err, "%s:%d: deletion_time %lld is before creation_time %lld", t.name, line,
                      (long long)p->deletion_s, (long long)p->creation_s);
            goto done;
        }
    }
    rc = 0;
done:
    csv_free(&t);
    return rc;
}

bool openb_spec_allows(const char *spec, const char *model) {
    if (!spec || !*spec) return true;
    if (!model || !*model) return false;   /* a CPU node cannot serve a typed GPU request */
    size_t ml = strlen(model);
    int named = 0;
    for (const char *p = spec;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len) {
            named++;
            if (len == ml && !memcmp(p, model, ml)) return true;
        }
        if (!bar) break;
        p = bar + 1;
    }
    return named == 0;   /* only separators: no real constraint */
}

uint32_t *openb_inflate(const openb_pod *pods, size_t npods, int64_t cluster_gpu_milli, double ratio, uint64_t seed,
                        size_t *nout) {
    size_t n = npods, cap = npods + 16;
    uint32_t *seq = xmalloc(cap * sizeof *seq);
    int64_t total = 0;
    for (size_t i = 0; i < npods; i++) {
        seq[i] = (uint32_t)i;
        total += openb_pod_gpu_milli(&pods[i]);
    }
    rng r;
    rng_seed(&r, seed);
    double target = ratio * (double)cluster_gpu_milli;
    if (npods > 0 && ratio > 0 && (double)total < target) {
        for (;;) {   /* sample with replacement; stop at the first pod that would overshoot */
            uint32_t k = (uint32_t)rng_below(&r, npods);
            if ((double)(total + pods[k].gpu_milli) > target) break;
            total += openb_pod_gpu_milli(&pods[k]);
            if (n == cap) {
                cap *= 2;
                seq = xrealloc(seq, cap * sizeof *seq);
            }
            seq[n++] = k;
        }
    } else if (npods > 0 && ratio > 0) {
        while ((double)total > target && n > 0) {   /* remove random pods */
            size_t k = (size_t)rng_below(&r, n);
            total -= openb_pod_gpu_milli(&pods[seq[k]]);
            memmove(seq + k, seq + k + 1, (n - k - 1) * sizeof *seq);
            n--;
        }
    }
    for (size_t i = n; i > 1; i--) {   /* Fisher-Yates shuffle */
        size_t j = (size_t)rng_below(&r, i);
        uint32_t x = seq[i - 1];
        seq[i - 1] = seq[j];
        seq[j] = x;
    }
    *nout = n;
    return seq;
}
