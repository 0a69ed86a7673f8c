/* escape.c -- text to gnuplot, XML and HTML (see escape.h). */
#include "report/escape.h"

#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when s does not
 * start one (RFC 3629: no overlongs, no surrogates, at most U+10FFFF). */
static size_t utf8_len(const unsigned char *s) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return n;
}

static void gp_literal(strbuf *b, const char *s, size_t max) {
    sb_putc(b, '\'');
    size_t len = strlen(s), cut = len;
    if (len > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;   /* not inside a character */
    }
    for (size_t i = 0; i < cut; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\'') sb_puts(b, "''");
        else if (c < 0x20 || c == 0x7f) sb_putc(b, ' ');
        else sb_putc(b, (char)c);
    }
    if (cut < len) sb_puts(b, "...");
    sb_putc(b, '\'');
}

void gp_quote(strbuf *b, const char *s) { gp_literal(b, s, SIZE_MAX); }
void gp_label(strbuf *b, const char *s) { gp_literal(b, s, GP_LABEL_MAX); }

void gp_comment_text(strbuf *b, const char *s) {
    for (; *s; s++) sb_putc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

bool plain_name(const char *s) {
    size_t n = 0;
    for (; s[n]; n++) {
        char c = s[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return n > 0 && n <= 100;
}

void xml_escape(strbuf *b, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        switch (c) {
        case '<': sb_puts(b, "&lt;"); p++; continue;
        case '>': sb_puts(b, "&gt;"); p++; continue;
        case '&': sb_puts(b, "&amp;"); p++; continue;
        case '"': sb_puts(b, "&quot;"); p++; continue;
        case '\'': sb_puts(b, "&#39;"); p++; continue;
        case '\t': sb_puts(b, "&#9;"); p++; continue;
        case '\n': sb_puts(b, "&#10;"); p++; continue;
        case '\r': sb_puts(b, "&#13;"); p++; continue;
        default: break;
        }
        size_t n = c < 0x20 ? 0 : utf8_len(p);
        if (!n) {
            sb_puts(b, "\xEF\xBF\xBD");   /* U+FFFD REPLACEMENT CHARACTER */
            p++;
            continue;
        }
        /* U+FFFE and U+FFFF are not XML 1.0 characters either */
        if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) sb_puts(b, "\xEF\xBF\xBD");
        else sb_append(b, (const char *)p, n);
        p += n;
    }
}

void terminal_text(strbuf *b, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) sb_putc(b, '?');
        else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) {   /* U+0080..U+009F: C1 controls (CSI...) */
            sb_putc(b, '?');
            p++;
        } else sb_putc(b, (char)*p);
    }
}

void html_escape(strbuf *b, const char *s) { xml_escape(b, s); }

void sh_quote(strbuf *b, const char *s) {
    bool plain = *s != 0;
    for (const char *c = s; *c && plain; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:+@%", *c)) plain = false;
    if (plain) {
        sb_puts(b, s);
        return;
    }
    sb_putc(b, '\'');
    for (const char *c = s; *c; c++) {
        if (*c == '\'') sb_puts(b, "'\\''");
        else sb_putc(b, *c);
    }
    sb_putc(b, '\'');
}

/* A signed decimal number as compare writes it (%g, %+.2f%%, +inf): a
 * spreadsheet reads it as a number, not a formula. */
static bool csv_number(const char *s) {
    if (!strcmp(s, "-")) return true;   /* compare's "no value": an operator without operand is no formula */
    const char *p = s + (*s == '+' || *s == '-');
    if (!strcmp(p, "inf") || !strcmp(p, "nan")) return true;
    bool digits = false;
    while (*p >= '0' && *p <= '9') p++, digits = true;
    if (*p == '.') for (p++; *p >= '0' && *p <= '9'; p++) digits = true;
    if (!digits) return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == '%') p++;
    return *p == 0;
}

void csv_text_cell(strbuf *b, const char *s) {
    bool formula = *s && strchr("=+-@\t\r", *s) && !csv_number(s);
    bool quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote) sb_putc(b, '"');
    if (formula) sb_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"') sb_putc(b, '"');
        sb_putc(b, *s);
    }
    if (quote) sb_putc(b, '"');
}

void json_quote(strbuf *b, const char *s) {
    sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)*p);
        } else if (*p == '\n') {
            sb_puts(b, "\\n");
        } else if (*p < 0x20 || *p == 0x7f) {
            sb_printf(b, "\\u%04x", *p);
        } else {
            sb_putc(b, (char)*p);
        }
    }
    sb_putc(b, '"');
}
