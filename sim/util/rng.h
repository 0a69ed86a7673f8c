/*
 * rng.h -- the run's deterministic random source: xoshiro256** seeded with
 * splitmix64, plus the distributions workloads need. Same seed, same stream,
 * on every platform (no libm-dependent shortcuts beyond log/exp/sqrt/cos).
 */
#ifndef DRASIM_UTIL_RNG_H
#define DRASIM_UTIL_RNG_H
#include <stdint.h>
typedef struct rng { uint64_t s[4]; } rng;
void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
double rng_uniform(rng *r);                  /* [0, 1) */
uint64_t rng_below(rng *r, uint64_t n);      /* [0, n), unbiased; n > 0 */
double rng_exponential(rng *r, double mean);
double rng_normal(rng *r);                   /* standard normal (Box-Muller) */
double rng_lognormal(rng *r, double mu, double sigma);
/* Derive an independent stream (e.g. per pod group) from this one's seed and a tag. */
void rng_fork(const rng *r, uint64_t tag, rng *out);
/* A stream's tag from its name (FNV-1a): pod groups and Lua generators draw from
 * rng_fork(seed's stream, rng_name_tag(name)), so their draws depend on the name
 * and the seed only (common random numbers across fleets). */
uint64_t rng_name_tag(const char *name);
/* A stream for one identity, common random numbers across fleets: derived
 * from `base` by hashing (name, a, b) with splitmix64's finalizer, e.g. a
 * GPU's failures from (node name, GPU index, process), so that adding nodes
 * never changes the draws of the nodes already there. */
void rng_identity(const rng *base, const char *name, uint64_t a, uint64_t b, rng *out);
#endif
