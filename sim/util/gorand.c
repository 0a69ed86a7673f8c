/* gorand.c -- Go's math/rand (Go 1.19), see gorand.h. Written from the Go
 * sources' description; the constants and the cooked table are Go's. */
#include "util/gorand.h"

#define LEN 607
#define TAP 273
#define INT32MAX 2147483647

extern const int64_t gorand_cooked[LEN];

/* seedrand: x[n+1] = 48271 * x[n] mod (2^31 - 1), Schrage's method. */
static int32_t seedrand(int32_t x) {
    int32_t hi = x / 44488, lo = x % 44488;
    x = 48271 * lo - 3399 * hi;
    if (x < 0) x += INT32MAX;
    return x;
}

void gorand_seed(gorand *g, int64_t seed) {
    g->tap = 0;
    g->feed = LEN - TAP;
    seed %= INT32MAX;
    if (seed < 0) seed += INT32MAX;
    if (seed == 0) seed = 89482311;
    int32_t x = (int32_t)seed;
    for (int i = -20; i < LEN; i++) {
        x = seedrand(x);
        if (i >= 0) {
            uint64_t u = (uint64_t)(int64_t)x << 40;
            x = seedrand(x);
            u ^= (uint64_t)(int64_t)x << 20;
            x = seedrand(x);
            u ^= (uint64_t)(int64_t)x;
            u ^= (uint64_t)gorand_cooked[i];
            g->vec[i] = (int64_t)u;
        }
    }
}

uint64_t gorand_uint64_src(gorand *g) {
    if (--g->tap < 0) g->tap += LEN;
    if (--g->feed < 0) g->feed += LEN;
    uint64_t x = (uint64_t)g->vec[g->feed] + (uint64_t)g->vec[g->tap];   /* wraps like Go's int64 add */
    g->vec[g->feed] = (int64_t)x;
    return x;
}

int64_t gorand_int63(gorand *g) { return (int64_t)(gorand_uint64_src(g) & ((UINT64_C(1) << 63) - 1)); }
uint32_t gorand_uint32(gorand *g) { return (uint32_t)(gorand_int63(g) >> 31); }
int32_t gorand_int31(gorand *g) { return (int32_t)(gorand_int63(g) >> 32); }
int64_t gorand_int(gorand *g) { return gorand_int63(g); }

int64_t gorand_int63n(gorand *g, int64_t n) {
    if ((n & (n - 1)) == 0) return gorand_int63(g) & (n - 1);
    int64_t max = (int64_t)((UINT64_C(1) << 63) - 1 - (UINT64_C(1) << 63) % (uint64_t)n);
    int64_t v = gorand_int63(g);
    while (v > max) v = gorand_int63(g);
    return v % n;
}

int32_t gorand_int31n(gorand *g, int32_t n) {
    if ((n & (n - 1)) == 0) return gorand_int31(g) & (n - 1);
    int32_t max = (int32_t)(INT32MAX - (UINT32_C(1) << 31) % (uint32_t)n);
    int32_t v = gorand_int31(g);
    while (v > max) v = gorand_int31(g);
    return v % n;
}

/* The unexported int31n (Lemire's multiply-shift), used by Shuffle only. */
static int32_t int31n_lemire(gorand *g, int32_t n) {
    uint32_t v = gorand_uint32(g);
    uint64_t prod = (uint64_t)v * (uint64_t)n;
    uint32_t low = (uint32_t)prod;
    if (low < (uint32_t)n) {
        uint32_t thresh = (uint32_t)(-(uint32_t)n) % (uint32_t)n;
        while (low < thresh) {
            v = gorand_uint32(g);
            prod = (uint64_t)v * (uint64_t)n;
            low = (uint32_t)prod;
        }
    }
    return (int32_t)(prod >> 32);
}

int64_t gorand_intn(gorand *g, int64_t n) {
    if (n <= INT32MAX) return gorand_int31n(g, (int32_t)n);
    return gorand_int63n(g, n);
}

double gorand_float64(gorand *g) {
    for (;;) {
        double f = (double)gorand_int63(g) / 9223372036854775808.0;
        if (f != 1) return f;
    }
}

void gorand_perm(gorand *g, int64_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int64_t j = gorand_intn(g, (int64_t)i + 1);
        out[i] = (size_t)j == i ? 0 : out[j];   /* Go's slice starts zeroed */
        out[j] = (int64_t)i;
    }
}

void gorand_shuffle(gorand *g, size_t n, void (*swap)(void *ctx, size_t i, size_t j), void *ctx) {
    if (n == 0) return;
    int64_t i = (int64_t)n - 1;
    for (; i > (int64_t)INT32MAX - 1; i--) swap(ctx, (size_t)i, (size_t)gorand_int63n(g, i + 1));
    for (; i > 0; i--) swap(ctx, (size_t)i, (size_t)int31n_lemire(g, (int32_t)(i + 1)));
}

static void swap_u32(void *ctx, size_t i, size_t j) {
    uint32_t *a = ctx, x = a[i];
    a[i] = a[j];
    a[j] = x;
}

void gorand_shuffle_u32(gorand *g, uint32_t *a, size_t n) { gorand_shuffle(g, n, swap_u32, a); }
