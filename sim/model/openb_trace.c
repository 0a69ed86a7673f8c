/* openb_trace.c -- OpenB trace CSV readers and the artifact's workload inflation (see openb_trace.h). */
#include "model/openb_trace.h"

#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/fileio.h"
#include "util/rng.h"
#include "util/xalloc.h"

/* Lists this process has parsed, by their bytes: `drasim run --seeds 42..51`
 * interprets the scenario once per seed, and each list's parse would be most
 * of that. A file whose bytes equal a cached one's gets a copy of its rows
 * (their strings stay in the cache's arena for the rest of the process);
 * other files are parsed as before. Only lists that parsed without error are
 * kept, at most LIST_CACHE_MAX of them. */
#define LIST_CACHE_MAX 8
typedef struct list_cache {
    int kind;                 /* 0 nodes, 1 pods */
    char *data;               /* the file's bytes */
    size_t len, n, size;      /* bytes; rows and the size of one */
    void *rows;
    arena a;                  /* rows and their strings */
} list_cache;
static list_cache list_cache_v[LIST_CACHE_MAX];
static size_t list_cache_n;

static const list_cache *cache_find(int kind, const strbuf *data) {
    for (size_t i = 0; i < list_cache_n; i++) {
        const list_cache *c = &list_cache_v[i];
        if (c->kind == kind && c->len == data->len && !memcmp(c->data, sb_str(data), data->len)) return c;
    }
    return NULL;
}

typedef int (*list_parse_fn)(const csv_table *t, arena *a, void **out, size_t *n, strbuf *err);

/* Read `path` and give its rows from the cache or by parsing it with `parse`. */
static int load_list(const char *path, int kind, size_t size, list_parse_fn parse, arena *a, void **out, size_t *n,
                     strbuf *err) {
    strbuf data = {0};
    csv_table t;
    int rc = -1;
    if (file_read_all(path, &data, err)) goto done;
    const list_cache *hit = cache_find(kind, &data);
    if (hit) {
        *out = arena_memdup(a, hit->rows, (hit->n ? hit->n : 1) * size);
        *n = hit->n;
        rc = 0;
        goto done;
    }
    if (csv_parse(path, sb_str(&data), data.len, &t, err)) goto done;
    list_cache *c = list_cache_n < LIST_CACHE_MAX ? &list_cache_v[list_cache_n] : NULL;
    arena *into = c ? &c->a : a;
    void *rows;
    rc = parse(&t, into, &rows, n, err);
    csv_free(&t);
    if (!c) {
        if (!rc) *out = rows;
        goto done;
    }
    if (rc) {
        arena_free(&c->a);
        goto done;
    }
    c->kind = kind;
    c->len = data.len;
    c->data = xmalloc(data.len ? data.len : 1);
    memcpy(c->data, sb_str(&data), data.len);
    c->n = *n;
    c->size = size;
    c->rows = rows;
    list_cache_n++;
    *out = arena_memdup(a, rows, (*n ? *n : 1) * size);
done:
    sb_free(&data);
    return rc;
}

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

/* Node names seen so far, for the duplicate check: open addressing over row
 * indexes (a list of n rows needs n checks, not n^2 / 2 string compares). */
typedef struct name_set {
    uint32_t *slot;   /* row + 1; 0 = empty */
    size_t mask;
} name_set;

static uint64_t name_hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

/* Add row r's name; the earlier row with the same name + 1, or 0. */
static size_t name_set_add(name_set *ns, const openb_node *rows, size_t r) {
    for (size_t i = name_hash(rows[r].name) & ns->mask;; i = (i + 1) & ns->mask) {
        if (!ns->slot[i]) {
            ns->slot[i] = (uint32_t)r + 1;
            return 0;
        }
        if (!strcmp(rows[ns->slot[i] - 1].name, rows[r].name)) return ns->slot[i];
    }
}

