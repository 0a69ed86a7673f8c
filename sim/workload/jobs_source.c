/*
 * jobs_source.c -- a job trace (`workload.jobs[]`, model/scenario_jobs.h,
 * docs/TRACES.md) as a workload source: the file is read row by row while the
 * run goes; each job becomes one pod, or a gang of `nodes` pods (engine/
 * sim_gang.h), with the job's GPUs, CPUs and memory split evenly over its
 * pods, its tenant as namespace and pod group, its other columns as pod
 * labels. Mode submit: a job arrives at its submit time; as-recorded: at its
 * recorded start. Either way it runs for its recorded duration.
 *
 * Rows come in submit order (Slurm job ids, Helios's job_id); arrivals in
 * as-recorded mode (start times) are not in file order, so read rows wait in
 * a heap until every later row must arrive later (start >= submit). A row
 * due before the current time (a file not in submit order) arrives at once
 * and is counted (jobs_late_rows, with a warning).
 *
 * At the end: per job, JCT (end - submit) and slowdown (JCT / duration), as
 * Tiresias (NSDI '19), Themis (NSDI '20) and Pollux (OSDI '21) report them,
 * for the whole trace, per tenant (grp = the tenant) and per size class
 * (grp = gpus:1, gpus:2-4, gpus:5-8, gpus:9-32, gpus:33+); recorded versus
 * simulated waits side by side (docs/SCHEMA.md; `drasim run` prints them,
 * report/run_jobs.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "engine/sim_gang.h"
#include "engine/sim_labels.h"
#include "model/scenario_jobs.h"
#include "util/intern.h"
#include "util/vec.h"
#include "util/xalloc.h"
#include "workload/attach.h"

#define NSIZES 5
static const char *const SIZE_NAMES[NSIZES] = {"gpus:1", "gpus:2-4", "gpus:5-8", "gpus:9-32", "gpus:33+"};

static int size_class(int64_t gpu_milli) {
    int64_t g = (gpu_milli + 999) / 1000;
    return g <= 1 ? 0 : g <= 4 ? 1 : g <= 8 ? 2 : g <= 32 ? 3 : 4;
}

/* A job read and waiting to arrive (the heap's entries). */
typedef struct job_wait {
    int64_t key;                     /* arrival, sim ms */
    uint64_t seq;                    /* file order: ties arrive in file order */
    int64_t submit, rec_start, duration;
    int64_t gpu_milli, cpu_milli, mem_bytes, nodes;
    const char *id, *tenant, *gpu_type;
    const char *labels[JOB_MAX_LABELS];
    int64_t *att;                    /* restarts (Philly): start, duration pairs, sim ms; NULL = one run */
    int natt;
} job_wait;

/* A job with restarts: what its later runs need (Philly's attempts). */
typedef struct job_more {
    int64_t *att;                    /* every run's recorded start and run time, sim ms */
    int natt, next;                  /* runs, the next run */
    uint32_t cls, npods;
    const char *id, *tenant;
    const char *labels[JOB_MAX_LABELS];
} job_more;

/* A job that arrived: what its answers need. */
typedef struct job_rec {
    int64_t submit, rec_start, duration, first_start, last_end;
    uint32_t tenant, pods_left, npods;
    uint8_t size;
    job_more *more;                  /* NULL: one run */
} job_rec;

typedef struct class_slot {
    const char *key;                 /* interned shape key */
    uint32_t cls;
} class_slot;

typedef struct jobs_source {
    int id;
    const jobs_spec *spec;
    job_reader *reader;
    bool eof;
    uint64_t seq;
    int64_t last_submit;             /* latest submit read: rows after it arrive no earlier */
    VEC(job_wait) heap;
    VEC(job_rec) jobs;
    VEC(uint32_t) pod_job;           /* per pod id: its job + 1 (0: not ours) */
    VEC(const char *) tenants;
    class_slot *slots;
    size_t nslots, nused;
    arena a;                         /* class specs */
    strbuf key, err;
    int64_t late_rows, rounded_up, restarts;
    sim_time now;
} jobs_source;

/* ---- the heap of waiting jobs (by arrival, then file order) ---- */

