/* plan_search.c -- the monotone search of `drasim plan` (see plan.h). */
#include "report/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int64_t *xmemdup(const int64_t *x, size_t bytes) {
    int64_t *r = xmalloc(bytes ? bytes : 1);
    memcpy(r, x, bytes);
    return r;
}

double plan_cost(const plan_ctx *c, const int64_t *x) {
    double s = 0;
    for (size_t d = 0; d < c->k; d++) s += c->dims[d].price * (double)x[d];
    return s;
}

bool plan_autoscaled(const plan_ctx *c) {
    for (size_t d = 0; d < c->k; d++)
        if (c->dims[d].autoscaled) return true;
    return false;
}

const char *plan_dim_field(const plan_dim *d) { return d->autoscaled ? "autoscaling.max" : "count"; }

/* Points per search step: c->batch (2 for the plain search, 4 for
 * --minimize), whatever -j, so the probes never depend on -j; c->jobs only
 * says how many of them run at a time. */
static int plan_width(const plan_ctx *c) { return c->batch > 0 ? c->batch : c->jobs; }

/* What monotonicity says of x: 1 passes, 0 fails, -1 unknown. */
static int infer(const plan_ctx *c, const int64_t *x) {
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        bool le = true, ge = true;   /* p <= x, p >= x */
        for (size_t d = 0; d < c->k; d++) {
            if (p->x[d] > x[d]) le = false;
            if (p->x[d] < x[d]) ge = false;
        }
        if (p->pass && le) return 1;
        if (!p->pass && ge) return 0;
    }
    return -1;
}

/* Probe the points whose result is not known yet (duplicates once). */
static int probe_batch(plan_ctx *c, int64_t **pts, size_t n, int *code, strbuf *err) {
    int64_t **unprobed = xcalloc(n ? n : 1, sizeof *unprobed);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (infer(c, pts[i]) >= 0) continue;
        bool dup = false;
        for (size_t j = 0; j < m && !dup; j++) dup = !memcmp(unprobed[j], pts[i], c->k * sizeof *pts[i]);
        if (!dup) unprobed[m++] = pts[i];
    }
    int rc = 0;
    if (m) {
        c->probes = xrealloc(c->probes, (c->nprobes + m) * sizeof *c->probes);
        plan_probe *out = &c->probes[c->nprobes];
        memset(out, 0, m * sizeof *out);
        for (size_t i = 0; i < m; i++) out[i].x = xmemdup(unprobed[i], c->k * sizeof *unprobed[i]);
        size_t before = c->nprobes;
        c->nprobes += m;   /* owned by c (freed by plan_free), even on failure */
        rc = c->probe(c, unprobed, m, &c->probes[before], code, err);
    }
    free(unprobed);
    return rc;
}

static int64_t *point_dup(const plan_ctx *c, const int64_t *x) { return xmemdup(x, c->k * sizeof *x); }

static void free_points(int64_t **pts, size_t n) {
    for (size_t i = 0; i < n; i++) free(pts[i]);
    free(pts);
}

