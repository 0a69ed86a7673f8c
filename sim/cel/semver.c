/*
 * semver.c -- semantic versions: blang/semver v4 Parse (strict, with its
 * error messages), the normalising parse of the Kubernetes CEL semver
 * library (semverlib.go normalizeAndParse), Compare and String.
 *
 * Error messages that quote the input (Go's %q) are formatted into a
 * thread-local buffer: *err stays valid until the next failing parse on the
 * same thread.
 */
#include "cel/semver.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"

static _Thread_local char err_buf[512];

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool is_alnum_dash(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

static bool only_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) if (!is_digit((unsigned char)s[i])) return false;
    return true;
}
static bool only_alnum(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) if (!is_alnum_dash((unsigned char)s[i])) return false;
    return true;
}
static bool leading_zero(const char *s, size_t n) { return n > 1 && s[0] == '0'; }

/* Length of the UTF-8 sequence at s (1..4), or 0 if it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp) {
    size_t len;
    uint32_t c = s[0], min;
    if (c < 0x80) { *cp = c; return 1; }
    if ((c & 0xe0) == 0xc0) { len = 2; c &= 0x1f; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { len = 3; c &= 0x0f; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { len = 4; c &= 0x07; min = 0x10000; }
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    *cp = c;
    return len;
}

/* Append Go's strconv.Quote(s) to buf (bounded by cap). Non-ASCII code points
 * are treated as printable except the C1 controls and a few format/space
 * characters; that matches unicode.IsPrint for everything version strings
 * plausibly contain. */
static size_t go_quote(char *buf, size_t cap, const char *s, size_t n) {
    size_t o = 0;
#define PUT(...) do { int w_ = snprintf(buf + o, cap - o, __VA_ARGS__); \
                      if (w_ > 0) o += (size_t)w_;                       \
                      if (o >= cap) o = cap - 1; } while (0)
    PUT("\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t l = utf8_len((const unsigned char *)s + i, n - i, &cp);
        if (l == 0) { PUT("\\x%02x", c); i++; continue; }
        if (l == 1) {
            switch (c) {
            case '"': PUT("\\\""); break;
            case '\\': PUT("\\\\"); break;
            case '\a': PUT("\\a"); break;
            case '\b': PUT("\\b"); break;
            case '\f': PUT("\\f"); break;
            case '\n': PUT("\\n"); break;
            case '\r': PUT("\\r"); break;
            case '\t': PUT("\\t"); break;
            case '\v': PUT("\\v"); break;
            default:
                if (c < 0x20 || c == 0x7f) PUT("\\x%02x", c);
                else PUT("%c", c);
            }
        } else if ((cp >= 0x80 && cp <= 0xa0) || cp == 0xad || cp == 0x2028 || cp == 0x2029 ||
                   cp == 0xfeff || (cp >= 0x200b && cp <= 0x200f)) {
            if (cp <= 0xffff) PUT("\\u%04" PRIx32, cp);
            else PUT("\\U%08" PRIx32, cp);
        } else {
            PUT("%.*s", (int)l, s + i);
        }
        i += l;
    }
    PUT("\"");
#undef PUT
    return o;
}

/* Format "<prefix><quoted s>" into the thread-local error buffer. */
static const char *err_quoted(const char *prefix, const char *s, size_t n) {
    size_t o = (size_t)snprintf(err_buf, sizeof err_buf, "%s", prefix);
    if (o < sizeof err_buf) go_quote(err_buf + o, sizeof err_buf - o, s, n);
    return err_buf;
}