static bool before(const job_wait *x, const job_wait *y) { return x->key < y->key || (x->key == y->key && x->seq < y->seq); }

static void heap_push(jobs_source *js, const job_wait *w) {
    VEC_PUSH(js->heap, *w);
    size_t i = js->heap.len - 1;
    job_wait *h = js->heap.data;
    while (i && before(&h[i], &h[(i - 1) / 2])) {
        job_wait t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static job_wait heap_pop(jobs_source *js) {
    job_wait *h = js->heap.data, top = h[0];
    h[0] = h[--js->heap.len];
    size_t n = js->heap.len, i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(&h[l], &h[m])) m = l;
        if (l + 1 < n && before(&h[l + 1], &h[m])) m = l + 1;
        if (m == i) break;
        job_wait t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
    return top;
}

/* Read rows until the heap's first job is sure to be the next arrival. */
static int refill(sim_run *r, jobs_source *js) {
    const jobs_spec *s = js->spec;
    while (!js->eof && (!js->heap.len || js->heap.data[0].key > js->last_submit)) {
        job_row row;
        int k = job_reader_next(js->reader, &row, &js->err);
        if (k < 0) {
            sb_clear(&r->error);
            sb_puts(&r->error, sb_str(&js->err));
            return -1;
        }
        if (k == 0) {
            js->eof = true;
            break;
        }
        job_wait w = {0};
        w.submit = row.submit_ms - s->origin_ms;
        w.rec_start = row.start_ms >= 0 ? row.start_ms - s->origin_ms : -1;
        w.duration = row.duration_ms;
        w.key = s->mode == JOBS_AS_RECORDED && w.rec_start >= 0 ? w.rec_start : w.submit;
        w.seq = js->seq++;
        w.gpu_milli = row.gpu_milli;
        w.cpu_milli = row.cpu_milli;
        w.mem_bytes = row.mem_bytes;
        w.nodes = row.nodes;
        w.id = *row.id ? intern(row.id) : NULL;
        w.tenant = intern(*row.tenant ? row.tenant : s->name);
        w.gpu_type = *row.gpu_type ? intern(row.gpu_type) : NULL;
        for (size_t i = 0; i < s->cfg.nlabels; i++) w.labels[i] = *row.labels[i] ? intern(row.labels[i]) : NULL;
        if (row.nattempts > 1) {   /* each run: its recorded start and run time */
            w.natt = row.nattempts;
            w.att = xmalloc(2 * (size_t)w.natt * sizeof *w.att);
            for (int k = 0; k < w.natt; k++) {
                w.att[2 * k] = row.attempts[2 * k] - s->origin_ms;
                w.att[2 * k + 1] = row.attempts[2 * k + 1] - row.attempts[2 * k];
            }
        }
        if (w.submit > js->last_submit) js->last_submit = w.submit;
        heap_push(js, &w);
    }
    return 0;
}

/* ---- classes: one per tenant and pod shape ---- */

static void qty(strbuf *b, const char *k, int64_t v, const char *unit) {
    sb_printf(b, "%s=%lld%s;", k, (long long)v, unit);
}

static uint64_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    return x ^ (x >> 33);
}

/* The namespace of a tenant: the tenant itself when it is a Namespace name
 * (an RFC 1123 label), else its DNS-label form -- lower case, every other
 * character '-', at most 63, '-' trimmed at both ends ("tenant" if nothing
 * is left): Helios's VCs (vcJkd) and Slurm accounts may have upper case. */
static const char *tenant_namespace(const char *tenant) {
    char buf[64];
    size_t n = 0;
    for (const char *p = tenant; *p && n < 63; p++) {
        char ch = (char)tolower((unsigned char)*p);
        buf[n++] = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? ch : '-';
    }
    while (n && buf[n - 1] == '-') n--;
    size_t lead = 0;
    while (lead < n && buf[lead] == '-') lead++;
    if (lead == n) return intern("tenant");
    return intern_n(buf + lead, n - lead);
}

