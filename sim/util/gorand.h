/*
 * gorand.h -- Go's math/rand, bit for bit: the seeded additive lagged
 * Fibonacci source (src/math/rand/rng.go: seedrand, the 607-entry rngCooked
 * table, tap 273) and the *Rand methods of src/math/rand/rand.go (Go 1.19,
 * the version the FGD paper's artifact was built with). Used only where a
 * run must replay the artifact's random draws (the OpenB `openb-artifact`
 * profile, docs/OPENB.md); drasim's own streams are util/rng.h.
 *
 * Each function documents the Go method it reproduces; the stream consumed
 * (how many Int63 draws) is part of the contract.
 */
#ifndef DRASIM_UTIL_GORAND_H
#define DRASIM_UTIL_GORAND_H

#include <stddef.h>
#include <stdint.h>

typedef struct gorand {
    int64_t vec[607];
    int tap, feed;
} gorand;

void gorand_seed(gorand *g, int64_t seed);          /* rand.New(rand.NewSource(seed)) */
uint64_t gorand_uint64_src(gorand *g);               /* rngSource.Uint64 */
int64_t gorand_int63(gorand *g);                     /* Int63: [0, 2^63) */
uint32_t gorand_uint32(gorand *g);                   /* Uint32: Int63 >> 31 */
int32_t gorand_int31(gorand *g);                     /* Int31: Int63 >> 32 */
int64_t gorand_int(gorand *g);                       /* Int (64-bit int): Int63 */
int64_t gorand_int63n(gorand *g, int64_t n);         /* Int63n, n > 0 */
int32_t gorand_int31n(gorand *g, int32_t n);         /* Int31n, n > 0 (modulo with rejection) */
int64_t gorand_intn(gorand *g, int64_t n);           /* Intn, n > 0 */
double gorand_float64(gorand *g);                    /* Float64: [0, 1) */
/* Perm(n): out[0..n) = a permutation of 0..n-1 (Intn(i+1) for i = 0..n-1). */
void gorand_perm(gorand *g, int64_t *out, size_t n);
/* Shuffle(n, swap): Fisher-Yates from the end with Lemire's int31n. */
void gorand_shuffle(gorand *g, size_t n, void (*swap)(void *ctx, size_t i, size_t j), void *ctx);
/* Shuffle of a uint32 array (the swap above on plain elements). */
void gorand_shuffle_u32(gorand *g, uint32_t *a, size_t n);

#endif
