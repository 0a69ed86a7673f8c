/* frag.c -- typical pods and node fragmentation (see frag.h). */
#include "sched/policies/frag.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The artifact's PodResource.Less: CPU, then milli, then GPU count, then model text. */
static int shape_cmp(const frag_pod_in *a, const frag_pod_in *b) {
    if (a->cpu != b->cpu) return a->cpu < b->cpu ? -1 : 1;
    if (a->milli != b->milli) return a->milli < b->milli ? -1 : 1;
    if (a->ngpu != b->ngpu) return a->ngpu < b->ngpu ? -1 : 1;
    return strcmp(a->spec ? a->spec : "", b->spec ? b->spec : "");
}


typedef struct group { const frag_pod_in *key; int64_t count; } group;

/* Most popular first; equal counts: the larger shape first (the artifact
 * sorts by (count, shape) and reverses). */
static int cmp_group(const void *x, const void *y) {
    const group *a = x, *b = y;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return -shape_cmp(a->key, b->key);
}

/* F_n per node state: direct-mapped, each entry checks its whole key, so a
 * hit gives exactly what computing gives. */
typedef struct frag_memo_entry {
    uint64_t key[4];   /* cpu_left; free[0..8) (0 past ngpu); model, ngpu and 1 (a used entry) */
    double f;
} frag_memo_entry;
#define FRAG_MEMO_SIZE 8192
struct frag_memo {
    frag_memo_entry e[FRAG_MEMO_SIZE];
};

static void memo_clear(frag_typical *t) {
    if (t->memo) memset(t->memo, 0, sizeof *t->memo);
}

void frag_typical_build(const frag_pod_in *in, size_t n, double threshold_pct, bool include_cpu_pods,
                        frag_typical *out) {
    frag_typical_build_counted(in, NULL, n, threshold_pct, include_cpu_pods, out);
}

/* Sort pointers to the inputs with their counts alongside (qsort over pairs). */
typedef struct counted { const frag_pod_in *in; int64_t count; } counted;
static int cmp_counted(const void *x, const void *y) { return shape_cmp(((const counted *)x)->in, ((const counted *)y)->in); }

void frag_typical_build_counted(const frag_pod_in *in, const int64_t *count, size_t n, double threshold_pct,
                                bool include_cpu_pods, frag_typical *out) {
    memset(out, 0, sizeof *out);
    counted *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
    size_t m = 0;
    int64_t pods = 0;
    for (size_t i = 0; i < n; i++)
        if ((include_cpu_pods || in[i].ngpu > 0) && (!count || count[i] > 0)) {
            sorted[m++] = (counted){&in[i], count ? count[i] : 1};
            pods += count ? count[i] : 1;
        }
    qsort(sorted, m, sizeof *sorted, cmp_counted);
    group *g = xmalloc((m ? m : 1) * sizeof *g);
    size_t ng = 0;
    for (size_t i = 0; i < m; i++) {
        if (ng && shape_cmp(g[ng - 1].key, sorted[i].in) == 0) g[ng - 1].count += sorted[i].count;
        else g[ng++] = (group){sorted[i].in, sorted[i].count};
    }
    qsort(g, ng, sizeof *g, cmp_group);
    double expected = threshold_pct * (double)pods / 100.0, cum = 0;
    size_t keep = 0;
    while (cum < expected && keep < ng) cum += (double)g[keep++].count;
    out->pods = xcalloc(keep ? keep : 1, sizeof *out->pods);
    out->n = keep;
    out->ndistinct = ng;
    out->coverage_pct = pods ? 100.0 * cum / (double)pods : 0;
    out->total = pods;
    out->covered = (int64_t)cum;
    for (size_t i = 0; i < keep; i++) {
        frag_typical_pod *t = &out->pods[i];
        t->shape.cpu = g[i].key->cpu;
        t->shape.milli = g[i].key->milli;
        t->shape.ngpu = g[i].key->ngpu;
        t->shape.models = g[i].key->models;
        t->count = g[i].count;
        t->p = (double)g[i].count / cum;
    }
    out->memo = xcalloc(1, sizeof *out->memo);
    free(g);
    free(sorted);
}