/* The pod-group tree of a shape, parsed like a scenario's pod group. */
static pod_group_spec *make_spec(sim_run *r, jobs_source *js, const char *tenant, int64_t gpus, int64_t cpu_milli,
                                 int64_t mem, const char *gpu_type) {
    arena *a = &js->a;
    char buf[64];
    ynode *m = yb_map(a);
    yb_add(a, m, "name", yb_str(a, tenant));
    yb_add(a, m, "namespace", yb_str(a, tenant_namespace(tenant)));
    ynode *labels = yb_map(a);
    yb_add(a, labels, "drasim.io/tenant", yb_str(a, tenant));
    const char *lq = js->spec->queue_per_tenant ? tenant : js->spec->local_queue;
    if (lq) yb_add(a, labels, "kueue.x-k8s.io/queue-name", yb_str(a, lq));   /* Kueue's LocalQueue (localQueue:) */
    yb_add(a, m, "labels", labels);
    ynode *req = yb_map(a);
    if (cpu_milli > 0) {
        snprintf(buf, sizeof buf, "%lldm", (long long)cpu_milli);
        yb_add(a, req, "cpu", yb_raw(a, buf));
    }
    if (mem > 0) {
        snprintf(buf, sizeof buf, "%lld", (long long)mem);
        yb_add(a, req, "memory", yb_raw(a, buf));
    }
    if (req->n) yb_add(a, m, "requests", req);
    if (gpu_type && js->spec->gpu_type_label) {
        ynode *sel = yb_map(a);
        yb_add(a, sel, js->spec->gpu_type_label, yb_str(a, gpu_type));
        yb_add(a, m, "nodeSelector", sel);
    }
    ynode *gpu = yb_map(a);
    snprintf(buf, sizeof buf, "%lld", (long long)gpus);
    if (r->sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN) {
        ynode *dp = yb_map(a);
        yb_add(a, dp, "nvidia.com/gpu", yb_raw(a, buf));
        yb_add(a, gpu, "devicePlugin", dp);
    } else {
        ynode *ex = yb_map(a), *rq = yb_map(a), *rqs = yb_seq(a), *devs = yb_map(a), *spec = yb_map(a),
              *claim = yb_map(a), *claims = yb_seq(a), *dra = yb_map(a);
        yb_add(a, ex, "deviceClassName", yb_str(a, "gpu.nvidia.com"));
        yb_add(a, ex, "count", yb_raw(a, buf));
        yb_add(a, rq, "name", yb_str(a, "gpu"));
        yb_add(a, rq, "exactly", ex);
        yb_push(a, rqs, rq);
        yb_add(a, devs, "requests", rqs);
        yb_add(a, spec, "devices", devs);
        yb_add(a, claim, "name", yb_str(a, "gpu"));
        yb_add(a, claim, "spec", spec);
        yb_push(a, claims, claim);
        yb_add(a, dra, "claims", claims);
        yb_add(a, gpu, "dra", dra);
    }
    yb_add(a, m, "gpu", gpu);
    yb_add(a, m, "count", yb_raw(a, "1"));
    ynode *arr = yb_map(a), *times = yb_seq(a);
    yb_push(a, times, yb_raw(a, "0"));
    yb_add(a, arr, "times", times);
    yb_add(a, m, "arrival", arr);
    yb_add(a, m, "duration", yb_raw(a, "0"));
    yb_add(a, m, "owner", yb_str(a, "job"));
    pod_group_spec *g = ARENA_NEW(a, pod_group_spec, 1);
    if (scenario_parse_pod_group(m, a, g, &js->err)) {
        sb_clear(&r->error);
        sb_printf(&r->error, "%s: job shape: %s", js->spec->cfg.path, sb_str(&js->err));
        return NULL;
    }
    g->count = 0;
    return g;
}

