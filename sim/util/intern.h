/*
 * intern.h -- process-wide string interning. Equal strings give the same
 * pointer, so hot paths compare names with ==. Interned strings live until
 * intern_reset() (called at exit by tools that check for leaks).
 */
#ifndef DRASIM_UTIL_INTERN_H
#define DRASIM_UTIL_INTERN_H
#include <stddef.h>
const char *intern(const char *s);
const char *intern_n(const char *s, size_t n);
/* Returns the interned copy if `s` was interned before, else NULL (no insert). */
const char *intern_lookup(const char *s, size_t n);
void intern_reset(void);
#endif