void frag_typical_free(frag_typical *t) {
    free(t->pods);
    free(t->memo);
    memset(t, 0, sizeof *t);
}

double frag_node_pod(const gs_node *n, const gs_pod *m) {
    int64_t total = 0, below = 0;
    int fit = 0;
    for (int g = 0; g < n->ngpu; g++) {
        total += n->free[g];
        if (n->free[g] >= m->milli) fit++;
        else below += n->free[g];
    }
    if (m->milli <= 0 || !gs_model_ok(n, m)) return (double)total;
    if (fit >= m->ngpu && n->cpu_left >= m->cpu) return (double)below;
    return (double)total;
}

void frag_typical_artifact(frag_typical *t) {
    t->artifact = true;
    memo_clear(t);
    if (t->covered >= t->total) {   /* every shape kept: no renormalisation */
        for (size_t i = 0; i < t->n; i++) t->pods[i].p = (double)t->pods[i].count / (double)t->total;
        return;
    }
    double share = (double)t->covered / (double)t->total;
    for (size_t i = 0; i < t->n; i++) t->pods[i].p = (double)t->pods[i].count / (double)t->total / share;
}

/* F_n in the artifact's order (see frag_typical_artifact): one accumulator per
 * fragment category, typical pods in order. */
enum { Q1_LACK_BOTH, Q2_LACK_GPU, Q3_SATISFIED, Q4_LACK_CPU, XL_SATISFIED, XR_LACK_CPU, NO_ACCESS, NCAT };

static double frag_node_artifact(const gs_node *n, const frag_typical *t) {
    double d[NCAT] = {0};
    /* the free milli per GPU from most to least, with prefix sums: for a shape's
     * milli, the GPUs with room are a leading run and the others' idle milli
     * is what the run leaves of the total */
    int ng = n->ngpu;
    int16_t sf[GS_MAX_GPUS];
    int64_t ps[GS_MAX_GPUS + 1];
    for (int g = 0; g < ng; g++) {
        int16_t v = n->free[g];
        int k = g;
        for (; k > 0 && sf[k - 1] < v; k--) sf[k] = sf[k - 1];
        sf[k] = v;
    }
    ps[0] = 0;
    for (int g = 0; g < ng; g++) ps[g + 1] = ps[g] + sf[g];
    int64_t left = ps[ng];
    int last_milli = -1, fit = 0;
    int64_t below = 0;
    for (size_t i = 0; i < t->n; i++) {
        const gs_pod *m = &t->pods[i].shape;
        double freq = t->pods[i].p;
        bool cpu_ok = n->cpu_left >= m->cpu;
        int cat;
        if (m->milli <= 0) cat = cpu_ok ? XL_SATISFIED : XR_LACK_CPU;
        else if (!gs_model_ok(n, m)) cat = NO_ACCESS;
        else {
            if (m->milli != last_milli) {
                last_milli = m->milli;
                fit = 0;
                while (fit < ng && sf[fit] >= m->milli) fit++;
                below = left - ps[fit];
            }
            if (fit >= m->ngpu && fit > 0) {
                if (cpu_ok) {   /* q3: the GPUs too small for m are fragment (counted as q2); q3 itself is not summed */
                    d[Q2_LACK_GPU] += freq * (double)below;
                    continue;
                }
                cat = Q4_LACK_CPU;
            } else cat = cpu_ok ? Q2_LACK_GPU : Q1_LACK_BOTH;
        }
        d[cat] += freq * (double)left;
    }
    double out = 0;
    for (int c = 0; c < NCAT; c++)
        if (c != Q3_SATISFIED) out += d[c];
    return out;
}

