/* job_trace.c -- the job-trace reader and its presets (see job_trace.h, docs/TRACES.md). */
#include "model/job_trace.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv_stream.h"
#include "util/intern.h"
#include "util/xalloc.h"

const char *const job_skip_names[JS_N] = {"state", "no_gpu", "not_started", "step"};
static const char *const col_names[JC_N] = {"id", "submit", "start", "end", "duration", "gpus", "cpus",
                                            "memory", "gpuType", "nodes", "tenant", "state", "fail"};

struct job_reader {
    const job_trace_cfg *cfg;
    csv_stream *s;
    int idx[JC_N][3];               /* header index of each alternative, -1 = absent */
    int label_idx[JOB_MAX_LABELS];
    int64_t skipped[JS_N], rows;
};

/* ---- presets: each checked against the trace's README (docs/TRACES.md) ---- */

static void base(job_trace_cfg *c, const char *fmt) {
    memset(c, 0, sizeof *c);
    c->format = fmt;
    c->sep = ',';
    c->gpu_scale = 1;
    c->mem_unit = 1073741824.0;
    c->skip_no_gpu = true;
}

static void label(job_trace_cfg *c, const char *key, const char *col) {
    c->label_keys[c->nlabels] = key;
    c->label_cols[c->nlabels++] = col;
}

int job_trace_preset(const char *name, job_trace_cfg *c) {
    if (!strcmp(name, "helios")) {
        /* S-Lab-System-Group/HeliosData README.md (159f0ca): cluster_log.csv */
        base(c, "helios");
        c->cols[JC_ID] = "job_id";
        c->cols[JC_SUBMIT] = "submit_time";
        c->cols[JC_START] = "start_time";
        c->cols[JC_END] = "end_time";
        c->cols[JC_DURATION] = "duration";
        c->cols[JC_GPUS] = "gpu_num";
        c->cols[JC_CPUS] = "cpu_num";
        c->cols[JC_NODES] = "node_num";
        c->cols[JC_TENANT] = "vc";
        c->cols[JC_STATE] = "state";
        label(c, "user", "user");
    } else if (!strcmp(name, "acme-seren") || !strcmp(name, "acme-kalos")) {
        /* InternLM/AcmeTrace README.md: trace_seren.csv; Kalos adds mem_per_pod_GB,
         * shared_mem_per_pod, fail_time, stop_time. No virtual clusters: the user is the tenant. */
        base(c, name);
        c->cols[JC_ID] = "job_id";
        c->cols[JC_SUBMIT] = "submit_time";
        c->cols[JC_START] = "start_time";
        c->cols[JC_END] = "end_time";
        c->cols[JC_DURATION] = "duration";
        c->cols[JC_GPUS] = "gpu_num";
        c->cols[JC_CPUS] = "cpu_num";
        c->cols[JC_NODES] = "node_num";
        c->cols[JC_TENANT] = "user";
        c->cols[JC_STATE] = "state";
        label(c, "type", "type");
        if (!strcmp(name, "acme-kalos")) {
            c->cols[JC_MEMORY] = "mem_per_pod_GB";
            c->mem_per_pod = true;
            c->mem_unit = 1e9;
            c->cols[JC_FAIL] = "fail_time";
        }
    } else if (!strcmp(name, "slurm")) {
        /* sacct --parsable2 (slurm.schedmd.com/sacct.html): '|'-separated, a header row,
         * job steps (JobID with '.') after their job. */
        base(c, "slurm");
        c->sep = '|';
        c->cols[JC_ID] = "JobID";
        c->cols[JC_SUBMIT] = "Submit";
        c->cols[JC_START] = "Start";
        c->cols[JC_END] = "End";
        c->cols[JC_DURATION] = "Elapsed";
        c->cols[JC_GPUS] = "AllocTRES|ReqTRES";
        c->cols[JC_CPUS] = "AllocTRES|ReqTRES";
        c->cols[JC_MEMORY] = "AllocTRES|ReqTRES";
        c->cols[JC_NODES] = "AllocTRES|ReqTRES";
        c->cols[JC_TENANT] = "Account";
        c->cols[JC_STATE] = "State";
        c->skip_steps = true;
        label(c, "user", "User");
        label(c, "partition", "Partition");
    } else {
        return -1;
    }
    /* a preset's core columns must be there; the others are used when present */
    c->required[JC_SUBMIT] = c->required[JC_GPUS] = true;
    return 0;
}