/* Step 2: per dimension, the least count passing with the others at MAX. */
static int bisect_dims(plan_ctx *c, int64_t *m, int *code, strbuf *err) {
    size_t k = c->k;
    int64_t *lo = xcalloc(k, sizeof *lo), *hi = xcalloc(k, sizeof *hi);
    for (size_t d = 0; d < k; d++) lo[d] = c->dims[d].lo, hi[d] = c->dims[d].hi;   /* hi passes */
    int rc = 0;
    while (!rc) {
        size_t active = 0;
        for (size_t d = 0; d < k; d++) active += lo[d] < hi[d];
        if (!active) break;
        size_t per = (size_t)plan_width(c) > active ? (size_t)plan_width(c) / active : 1;
        int64_t **pts = xcalloc(active * per, sizeof *pts);
        size_t n = 0;
        for (size_t d = 0; d < k; d++) {
            if (lo[d] >= hi[d]) continue;
            for (size_t j = 1; j <= per; j++) {   /* per points splitting [lo, hi) evenly */
                int64_t v = lo[d] + (hi[d] - lo[d]) * (int64_t)j / (int64_t)(per + 1);
                if (v >= hi[d]) continue;
                int64_t *x = xcalloc(k, sizeof *x);
                for (size_t e = 0; e < k; e++) x[e] = c->dims[e].hi;
                x[d] = v;
                pts[n++] = x;
            }
        }
        rc = probe_batch(c, pts, n, code, err);
        free_points(pts, n);
        if (rc) break;
        int64_t *x = xcalloc(k, sizeof *x);
        for (size_t d = 0; d < k; d++) {
            for (size_t e = 0; e < k; e++) x[e] = c->dims[e].hi;
            /* narrow [lo, hi] from everything known on this line */
            for (int64_t v = hi[d] - 1; v >= lo[d]; v--) {
                x[d] = v;
                int r = infer(c, x);
                if (r == 0) { lo[d] = v + 1; break; }
                if (r == 1) hi[d] = v;
            }
        }
        free(x);
    }
    if (!rc) memcpy(m, lo, k * sizeof *m);
    free(lo);
    free(hi);
    return rc;
}

/* Keep x as the answer when it is better (cost, then lexicographic). */
static void offer(plan_ctx *c, const int64_t *x) {
    double cost = plan_cost(c, x);
    double eps = 1e-9 * fmax(1.0, fabs(cost));
    if (c->found) {
        if (cost > c->best_cost + eps) return;
        if (cost >= c->best_cost - eps) {
            int cmp = 0;
            for (size_t d = 0; d < c->k && !cmp; d++) cmp = x[d] < c->best[d] ? -1 : x[d] > c->best[d];
            if (cmp >= 0) return;
        }
    }
    c->found = true;
    c->best_cost = cost;
    memcpy(c->best, x, c->k * sizeof *x);
}

/* A bisection of the last dimension for one combination of the others. */
typedef struct task {
    int64_t *x;          /* the combination; x[k-1] is the probe */
    int64_t lo, hi;      /* the least passing count is in [lo, hi]; hi = cap + 1: none known */
    int64_t cap;
} task;

/* The largest count of the last dimension that could still beat the best. */
static int64_t task_cap(const plan_ctx *c, const task *t) {
    size_t l = c->k - 1;
    int64_t cap = c->dims[l].hi;
    if (c->found) {
        int64_t save = t->x[l];
        t->x[l] = 0;
        double room = (c->best_cost - plan_cost(c, t->x)) / c->dims[l].price;
        t->x[l] = save;
        double eps = 1e-9 * fmax(1.0, fabs(c->best_cost));
        int64_t v = room < -1 ? -1 : (int64_t)floor(room + eps);
        if (v < cap) cap = v;
    }
    return cap;
}

/* Advance t with what is known; true when it is settled. */
static bool task_settle(plan_ctx *c, task *t) {
    size_t l = c->k - 1;
    int64_t cap = task_cap(c, t);
    if (cap < t->cap) {
        t->cap = cap;
        if (t->hi > cap + 1) t->hi = cap + 1;
    }
    while (t->lo < t->hi) {
        t->x[l] = t->lo + (t->hi - t->lo) / 2;
        int r = infer(c, t->x);
        if (r == 1) t->hi = t->x[l];
        else if (r == 0) t->lo = t->x[l] + 1;
        else return false;
    }
    if (t->hi <= t->cap) {
        t->x[l] = t->hi;
        offer(c, t->x);
    }
    return true;
}

/* Step 3: the frontier, combinations of the first k-1 dimensions in
 * lexicographic order, up to `jobs` bisections at a time. */