static int class_of(sim_run *r, jobs_source *js, const job_wait *w, int64_t gpus, int64_t cpu, int64_t mem) {
    sb_clear(&js->key);
    sb_puts(&js->key, w->tenant);
    sb_putc(&js->key, ';');
    qty(&js->key, "g", gpus, "");
    qty(&js->key, "c", cpu, "m");
    qty(&js->key, "m", mem, "");
    if (w->gpu_type && js->spec->gpu_type_label) sb_puts(&js->key, w->gpu_type);
    const char *k = intern(sb_str(&js->key));
    if (2 * (js->nused + 1) > js->nslots) {   /* grow and rehash */
        size_t n = js->nslots ? 2 * js->nslots : 256;
        class_slot *t = xcalloc(n, sizeof *t);
        for (size_t i = 0; i < js->nslots; i++)
            if (js->slots[i].key) {
                size_t h = ptr_hash(js->slots[i].key) & (n - 1);
                while (t[h].key) h = (h + 1) & (n - 1);
                t[h] = js->slots[i];
            }
        free(js->slots);
        js->slots = t;
        js->nslots = n;
    }
    size_t h = ptr_hash(k) & (js->nslots - 1);
    while (js->slots[h].key) {
        if (js->slots[h].key == k) return (int)js->slots[h].cls;
        h = (h + 1) & (js->nslots - 1);
    }
    pod_group_spec *g = make_spec(r, js, w->tenant, gpus, cpu, mem, w->gpu_type);
    if (!g) return -1;
    int c = sim_add_class(r, g);
    if (c < 0) {
        sb_clear(&r->error);
        sb_printf(&r->error, "%s: a job of tenant %s asks for %lld GPUs per pod: no node offers that", js->spec->cfg.path,
                  w->tenant, (long long)gpus);
        return -1;
    }
    js->slots[h] = (class_slot){k, (uint32_t)c};
    js->nused++;
    return c;
}

static uint32_t tenant_index(jobs_source *js, const char *t) {
    for (size_t i = js->tenants.len; i-- > 0;)
        if (js->tenants.data[i] == t) return (uint32_t)i;
    VEC_PUSH(js->tenants, t);
    return (uint32_t)(js->tenants.len - 1);
}

/* ---- the source ---- */

static int next_event(sim_run *r, jobs_source *js) {
    if (refill(r, js)) return -1;
    if (!js->heap.len) return 0;
    sim_time t = js->heap.data[0].key;
    if (t < js->now) {
        js->late_rows++;
        t = js->now;
    }
    sim_schedule_source(r, js->id, t, 0);
    return 0;
}

static int jobs_start(sim_run *r, void *ctx) {
    jobs_source *js = ctx;
    if (job_reader_open(&js->spec->cfg, &js->reader, &r->error)) return -1;
    return next_event(r, js);
}

/* The pods of run `run` (0: the first) of job jid (1-based), a gang when n > 1. */
static void submit_pods(sim_run *r, jobs_source *js, uint32_t jid, uint32_t c, int64_t n, const char *id,
                        const char *tenant, const char *const *labels, int run, int64_t duration, sim_time now) {
    uint32_t gang = 0;
    char name[300];
    k8s_kv kv[JOB_MAX_LABELS];   /* the job's labels: one shared set for its pods */
    size_t nkv = 0;
    for (size_t l = 0; l < js->spec->cfg.nlabels; l++)
        if (labels[l]) kv[nkv++] = (k8s_kv){intern(js->spec->cfg.label_keys[l]), labels[l]};
    uint32_t set = nkv ? sim_label_set_id(r, kv, nkv) : 0;
    if (n > 1) gang = sim_gang_new(r, tenant, (int32_t)n, (int32_t)n, 0);
    for (int64_t i = 0; i < n; i++) {
        const char *pn = id;
        if (n > 1 || run) {
            int len = run ? snprintf(name, sizeof name, "%s-r%d", id ? id : "job", run)
                          : snprintf(name, sizeof name, "%s", id ? id : "job");
            if (n > 1 && len >= 0 && (size_t)len < sizeof name)
                snprintf(name + len, sizeof name - (size_t)len, "-%lld", (long long)i);
            pn = intern(name);
        }
        if (n > 1) sim_gang_expect(r, gang, pn);
        uint32_t pod = sim_arrive(r, js->id, c, pn, duration, now);
        while (js->pod_job.len <= pod) VEC_PUSH(js->pod_job, 0);
        js->pod_job.data[pod] = jid;
        sim_pod_set_labels(r, pod, set);
    }
}