const char *job_trace_preset_names(void) { return "helios, acme-seren, acme-kalos, slurm"; }

/* ---- cell parsers ---- */

static int64_t days_from_civil(int64_t y, int m, int d) {   /* H. Hinnant's algorithm */
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int digits(const char **p, int n, int *out) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i])) return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

/* Seconds with an optional fraction, all of s: ms. */
static int seconds_ms(const char *s, int64_t *ms) {
    if (!*s) return -1;
    char *end;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q) && *q != '.') return -1;
    double v = strtod(s, &end);
    if (*end || !(v >= 0) || v > 9.0e12) return -1;
    *ms = llround(v * 1000);
    return 0;
}

int job_parse_time(const char *s, int64_t *ms) {
    if (seconds_ms(s, ms) == 0) return 0;
    const char *p = s;
    int y, mo, d, h, mi, se;
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' || digits(&p, 2, &d)) return -1;
    if (*p != 'T' && *p != ' ') return -1;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) || *p++ != ':' || digits(&p, 2, &se)) return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return -1;
    int64_t frac = 0;
    if (*p == '.') {
        p++;
        int64_t scale = 100;
        if (!isdigit((unsigned char)*p)) return -1;
        while (isdigit((unsigned char)*p)) {
            frac += (*p++ - '0') * scale;
            scale /= 10;
        }
    }
    int64_t off = 0;
    if (*p == 'Z') p++;
    else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1, oh, om = 0;
        if (digits(&p, 2, &oh)) return -1;
        if (*p == ':') p++;
        if (*p && digits(&p, 2, &om)) return -1;
        off = sign * (oh * 3600 + om * 60);
    }
    if (*p) return -1;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - off;
    *ms = secs * 1000 + frac;
    return 0;
}

int job_parse_duration(const char *s, int64_t *ms) {
    if (seconds_ms(s, ms) == 0) return 0;
    const char *p = s;
    int64_t days = 0;
    const char *dash = strchr(s, '-');
    if (dash) {
        if (dash == s) return -1;
        for (const char *q = s; q < dash; q++) {
            if (!isdigit((unsigned char)*q) || days > 100000) return -1;
            days = days * 10 + (*q - '0');
        }
        p = dash + 1;
    }
    int parts[3], n = 0;
    for (;;) {
        int v = 0, k = 0;
        while (isdigit((unsigned char)*p) && k < 6) v = v * 10 + (*p++ - '0'), k++;
        if (!k || n == 3) return -1;
        parts[n++] = v;
        if (*p == ':') {
            p++;
            continue;
        }
        break;
    }
    int64_t frac = 0;
    if (*p == '.') {
        p++;
        int64_t scale = 100;
        if (!isdigit((unsigned char)*p)) return -1;
        while (isdigit((unsigned char)*p)) frac += (*p++ - '0') * scale, scale /= 10;
    }
    if (*p || n < 2 || (dash && n != 3)) return -1;
    int64_t secs = n == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : parts[0] * 60 + parts[1];
    *ms = (days * 86400 + secs) * 1000 + frac;
    return 0;
}

/* A plain non-negative number, all of s. */
static int number(const char *s, double *v) {
    if (!*s) return -1;
    char *end;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q) && *q != '.') return -1;
    *v = strtod(s, &end);
    return *end || !(*v >= 0) || *v > 1e15 ? -1 : 0;
}

/* In a TRES cell (`k=v,k=v`), the value of key `key` (exact), NULL if absent; into buf. */
static const char *tres_get(const char *cell, const char *key, char *buf, size_t cap) {
    size_t kl = strlen(key);
    for (const char *p = cell; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t vl = len - kl - 1;
            if (vl >= cap) vl = cap - 1;
            memcpy(buf, p + kl + 1, vl);
            buf[vl] = 0;
            return buf;
        }
        p = comma ? comma + 1 : NULL;
    }
    return NULL;
}