static int walk_frontier(plan_ctx *c, const int64_t *m, int *code, strbuf *err) {
    size_t k = c->k, l = k - 1;
    int64_t *next = point_dup(c, m);   /* the next combination (x[l] unused) */
    bool more = true;
    size_t cap = (size_t)(plan_width(c) > 0 ? plan_width(c) : 1);
    task *act = xcalloc(cap, sizeof *act);
    size_t nact = 0;
    int rc = 0;
    while (!rc) {
        while (nact < cap && more) {   /* start tasks for combinations that can still win */
            task t = {.x = point_dup(c, next), .lo = m[l]};
            t.x[l] = m[l];
            bool hopeless = false;
            if (c->found) {
                double lb = plan_cost(c, t.x);
                hopeless = lb > c->best_cost + 1e-9 * fmax(1.0, fabs(c->best_cost));
            }
            t.cap = c->dims[l].hi;
            t.hi = t.cap + 1;
            /* odometer over the first k-1 dimensions */
            size_t d = l;
            while (d > 0 && ++next[d - 1] > c->dims[d - 1].hi) {
                next[d - 1] = m[d - 1];
                d--;
            }
            if (d == 0) more = false;
            if (hopeless || task_settle(c, &t)) {
                free(t.x);
                continue;
            }
            act[nact++] = t;
        }
        if (!nact) break;
        int64_t **pts = xcalloc(nact, sizeof *pts);
        for (size_t i = 0; i < nact; i++) pts[i] = act[i].x;
        rc = probe_batch(c, pts, nact, code, err);
        free(pts);
        size_t keep = 0;
        for (size_t i = 0; i < nact; i++) {
            if (!rc && !task_settle(c, &act[i])) act[keep++] = act[i];
            else free(act[i].x);
        }
        nact = rc ? 0 : keep;
    }
    for (size_t i = 0; i < nact; i++) free(act[i].x);
    free(act);
    free(next);
    return rc;
}

/* The search over twins: each group of twin pools is one dimension, its total. */
typedef struct twins {
    plan_ctx *outer;
    size_t *of;          /* per outer dimension: its dimension in the reduced search */
} twins;

/* A reduced point as the outer point: each total split lexicographically
 * smallest (the earlier twins at MIN, the last ones filled up to MAX). */
static void expand(const twins *t, const int64_t *y, int64_t *x) {
    const plan_ctx *o = t->outer;
    for (size_t d = 0; d < o->k; d++) x[d] = o->dims[d].lo;
    for (size_t d = o->k; d-- > 0;) {
        int64_t used = 0;
        for (size_t e = 0; e < o->k; e++)
            if (t->of[e] == t->of[d]) used += x[e];
        int64_t add = y[t->of[d]] - used, room = o->dims[d].hi - x[d];
        if (add > room) add = room;
        if (add > 0) x[d] += add;
    }
}

static int twin_probe(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    twins *t = c->ud;
    plan_ctx *o = t->outer;
    int64_t **full = xcalloc(n ? n : 1, sizeof *full);
    for (size_t i = 0; i < n; i++) {
        full[i] = xcalloc(o->k, sizeof *full[i]);
        expand(t, points[i], full[i]);
    }
    int rc = o->probe(o, full, n, out, code, err);
    free_points(full, n);
    return rc;
}

static int search(plan_ctx *c, int *code, strbuf *err);

/* Search the reduced problem, then give its probes and answer outer points. */
static int search_twins(plan_ctx *c, int *code, strbuf *err) {
    size_t k = c->k, kr = 0;
    twins t = {.outer = c, .of = xcalloc(k, sizeof *t.of)};
    plan_dim *rd = xcalloc(k, sizeof *rd);
    for (size_t d = 0; d < k; d++) {
        size_t first = d;
        for (size_t e = 0; e < d && c->dims[d].twin; e++)
            if (c->dims[e].twin == c->dims[d].twin) {
                first = e;
                break;
            }
        if (first == d) {
            t.of[d] = kr;
            rd[kr] = c->dims[d];
            rd[kr].lo = rd[kr].hi = 0;
            kr++;
        } else {
            t.of[d] = t.of[first];
        }
        rd[t.of[d]].lo += c->dims[d].lo;
        rd[t.of[d]].hi += c->dims[d].hi;
    }
    plan_ctx r = *c;
    r.dims = rd;
    r.k = kr;
    r.probe = twin_probe;
    r.ud = &t;
    r.probes = NULL;
    r.nprobes = 0;
    r.best = NULL;
    int rc = search(&r, code, err);
    for (size_t i = 0; i < r.nprobes; i++) {   /* the probes as outer points */
        int64_t *x = xcalloc(k, sizeof *x);
        expand(&t, r.probes[i].x, x);
        free(r.probes[i].x);
        r.probes[i].x = x;
    }
    c->probes = r.probes;
    c->nprobes = r.nprobes;
    c->found = r.found;
    c->best_cost = r.best_cost;
    c->best = xcalloc(k, sizeof *c->best);
    if (r.found) expand(&t, r.best, c->best);
    free(r.best);
    free(rd);
    free(t.of);
    return rc;
}

