/* store.c -- SQLite results: schema, bulk inserts, atomic publish (see store.h). */
#include "store/store.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/output_path.h"
#include "store/store_dra.h"
#include "store/store_rows.h"
#include "store/store_autoscaler.h"
#include "store/store_faults.h"
#include "store/store_labels.h"
#include "store/store_reasons.h"
#include "store/store_usage.h"
#include "store/store_cost.h"
#include "store/store_topology.h"
#include "store/store_cd.h"
#include "store/store_queues.h"
#include "util/xalloc.h"

static const char *const schema_sql =
    "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, scenario TEXT NOT NULL, scenario_file TEXT, mode TEXT NOT NULL,"
    " policy TEXT NOT NULL, seed INTEGER NOT NULL, stop_ms INTEGER, end_ms INTEGER NOT NULL, nodes INTEGER NOT NULL,"
    " pods INTEGER NOT NULL, drasim_version TEXT NOT NULL);\n"
    "CREATE TABLE nodes(run_id INTEGER NOT NULL, node_id INTEGER NOT NULL, name TEXT NOT NULL, pool TEXT,"
    " gpu_model TEXT, gpus INTEGER NOT NULL, cpu_milli INTEGER NOT NULL, memory_bytes INTEGER NOT NULL,"
    " max_pods INTEGER NOT NULL, PRIMARY KEY(run_id, node_id));\n"
    "CREATE TABLE node_resources(run_id INTEGER NOT NULL, node_id INTEGER NOT NULL, resource TEXT NOT NULL,"
    " allocatable INTEGER NOT NULL, PRIMARY KEY(run_id, node_id, resource));\n"
    "CREATE TABLE devices(run_id INTEGER NOT NULL, node_id INTEGER NOT NULL, resource TEXT NOT NULL,"
    " unit INTEGER NOT NULL, name TEXT NOT NULL, gpu_equiv REAL NOT NULL, PRIMARY KEY(run_id, node_id, resource, unit));\n"
    "CREATE TABLE pod_groups(run_id INTEGER NOT NULL, group_id INTEGER NOT NULL, name TEXT NOT NULL,"
    " count INTEGER NOT NULL, priority INTEGER NOT NULL, requests TEXT NOT NULL, attempts INTEGER NOT NULL,"
    " failed_attempts INTEGER NOT NULL, PRIMARY KEY(run_id, group_id));\n"
    "CREATE TABLE pods(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL, name TEXT NOT NULL, group_id INTEGER NOT NULL,"
    " priority INTEGER NOT NULL, arrival_ms INTEGER NOT NULL, scheduled_ms INTEGER, completion_ms INTEGER,"
    " duration_ms INTEGER NOT NULL, wait_ms INTEGER, node_id INTEGER, devices TEXT, state TEXT NOT NULL, reason TEXT,"
    " PRIMARY KEY(run_id, pod_id)) WITHOUT ROWID;\n"
    "CREATE TABLE samples(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL, pending_pods INTEGER NOT NULL,"
    " running_pods INTEGER NOT NULL, gpus_alloc INTEGER NOT NULL, mig_alloc INTEGER NOT NULL,"
    " gpu_equiv_alloc REAL NOT NULL, gpu_alloc_pct REAL NOT NULL, cpu_alloc_milli INTEGER NOT NULL,"
    " memory_alloc_bytes INTEGER NOT NULL, frag_gpus REAL, frag_gpu_pct REAL, frag_ratio_pct REAL, stranded_gpus REAL,"
    " nodes_fit_1 INTEGER, nodes_fit_2 INTEGER, nodes_fit_4 INTEGER, nodes_fit_8 INTEGER, frag_mig_pct REAL,"
    " idle_gpus REAL, idle_usable_gpus REAL, idle_mig_layout_gpus REAL, idle_fragmented_gpus REAL,"
    " idle_unavailable_gpus REAL, PRIMARY KEY(run_id, time_ms));\n"
    "CREATE TABLE alloc_groups(run_id INTEGER NOT NULL, pool TEXT, gpu_model TEXT, gpus REAL NOT NULL,"
    " gpu_hours_allocated REAL NOT NULL);\n"
    "CREATE TABLE sample_resources(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL, resource TEXT NOT NULL,"
    " allocated INTEGER NOT NULL, allocatable INTEGER NOT NULL, PRIMARY KEY(run_id, time_ms, resource));\n"
    "CREATE TABLE summary(run_id INTEGER NOT NULL, metric TEXT NOT NULL, value REAL, grp TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY(run_id, grp, metric));\n"
    "CREATE TABLE arrival_curve(run_id INTEGER NOT NULL, arrived_pct INTEGER NOT NULL, gpu_alloc_pct REAL NOT NULL,"
    " frag_gpu_pct REAL NOT NULL, frag_ratio_pct REAL NOT NULL, PRIMARY KEY(run_id, arrived_pct));\n";