/* Slurm memory `64G`, `512M`, `1T`, `100K` (binary units; a bare number is MiB). */
static int slurm_mem(const char *v, int64_t *bytes) {
    char *end;
    double x = strtod(v, &end);
    if (end == v || !(x >= 0)) return -1;
    double unit = 1048576.0;
    switch (*end) {
    case 0: break;
    case 'K': unit = 1024.0; end++; break;
    case 'M': unit = 1048576.0; end++; break;
    case 'G': unit = 1073741824.0; end++; break;
    case 'T': unit = 1099511627776.0; end++; break;
    default: return -1;
    }
    if (*end || x * unit > 9.0e18) return -1;
    *bytes = (int64_t)llround(x * unit);
    return 0;
}

/* GPUs of a TRES cell: gres/gpu=N, else the sum of gres/gpu:TYPE=N (type into *type). */
static int tres_gpus(const char *cell, double *gpus, const char **type, size_t *tlen) {
    char buf[64];
    const char *v = tres_get(cell, "gres/gpu", buf, sizeof buf);
    double sum = 0;
    *gpus = 0;
    if (v) return number(v, gpus);
    for (const char *p = strstr(cell, "gres/gpu:"); p; p = strstr(p + 1, "gres/gpu:")) {
        if (p != cell && p[-1] != ',') continue;
        const char *t = p + 9, *eq = strchr(t, '=');
        if (!eq) return -1;
        double x;
        size_t vl = strcspn(eq + 1, ",");
        if (vl >= sizeof buf) return -1;
        memcpy(buf, eq + 1, vl);
        buf[vl] = 0;
        if (number(buf, &x)) return -1;
        sum += x;
        *type = t;
        *tlen = (size_t)(eq - t);
    }
    *gpus = sum;
    return 0;
}

/* ---- the reader ---- */

static int header_index(const csv_stream *s, const char *name, size_t n) {
    for (size_t i = 0; i < s->ncols; i++)
        if (strlen(s->header[i]) == n && !strncmp(s->header[i], name, n)) return (int)i;
    return -1;
}

static int find_cols(job_reader *r, strbuf *err) {
    const job_trace_cfg *c = r->cfg;
    for (int f = 0; f < JC_N; f++) {
        for (int k = 0; k < 3; k++) r->idx[f][k] = -1;
        if (!c->cols[f]) continue;
        const char *p = c->cols[f];
        bool any = false;
        for (int k = 0; k < 3 && *p; k++) {
            size_t n = strcspn(p, "|");
            r->idx[f][k] = header_index(r->s, p, n);
            any |= r->idx[f][k] >= 0;
            p += n;
            if (*p == '|') p++;
        }
        if (!any && c->required[f]) {
            sb_clear(err);
            sb_printf(err, "%s:1:1: no column '%s' (the %s of a job, format %s) in the header", c->path, c->cols[f],
                      col_names[f], c->format);
            return -1;
        }
    }
    for (size_t i = 0; i < c->nlabels; i++) {
        r->label_idx[i] = header_index(r->s, c->label_cols[i], strlen(c->label_cols[i]));
        if (r->label_idx[i] < 0 && !strcmp(c->format, "columns")) {
            sb_clear(err);
            sb_printf(err, "%s:1:1: no column '%s' (label %s) in the header", c->path, c->label_cols[i], c->label_keys[i]);
            return -1;
        }
    }
    return 0;
}

int job_reader_open(const job_trace_cfg *cfg, job_reader **out, strbuf *err) {
    job_reader *r = xcalloc(1, sizeof *r);
    r->cfg = cfg;
    if (csv_stream_open_sep(cfg->path, cfg->sep, &r->s, err) || find_cols(r, err)) {
        job_reader_close(r);
        *out = NULL;
        return -1;
    }
    *out = r;
    return 0;
}

