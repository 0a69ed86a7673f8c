/* strbuf.h -- growable NUL-terminated byte buffer with printf-style append. */
#ifndef DRASIM_UTIL_STRBUF_H
#define DRASIM_UTIL_STRBUF_H
#include <stdarg.h>
#include <stddef.h>
typedef struct strbuf { char *s; size_t len, cap; } strbuf;
void sb_append(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_clear(strbuf *b);
void sb_free(strbuf *b);
/* Returns the buffer's string ("" when empty); stays owned by b. */
const char *sb_str(const strbuf *b);
/* Error messages echo what they were given: every run of more than `max`
 * bytes between single quotes (or the message's ends) keeps its first 256
 * bytes (whole UTF-8 characters) followed by "... (N bytes)", so a 2 MB value
 * is not echoed whole. SB_ECHO_MAX is above any path (PATH_MAX 4096) and any
 * message's own text. The one helper for every echoed value (yerr calls it). */
void sb_cut_echoes(strbuf *b, size_t max);
#define SB_ECHO_MAX 4200
#endif