/* Does main hold an object `name` of type `type` ("table", "view")? */
bool store_has_object(sqlite3 *db, const char *type, const char *name) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.sqlite_master WHERE type = ?1 AND name = ?2", -1, &s, NULL) !=
        SQLITE_OK)
        return false;
    sqlite3_bind_text(s, 1, type, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
    bool found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

int store_create_schema(sqlite3 *db) {
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", STORE_SCHEMA_VERSION);
    return sqlite3_exec(db, schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
                   sqlite3_exec(db, pragma, NULL, NULL, NULL) != SQLITE_OK
               ? -1
               : 0;
}

static int fail(store *st, strbuf *err, const char *what) {
    sb_clear(err);
    sb_printf(err, "%s: %s: %s", st->tmp ? st->tmp : "results", what, st->db ? sqlite3_errmsg(st->db) : "no database");
    return -1;
}

int store_open(store *st, const char *path, strbuf *err) {
    memset(st, 0, sizeof *st);
    st->lock = -1;
    st->path = xstrdup(path);
    if ((st->lock = output_lock(path, err)) < 0) {
        free(st->path);
        st->path = NULL;
        return -1;
    }
    strbuf t = {0};
    sb_printf(&t, "%s.tmp-%ld", path, (long)getpid());
    st->tmp = xstrdup(sb_str(&t));
    sb_free(&t);
    unlink(st->tmp);
    output_tmp_track(st->tmp);
    st->next_run_id = 1;
    /* one thread writes a store: no connection mutex (millions of binds would lock and unlock it each) */
    if (sqlite3_open_v2(st->tmp, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return fail(st, err, "cannot create database");
    if (sqlite3_exec(st->db,
                     "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
                     "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536; BEGIN;",
                     NULL, NULL, NULL) != SQLITE_OK ||
        store_create_schema(st->db))
        return fail(st, err, "cannot create schema");
    return 0;
}

/* A prepared statement bound positionally: b(st, i, ...) helpers below. */
static sqlite3_stmt *prep(store *st, const char *sql) {
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) return NULL;
    return s;
}

static int step(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite3_reset(s);   /* every caller binds every parameter again */
    return rc == SQLITE_DONE ? 0 : -1;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v) {
    if (v) sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
    else sqlite3_bind_null(s, i);
}

static void bind_opt_int(sqlite3_stmt *s, int i, int64_t v) {
    if (v >= 0) sqlite3_bind_int64(s, i, v);
    else sqlite3_bind_null(s, i);
}

/* Cursor over one of the node tables for store_rows_insert (write_nodes):
 * table 0 nodes (node i), 1 node_resources (its extended resource r with
 * allocatable > 0), 2 devices (unit u of such a resource with <= 64 units),
 * each in the order of a loop over the nodes, their resources and units. */
typedef struct node_cursor {
    const sim_run *run;
    const inv_node *info;
    int64_t id;
    int table;
    bool started;
    size_t i, r;
    int64_t u;
    strbuf name;
} node_cursor;

static void put_uint(strbuf *b, uint64_t v);
static void result_text(sqlite3_context *out, const char *v);

static bool next_node_row(void *ctx) {
    node_cursor *c = ctx;
    const scheduler *s = &c->run->sched;
    if (c->table == 0) {
        if (c->started) c->i++;
        c->started = true;
        return c->i < c->run->nnodes;
    }
    if (!c->started) {
        c->started = true;
        c->i = 0, c->r = RES_PODS + 1, c->u = 0;
    } else if (c->table == 2) {
        c->u++;
    } else {
        c->r++;
    }
    for (; c->i < c->run->nnodes; c->i++, c->r = RES_PODS + 1, c->u = 0) {
        const int64_t *alloc = &s->alloc[c->i * s->nres];
        for (; c->r < s->nres; c->r++, c->u = 0) {
            if (!alloc[c->r]) continue;
            if (c->table == 1 || (alloc[c->r] <= 64 && c->u < alloc[c->r])) return true;   /* counted devices only */
        }
    }
    return false;
}

static void node_column(void *ctx, sqlite3_context *out, int col) {
    node_cursor *c = ctx;
    const sim_run *run = c->run;
    const scheduler *s = &run->sched;
    const inv_node *info = c->info;
    size_t i = c->i;
    const int64_t *alloc = &s->alloc[i * s->nres];
    if (col == 0) {
        sqlite3_result_int64(out, c->id);
        return;
    }
    if (col == 1) {
        sqlite3_result_int64(out, (int64_t)i);
        return;
    }
    if (c->table == 0) {
        switch (col) {
        case 2: result_text(out, run->nodes[i].meta.name); break;
        case 3: result_text(out, info && info[i].pool ? info[i].pool->name : NULL); break;
        case 4: result_text(out, info && info[i].gpu ? info[i].gpu->key : info && info[i].pool ? info[i].pool->gpu_model : NULL); break;
        case 5: sqlite3_result_int64(out, info ? info[i].gpus : 0); break;
        case 6: sqlite3_result_int64(out, alloc[RES_CPU]); break;
        case 7: sqlite3_result_int64(out, alloc[RES_MEMORY]); break;
        default: sqlite3_result_int64(out, alloc[RES_PODS]); break;
        }
        return;
    }
    switch (col) {
    case 2: result_text(out, s->res_names[c->r]); break;
    case 3: sqlite3_result_int64(out, c->table == 1 ? alloc[c->r] : c->u); break;
    case 4: {   /* devices.name: "<node>/<resource>/<unit>" */
        const char *node = run->nodes[i].meta.name;
        sb_clear(&c->name);
        sb_puts(&c->name, node ? node : "(null)");
        sb_putc(&c->name, '/');
        sb_puts(&c->name, s->res_names[c->r]);
        sb_putc(&c->name, '/');
        put_uint(&c->name, (uint64_t)c->u);
        sqlite3_result_text(out, sb_str(&c->name), (int)c->name.len, SQLITE_STATIC);
        break;
    }
    default: sqlite3_result_double(out, run->res_equiv[c->r]); break;
    }
}

/* nodes, node_resources and devices, each in one INSERT ... SELECT (store_rows.h). */
static int write_nodes(store *st, int64_t id, const sim_run *run, const inv_node *info) {
    static const char *const table[3] = {"nodes", "node_resources", "devices"};
    static const int ncols[3] = {9, 4, 6};
    int rc = 0;
    for (int t = 0; t < 3 && !rc; t++) {
        node_cursor cur = {.run = run, .info = info, .id = id, .table = t};
        store_rows rows = {.ncols = ncols[t], .ctx = &cur, .next = next_node_row, .column = node_column};
        rc = store_rows_insert(st->db, table[t], &rows);
        sb_free(&cur.name);
    }
    return rc;
}

/* v in decimal at the end of b (no strlen: the digits are counted). */
static void put_uint(strbuf *b, uint64_t v) {
    char num[24], *q = num + sizeof num;
    do *--q = (char)('0' + v % 10); while ((v /= 10));
    sb_append(b, q, (size_t)(num + sizeof num - q));
}

/* "res=0,1,5": resource name `res` (length rlen) and the units of mask m, at the end of out. */
static void put_units(strbuf *out, const char *res, size_t rlen, uint64_t m) {
    sb_append(out, res, rlen);
    sb_putc(out, '=');
    for (bool first = true; m; m &= m - 1, first = false) {
        if (!first) sb_putc(out, ',');
        put_uint(out, (uint64_t)__builtin_ctzll(m));
    }
}

enum { POD_COLS = 14, DEV_CACHED = 256 };

/* What every pod of a class writes alike: its name's prefix and priority. */
typedef struct pod_class_text {
    const char *name;
    size_t nlen;
    int64_t priority;
} pod_class_text;

/* One resource's "res=units" text for a unit mask, built once. */
typedef struct dev_text {
    char *s;
    uint32_t len;
} dev_text;

/* Cursor over the pods for store_rows_insert: pod i, its name and devices
 * texts; per class and per resource what does not change from pod to pod
 * is looked up once (issue 31: 10M rows). */
typedef struct pod_cursor {
    const sim_run *run;
    int64_t id;
    size_t i;                           /* the current pod + 1 (0 before the first) */
    volatile sig_atomic_t *interrupt;
    bool interrupted;
    strbuf dev;
    char *name;                         /* "<class>-<ordinal>": the class's prefix stays while the class does */
    uint32_t name_class;                /* the class whose prefix `name` holds (UINT32_MAX: none) */
    pod_class_text *cls;                /* per class */
    size_t rlen[SCHED_MAX_RESOURCES];   /* strlen of each resource name */
    dev_text *dev_cache[SCHED_MAX_RESOURCES];   /* per resource: the text of each mask < DEV_CACHED, built on first use */
} pod_cursor;

/* The cached "res=units" text of mask m (< DEV_CACHED) of resource k. */
static const dev_text *dev_cached(pod_cursor *c, size_t k, uint64_t m) {
    if (!c->dev_cache[k]) c->dev_cache[k] = xcalloc(DEV_CACHED, sizeof *c->dev_cache[k]);
    dev_text *d = &c->dev_cache[k][m];
    if (!d->s) {
        strbuf b = {0};
        put_units(&b, c->run->sched.res_names[k], c->rlen[k], m);
        d->len = (uint32_t)b.len;
        d->s = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    return d;
}

/* pods.devices: "nvidia.com/gpu=0,1;nvidia.com/mig-1g.10gb=3" from the pod's
 * unit masks (*len 0: none). One resource with a small mask (the usual pod)
 * is its cached text as it is; more are joined in c->dev. */
static const char *devices_text(pod_cursor *c, const sim_pod *p, size_t *len) {
    const sim_run *run = c->run;
    const pod_class *cl = &run->sched.classes[p->group];
    const uint64_t *u = sim_pod_units(run, p);
    const dev_text *one = NULL;   /* the first resource's text while it is the only one */
    size_t e = 0;
    sb_clear(&c->dev);
    for (size_t i = 0; i < cl->ndemand; i++) {
        size_t k = cl->demand[i].res;
        if (k <= RES_PODS) continue;
        uint64_t m = e < 8 ? u[e] : 0;
        e++;
        /* a GPU resource with too many units to track (milli-GPU): the GPUs the pod took */
        if (!m && (int)k == cl->gpu_res) m = p->gpus;
        if (!m) continue;
        if (m < DEV_CACHED && !one && !c->dev.len) {
            one = dev_cached(c, k, m);
            continue;
        }
        if (one) sb_append(&c->dev, one->s, one->len), one = NULL;
        if (c->dev.len) sb_putc(&c->dev, ';');
        if (m < DEV_CACHED) {
            const dev_text *d = dev_cached(c, k, m);
            sb_append(&c->dev, d->s, d->len);
        } else {
            put_units(&c->dev, run->sched.res_names[k], c->rlen[k], m);
        }
    }
    if (one) {
        *len = one->len;
        return one->s;
    }
    *len = c->dev.len;
    return sb_str(&c->dev);
}

static bool next_pod(void *ctx) {
    pod_cursor *c = ctx;
    if (c->i >= c->run->pods.len) return false;
    if (c->interrupt && *c->interrupt) {
        c->interrupted = true;
        return false;
    }
    c->i++;
    return true;
}

static void result_opt_int(sqlite3_context *out, int64_t v) {
    if (v >= 0) sqlite3_result_int64(out, v);
    else sqlite3_result_null(out);
}

static void result_text(sqlite3_context *out, const char *v) {
    if (v) sqlite3_result_text(out, v, -1, SQLITE_STATIC);
    else sqlite3_result_null(out);
}

/* pods.state: the text of each sim_pod_state, with its length. */
static void result_state(sqlite3_context *out, uint8_t st) {
    switch (st) {
    case POD_RUNNING: sqlite3_result_text(out, "Running", 7, SQLITE_STATIC); break;
    case POD_SUCCEEDED: sqlite3_result_text(out, "Succeeded", 9, SQLITE_STATIC); break;
    case POD_DELETED: sqlite3_result_text(out, "Deleted", 7, SQLITE_STATIC); break;
    case POD_TERMINATING: sqlite3_result_text(out, "Terminating", 11, SQLITE_STATIC); break;
    case POD_FAILED: sqlite3_result_text(out, "Failed", 6, SQLITE_STATIC); break;
    default: sqlite3_result_text(out, "Pending", 7, SQLITE_STATIC); break;
    }
}

/* pods.name of an unnamed pod, "<class>-<ordinal>", in c->name: the class's
 * prefix is copied when the class changes, then only the digits. */
static void result_pod_name(pod_cursor *c, sqlite3_context *out, const sim_pod *p) {
    const pod_class_text *t = &c->cls[p->group];
    if (c->name_class != p->group) {
        if (t->nlen) memcpy(c->name, t->name, t->nlen);
        c->name[t->nlen] = '-';
        c->name_class = p->group;
    }
    char num[24], *q = num + sizeof num;
    uint64_t v = p->ordinal;
    do *--q = (char)('0' + v % 10); while ((v /= 10));
    size_t nd = (size_t)(num + sizeof num - q);
    memcpy(c->name + t->nlen + 1, q, nd);
    sqlite3_result_text(out, c->name, (int)(t->nlen + 1 + nd), SQLITE_STATIC);
}

/* Column `col` of the current pod (texts built in the cursor's buffers, read
 * once each). pods.run_id (col 0) is a constant of the SELECT (write_pods). */
static void pod_column(void *ctx, sqlite3_context *out, int col) {
    pod_cursor *c = ctx;
    const sim_run *run = c->run;
    size_t i = c->i - 1;
    const sim_pod *p = &run->pods.data[i];
    switch (col) {
    case 0: sqlite3_result_int64(out, c->id); break;
    case 1: sqlite3_result_int64(out, (int64_t)i); break;
    case 2:
        if (i < run->pod_names.len && run->pod_names.data[i]) {   /* pods of a workload source carry their own name */
            sqlite3_result_text(out, run->pod_names.data[i], -1, SQLITE_STATIC);
            break;
        }
        result_pod_name(c, out, p);
        break;
    case 3: sqlite3_result_int64(out, p->group); break;
    case 4: sqlite3_result_int64(out, c->cls[p->group].priority); break;
    case 5: sqlite3_result_int64(out, p->arrival); break;
    case 6: result_opt_int(out, p->start); break;
    case 7: result_opt_int(out, p->end); break;
    case 8: sqlite3_result_int64(out, p->duration); break;
    case 9: result_opt_int(out, p->start >= 0 ? p->start - p->arrival : -1); break;
    case 10: result_opt_int(out, p->node); break;
    case 11: {
        size_t len = 0;
        const char *d = p->node >= 0 ? devices_text(c, p, &len) : NULL;
        if (len) sqlite3_result_text(out, d, (int)len, SQLITE_STATIC);
        else sqlite3_result_null(out);
        break;
    }
    case 12: result_state(out, p->state); break;
    default:
        switch (p->state) {
        case POD_RUNNING:
        case POD_SUCCEEDED: sqlite3_result_null(out); break;
        case POD_PENDING: result_text(out, run->class_reason[p->group]); break;
        default: result_text(out, sim_delete_reason(run, (uint32_t)i)); break;   /* deleted, terminating, failed */
        }
        break;
    }
}

/* Every pod in one INSERT ... SELECT (store_rows.h); -2 when interrupted. */
static int write_pods(store *st, int64_t id, const sim_run *run, volatile sig_atomic_t *interrupt) {
    pod_cursor cur = {.run = run, .id = id, .interrupt = interrupt, .name_class = UINT32_MAX};
    size_t ncls = run->sched.nclasses, longest = 0;
    cur.cls = xmalloc((ncls ? ncls : 1) * sizeof *cur.cls);
    for (size_t c = 0; c < ncls; c++) {
        const pod_group_spec *g = sim_class_spec(run, (uint32_t)c);
        cur.cls[c] = (pod_class_text){g->name, g->name ? strlen(g->name) : 0, g->priority};
        if (cur.cls[c].nlen > longest) longest = cur.cls[c].nlen;
    }
    cur.name = xmalloc(longest + 24);   /* prefix, '-', up to 20 digits */
    for (size_t k = 0; k < run->sched.nres; k++) cur.rlen[k] = strlen(run->sched.res_names[k]);
    char select[128];   /* the run id as a constant: one column less to hand SQLite per row */
    snprintf(select, sizeof select, "%lld,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13", (long long)id);
    store_rows rows = {.ncols = POD_COLS, .select = select, .ctx = &cur, .next = next_pod, .column = pod_column};
    int rc = store_rows_insert(st->db, "pods", &rows);
    for (size_t k = 0; k < SCHED_MAX_RESOURCES; k++) {
        for (size_t m = 0; cur.dev_cache[k] && m < DEV_CACHED; m++) free(cur.dev_cache[k][m].s);
        free(cur.dev_cache[k]);
    }
    free(cur.cls);
    free(cur.name);
    sb_free(&cur.dev);
    return cur.interrupted ? -2 : rc;
}

/* The placement-quality columns of one sample from `col` on (docs/SCHEMA.md,
 * samples): NULL when the run did not measure them (g NULL), frag_mig_pct
 * NULL when the run has no MIG. */
static void bind_quality(sqlite3_stmt *s, int col, const gpu_metrics *g) {
    if (!g) {
        for (int k = 0; k < 10 + GPU_METRICS_NFIT; k++) sqlite3_bind_null(s, col + k);
        return;
    }
    sqlite3_bind_double(s, col, g->frag_gpus);
    sqlite3_bind_double(s, col + 1, gpu_metrics_frag_pct(g));
    sqlite3_bind_double(s, col + 2, gpu_metrics_frag_ratio_pct(g));
    sqlite3_bind_double(s, col + 3, g->stranded_gpus);
    for (int k = 0; k < GPU_METRICS_NFIT; k++) sqlite3_bind_int64(s, col + 4 + k, g->nodes_fit[k]);
    if (g->mig_frag_pct >= 0) sqlite3_bind_double(s, col + 4 + GPU_METRICS_NFIT, g->mig_frag_pct);
    else sqlite3_bind_null(s, col + 4 + GPU_METRICS_NFIT);
    const double parts[5] = {g->idle_total, g->idle_usable, g->idle_mig_layout, g->idle_fragmented, g->idle_unavailable};
    for (int k = 0; k < 5; k++) sqlite3_bind_double(s, col + 5 + GPU_METRICS_NFIT + k, parts[k]);
}

/* GPUs and GPU-hours allocated per (node pool, GPU model), both modes
 * (sim_capacity.c): GPUs as gpu_total counts them, a pod's GPU-equivalents
 * times the time it held them (start to completion or the end of the run). */
static int write_alloc_groups(store *st, int64_t id, const sim_run *run, const inv_node *info) {
    size_t n = run->nnodes, ng = 0;
    const char **pool = xcalloc(n + 1, sizeof *pool), **model = xcalloc(n + 1, sizeof *model);
    size_t *grp = xcalloc(n + 1, sizeof *grp);
    double *gpus = xcalloc(n + 1, sizeof *gpus), *held = xcalloc(n + 1, sizeof *held);
    for (size_t i = 0; i < n; i++) {
        const char *p = info && info[i].pool ? info[i].pool->name : NULL;
        const char *m = info && info[i].gpu ? info[i].gpu->key : info && info[i].pool ? info[i].pool->gpu_model : NULL;
        size_t g = 0;
        while (g < ng && !((pool[g] == p || (pool[g] && p && !strcmp(pool[g], p))) &&
                           (model[g] == m || (model[g] && m && !strcmp(model[g], m)))))
            g++;
        if (g == ng) { pool[ng] = p; model[ng] = m; ng++; }
        grp[i] = g;
        gpus[g] += sim_node_gpus(run, i);
    }
    for (size_t k = 0; k < run->pods.len; k++) {
        const sim_pod *p = &run->pods.data[k];
        if (p->start < 0 || p->node < 0 || (size_t)p->node >= n) continue;
        double eq = sim_pod_gpu_equiv(run, (uint32_t)k);
        sim_time end = p->end >= 0 ? p->end : run->end_time;   /* succeeded or deleted: its end */
        if (!isnan(eq)) held[grp[p->node]] += eq * (double)(end - p->start) / 3600000.0;
    }
    sqlite3_stmt *s = prep(st, "INSERT INTO alloc_groups VALUES(?,?,?,?,?)");
    int rc = s ? 0 : -1;
    for (size_t g = 0; g < ng && !rc; g++) {
        if (gpus[g] <= 0) continue;
        sqlite3_bind_int64(s, 1, id);
        bind_text(s, 2, pool[g]);
        bind_text(s, 3, model[g]);
        sqlite3_bind_double(s, 4, gpus[g]);
        sqlite3_bind_double(s, 5, held[g]);
        rc = step(s);
    }
    sqlite3_finalize(s);
    free(pool); free(model); free(grp); free(gpus); free(held);
    return rc;
}

static int write_groups_samples_summary(store *st, int64_t id, const sim_run *run) {
    const scheduler *sc = &run->sched;
    sqlite3_stmt *g = prep(st, "INSERT INTO pod_groups VALUES(?,?,?,?,?,?,?,?)");
    sqlite3_stmt *s = prep(st, "INSERT INTO samples VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    sqlite3_stmt *sr = prep(st, "INSERT INTO sample_resources VALUES(?,?,?,?,?)");
    sqlite3_stmt *m = prep(st, "INSERT INTO summary VALUES(?,?,?,?)");
    int rc = g && s && sr && m ? 0 : -1;
    strbuf req = {0};
    for (size_t i = 0; i < sc->nclasses && !rc; i++) {
        const pod_class *c = &sc->classes[i];
        sb_clear(&req);
        for (size_t k = 0; k < c->ndemand; k++)
            sb_printf(&req, "%s%s=%lld", k ? ";" : "", sc->res_names[c->demand[k].res], (long long)c->demand[k].amount);
        sqlite3_bind_int64(g, 1, id);
        sqlite3_bind_int64(g, 2, (int64_t)i);
        bind_text(g, 3, c->name);
        sqlite3_bind_int64(g, 4, sim_class_spec(run, (uint32_t)i)->count);
        sqlite3_bind_int64(g, 5, c->priority);
        bind_text(g, 6, sb_str(&req));
        sqlite3_bind_int64(g, 7, (int64_t)c->attempts);
        sqlite3_bind_int64(g, 8, (int64_t)c->failures);
        rc = step(g);
    }
    sb_free(&req);
    for (size_t i = 0; i < run->samples.len && !rc; i++) {
        const sim_sample *x = &run->samples.data[i];
        const int64_t *used = &run->sample_used.data[i * sc->nres];
        int64_t gpus = 0, mig = 0;
        for (size_t r = RES_PODS + 1; r < sc->nres; r++) {
            const char *nm = sc->res_names[r];
            if (!strcmp(nm, "nvidia.com/gpu") || !strcmp(nm, "nvidia.com/gpu.shared")) gpus += used[r];
            else if (!strncmp(nm, "nvidia.com/mig-", 15)) mig += used[r];
        }
        sqlite3_bind_int64(s, 1, id);
        sqlite3_bind_int64(s, 2, x->t);
        sqlite3_bind_int64(s, 3, x->pending);
        sqlite3_bind_int64(s, 4, x->running);
        sqlite3_bind_int64(s, 5, gpus);
        sqlite3_bind_int64(s, 6, run->dra ? x->mig_devices : mig);   /* DRA: devices of type mig */
        sqlite3_bind_double(s, 7, x->gpu_equiv);
        sqlite3_bind_double(s, 8, run->total_gpu_equiv > 0 ? 100.0 * x->gpu_equiv / run->total_gpu_equiv : 0);
        sqlite3_bind_int64(s, 9, used[RES_CPU]);
        sqlite3_bind_int64(s, 10, used[RES_MEMORY]);
        bind_quality(s, 11, i < run->sample_gpu.len ? &run->sample_gpu.data[i] : NULL);
        rc = step(s);
        for (size_t r = RES_PODS + 1; r < sc->nres && !rc; r++) {
            if (!run->tot_alloc[r]) continue;
            sqlite3_bind_int64(sr, 1, id);
            sqlite3_bind_int64(sr, 2, x->t);
            bind_text(sr, 3, sc->res_names[r]);
            sqlite3_bind_int64(sr, 4, used[r]);
            sqlite3_bind_int64(sr, 5, run->tot_alloc[r]);
            rc = step(sr);
        }
    }
    for (size_t i = 0; i < run->summary.len && !rc; i++) {
        sqlite3_bind_int64(m, 1, id);
        bind_text(m, 2, run->summary.data[i].name);
        if (isnan(run->summary.data[i].value)) sqlite3_bind_null(m, 3);
        else sqlite3_bind_double(m, 3, run->summary.data[i].value);
        bind_text(m, 4, run->summary.data[i].group ? run->summary.data[i].group : "");
        rc = step(m);
    }
    sqlite3_finalize(g);
    sqlite3_finalize(s);
    sqlite3_finalize(sr);
    sqlite3_finalize(m);
    return rc;
}

static int write_arrival_curve(store *st, int64_t id, const sim_run *run) {
    if (!run->curve.len) return 0;
    sqlite3_stmt *s = prep(st, "INSERT INTO arrival_curve VALUES(?,?,?,?,?)");
    int rc = s ? 0 : -1;
    for (size_t i = 0; i < run->curve.len && !rc; i++) {
        const sim_curve_point *p = &run->curve.data[i];
        sqlite3_bind_int64(s, 1, id);
        sqlite3_bind_int64(s, 2, p->arrived_pct);
        sqlite3_bind_double(s, 3, p->gpu_alloc_pct);
        sqlite3_bind_double(s, 4, p->frag_gpu_pct);
        sqlite3_bind_double(s, 5, p->frag_ratio_pct);
        rc = step(s);
    }
    sqlite3_finalize(s);
    return rc;
}

/* user_samples (drasim.sample): created by the first run that has any. */
static int write_user_samples(store *st, int64_t id, const sim_run *run) {
    if (!run->user_samples.len) return 0;
    if (sqlite3_exec(st->db,
                     "CREATE TABLE IF NOT EXISTS user_samples(run_id INTEGER NOT NULL, series TEXT NOT NULL,"
                     " time_ms INTEGER NOT NULL, value REAL NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s = prep(st, "INSERT INTO user_samples VALUES(?,?,?,?)");
    int rc = s ? 0 : -1;
    for (size_t i = 0; i < run->user_samples.len && !rc; i++) {
        const sim_user_sample *x = &run->user_samples.data[i];
        sqlite3_bind_int64(s, 1, id);
        bind_text(s, 2, x->series);
        sqlite3_bind_int64(s, 3, x->t);
        sqlite3_bind_double(s, 4, x->value);
        rc = step(s);
    }
    sqlite3_finalize(s);
    return rc;
}

/* runs.policy (docs/SCHEMA.md): the placement policy when one decides (trace
 * workloads: fgd unless set; DRA dynamic MIG: `policy: fgd`), else the
 * NodeResourcesFit scoring strategy. */
static const char *run_policy_name(const scenario *sc) {
    if (sc->sched.policy) return sc->sched.policy;
    if (sc->trace && !sc->sched.policy_none) return "fgd";
    switch (sc->sched.strategy) {
    case SCORE_MOST_ALLOCATED: return "MostAllocated";
    case SCORE_REQUESTED_TO_CAPACITY_RATIO: return "RequestedToCapacityRatio";
    case SCORE_LEAST_ALLOCATED: break;
    }
    return "LeastAllocated";
}

int64_t store_write_run(store *st, const sim_run *run, const inv_node *info, const char *scenario_file,
                        strbuf *err, volatile sig_atomic_t *interrupt) {
    const scenario *sc = run->sc;
    int64_t id = st->next_run_id;
    sqlite3_stmt *r = prep(st, "INSERT INTO runs VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (!r) return fail(st, err, "cannot write run");
    sqlite3_bind_int64(r, 1, id);
    bind_text(r, 2, sc->name);
    bind_text(r, 3, scenario_file);
    bind_text(r, 4, sc->sched.mode == SCHED_MODE_DRA ? "dra" : "device-plugin");
    bind_text(r, 5, run_policy_name(sc));
    sqlite3_bind_int64(r, 6, (int64_t)sc->seed);
    bind_opt_int(r, 7, sc->stop_time == SIM_TIME_NEVER ? -1 : sc->stop_time);
    sqlite3_bind_int64(r, 8, run->end_time);
    sqlite3_bind_int64(r, 9, (int64_t)run->nnodes);
    sqlite3_bind_int64(r, 10, (int64_t)run->pods.len);
    bind_text(r, 11, DRASIM_VERSION);
    int rc = step(r);
    sqlite3_finalize(r);
    if (rc || write_nodes(st, id, run, info)) return fail(st, err, "cannot write nodes");
    rc = write_pods(st, id, run, interrupt);
    if (rc == -2) {
        sb_clear(err);
        sb_puts(err, "interrupted");
        return -1;
    }
    if (rc) return fail(st, err, "cannot write pods");
    if (write_groups_samples_summary(st, id, run)) return fail(st, err, "cannot write samples");
    if (write_alloc_groups(st, id, run, info)) return fail(st, err, "cannot write alloc_groups");
    if (store_write_claims(st->db, id, run)) return fail(st, err, "cannot write claim allocations");
    if (store_write_pending_reasons(st->db, id, run)) return fail(st, err, "cannot write pending reasons");
    if (store_write_warnings(st->db, id, run)) return fail(st, err, "cannot write the run's warnings");
    if (store_write_usage(st->db, id, run, info)) return fail(st, err, "cannot write usage_pools");
    if (store_write_cost(st->db, id, run)) return fail(st, err, "cannot write cost_pools");
    if (store_write_topology(st->db, id, run)) return fail(st, err, "cannot write topology_samples");
    if (store_write_cd(st->db, id, run)) return fail(st, err, "cannot write compute_domain_daemons");
    if (write_arrival_curve(st, id, run)) return fail(st, err, "cannot write the arrival curve");
    if (write_user_samples(st, id, run)) return fail(st, err, "cannot write user_samples");
    if (store_write_faults(st->db, id, run)) return fail(st, err, "cannot write fault_timeline");
    if (store_write_pod_labels(st->db, id, run)) return fail(st, err, "cannot write pod_labels");
    if (store_write_autoscaler(st->db, id, run)) return fail(st, err, "cannot write the autoscaler tables");
    if (store_write_queues(st->db, id, run)) return fail(st, err, "cannot write the queue tables");
    st->next_run_id++;
    return id;
}

int store_commit(store *st, strbuf *err) {
    if (sqlite3_exec(st->db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK) return fail(st, err, "cannot commit");
    if (sqlite3_close(st->db) != SQLITE_OK) return fail(st, err, "cannot close");
    st->db = NULL;
    int fd = open(st->tmp, O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    if (output_not_input(st->path, err)) {
        store_abort(st);
        return -1;
    }
    if (rename(st->tmp, st->path) != 0) {
        sb_clear(err);
        sb_printf(err, "cannot rename %s to %s: %s", st->tmp, st->path, strerror(errno));
        store_abort(st);
        return -1;
    }
    output_tmp_untrack(st->tmp);
    output_unlock(st->lock);
    st->lock = -1;
    free(st->tmp);
    free(st->path);
    st->tmp = st->path = NULL;
    return 0;
}

void store_abort(store *st) {
    if (st->db) sqlite3_close(st->db);
    st->db = NULL;
    if (st->tmp) {
        unlink(st->tmp);
        output_tmp_untrack(st->tmp);
    }
    if (st->path) output_unlock(st->lock);
    st->lock = -1;
    free(st->tmp);
    free(st->path);
    st->tmp = st->path = NULL;
}