/* Submit one job: its pods (a gang when it has several). */
static int arrive(sim_run *r, jobs_source *js, const job_wait *w, sim_time now) {
    int64_t n = w->nodes;
    int64_t gpus = (w->gpu_milli + 1000 * n - 1) / (1000 * n);   /* whole GPUs per pod */
    if (gpus * 1000 * n != w->gpu_milli) js->rounded_up++;
    int64_t cpu = (w->cpu_milli + n - 1) / n;
    cpu = (cpu + 9) / 10 * 10;   /* 10m steps keep the classes few */
    int64_t mem = w->mem_bytes ? ((w->mem_bytes + n - 1) / n + 1048575) / 1048576 * 1048576 : 0;
    int c = class_of(r, js, w, gpus, cpu, mem);
    if (c < 0) {
        free(w->att);
        return -1;
    }
    job_rec j = {.submit = w->submit, .rec_start = w->rec_start, .duration = w->duration, .first_start = -1,
                 .last_end = -1, .tenant = tenant_index(js, w->tenant), .pods_left = (uint32_t)n,
                 .npods = (uint32_t)n, .size = (uint8_t)size_class(w->gpu_milli)};
    if (w->att) {   /* later runs restart the job (Philly's attempts) */
        job_more *m = xcalloc(1, sizeof *m);
        *m = (job_more){.att = w->att, .natt = w->natt, .next = 1, .cls = (uint32_t)c, .npods = (uint32_t)n,
                        .id = w->id, .tenant = w->tenant};
        memcpy(m->labels, w->labels, sizeof m->labels);
        j.more = m;
    }
    VEC_PUSH(js->jobs, j);
    uint32_t jid = (uint32_t)js->jobs.len;
    submit_pods(r, js, jid, (uint32_t)c, n, w->id, w->tenant, w->labels, 0, w->att ? w->att[1] : w->duration, now);
    return 0;
}

/* The next run of job jid (1-based) after its previous run ended: its pods again, for that run's time. */
static int restart(sim_run *r, jobs_source *js, uint32_t jid, sim_time now) {
    job_rec *j = &js->jobs.data[jid - 1];
    job_more *m = j->more;
    int k = m->next++;
    j->pods_left = m->npods;
    js->restarts++;
    submit_pods(r, js, jid, m->cls, m->npods, m->id, m->tenant, m->labels, k, m->att[2 * k + 1], now);
    return 0;
}

static int jobs_event(sim_run *r, void *ctx, uint64_t arg, sim_time now) {
    jobs_source *js = ctx;
    js->now = now;
    if (arg) return restart(r, js, (uint32_t)arg, now);   /* a restart event: arg = the job (1-based) */
    /* every job due now (or overdue) arrives */
    do {
        job_wait w = heap_pop(js);
        if (arrive(r, js, &w, now)) return -1;
        if (refill(r, js)) return -1;
    } while (js->heap.len && js->heap.data[0].key <= now);
    return next_event(r, js);
}

static job_rec *job_of(jobs_source *js, uint32_t pod) {
    if (pod >= js->pod_job.len || !js->pod_job.data[pod]) return NULL;
    return &js->jobs.data[js->pod_job.data[pod] - 1];
}

static int jobs_started(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    (void)r;
    job_rec *j = job_of(ctx, pod);
    if (j && j->first_start < 0) j->first_start = t;
    return 0;
}

static int jobs_finished(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    jobs_source *js = ctx;
    job_rec *j = job_of(js, pod);
    if (!j) return 0;
    if (j->pods_left) j->pods_left--;
    if (t > j->last_end) j->last_end = t;
    job_more *m = j->more;
    if (!j->pods_left && m && m->next < m->natt) {   /* restart: at once, or as-recorded not before its recorded start */
        sim_time at = t;
        if (js->spec->mode == JOBS_AS_RECORDED && m->att[2 * m->next] > at) at = m->att[2 * m->next];
        sim_schedule_source(r, js->id, at, (uint64_t)js->pod_job.data[pod]);
    }
    return 0;
}

/* ---- answers ---- */

typedef struct stats {
    VEC(double) jct, slow, wait, rec_wait;
    int64_t jobs, done, exact;
} stats;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* qsort needs a non-NULL array even when empty (UBSan). */
static void sort_doubles(double *v, size_t n) {
    if (n) qsort(v, n, sizeof *v, cmp_double);
}