/* The cell of field f (first non-empty alternative), its column in *col; "" when unmapped. */
static const char *cell(const job_reader *r, int f, int *col, int *which) {
    for (int k = 0; k < 3; k++) {
        int i = r->idx[f][k];
        if (i < 0) continue;
        const char *v = csv_stream_cell(r->s, (size_t)i);
        if (*v || k == 2 || r->idx[f][k + 1] < 0) {
            *col = r->s->fcols[i];
            if (which) *which = i;
            return v;
        }
    }
    *col = 1;
    if (which) *which = -1;
    return "";
}

static int bad(const job_reader *r, int f, int col, const char *v, const char *what, strbuf *err) {
    sb_clear(err);
    sb_printf(err, "%s:%d:%d: %s '%s': expected %s", r->cfg->path, r->s->row_line, col, col_names[f], v, what);
    return -1;
}

/* An unknown time: empty, or Slurm's Unknown/None. */
static bool unknown(const char *v) { return !*v || !strcmp(v, "Unknown") || !strcmp(v, "None"); }

static int get_time(const job_reader *r, int f, int64_t *ms, strbuf *err) {
    int col;
    const char *v = cell(r, f, &col, NULL);
    *ms = -1;
    if (unknown(v)) return 0;
    if (job_parse_time(v, ms)) return bad(r, f, col, v, "a time (epoch seconds or YYYY-MM-DD[T ]HH:MM:SS[+HH:MM])", err);
    return 0;
}

static bool is_tres(const char *v) { return strchr(v, '=') != NULL; }

/* A count-like field (cpus, nodes) as milli-units; 0 = none given. */
static int get_amount(const job_reader *r, int f, const char *tres_key, int64_t *milli, strbuf *err) {
    int col;
    const char *v = cell(r, f, &col, NULL);
    double x = 0;
    char buf[64];
    *milli = 0;
    if (!*v) return 0;
    if (is_tres(v)) {
        const char *t = tres_get(v, tres_key, buf, sizeof buf);
        if (!t) return 0;
        if (number(t, &x)) return bad(r, f, col, v, "a number", err);
    } else if (number(v, &x)) {
        return bad(r, f, col, v, "a non-negative number", err);
    }
    *milli = llround(x * 1000);
    return 0;
}

static bool skip_state(const job_trace_cfg *c, const char *st) {
    size_t n = strcspn(st, " ");   /* Slurm: "CANCELLED by 1234" */
    for (size_t i = 0; i < c->nskip_states; i++)
        if (strlen(c->skip_states[i]) == n && !strncmp(c->skip_states[i], st, n)) return true;
    return false;
}

