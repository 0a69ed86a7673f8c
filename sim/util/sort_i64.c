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

/* Sorts v[0..n); `depth` partitions left before heapsort takes over. Equal
 * keys (many zero waits) go to the middle band at once (Dijkstra's 3-way
 * partition), so they cost one pass. Recurses on the smaller side only. */
static void intro(int64_t *v, size_t n, int depth) {
    while (n > 16) {
        if (depth-- == 0) {
            heapsort_i64(v, n);
            return;
        }
        int64_t p = median3(v[0], v[n / 2], v[n - 1]);
        size_t lt = 0, i = 0, gt = n;   /* [0,lt) < p, [lt,i) == p, [gt,n) > p */
        while (i < gt) {
            if (v[i] < p) swap(&v[lt++], &v[i++]);
            else if (v[i] > p) swap(&v[i], &v[--gt]);
            else i++;
        }
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
