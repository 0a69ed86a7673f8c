/* job_trace.c -- the job-trace reader and its presets (see job_trace.h, docs/TRACES.md). */
#include "model/job_trace.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/job_trace_philly.h"
#include "util/csv_stream.h"
#include "util/intern.h"
#include "util/xalloc.h"

const char *const job_skip_names[JS_N] = {"state", "no_gpu", "not_started", "step", "no_job"};
static const char *const col_names[JC_N] = {"id", "submit", "start", "end", "duration", "gpus", "cpus",
                                            "memory", "gpuType", "nodes", "tenant", "state", "fail"};

/* A row of the joined table (PAI's job table): what its tasks take from it. */
typedef struct join_entry {
    char *key;
    const char *tenant;             /* interned */
    int64_t submit_ms;
} join_entry;

struct job_reader {
    const job_trace_cfg *cfg;
    csv_stream *s;
    int idx[JC_N][3];               /* header index of each alternative, -1 = absent */
    int label_idx[JOB_MAX_LABELS];
    int key_idx, suffix_idx;        /* the join key and id suffix columns, -1 = none */
    join_entry *join;               /* open addressing, njoin_slots a power of two */
    size_t njoin_slots, njoin;
    strbuf id;                      /* a composed id (id_suffix) */
    philly_reader *philly;          /* format philly: the JSON document, else NULL */
    int64_t skipped[JS_N], rows;
};

/* ---- presets: each checked against the trace's README (docs/TRACES.md) ---- */

static void base(job_trace_cfg *c, const char *fmt) {
    memset(c, 0, sizeof *c);
    c->format = fmt;
    c->sep = ',';
    c->gpu_scale = 1;
    c->cpu_scale = 1;
    c->mem_unit = 1073741824.0;
    c->skip_no_gpu = true;
}

static void label(job_trace_cfg *c, const char *key, const char *col) {
    c->label_keys[c->nlabels] = key;
    c->label_cols[c->nlabels++] = col;
}

/* The columns Helios's cluster_log.csv and Acme's traces share (Acme's
 * schema follows Helios's), with the tenant column of each. */
static void helios_columns(job_trace_cfg *c, const char *tenant) {
    c->cols[JC_ID] = "job_id";
    c->cols[JC_SUBMIT] = "submit_time";
    c->cols[JC_START] = "start_time";
    c->cols[JC_END] = "end_time";
    c->cols[JC_DURATION] = "duration";
    c->cols[JC_GPUS] = "gpu_num";
    c->cols[JC_CPUS] = "cpu_num";
    c->cols[JC_NODES] = "node_num";
    c->cols[JC_TENANT] = tenant;
    c->cols[JC_STATE] = "state";
}

