/* yaml_scalar.c -- strings as YAML scalars that read back as themselves (see yaml_scalar.h). */
#include "model/yaml_scalar.h"

#include <string.h>

/* The next code point of s[i..n) and its length, or -1 (length 1) for a byte
 * that does not start a valid UTF-8 sequence. */
static long utf8_next(const char *s, size_t n, size_t i, size_t *len) {
    const unsigned char *p = (const unsigned char *)s + i;
    size_t left = n - i;
    *len = 1;
    if (p[0] < 0x80) return p[0];
    size_t k = p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3 : p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : 0;
    if (!k || left < k) return -1;
    long cp = p[0] & (k == 2 ? 0x1f : k == 3 ? 0x0f : 0x07);
    for (size_t j = 1; j < k; j++) {
        if ((p[j] & 0xc0) != 0x80) return -1;
        cp = cp << 6 | (p[j] & 0x3f);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
    *len = k;
    return cp;
}

bool yaml_utf8_ok(const char *s, size_t n) {
    for (size_t i = 0, k; i < n; i += k) {
        long cp = utf8_next(s, n, i, &k);
        if (cp <= 0) return false;
    }
    return true;
}

/* Printable in YAML (1.2 c-printable) and a line break in neither version. */
static bool printable(long cp) {
    if (cp == 0x2028 || cp == 0x2029 || cp == 0xfeff) return false;
    return cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) ||
           (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

bool yaml_safe_text(const char *s, size_t n) {
    for (size_t i = 0, k; i < n; i += k) {
        long cp = utf8_next(s, n, i, &k);
        if (cp < 0 || !printable(cp)) return false;
    }
    return true;
}

static bool word_is(const char *s, size_t n, const char *w) {
    if (strlen(w) != n) return false;
    for (size_t i = 0; i < n; i++)
        if ((s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) != w[i]) return false;
    return true;
}

/* Could a YAML 1.1 or 1.2 resolver read this plain text as something other
 * than a string? A superset of their rules, kept simple: every number of
 * either version (ints in bases 2/8/10/16 and sexagesimal, underscores,
 * floats, .inf/.nan in any case, signs) starts, after an optional sign, with
 * a digit or '.' and uses only the characters below; timestamps start with
 * four digits and '-'; bools and nulls are the words below in any case;
 * `<<` (merge) and `=` (value) are keys of their own in 1.1. */
static bool may_resolve(const char *s, size_t n) {
    static const char *words[] = {"y", "n", "yes", "no", "true", "false", "on", "off", "null", "~", "<<", "=", NULL};
    for (const char **w = words; *w; w++)
        if (word_is(s, n, *w)) return true;
    size_t i = s[0] == '+' || s[0] == '-' ? 1 : 0;
    if (i == n) return true;   /* "+" or "-" alone: quoted to be safe */
    if (s[i] == '.' && (word_is(s + i + 1, n - i - 1, "inf") || word_is(s + i + 1, n - i - 1, "nan"))) return true;
    if ((s[i] >= '0' && s[i] <= '9') || s[i] == '.') {
        size_t j = i;
        while (j < n && strchr("0123456789_.:+-eExXoObBaAcCdDfF", s[j])) j++;
        if (j == n) return true;
    }
    size_t d = 0;
    while (d < n && s[d] >= '0' && s[d] <= '9') d++;
    return d == 4 && n > 4 && s[4] == '-';
}

bool yaml_plain_ok(const char *s, size_t n) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e) return false;
    if (strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) && !(s[0] == '-' && n > 1 && s[1] != ' ')) return false;
    if (n >= 3 && (!memcmp(s, "---", 3) || !memcmp(s, "...", 3))) return false;   /* document markers */
    if (s[n - 1] == ' ' || s[n - 1] == ':') return false;
    for (size_t i = 0; i + 1 < n; i++)
        if ((s[i] == ':' && s[i + 1] == ' ') || (s[i] == ' ' && s[i + 1] == '#')) return false;
    return !may_resolve(s, n);
}

void yaml_scalar(strbuf *out, const char *s, size_t n) {
    if (yaml_plain_ok(s, n)) {
        sb_append(out, s, n);
        return;
    }
    sb_putc(out, '"');
    for (size_t i = 0, k; i < n; i += k) {
        long cp = utf8_next(s, n, i, &k);
        switch (cp) {
        case '"': sb_puts(out, "\\\""); break;
        case '\\': sb_puts(out, "\\\\"); break;
        case '\n': sb_puts(out, "\\n"); break;
        case '\t': sb_puts(out, "\\t"); break;
        case '\r': sb_puts(out, "\\r"); break;
        default:
            if (cp < 0) sb_printf(out, "\\x%02x", (unsigned char)s[i]);
            else if (cp < 0x100 && !printable(cp)) sb_printf(out, "\\x%02lx", cp);
            else if (!printable(cp)) sb_printf(out, "\\u%04lx", cp);
            else sb_append(out, s + i, k);
        }
    }
    sb_putc(out, '"');
}
