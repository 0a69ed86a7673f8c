/*
 * semver.h -- semantic versions as Kubernetes DRA uses them: blang/semver v4
 * strict parsing, the CEL library's normalising parse, and ordering.
 */
#ifndef DRASIM_CEL_SEMVER_H
#define DRASIM_CEL_SEMVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct semver {
    uint64_t major, minor, patch;
    const char *pre;     /* interned prerelease text without '-', NULL if none */
    const char *build;   /* interned build text without '+', NULL if none */
} semver;

/* Strict parse (blang semver.Parse). With normalize, first apply the CEL
 * library's normalisation (strip one 'v', drop leading zeros, pad to 3 parts).
 * Returns 0 or -1 with *err set to upstream's message. */
int semver_parse(const char *s, size_t n, bool normalize, semver *out, const char **err);

/* blang Version.Compare: <0, 0, >0; build metadata ignored. */
int semver_cmp(const semver *a, const semver *b);

/* Text form major.minor.patch[-pre][+build]; returns length needed. */
size_t semver_format_str(const semver *v, char *buf, size_t n);

#endif
