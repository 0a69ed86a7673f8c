/* sort_i64.c -- see sort_i64.h. */
#include "util/sort_i64.h"

static void swap(int64_t *a, int64_t *b) {
    int64_t t = *a;
    *a = *b;
    *b = t;
}

static void insertion(int64_t *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        int64_t x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static void sift_down(int64_t *v, size_t i, size_t n) {
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && v[c + 1] > v[c]) c++;
        if (v[c] <= v[i]) return;
        swap(&v[c], &v[i]);
        i = c;
    }
}

static void heapsort_i64(int64_t *v, size_t n) {
    for (size_t i = n / 2; i-- > 0;) sift_down(v, i, n);
    for (size_t k = n; k-- > 1;) {
        swap(&v[0], &v[k]);
        sift_down(v, 0, k);
    }
}

/* Median of v[a], v[b], v[c]. */
static int64_t median3(int64_t a, int64_t b, int64_t c) {
    if (a > b) swap(&a, &b);
    if (b > c) b = c;
    return a > b ? a : b;
}

/* The partition pivot of v[0..n): median of three, or for long parts
 * Tukey's ninther (median of three medians of three, Bentley & McIlroy,
 * "Engineering a Sort Function", 1993), which keeps runs of rising waits
 * (a gang's pods, arrival order) from exhausting the depth limit. */
static int64_t pivot(const int64_t *v, size_t n) {
    if (n < 128) return median3(v[0], v[n / 2], v[n - 1]);
    size_t s = n / 8, m = n / 2;
    return median3(median3(v[0], v[s], v[2 * s]), median3(v[m - s], v[m], v[m + s]),
                   median3(v[n - 1 - 2 * s], v[n - 1 - s], v[n - 1]));
}

/* Dijkstra's 3-way partition of v[0..n) around pivot(): afterwards [0,lt)
 * < p, [lt,gt) == p, [gt,n) > p. */
static void partition3(int64_t *v, size_t n, size_t *lt_out, size_t *gt_out) {
    int64_t p = pivot(v, n);
    size_t lt = 0, i = 0, gt = n;
    while (i < gt) {
        if (v[i] < p) swap(&v[lt++], &v[i++]);
        else if (v[i] > p) swap(&v[i], &v[--gt]);
        else i++;
    }
    *lt_out = lt;
    *gt_out = gt;
}

/* Sorts v[0..n); `depth` partitions left before heapsort takes over. Equal
 * keys (many zero waits) go to the middle band at once (Dijkstra's 3-way
 * partition), so they cost one pass. Recurses on the smaller side only. */
static void intro(int64_t *v, size_t n, int depth) {
    while (n > 16) {
        if (depth-- == 0) {
            heapsort_i64(v, n);
            return;
        }
        size_t lt, gt;
        partition3(v, n, &lt, &gt);
        size_t nl = lt, nr = n - gt;
        if (nl < nr) {
            intro(v, nl, depth);
            v += gt;
            n = nr;
        } else {
            intro(v + gt, nr, depth);
            n = nl;
        }
    }
    insertion(v, n);
}

void sort_i64(int64_t *v, size_t n) {
    int depth = 0;
    for (size_t k = n; k > 1; k >>= 1) depth += 2;
    intro(v, n, depth);
}

/* Puts the order statistics asked for in place: v[0..n) is the part of the
 * whole array that starts at index `base`, ranks[0..nr) the ascending
 * whole-array ranks that fall inside it. The partition step is intro()'s;
 * recursion follows only the sides that hold a rank, so a few ranks cost
 * O(n) on average instead of a sort's O(n log n). Past the depth limit, or
 * when short, the part is sorted, which also places its ranks. */
static void select_ranks(int64_t *v, size_t n, size_t base, const size_t *ranks, size_t nr, int depth) {
    while (nr && n > 16) {
        if (depth-- == 0) {
            heapsort_i64(v, n);
            return;
        }
        size_t lt, gt;
        partition3(v, n, &lt, &gt);
        size_t nl = 0, skip = 0;   /* ranks left of the equal band; ranks up to its end */
        while (nl < nr && ranks[nl] < base + lt) nl++;
        for (skip = nl; skip < nr && ranks[skip] < base + gt; skip++) {}
        select_ranks(v, lt, base, ranks, nl, depth);
        v += gt;
        n -= gt;
        base += gt;
        ranks += skip;
        nr -= skip;
    }
    if (nr) insertion(v, n);
}

void select_ranks_i64(int64_t *v, size_t n, const size_t *ranks, size_t nr) {
    int depth = 0;
    for (size_t k = n; k > 1; k >>= 1) depth += 2;
    select_ranks(v, n, 0, ranks, nr, depth);
}