static int parse_nodes(const csv_table *t, arena *a, void **outv, size_t *n, strbuf *err) {
    int c_name, c_cpu, c_mem, c_gpu, c_model, rc = -1;
    if (need_col(t, "sn", &c_name, err) || need_col(t, "cpu_milli", &c_cpu, err) ||
        need_col(t, "memory_mib", &c_mem, err) || need_col(t, "gpu", &c_gpu, err) ||
        need_col(t, "model", &c_model, err))
        return -1;
    openb_node *out = ARENA_NEW(a, openb_node, t->nrows ? t->nrows : 1);
    *outv = out;
    *n = t->nrows;
    name_set ns = {0};
    ns.mask = 15;
    while (ns.mask < 2 * t->nrows) ns.mask = ns.mask * 2 + 1;
    ns.slot = xcalloc(ns.mask + 1, sizeof *ns.slot);
    for (size_t r = 0; r < t->nrows; r++) {
        openb_node *nd = &out[r];
        int64_t v;
        nd->name = dup(a, csv_cell(t, r, c_name));
        if (!*nd->name) {
            sb_clear(err);
            sb_printf(err, "%s:%d: column sn: empty node name", t->name, t->lines[r + 1]);
            goto done;
        }
        if (int_cell(t, r, c_cpu, 1, INT64_MAX / 4, false, 0, &nd->cpu_milli, err) ||
            int_cell(t, r, c_mem, 0, INT64_MAX / 4, false, 0, &nd->memory_mib, err) ||
            int_cell(t, r, c_gpu, 0, OPENB_MAX_GPUS, false, 0, &v, err))
            goto done;
        nd->gpus = (int)v;
        nd->model = dup(a, csv_cell(t, r, c_model));
        if (nd->gpus > 0 && !*nd->model) {
            sb_clear(err);
            sb_printf(err, "%s:%d: column model: a node with GPUs needs a GPU model", t->name, t->lines[r + 1]);
            goto done;
        }
        if (name_set_add(&ns, out, r)) {
            sb_clear(err);
            sb_printf(err, "%s:%d: duplicate node name '%s'", t->name, t->lines[r + 1], nd->name);
            goto done;
        }
    }
    rc = 0;
done:
    free(ns.slot);
    return rc;
}

int openb_load_nodes(const char *path, arena *a, openb_node **out, size_t *n, strbuf *err) {
    void *rows;
    if (load_list(path, 0, sizeof **out, parse_nodes, a, &rows, n, err)) return -1;
    *out = rows;
    return 0;
}

static int parse_pods(const csv_table *t, arena *a, void **outv, size_t *n, strbuf *err) {
    int c_name, c_cpu, c_mem, c_num, c_milli;
    if (need_col(t, "name", &c_name, err) || need_col(t, "cpu_milli", &c_cpu, err) ||
        need_col(t, "memory_mib", &c_mem, err) || need_col(t, "num_gpu", &c_num, err) ||
        need_col(t, "gpu_milli", &c_milli, err))
        return -1;
    int c_spec = csv_col(t, "gpu_spec"), c_ct = csv_col(t, "creation_time"), c_dt = csv_col(t, "deletion_time");
    openb_pod *out = ARENA_NEW(a, openb_pod, t->nrows ? t->nrows : 1);
    *outv = out;
    *n = t->nrows;
    for (size_t r = 0; r < t->nrows; r++) {
        openb_pod *p = &out[r];
        int64_t num, milli;
        int line = t->lines[r + 1];
        p->name = dup(a, csv_cell(t, r, c_name));
        if (int_cell(t, r, c_cpu, 0, INT64_MAX / 4, false, 0, &p->cpu_milli, err) ||
            int_cell(t, r, c_mem, 0, INT64_MAX / 4, false, 0, &p->memory_mib, err) ||
            int_cell(t, r, c_num, 0, OPENB_MAX_GPUS, false, 0, &num, err) ||
            int_cell(t, r, c_milli, 0, 1000, false, 0, &milli, err))
            return -1;
        p->num_gpu = (int)num;
        p->gpu_milli = (int)milli;
        if ((num == 0) != (milli == 0)) {
            sb_clear(err);
            sb_printf(err, "%s:%d: num_gpu %lld with gpu_milli %lld: both must be 0 or both positive", t->name, line,
                      (long long)num, (long long)milli);
            return -1;
        }
        if (milli > 0 && milli < 1000 && num != 1) {
            sb_clear(err);
            sb_printf(err, "%s:%d: a GPU-sharing pod (gpu_milli %lld < 1000) must ask for exactly 1 GPU, not %lld",
                      t->name, line, (long long)milli, (long long)num);
            return -1;
        }
        p->gpu_spec = c_spec >= 0 ? dup(a, csv_cell(t, r, c_spec)) : "";
        p->creation_s = p->deletion_s = -1;
        if (c_ct >= 0 && int_cell(t, r, c_ct, 0, INT64_MAX / 4000, true, -1, &p->creation_s, err)) return -1;
        if (c_dt >= 0 && int_cell(t, r, c_dt, 0, INT64_MAX / 4000, true, -1, &p->deletion_s, err)) return -1;
        if (p->creation_s >= 0 && p->deletion_s >= 0 && p->deletion_s < p->creation_s) {
            sb_clear(err);
            sb_printf(err, "%s:%d: deletion_time %lld is before creation_time %lld", t->name, line,
                      (long long)p->deletion_s, (long long)p->creation_s);
            return -1;
        }
    }
    return 0;
}

int openb_load_pods(const char *path, arena *a, openb_pod **out, size_t *n, strbuf *err) {
    void *rows;
    if (load_list(path, 1, sizeof **out, parse_pods, a, &rows, n, err)) return -1;
    *out = rows;
    return 0;
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