int job_trace_preset(const char *name, job_trace_cfg *c) {
    if (!strcmp(name, "helios")) {
        /* S-Lab-System-Group/HeliosData README.md (159f0ca): cluster_log.csv */
        base(c, "helios");
        helios_columns(c, "vc");
        label(c, "user", "user");
    } else if (!strcmp(name, "acme-seren") || !strcmp(name, "acme-kalos")) {
        /* InternLM/AcmeTrace README.md: trace_seren.csv; Kalos adds mem_per_pod_GB,
         * shared_mem_per_pod, fail_time, stop_time. No virtual clusters: the user is the tenant. */
        base(c, name);
        helios_columns(c, "user");
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
    } else if (!strcmp(name, "alibaba-spot-v2026")) {
        /* alibaba/clusterdata cluster-trace-v2026-spot-gpu/README.md (7a6c496): job_info_df.csv,
         * submit_time in seconds from the first submission, duration in seconds, no start times;
         * cpu_request and gpu_request per worker (a 94-worker job asks gpu_request 1: per job
         * it could not spread over 94 workers), worker_num workers; organization the tenant. */
        base(c, name);
        c->cols[JC_ID] = "job_name";
        c->cols[JC_SUBMIT] = "submit_time";
        c->cols[JC_DURATION] = "duration";
        c->cols[JC_GPUS] = "gpu_request";
        c->cols[JC_CPUS] = "cpu_request";
        c->cols[JC_NODES] = "worker_num";
        c->cols[JC_GPU_TYPE] = "gpu_model";
        c->cols[JC_TENANT] = "organization";
        c->gpus_per_pod = c->cpus_per_pod = true;
        label(c, "job_type", "job_type");
    } else if (!strcmp(name, "philly")) {
        /* msr-fiddle/philly-traces README.md (29a1b87): cluster_job_log, JSON (job_trace_philly.h);
         * the column names only say what the document gives (it has no columns) */
        base(c, name);
        c->json = true;
        c->cols[JC_ID] = "jobid";
        c->cols[JC_SUBMIT] = "submitted_time";
        c->cols[JC_START] = "attempts[].start_time";
        c->cols[JC_END] = "attempts[].end_time";
        c->cols[JC_GPUS] = "attempts[0].detail[].gpus";
        c->cols[JC_NODES] = "attempts[0].detail";
        c->cols[JC_TENANT] = "vc";
        c->cols[JC_STATE] = "status";
        label(c, "user", "user");
        return 0;
    } else if (!strcmp(name, "pai-v2020")) {
        /* alibaba/clusterdata cluster-trace-gpu-v2020/README.md and data/pai_*_table.header (7a6c496): the task
         * table (no header row) is the file, one task = a gang of inst_num instances, each asking
         * plan_gpu % of a GPU, plan_cpu % of a CPU and plan_mem GB; the job table (no header row)
         * gives its submit time (job start_time) and user (tenant), joined by job_name. */
        base(c, name);
        c->header = "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type";
        c->cols[JC_ID] = "job_name";
        c->id_suffix = "task_name";
        c->cols[JC_START] = "start_time";
        c->cols[JC_END] = "end_time";
        c->cols[JC_GPUS] = "plan_gpu";
        c->cols[JC_CPUS] = "plan_cpu";
        c->cols[JC_MEMORY] = "plan_mem";
        c->cols[JC_NODES] = "inst_num";
        c->cols[JC_GPU_TYPE] = "gpu_type";
        c->cols[JC_STATE] = "status";
        c->gpu_scale = 0.01;
        c->cpu_scale = 0.01;
        c->mem_per_pod = true;   /* plan_mem 29.296875 = 30000 MiB: GiB, the default unit */
        c->gpus_per_pod = c->cpus_per_pod = true;
        c->join_header = "job_name,inst_id,user,status,start_time,end_time";
        c->join_key = "job_name";
        c->join_submit = "start_time";
        c->join_tenant = "user";
        label(c, "task", "task_name");
        c->required[JC_GPUS] = true;
        return 0;
    } else {
        return -1;
    }
    /* a preset's core columns must be there; the others are used when present */
    c->required[JC_SUBMIT] = c->required[JC_GPUS] = true;
    return 0;
}

const char *job_trace_preset_names(void) {
    return "helios, acme-seren, acme-kalos, slurm, alibaba-spot-v2026, pai-v2020, philly";
}

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

/* A plain non-negative decimal (digits and '.'), all of s. */
static int decimal(const char *s, double *v) {
    if (!*s) return -1;
    char *end;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q) && *q != '.') return -1;
    *v = strtod(s, &end);
    return *end || !(*v >= 0) ? -1 : 0;
}

/* Seconds with an optional fraction, all of s: ms. */
static int seconds_ms(const char *s, int64_t *ms) {
    double v;
    if (decimal(s, &v) || v > 9.0e12) return -1;
    *ms = llround(v * 1000);
    return 0;
}

/* An optional fraction of a second at *p (`.d...`, past milliseconds
 * ignored) as ms, *p moved past it; -1 for a '.' without digits. */