/* Go strconv.ParseUint(s, 10, 64) over a digits-only string. */
static bool parse_u64(const char *s, size_t n, uint64_t *out, const char **err) {
    uint64_t v = 0;
    if (n == 0) {
        *err = "strconv.ParseUint: parsing \"\": invalid syntax";
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            size_t o = (size_t)snprintf(err_buf, sizeof err_buf, "strconv.ParseUint: parsing ");
            o += go_quote(err_buf + o, sizeof err_buf - o, s, n);
            snprintf(err_buf + o, sizeof err_buf - o, ": value out of range");
            *err = err_buf;
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* Major/minor/patch: digits only, no leading zeros, fits uint64. */
static bool parse_number(const char *s, size_t n, const char *what_bad, const char *what_zero,
                         uint64_t *out, const char **err) {
    if (!only_digits(s, n)) { *err = err_quoted(what_bad, s, n); return false; }
    if (leading_zero(s, n)) { *err = err_quoted(what_zero, s, n); return false; }
    return parse_u64(s, n, out, err);
}

static const char *find_char(const char *s, size_t n, char c) { return memchr(s, c, n); }

/* blang semver.Parse. */
static int parse_strict(const char *s, size_t n, semver *out, const char **err) {
    if (n == 0) { *err = "Version string empty"; return -1; }
    const char *d1 = find_char(s, n, '.');
    const char *d2 = d1 ? find_char(d1 + 1, n - (size_t)(d1 + 1 - s), '.') : NULL;
    if (!d2) { *err = "No Major.Minor.Patch elements found"; return -1; }
    semver v = {0};
    if (!parse_number(s, (size_t)(d1 - s), "Invalid character(s) found in major number ",
                      "Major number must not contain leading zeroes ", &v.major, err))
        return -1;
    if (!parse_number(d1 + 1, (size_t)(d2 - d1 - 1), "Invalid character(s) found in minor number ",
                      "Minor number must not contain leading zeroes ", &v.minor, err))
        return -1;

    const char *p = d2 + 1, *end = s + n;
    size_t pn = (size_t)(end - p);
    const char *build = NULL, *pre = NULL;
    size_t build_n = 0, pre_n = 0;
    const char *plus = find_char(p, pn, '+');
    if (plus) { build = plus + 1; build_n = (size_t)(end - build); pn = (size_t)(plus - p); }
    const char *dash = find_char(p, pn, '-');
    if (dash) { pre = dash + 1; pre_n = (size_t)(p + pn - pre); pn = (size_t)(dash - p); }
    if (!parse_number(p, pn, "Invalid character(s) found in patch number ",
                      "Patch number must not contain leading zeroes ", &v.patch, err))
        return -1;

    if (pre) {                           /* dot-separated identifiers */
        for (const char *id = pre, *stop = pre + pre_n;;) {
            const char *dot = find_char(id, (size_t)(stop - id), '.');
            size_t len = (size_t)((dot ? dot : stop) - id);
            if (len == 0) { *err = "Prerelease is empty"; return -1; }
            if (only_digits(id, len)) {
                uint64_t num;
                if (leading_zero(id, len)) {
                    *err = err_quoted("Numeric PreRelease version must not contain leading zeroes ", id, len);
                    return -1;
                }
                if (!parse_u64(id, len, &num, err)) return -1;
            } else if (!only_alnum(id, len)) {
                *err = err_quoted("Invalid character(s) found in prerelease ", id, len);
                return -1;
            }
            if (!dot) break;
            id = dot + 1;
        }
        v.pre = intern_n(pre, pre_n);
    }
    if (build) {
        for (const char *id = build, *stop = build + build_n;;) {
            const char *dot = find_char(id, (size_t)(stop - id), '.');
            size_t len = (size_t)((dot ? dot : stop) - id);
            if (len == 0) { *err = "Build meta data is empty"; return -1; }
            if (!only_alnum(id, len)) {
                *err = err_quoted("Invalid character(s) found in build meta data ", id, len);
                return -1;
            }
            if (!dot) break;
            id = dot + 1;
        }
        v.build = intern_n(build, build_n);
    }
    *out = v;
    return 0;
}

/* semverlib.go normalizeAndParse: strip one 'v', trim leading zeros of the
 * first three dot parts, pad 1- or 2-part versions with ".0". */
static int parse_normalized(const char *s, size_t n, semver *out, const char **err) {
    if (n > 0 && s[0] == 'v') { s++; n--; }
    const char *part[3];
    size_t len[3], np = 0;
    for (const char *p = s, *end = s + n;;) {
        const char *dot = np < 2 ? find_char(p, (size_t)(end - p), '.') : NULL;
        part[np] = p;
        len[np] = (size_t)((dot ? dot : end) - p);
        np++;
        if (!dot) break;
        p = dot + 1;
    }
    char *buf = xmalloc(n + 8);
    size_t o = 0;
    for (size_t i = 0; i < np; i++) {
        const char *p = part[i];
        size_t l = len[i];
        if (i) buf[o++] = '.';
        if (l > 1) {
            while (l > 0 && *p == '0') { p++; l--; }
            if (l == 0 || !is_digit((unsigned char)p[0])) buf[o++] = '0';
        }
        memcpy(buf + o, p, l);
        o += l;
    }
    if (np < 3) {
        const char *last = part[np - 1];
        if (find_char(last, len[np - 1], '+') || find_char(last, len[np - 1], '-')) {
            free(buf);
            *err = "short version cannot contain PreRelease/Build meta data";
            return -1;
        }
        for (; np < 3; np++) { buf[o++] = '.'; buf[o++] = '0'; }
    }
    int rc = parse_strict(buf, o, out, err);
    free(buf);
    return rc;
}

int semver_parse(const char *s, size_t n, bool normalize, semver *out, const char **err) {
    const char *dummy;
    if (!err) err = &dummy;
    return normalize ? parse_normalized(s, n, out, err) : parse_strict(s, n, out, err);
}

/* One prerelease identifier: numeric ones compare by value and sort first. */
static int cmp_identifier(const char *a, size_t an, const char *b, size_t bn) {
    bool na = only_digits(a, an), nb = only_digits(b, bn);
    if (na != nb) return na ? -1 : 1;
    if (na) {                            /* no leading zeros: longer is larger */
        if (an != bn) return an < bn ? -1 : 1;
        int c = memcmp(a, b, an);
        return (c > 0) - (c < 0);
    }
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return (c > 0) - (c < 0);
    return an == bn ? 0 : an < bn ? -1 : 1;
}

int semver_cmp(const semver *a, const semver *b) {
    if (a->major != b->major) return a->major < b->major ? -1 : 1;
    if (a->minor != b->minor) return a->minor < b->minor ? -1 : 1;
    if (a->patch != b->patch) return a->patch < b->patch ? -1 : 1;
    if (!a->pre || !b->pre) return a->pre ? -1 : b->pre ? 1 : 0;
    if (a->pre == b->pre) return 0;      /* interned */
    const char *pa = a->pre, *pb = b->pre;
    for (;;) {
        size_t la = strcspn(pa, "."), lb = strcspn(pb, ".");
        int c = cmp_identifier(pa, la, pb, lb);
        if (c) return c;
        bool ea = pa[la] == '\0', eb = pb[lb] == '\0';
        if (ea || eb) return ea && eb ? 0 : ea ? -1 : 1;
        pa += la + 1;
        pb += lb + 1;
    }
}

size_t semver_format_str(const semver *v, char *buf, size_t n) {
    int w = snprintf(buf, n, "%" PRIu64 ".%" PRIu64 ".%" PRIu64 "%s%s%s%s", v->major, v->minor,
                     v->patch, v->pre ? "-" : "", v->pre ? v->pre : "", v->build ? "+" : "",
                     v->build ? v->build : "");
    return w < 0 ? 0 : (size_t)w;
}
