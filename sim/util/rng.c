#include "util/rng.h"
#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
void rng_seed(rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
uint64_t rng_next(rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}
double rng_uniform(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
uint64_t rng_below(rng *r, uint64_t n) {
    uint64_t limit = -n % n;   /* 2^64 mod n: reject the short tail */
    uint64_t x;
    do x = rng_next(r); while (x < limit);
    return x % n;
}
double rng_exponential(rng *r, double mean) { return -mean * log1p(-rng_uniform(r)); }
double rng_normal(rng *r) {
    double u1 = 1.0 - rng_uniform(r), u2 = rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
double rng_lognormal(rng *r, double mu, double sigma) { return exp(mu + sigma * rng_normal(r)); }
void rng_fork(const rng *r, uint64_t tag, rng *out) {
    uint64_t x = r->s[0] ^ (tag * 0x9e3779b97f4a7c15ULL) ^ r->s[3];
    rng_seed(out, splitmix64(&x));
}

uint64_t rng_name_tag(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

/* splitmix64's finalizer of x (a bijection: distinct inputs, distinct outputs) */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_identity(const rng *base, const char *name, uint64_t a, uint64_t b, rng *out) {
    uint64_t h = mix64(rng_name_tag(name) + 0x9e3779b97f4a7c15ULL * (a + 1));
    h = mix64(h + 0x9e3779b97f4a7c15ULL * (b + 1));
    rng_fork(base, h, out);
}