static double pct(double *v, size_t n, double p) {
    if (!n) return NAN;
    size_t k = (size_t)ceil(p / 100.0 * (double)n);
    return v[k ? k - 1 : 0];
}

static double mean(const double *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return n ? s / (double)n : NAN;
}

static void put(sim_run *r, const char *group, const char *name, double v) {
    if (!group) {
        sim_metric_add(r, name, v);
        return;
    }
    sim_metric m = {intern(name), v, intern(group)};
    VEC_PUSH(r->summary, m);
}

static void emit(sim_run *r, const char *group, stats *st) {
    sort_doubles(st->jct.data, st->jct.len);
    sort_doubles(st->slow.data, st->slow.len);
    sort_doubles(st->wait.data, st->wait.len);
    sort_doubles(st->rec_wait.data, st->rec_wait.len);
    put(r, group, "jobs", (double)st->jobs);
    put(r, group, "jobs_completed", (double)st->done);
    put(r, group, "jct_mean_s", mean(st->jct.data, st->jct.len));
    put(r, group, "jct_p50_s", pct(st->jct.data, st->jct.len, 50));
    put(r, group, "jct_p99_s", pct(st->jct.data, st->jct.len, 99));
    put(r, group, "slowdown_mean", mean(st->slow.data, st->slow.len));
    put(r, group, "slowdown_p50", pct(st->slow.data, st->slow.len, 50));
    put(r, group, "slowdown_p99", pct(st->slow.data, st->slow.len, 99));
    put(r, group, "job_wait_mean_s", mean(st->wait.data, st->wait.len));
    put(r, group, "job_wait_p50_s", pct(st->wait.data, st->wait.len, 50));
    put(r, group, "job_wait_p99_s", pct(st->wait.data, st->wait.len, 99));
    /* side by side: the trace's own waits (start - submit) of the same started jobs, in either mode */
    if (st->rec_wait.len) {
        put(r, group, "recorded_wait_mean_s", mean(st->rec_wait.data, st->rec_wait.len));
        put(r, group, "recorded_wait_p50_s", pct(st->rec_wait.data, st->rec_wait.len, 50));
        put(r, group, "recorded_wait_p99_s", pct(st->rec_wait.data, st->rec_wait.len, 99));
        put(r, group, "jobs_started_as_recorded", (double)st->exact);
    }
    VEC_FREE(st->jct);
    VEC_FREE(st->slow);
    VEC_FREE(st->wait);
    VEC_FREE(st->rec_wait);
}

static void add(stats *st, const job_rec *j) {
    st->jobs++;
    if (j->first_start >= 0) {
        VEC_PUSH(st->wait, (double)(j->first_start - j->submit) / 1000.0);
        if (j->rec_start >= 0) VEC_PUSH(st->rec_wait, (double)(j->rec_start - j->submit) / 1000.0);
        if (j->first_start == j->rec_start) st->exact++;
    }
    if (j->pods_left == 0 && j->last_end >= 0) {
        st->done++;
        double jct = (double)(j->last_end - j->submit) / 1000.0;
        VEC_PUSH(st->jct, jct);
        VEC_PUSH(st->slow, j->duration > 0 ? jct * 1000.0 / (double)j->duration : 1.0);
    }
}

static void warn(sim_run *r, const char *kind, strbuf *b) {
    sim_warning w = {NULL, kind, xstrdup(sb_str(b))};
    VEC_PUSH(r->warnings, w);
    sb_clear(b);
}

