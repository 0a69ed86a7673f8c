/* job_trace_philly.c -- Philly's cluster_job_log as job rows (see job_trace_philly.h). */
#include "model/job_trace_philly.h"

#include <stdlib.h>
#include <string.h>

#include "model/yaml_tree.h"
#include "util/xalloc.h"

typedef struct philly_job {
    const ynode *n;
    int64_t submit_ms;
    size_t order;                    /* file order: ties keep it */
} philly_job;

struct philly_reader {
    yfile f;
    philly_job *jobs;
    size_t n, next;
    int64_t *att;                    /* the current job's kept attempts: start, end pairs */
    size_t att_cap;
    int64_t dropped;
};

/* A scalar time or "unknown" (-1: "None", null, empty); -1 error with err set. */
static int node_time(const ynode *v, const char *what, int64_t *ms, strbuf *err) {
    *ms = -1;
    if (!v || y_is_null(v) || y_scalar_eq(v, "None")) return 0;
    if (v->kind != YN_SCALAR || job_parse_time(v->str, ms)) {
        yerr(err, v, "%s '%s': expected a time (YYYY-MM-DD HH:MM:SS or None)", what,
             v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    return 0;
}

static int by_submit(const void *a, const void *b) {
    const philly_job *x = a, *y = b;
    if (x->submit_ms != y->submit_ms) return x->submit_ms < y->submit_ms ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

int philly_open(const char *path, philly_reader **out, strbuf *err) {
    philly_reader *p = xcalloc(1, sizeof *p);
    *out = NULL;
    if (yfile_load(path, &p->f, err)) {
        free(p);
        return -1;
    }
    const ynode *root = p->f.ndocs ? p->f.docs[0] : NULL;
    if (!root || p->f.ndocs != 1 || root->kind != YN_SEQ) {
        sb_clear(err);
        if (root) yerr(err, root, "cluster_job_log: expected one JSON list of jobs");
        else sb_printf(err, "%s:1:1: cluster_job_log: expected one JSON list of jobs, found nothing", path);
        philly_close(p);
        return -1;
    }
    p->jobs = xcalloc(root->n ? root->n : 1, sizeof *p->jobs);
    for (size_t i = 0; i < root->n; i++) {
        const ynode *j = root->vals[i], *v;
        if (y_expect(j, YN_MAP, "a Philly job", err) || ymap_need(j, "submitted_time", "a Philly job", &v, err) ||
            node_time(v, "submitted_time", &p->jobs[i].submit_ms, err)) {
            philly_close(p);
            return -1;
        }
        if (p->jobs[i].submit_ms < 0) {
            yerr(err, v, "submitted_time: expected a time, found None");
            philly_close(p);
            return -1;
        }
        p->jobs[i] = (philly_job){j, p->jobs[i].submit_ms, i};
    }
    p->n = root->n;
    qsort(p->jobs, p->n, sizeof *p->jobs, by_submit);
    *out = p;
    return 0;
}

/* A string field of job j ("" when absent or null); -1 when it is not a scalar. */
static int str_field(const ynode *j, const char *key, const char **out, strbuf *err) {
    const ynode *v = ymap_get(j, key);
    *out = "";
    if (!v || y_is_null(v)) return 0;
    if (v->kind != YN_SCALAR) {
        yerr(err, v, "%s: expected a string, found %s", key, ykind_name(v));
        return -1;
    }
    *out = v->str;
    return 0;
}

/* The first attempt's servers and GPUs. */
static int first_shape(const ynode *att, int64_t *nodes, int64_t *gpus, strbuf *err) {
    const ynode *d = ymap_get(att, "detail");
    *nodes = 1;
    *gpus = 0;
    if (!d || y_is_null(d)) return 0;
    if (y_expect(d, YN_SEQ, "attempts[].detail", err)) return -1;
    for (size_t k = 0; k < d->n; k++) {
        const ynode *s = d->vals[k], *g;
        if (y_expect(s, YN_MAP, "attempts[].detail[]", err)) return -1;
        if ((g = ymap_get(s, "gpus")) && !y_is_null(g)) {
            if (y_expect(g, YN_SEQ, "attempts[].detail[].gpus", err)) return -1;
            *gpus += (int64_t)g->n;
        }
    }
    if (d->n > 100000) {
        yerr(err, d, "attempts[].detail: at most 100000 servers");
        return -1;
    }
    if (d->n) *nodes = (int64_t)d->n;
    return 0;
}

int philly_next(philly_reader *p, const job_trace_cfg *c, job_row *row, int64_t *skipped, strbuf *err) {
    if (p->next == p->n) return 2;
    const philly_job *pj = &p->jobs[p->next++];
    const ynode *j = pj->n, *atts = ymap_get(j, "attempts");
    memset(row, 0, sizeof *row);
    row->line = j->line;
    row->submit_ms = pj->submit_ms;
    row->start_ms = row->end_ms = row->fail_ms = -1;
    row->gpu_type = "";
    for (size_t i = 0; i < c->nlabels; i++) row->labels[i] = "";
    if (str_field(j, "jobid", &row->id, err) || str_field(j, "vc", &row->tenant, err) ||
        str_field(j, "status", &row->state, err))
        return -1;
    for (size_t i = 0; i < c->nlabels; i++)
        if (str_field(j, c->label_cols[i], &row->labels[i], err)) return -1;
    if (atts && !y_is_null(atts) && y_expect(atts, YN_SEQ, "attempts", err)) return -1;
    size_t na = atts && atts->kind == YN_SEQ ? atts->n : 0;
    if (2 * na > p->att_cap) {
        p->att_cap = 2 * na;
        p->att = xrealloc(p->att, p->att_cap * sizeof *p->att);
    }
    int64_t dur = 0;
    size_t kept = 0;
    for (size_t k = 0; k < na; k++) {
        const ynode *a = atts->vals[k];
        int64_t s, e;
        if (y_expect(a, YN_MAP, "attempts[]", err) || node_time(ymap_get(a, "start_time"), "start_time", &s, err) ||
            node_time(ymap_get(a, "end_time"), "end_time", &e, err))
            return -1;
        if (k == 0 && first_shape(a, &row->nodes, &row->gpu_milli, err)) return -1;
        if (s < 0 || e < 0) {
            p->dropped++;
            continue;
        }
        if (e < s) {
            yerr(err, ymap_get(a, "end_time"), "end is before start");
            return -1;
        }
        if (s < pj->submit_ms) {
            yerr(err, ymap_get(a, "start_time"), "start is before submit");
            return -1;
        }
        if (kept && s < p->att[2 * kept - 1]) {
            yerr(err, ymap_get(a, "start_time"), "an attempt starts before the previous one ended");
            return -1;
        }
        p->att[2 * kept] = s;
        p->att[2 * kept + 1] = e;
        dur += e - s;
        kept++;
    }
    row->gpu_milli *= 1000;
    if (c->nskip_states) {
        size_t n = strlen(row->state);
        for (size_t i = 0; i < c->nskip_states; i++)
            if (strlen(c->skip_states[i]) == n && !strncmp(c->skip_states[i], row->state, n)) {
                skipped[JS_STATE]++;
                return 0;
            }
    }
    if (!na) {   /* never scheduled (e.g. killed while queued) */
        skipped[JS_NOT_STARTED]++;
        return 0;
    }
    if (c->skip_no_gpu && row->gpu_milli <= 0) {
        skipped[JS_NO_GPU]++;
        return 0;
    }
    if (!kept) {
        skipped[JS_NOT_STARTED]++;
        return 0;
    }
    row->start_ms = p->att[0];
    row->end_ms = p->att[2 * kept - 1];
    row->duration_ms = dur;
    row->nattempts = (int)kept;
    row->attempts = p->att;
    return 1;
}

int64_t philly_attempts_dropped(const philly_reader *p) { return p->dropped; }

void philly_close(philly_reader *p) {
    if (!p) return;
    yfile_free(&p->f);
    free(p->jobs);
    free(p->att);
    free(p);
}