static int fraction_ms(const char **p, int64_t *frac) {
    *frac = 0;
    if (**p != '.') return 0;
    (*p)++;
    if (!isdigit((unsigned char)**p)) return -1;
    for (int64_t scale = 100; isdigit((unsigned char)**p); scale /= 10) *frac += (*(*p)++ - '0') * scale;
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
    int64_t frac;
    if (fraction_ms(&p, &frac)) return -1;
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
    int64_t frac;
    if (fraction_ms(&p, &frac)) return -1;
    if (*p || n < 2 || (dash && n != 3)) return -1;
    int64_t secs = n == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : parts[0] * 60 + parts[1];
    *ms = (days * 86400 + secs) * 1000 + frac;
    return 0;
}

/* A plain non-negative number up to 10^15, all of s. */
static int number(const char *s, double *v) { return decimal(s, v) || *v > 1e15 ? -1 : 0; }

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
    r->key_idx = r->suffix_idx = -1;
    if (c->join_key && (r->key_idx = header_index(r->s, c->join_key, strlen(c->join_key))) < 0) {
        sb_clear(err);
        sb_printf(err, "%s:1:1: no column '%s' (the key of the joined table) in the header", c->path, c->join_key);
        return -1;
    }
    if (c->id_suffix) r->suffix_idx = header_index(r->s, c->id_suffix, strlen(c->id_suffix));
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

/* ---- the joined table (PAI's job table), read whole ---- */

static uint64_t str_hash(const char *k) {   /* FNV-1a */
    uint64_t h = 1469598103934665603ULL;
    for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ULL;
    return h;
}

static join_entry *join_find(const job_reader *r, const char *key) {
    if (!r->njoin_slots) return NULL;
    for (size_t h = str_hash(key) & (r->njoin_slots - 1);; h = (h + 1) & (r->njoin_slots - 1)) {
        join_entry *e = &r->join[h];
        if (!e->key || !strcmp(e->key, key)) return e;
    }
}

static void join_grow(job_reader *r) {
    size_t n = r->njoin_slots ? 2 * r->njoin_slots : 1024;
    join_entry *old = r->join;
    size_t nold = r->njoin_slots;
    r->join = xcalloc(n, sizeof *r->join);
    r->njoin_slots = n;
    for (size_t i = 0; i < nold; i++)
        if (old[i].key) *join_find(r, old[i].key) = old[i];
    free(old);
}

/* Column `name` of the joined table's header, or an error naming it. */
static int join_col(const csv_stream *t, const char *name, const char *what, strbuf *err) {
    int i = header_index(t, name, strlen(name));
    if (i < 0) {
        sb_clear(err);
        sb_printf(err, "%s:1:1: no column '%s' (%s) in the joined table's header", t->name, name, what);
    }
    return i;
}

/* Every row of the joined table: key -> submit time and tenant. A repeated key,
 * an empty or unparseable submit time: FILE:LINE:COL. */
static int join_load(job_reader *r, strbuf *err) {
    const job_trace_cfg *c = r->cfg;
    csv_stream *t = NULL;
    if (csv_stream_open_names(c->join_path, c->sep, c->join_header, &t, err)) return -1;
    int ki = join_col(t, c->join_key, "the key", err), si = ki < 0 ? -1 : join_col(t, c->join_submit, "the submit time", err),
        ti = si < 0 ? -1 : join_col(t, c->join_tenant, "the tenant", err);
    int k = ti < 0 ? -1 : 1;
    while (k > 0 && (k = csv_stream_next(t, err)) > 0) {
        const char *key = csv_stream_cell(t, (size_t)ki), *sub = csv_stream_cell(t, (size_t)si);
        int64_t ms;
        if (job_parse_time(sub, &ms)) {
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: submit '%s': expected a time (epoch seconds)", t->name, t->row_line, t->fcols[si], sub);
            k = -1;
            break;
        }
        if (2 * (r->njoin + 1) > r->njoin_slots) join_grow(r);
        join_entry *e = join_find(r, key);
        if (e->key) {
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: %s '%s' repeats", t->name, t->row_line, t->fcols[ki], c->join_key, key);
            k = -1;
            break;
        }
        *e = (join_entry){xstrdup(key), intern(csv_stream_cell(t, (size_t)ti)), ms};
        r->njoin++;
    }
    if (k == 0 && !r->njoin) {   /* every task row would be skipped (no_job): say why, not a run of nothing */
        sb_clear(err);
        sb_printf(err, "%s:1:1: the joined table has no rows: no task row could find its %s", t->name, c->join_key);
        k = -1;
    }
    csv_stream_close(t);
    return k < 0 ? -1 : 0;
}