/* One row into a job; 1 = keep, 0 = skipped, -1 = error. */
static int read_job(job_reader *r, job_row *j, strbuf *err) {
    const job_trace_cfg *c = r->cfg;
    int col;
    memset(j, 0, sizeof *j);
    j->line = r->s->row_line;
    j->id = cell(r, JC_ID, &col, NULL);
    if (c->skip_steps && strchr(j->id, '.')) {
        r->skipped[JS_STEP]++;
        return 0;
    }
    j->state = cell(r, JC_STATE, &col, NULL);
    j->tenant = cell(r, JC_TENANT, &col, NULL);
    j->gpu_type = cell(r, JC_GPU_TYPE, &col, NULL);
    for (size_t i = 0; i < c->nlabels; i++)
        j->labels[i] = r->label_idx[i] >= 0 ? csv_stream_cell(r->s, (size_t)r->label_idx[i]) : "";
    if (get_time(r, JC_SUBMIT, &j->submit_ms, err) || get_time(r, JC_START, &j->start_ms, err) ||
        get_time(r, JC_END, &j->end_ms, err) || get_time(r, JC_FAIL, &j->fail_ms, err))
        return -1;
    if (j->submit_ms < 0) {
        const char *v = cell(r, JC_SUBMIT, &col, NULL);
        return bad(r, JC_SUBMIT, col, v, "a submit time", err);
    }
    /* GPUs */
    const char *v = cell(r, JC_GPUS, &col, NULL);
    double g = 0;
    if (is_tres(v)) {
        const char *t = NULL;
        size_t tl = 0;
        if (tres_gpus(v, &g, &t, &tl)) return bad(r, JC_GPUS, col, v, "gres/gpu=N", err);
        if (t && !*j->gpu_type) j->gpu_type = intern_n(t, tl);
    } else if (*v && number(v, &g)) {
        return bad(r, JC_GPUS, col, v, "a number of GPUs", err);
    }
    j->gpu_milli = llround(g * c->gpu_scale * 1000);
    if (get_amount(r, JC_CPUS, "cpu", &j->cpu_milli, err)) return -1;
    int64_t nodes_milli;
    if (get_amount(r, JC_NODES, "node", &nodes_milli, err)) return -1;
    j->nodes = nodes_milli / 1000;
    if (nodes_milli % 1000) {
        v = cell(r, JC_NODES, &col, NULL);
        return bad(r, JC_NODES, col, v, "a whole number of nodes", err);
    }
    if (j->nodes < 1) j->nodes = 1;
    if (j->nodes > 100000) return bad(r, JC_NODES, col, cell(r, JC_NODES, &col, NULL), "at most 100000 nodes", err);
    v = cell(r, JC_MEMORY, &col, NULL);
    if (*v) {
        if (is_tres(v)) {
            char buf[64];
            const char *t = tres_get(v, "mem", buf, sizeof buf);
            if (t && slurm_mem(t, &j->mem_bytes)) return bad(r, JC_MEMORY, col, v, "mem=N[KMGT]", err);
        } else {
            double m;
            if (number(v, &m) || m * c->mem_unit > 9.0e18) return bad(r, JC_MEMORY, col, v, "a non-negative number", err);
            j->mem_bytes = (int64_t)llround(m * c->mem_unit);
            if (c->mem_per_pod) j->mem_bytes *= j->nodes;
        }
    }
    /* run time: end - start, else the duration column */
    v = cell(r, JC_DURATION, &col, NULL);
    int64_t dur = -1;
    if (*v && !unknown(v) && job_parse_duration(v, &dur))
        return bad(r, JC_DURATION, col, v, "a duration (seconds or [D-]HH:MM:SS)", err);
    if (j->start_ms >= 0 && j->end_ms >= 0) {
        if (j->end_ms < j->start_ms) {
            cell(r, JC_END, &col, NULL);
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: end is before start", c->path, r->s->row_line, col);
            return -1;
        }
        dur = j->end_ms - j->start_ms;   /* the recorded run; Kalos's duration column counts from submit */
    }
    if (j->start_ms >= 0 && j->start_ms < j->submit_ms) {
        cell(r, JC_START, &col, NULL);
        sb_clear(err);
        sb_printf(err, "%s:%d:%d: start is before submit", c->path, r->s->row_line, col);
        return -1;
    }
    if (j->start_ms < 0 && j->end_ms >= 0 && dur >= 0) j->start_ms = j->end_ms - dur;
    j->duration_ms = dur;
    /* filters, counted */
    if (c->nskip_states && skip_state(c, j->state)) {
        r->skipped[JS_STATE]++;
        return 0;
    }
    if (c->skip_no_gpu && j->gpu_milli <= 0) {
        r->skipped[JS_NO_GPU]++;
        return 0;
    }
    if (dur < 0 || (c->cols[JC_START] && r->idx[JC_START][0] >= 0 && j->start_ms < 0)) {
        r->skipped[JS_NOT_STARTED]++;
        return 0;
    }
    return 1;
}

int job_reader_next(job_reader *r, job_row *row, strbuf *err) {
    for (;;) {
        int k = csv_stream_next(r->s, err);
        if (k <= 0) return k;
        r->rows++;
        k = read_job(r, row, err);
        if (k) return k;
    }
}

const int64_t *job_reader_skipped(const job_reader *r) { return r->skipped; }
int64_t job_reader_rows(const job_reader *r) { return r->rows; }

void job_reader_close(job_reader *r) {
    if (!r) return;
    csv_stream_close(r->s);
    free(r);
}