static void jobs_summarize(sim_run *r, void *ctx) {
    jobs_source *js = ctx;
    const jobs_spec *s = js->spec;
    stats all = {0}, sizes[NSIZES] = {0};
    stats *ten = xcalloc(js->tenants.len ? js->tenants.len : 1, sizeof *ten);
    for (size_t i = 0; i < js->jobs.len; i++) {
        const job_rec *j = &js->jobs.data[i];
        add(&all, j);
        add(&ten[j->tenant], j);
        add(&sizes[j->size], j);
    }
    emit(r, NULL, &all);
    for (int k = 0; k < NSIZES; k++)
        if (sizes[k].jobs) emit(r, SIZE_NAMES[k], &sizes[k]);
    for (size_t t = 0; t < js->tenants.len; t++) emit(r, js->tenants.data[t], &ten[t]);
    free(ten);
    const int64_t *sk = job_reader_skipped(js->reader);
    put(r, NULL, "jobs_rows_read", (double)job_reader_rows(js->reader));
    for (int k = 0; k < JS_N; k++) {
        char name[64];
        snprintf(name, sizeof name, "jobs_skipped_%s", job_skip_names[k]);
        put(r, NULL, name, (double)sk[k]);
    }
    put(r, NULL, "jobs_late_rows", (double)js->late_rows);
    if (s->cfg.json) {
        put(r, NULL, "jobs_restarts", (double)js->restarts);
        put(r, NULL, "jobs_attempts_dropped", (double)job_reader_attempts_dropped(js->reader));
    }
    put(r, NULL, "jobs_gpus_rounded_up", (double)js->rounded_up);
    /* what the replay changed or left out, said loudly (run_warnings, `drasim run`) */
    strbuf b = {0};
    int64_t nskip = 0;
    for (int k = 0; k < JS_N; k++) nskip += sk[k];
    if (nskip) {
        sb_printf(&b, "%s: %lld of %lld rows skipped (", s->cfg.path, (long long)nskip, (long long)job_reader_rows(js->reader));
        const char *sep = "";
        for (int k = 0; k < JS_N; k++)
            if (sk[k]) {
                sb_printf(&b, "%s%s %lld", sep, job_skip_names[k], (long long)sk[k]);
                sep = ", ";
            }
        sb_puts(&b, ")");
        warn(r, "jobs-skipped", &b);
    }
    if (!job_reader_rows(js->reader)) {   /* an empty trace must not pass for a quiet one */
        sb_printf(&b, "%s: no job rows (the file holds no data row): nothing of it was replayed", s->cfg.path);
        warn(r, "jobs-empty", &b);
    }
    if (job_reader_attempts_dropped(js->reader)) {
        sb_printf(&b, "%s: %lld attempts without a start or end time (a logging error, the trace's README says) left out",
                  s->cfg.path, (long long)job_reader_attempts_dropped(js->reader));
        warn(r, "jobs-attempts", &b);
    }
    if (js->late_rows) {
        sb_printf(&b, "%s: %lld jobs were read after their arrival time (the file is not in submit order) and arrived late",
                  s->cfg.path, (long long)js->late_rows);
        warn(r, "jobs-late", &b);
    }
    if (js->rounded_up) {
        sb_printf(&b, "%s: %lld jobs asked for GPUs that do not split evenly into whole GPUs per pod; rounded up",
                  s->cfg.path, (long long)js->rounded_up);
        warn(r, "jobs-rounded", &b);
    }
    sb_free(&b);
}

static void jobs_free(void *ctx) {
    jobs_source *js = ctx;
    job_reader_close(js->reader);
    for (size_t i = 0; i < js->heap.len; i++) free(js->heap.data[i].att);
    for (size_t i = 0; i < js->jobs.len; i++)
        if (js->jobs.data[i].more) {
            free(js->jobs.data[i].more->att);
            free(js->jobs.data[i].more);
        }
    VEC_FREE(js->heap);
    VEC_FREE(js->jobs);
    VEC_FREE(js->pod_job);
    VEC_FREE(js->tenants);
    free(js->slots);
    arena_free(&js->a);
    sb_free(&js->key);
    sb_free(&js->err);
    free(js);
}

int jobs_source_attach(sim_run *r, const jobs_spec *spec) {
    jobs_source *js = xcalloc(1, sizeof *js);
    js->spec = spec;
    js->last_submit = INT64_MIN;
    sim_source src = {.ctx = js, .start = jobs_start, .event = jobs_event, .started = jobs_started,
                      .finished = jobs_finished, .summarize = jobs_summarize, .free = jobs_free};
    int id = js->id = sim_add_source(r, &src);
    if (id < 0) jobs_free(js);
    return id;
}