int plan_search(plan_ctx *c, int *code, strbuf *err) {
    for (size_t d = 0; d < c->k; d++)
        if (c->dims[d].twin) return search_twins(c, code, err);
    return search(c, code, err);
}

static int search(plan_ctx *c, int *code, strbuf *err) {
    size_t k = c->k;
    c->best = xcalloc(k, sizeof *c->best);
    c->found = false;
    int64_t *top = xcalloc(k, sizeof *top), *m = xcalloc(k, sizeof *m);
    for (size_t d = 0; d < k; d++) top[d] = c->dims[d].hi;
    int rc = probe_batch(c, &top, 1, code, err);
    if (!rc && infer(c, top) == 1) {
        rc = bisect_dims(c, m, code, err);
        if (!rc) rc = probe_batch(c, &m, 1, code, err);
        if (!rc && infer(c, m) == 1) offer(c, m);       /* below every passing point */
        else if (!rc) rc = walk_frontier(c, m, code, err);
    }
    free(top);
    free(m);
    return rc;
}

int plan_verify(plan_ctx *c, int *code, strbuf *err) {
    size_t k = c->k, n = 0;
    int rc = 0;
    if (c->found) {
        int64_t **pts = xcalloc(k, sizeof *pts);
        for (size_t d = 0; d < k; d++) {   /* one step above the answer on each axis, unless probed */
            if (c->best[d] >= c->dims[d].hi) continue;
            int64_t *x = point_dup(c, c->best);
            x[d]++;
            bool probed = false;
            for (size_t i = 0; i < c->nprobes && !probed; i++) probed = !memcmp(c->probes[i].x, x, k * sizeof *x);
            if (probed) free(x);
            else pts[n++] = x;
        }
        if (n) {
            c->probes = xrealloc(c->probes, (c->nprobes + n) * sizeof *c->probes);
            plan_probe *out = &c->probes[c->nprobes];
            memset(out, 0, n * sizeof *out);
            for (size_t i = 0; i < n; i++) {
                out[i].x = point_dup(c, pts[i]);
                out[i].verify = true;
            }
            size_t before = c->nprobes;
            c->nprobes += n;
            rc = c->probe(c, pts, n, &c->probes[before], code, err);
        }
        free_points(pts, n);
    }
    for (size_t i = 0; i < c->nprobes && !rc; i++)   /* a pass at p, a fail at q >= p */
        for (size_t j = 0; j < c->nprobes; j++) {
            const plan_probe *p = &c->probes[i], *q = &c->probes[j];
            if (!p->pass || q->pass || i == j) continue;
            bool ge = true;
            for (size_t d = 0; d < k && ge; d++) ge = q->x[d] >= p->x[d];
            if (ge) c->probes[i].nonmonotone = c->probes[j].nonmonotone = c->nonmonotone = true;
        }
    return rc;
}

void plan_free(plan_ctx *c) {
    for (size_t i = 0; i < c->nprobes; i++) {
        free(c->probes[i].x);
        free(c->probes[i].failing);
        free(c->probes[i].values);
        for (size_t j = 0; j < c->probes[i].ndbs; j++) free(c->probes[i].dbs[j]);
        free(c->probes[i].dbs);
        free(c->probes[i].runv);
        free(c->probes[i].baseline_failing);
        free(c->probes[i].undecided_by);
        free(c->probes[i].pick);
    }
    free(c->probes);
    free(c->best);
    free(c->best_pick);
    c->best_pick = NULL;
    c->probes = NULL;
    c->best = NULL;
    c->nprobes = 0;
}