static double frag_node_compute(const gs_node *n, const frag_typical *t) {
    if (t->artifact) return frag_node_artifact(n, t);
    int64_t total = 0;
    for (int g = 0; g < n->ngpu; g++) total += n->free[g];
    if (total == 0) return 0;
    double f = 0;
    for (size_t i = 0; i < t->n; i++) {
        const gs_pod *m = &t->pods[i].shape;
        int64_t below = 0;
        int fit = 0;
        if (m->milli > 0 && gs_model_ok(n, m)) {
            for (int g = 0; g < n->ngpu; g++) {
                if (n->free[g] >= m->milli) fit++;
                else below += n->free[g];
            }
            if (fit >= m->ngpu && n->cpu_left >= m->cpu) {
                f += t->pods[i].p * (double)below;
                continue;
            }
        }
        f += t->pods[i].p * (double)total;
    }
    return f;
}

double frag_node(const gs_node *n, const frag_typical *t) {
    if (!t->memo) return frag_node_compute(n, t);
    uint64_t k[4] = {(uint64_t)n->cpu_left, 0, 0, 0};
    int16_t fr[GS_MAX_GPUS] = {0};
    int ng = n->ngpu < 0 ? 0 : n->ngpu > GS_MAX_GPUS ? GS_MAX_GPUS : n->ngpu;
    for (int g = 0; g < ng; g++) fr[g] = n->free[g];
    memcpy(&k[1], fr, sizeof fr);
    k[3] = (uint64_t)(uint32_t)n->model | (uint64_t)(uint8_t)n->ngpu << 32 | (uint64_t)1 << 40;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 4; i++) {
        h ^= k[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    frag_memo_entry *e = &t->memo->e[h & (FRAG_MEMO_SIZE - 1)];
    if (e->key[0] == k[0] && e->key[1] == k[1] && e->key[2] == k[2] && e->key[3] == k[3]) return e->f;
    double f = frag_node_compute(n, t);
    memcpy(e->key, k, sizeof k);
    e->f = f;
    return f;
}

/* v as a whole number of 2^-80 units; false if it is negative, too large or finer. */
static bool to_units(double v, frag_u128 *out) {
    if (v == 0) {
        *out = 0;
        return true;
    }
    if (!(v > 0 && v < 0x1p24)) return false;   /* F_n is at most a node's idle milli */
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    int ex = (int)(b >> 52) & 0x7ff;
    if (ex == 0) return false;   /* subnormal: far below 2^-80 */
    uint64_t mant = (b & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    int sh = ex - 1075 + 80;   /* v = mant * 2^(ex - 1075) */
    if (sh >= 0) {
        *out = (frag_u128)mant << sh;
        return true;
    }
    if (sh <= -53 || (mant & ((UINT64_C(1) << -sh) - 1))) return false;
    *out = (frag_u128)(mant >> -sh);
    return true;
}

void frag_fixed_change(frag_fixed_sum *s, double before, double after) {
    frag_u128 a, b;
    if (s->bad) return;
    if (!to_units(before, &b) || !to_units(after, &a)) {
        s->bad = true;
        return;
    }
    s->units += a - b;
}

bool frag_fixed_round2(const frag_fixed_sum *s, size_t n, double *out) {
    if (s->bad || n >= ((size_t)1 << 22)) return false;   /* the units stay < 2^127 */
    const frag_u128 one = (frag_u128)1 << 80;
    int64_t ip = (int64_t)(s->units >> 80);      /* < 2^24 * n */
    frag_u128 t = (s->units & (one - 1)) * 100;  /* the fraction x 100, < 2^87 */
    int64_t d = ip * 100 + (int64_t)(t >> 80);   /* 100 x sum = d + rem / 2^80 */
    frag_u128 rem = t & (one - 1), half = one >> 1;
    double dist = (double)(rem > half ? rem - half : half - rem) * 0x1p-80;   /* from the tie, x 100 */
    /* |double sum - sum| <= gamma_n * sum, gamma_n = n u / (1 - n u), u = 2^-53: bounded
     * generously by (n + 1) 2^-51 (sum + 1), x 100 */
    double bound = 100.0 * ((double)n + 1) * 0x1p-51 * ((double)ip + 1);
    if (!(dist > bound) || d >= ((int64_t)1 << 52)) return false;
    if (rem > half) d++;
    *out = (double)d / 100.0;   /* correctly rounded: what strtod gives for the decimal d/100 */
    return true;
}
