/* xalloc.h -- allocation that never returns NULL: out of memory ends the process. */
#ifndef DRASIM_UTIL_XALLOC_H
#define DRASIM_UTIL_XALLOC_H
#include <stddef.h>
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
#endif