int job_reader_open(const job_trace_cfg *cfg, job_reader **out, strbuf *err) {
    job_reader *r = xcalloc(1, sizeof *r);
    r->cfg = cfg;
    if (cfg->json) {
        if (philly_open(cfg->path, &r->philly, err)) {
            free(r);
            *out = NULL;
            return -1;
        }
        *out = r;
        return 0;
    }
    if (csv_stream_open_names(cfg->path, cfg->sep, cfg->header, &r->s, err) || find_cols(r, err) ||
        (cfg->join_path && join_load(r, err))) {
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

/* Two times of a row in the wrong order: FILE:LINE:COL of field f's cell. */
static int out_of_order(const job_reader *r, int f, const char *what, strbuf *err) {
    int col;
    cell(r, f, &col, NULL);
    sb_clear(err);
    sb_printf(err, "%s:%d:%d: %s", r->cfg->path, r->s->row_line, col, what);
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
    if (r->suffix_idx >= 0) {
        sb_clear(&r->id);
        sb_printf(&r->id, "%s-%s", j->id, csv_stream_cell(r->s, (size_t)r->suffix_idx));
        j->id = sb_str(&r->id);
    }
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
    if (c->join_path) {   /* the submit time and tenant come from the joined row */
        const join_entry *e = join_find(r, csv_stream_cell(r->s, (size_t)r->key_idx));
        if (!e || !e->key) {
            r->skipped[JS_NO_JOB]++;
            return 0;
        }
        j->submit_ms = e->submit_ms;
        j->tenant = e->tenant;
    }
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
    j->cpu_milli = llround((double)j->cpu_milli * c->cpu_scale);
    int64_t nodes_milli;
    if (get_amount(r, JC_NODES, "node", &nodes_milli, err)) return -1;
    j->nodes = nodes_milli / 1000;
    if (nodes_milli % 1000) {
        v = cell(r, JC_NODES, &col, NULL);
        return bad(r, JC_NODES, col, v, "a whole number of nodes", err);
    }
    if (j->nodes < 1) j->nodes = 1;
    if (j->nodes > 100000) return bad(r, JC_NODES, col, cell(r, JC_NODES, &col, NULL), "at most 100000 nodes", err);
    if ((c->gpus_per_pod && j->gpu_milli > 1000000000) || (c->cpus_per_pod && j->cpu_milli > 1000000000)) {
        int f = j->gpu_milli > 1000000000 ? JC_GPUS : JC_CPUS;
        return bad(r, f, col, cell(r, f, &col, NULL), "at most 1000000 per pod", err);
    }
    if (c->gpus_per_pod) j->gpu_milli *= j->nodes;   /* the whole job's */
    if (c->cpus_per_pod) j->cpu_milli *= j->nodes;
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
        if (j->end_ms < j->start_ms) return out_of_order(r, JC_END, "end is before start", err);
        dur = j->end_ms - j->start_ms;   /* the recorded run; Kalos's duration column counts from submit */
    }
    if (j->start_ms >= 0 && j->start_ms < j->submit_ms) return out_of_order(r, JC_START, "start is before submit", err);
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
    while (r->philly) {
        int k = philly_next(r->philly, r->cfg, row, r->skipped, err);
        if (k == 2) return 0;
        r->rows++;
        if (k) return k;
    }
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
int64_t job_reader_attempts_dropped(const job_reader *r) { return r->philly ? philly_attempts_dropped(r->philly) : 0; }

void job_reader_close(job_reader *r) {
    if (!r) return;
    csv_stream_close(r->s);
    philly_close(r->philly);
    for (size_t i = 0; i < r->njoin_slots; i++) free(r->join[i].key);
    free(r->join);
    sb_free(&r->id);
    free(r);
}
