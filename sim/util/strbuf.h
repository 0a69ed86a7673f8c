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
#endif
