/*
 * cel_regex.c -- RE2-syntax regular expressions on top of PCRE2.
 *
 * CEL (cel-go, hence Kubernetes) uses Go's regexp package: RE2 syntax,
 * leftmost-first matching, ASCII \d \w \s \b, `$` only at the end of the text
 * unless (?m). Patterns are checked against RE2's grammar and rewritten where
 * PCRE2 differs (octal escapes, \s), and anything RE2 does not accept
 * (lookaround, backreferences, possessive or nested quantifiers, \K, \G,
 * atomic groups, callouts, recursion, ...) is rejected. Matching runs with a
 * match limit so that PCRE2's backtracking cannot run away; past it, the Pike
 * VM of cel_regex_pike.c gives RE2's answer in linear time.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"
#include "util/xalloc.h"

/* Subjects are CEL strings, always valid UTF-8. */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Translate one escape at p[i] == '\\'; returns the new index or 0 on error. */
static size_t tr_escape(const char *p, size_t n, size_t i, bool in_class, strbuf *o, strbuf *err) {
    if (i + 1 >= n) {
        sb_puts(err, "trailing backslash at end of expression");
        return 0;
    }
    char e = p[i + 1];
    if (!is_alnum(e)) {
        sb_append(o, p + i, 2);
        return i + 2;
    }
    switch (e) {
    case 'a': case 'f': case 't': case 'n': case 'r': case 'v': case 'd': case 'D': case 'w': case 'W':
        sb_append(o, p + i, 2);
        return i + 2;
    case 's':
        sb_puts(o, in_class ? "\\t\\n\\f\\r " : "[\\t\\n\\f\\r ]");
        return i + 2;
    case 'S':
        if (in_class) {
            sb_puts(err, "invalid escape sequence: `\\S` in a character class is not supported");
            return 0;
        }
        sb_puts(o, "[^\\t\\n\\f\\r ]");
        return i + 2;
    case 'b': case 'B': case 'A': case 'z':
        if (in_class) break;
        sb_append(o, p + i, 2);
        return i + 2;
    case 'p': case 'P': {
        size_t j = i + 2;
        if (j < n && p[j] == '{') {
            while (j < n && p[j] != '}') j++;
            if (j >= n) {
                sb_puts(err, "invalid character class range");
                return 0;
            }
            j++;
        } else if (j < n) {
            j++;
        } else {
            sb_puts(err, "invalid character class range");
            return 0;
        }
        sb_append(o, p + i, j - i);
        return j;
    }
    case 'Q': {
        size_t j = i + 2;
        while (j + 1 < n && !(p[j] == '\\' && p[j + 1] == 'E')) j++;
        size_t end = j + 1 < n ? j : n;
        for (size_t k = i + 2; k < end; k++) {
            if (!is_alnum(p[k]) && (unsigned char)p[k] < 0x80) sb_putc(o, '\\');
            sb_putc(o, p[k]);
        }
        return end < n ? end + 2 : n;
    }
    case 'x': {
        size_t j = i + 2;
        if (j < n && p[j] == '{') {
            size_t k = j + 1;
            while (k < n && p[k] != '}') k++;
            if (k >= n || k == j + 1) {
                sb_puts(err, "invalid escape sequence: \\x{");
                return 0;
            }
            sb_append(o, p + i, k + 1 - i);
            return k + 1;
        }
        if (j + 1 < n && strchr("0123456789abcdefABCDEF", p[j]) && strchr("0123456789abcdefABCDEF", p[j + 1]) && p[j] && p[j + 1]) {
            sb_append(o, p + i, 4);
            return i + 4;
        }
        sb_puts(err, "invalid escape sequence: \\x");
        return 0;
    }
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        /* Go: \1..\7 alone would be a backreference (unsupported); octal needs \0 or 2+ digits */
        size_t j = i + 1;
        if (e != '0' && !(j + 1 < n && p[j + 1] >= '0' && p[j + 1] <= '7')) break;
        unsigned v = 0;
        int cnt = 0;
        while (j < n && cnt < 3 && p[j] >= '0' && p[j] <= '7') {
            v = v * 8 + (unsigned)(p[j] - '0');
            j++;
            cnt++;
        }
        sb_printf(o, "\\x{%x}", v);
        return j;
    }
    default: break;
    }
    sb_printf(err, "invalid escape sequence: `\\%c`", e);
    return 0;
}

/* Parse a {n}, {n,}, {n,m} repeat at p[i] == '{'; returns end index or 0 if it is a literal brace. */
static size_t repeat_spec(const char *p, size_t n, size_t i, long *lo, long *hi) {
    size_t j = i + 1;
    if (j >= n || !is_digit(p[j])) return 0;
    long a = 0, b;
    while (j < n && is_digit(p[j])) { if (a < 100000) a = a * 10 + (p[j] - '0'); j++; }
    b = a;
    if (j < n && p[j] == ',') {
        j++;
        if (j < n && is_digit(p[j])) {
            b = 0;
            while (j < n && is_digit(p[j])) { if (b < 100000) b = b * 10 + (p[j] - '0'); j++; }
        } else {
            b = -1;
        }
    }
    if (j >= n || p[j] != '}') return 0;
    *lo = a;
    *hi = b;
    return j + 1;
}

/* The ":]" of a POSIX class "[:name:]" / "[:^name:]" (letters only) starting at
 * p[j] == '[', within p[0..n) (the pattern is not NUL-terminated); else NULL. */
static const char *named_class_end(const char *p, size_t n, size_t j) {
    size_t k = j + 2;
    if (k < n && p[k] == '^') k++;
    size_t start = k;
    while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z'))) k++;
    return k > start && k + 1 < n && p[k] == ':' && p[k + 1] == ']' ? p + k : NULL;
}

static bool translate(const char *p, size_t n, strbuf *o, strbuf *err) {
    bool can_repeat = false;    /* the previous item may take a quantifier */
    bool after_repeat = false;  /* the previous item was a quantifier */
    for (size_t i = 0; i < n;) {
        char c = p[i];
        if (c == '\\') {
            size_t j = tr_escape(p, n, i, false, o, err);
            if (!j) return false;
            char e = p[i + 1];
            can_repeat = !(e == 'b' || e == 'B' || e == 'A' || e == 'z');
            after_repeat = false;
            i = j;
            continue;
        }
        if (c == '[') {
            size_t j = i + 1;
            sb_putc(o, '[');
            if (j < n && p[j] == '^') { sb_putc(o, '^'); j++; }
            if (j < n && p[j] == ']') { sb_puts(o, "\\]"); j++; }
            bool closed = false;
            while (j < n) {
                if (p[j] == ']') { closed = true; j++; break; }
                if (p[j] == '\\') {
                    size_t k = tr_escape(p, n, j, true, o, err);
                    if (!k) return false;
                    j = k;
                    continue;
                }
                if (p[j] == '[' && j + 1 < n && p[j + 1] == ':') {
                    /* [:name:] or [:^name:] (PCRE2 checks the name); any other "[:" is
                     * a literal '[' so that PCRE2 and the linear matcher read it alike */
                    const char *end = named_class_end(p, n, j);
                    if (end) {
                        sb_append(o, p + j, (size_t)(end - (p + j)) + 2);
                        j = (size_t)(end - p) + 2;
                        continue;
                    }
                }
                if (p[j] == '[') { sb_puts(o, "\\["); j++; continue; }
                sb_putc(o, p[j]);
                j++;
            }
            if (!closed) {
                sb_puts(err, "missing closing ]");
                return false;
            }
            sb_putc(o, ']');
            i = j;
            can_repeat = true;
            after_repeat = false;
            continue;
        }
        if (c == '(') {
            size_t open_end = i + 1;
            if (i + 1 < n && p[i + 1] == '?') {
                size_t j = i + 2;
                if ((j + 1 < n && p[j] == 'P' && p[j + 1] == '<') ||
                    (j + 1 < n && p[j] == '<' && p[j + 1] != '=' && p[j + 1] != '!')) {
                    size_t k = j + (p[j] == 'P' ? 2 : 1), st = k;
                    while (k < n && (is_alnum(p[k]) || p[k] == '_')) k++;
                    if (k >= n || p[k] != '>' || k == st) {
                        sb_puts(err, "invalid named capture");
                        return false;
                    }
                    open_end = k + 1;
                } else if (j < n && p[j] == ':') {
                    open_end = j + 1;
                } else {
                    size_t k = j;
                    while (k < n && p[k] && strchr("imsU-", p[k])) k++;
                    if (k == j || k >= n || (p[k] != ')' && p[k] != ':')) {
                        sb_puts(err, "invalid or unsupported Perl syntax");
                        return false;
                    }
                    if (p[k] == ')') {
                        sb_append(o, p + i, k + 1 - i);
                        i = k + 1;
                        can_repeat = false;
                        after_repeat = false;
                        continue;
                    }
                    open_end = k + 1;
                }
            }
            sb_append(o, p + i, open_end - i);
            i = open_end;
            can_repeat = false;
            after_repeat = false;
            continue;
        }
        if (c == '*' || c == '+' || c == '?' || c == '{') {
            long lo = 0, hi = 0;
            size_t end = i + 1;
            if (c == '{') {
                end = repeat_spec(p, n, i, &lo, &hi);
                if (!end) {   /* literal brace */
                    sb_puts(o, "\\{");
                    i++;
                    can_repeat = true;
                    after_repeat = false;
                    continue;
                }
                if (lo > 1000 || hi > 1000 || (hi >= 0 && hi < lo)) {
                    sb_printf(err, "invalid repeat count: `%.*s`", (int)(end - i), p + i);
                    return false;
                }
            }
            if (after_repeat) {
                sb_printf(err, "invalid nested repetition operator: `%.*s`", (int)(end - i), p + i);
                return false;
            }
            if (!can_repeat) {
                sb_printf(err, "missing argument to repetition operator: `%.*s`", (int)(end - i), p + i);
                return false;
            }
            sb_append(o, p + i, end - i);
            i = end;
            if (i < n && p[i] == '?') {   /* non-greedy */
                sb_putc(o, '?');
                i++;
            }
            after_repeat = true;
            can_repeat = false;
            continue;
        }
        if (c == ')') {
            sb_putc(o, ')');
            i++;
            can_repeat = true;
            after_repeat = false;
            continue;
        }
        if (c == '|' || c == '^' || c == '$') {
            sb_putc(o, c);
            i++;
            can_repeat = c != '|';
            if (c == '|') can_repeat = false;
            after_repeat = false;
            continue;
        }
        uint32_t cp;
        int l = utf8_decode(p + i, n - i, &cp);
        sb_append(o, p + i, (size_t)l);
        i += (size_t)l;
        can_repeat = true;
        after_repeat = false;
    }
    return true;
}

/* A compiled pattern: PCRE2's code for the fast path, and the translation
 * from which the linear-time matcher is built the first time PCRE2 gives up. */
typedef struct cel_re {
    pcre2_code *code;
    char *translated;
    size_t tlen;
    _Atomic(pike_prog *) pike;   /* built lazily; shared compiled patterns may be used by several threads */
    _Atomic int pike_failed;
} cel_re;

void *cel_regex_compile(const char *pat, size_t n, strbuf *err) {
    strbuf t = {0};
    if (!translate(pat, n, &t, err)) {
        sb_free(&t);
        return NULL;
    }
    int ec;
    PCRE2_SIZE eo;
    /* ALT_CIRCUMFLEX: with (?m), `^` also matches after a newline that ends the
     * text, as Go's EmptyBeginLine does. NO_START_OPTIMIZE: PCRE2 10.42's JIT
     * misses matches such as (?:abc|)(?:d*). on "abc" with its start-of-match
     * optimizations (the interpreter finds them). Both found by fuzz_regex. */
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)(t.s ? t.s : ""), t.len,
                                     PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_BACKSLASH_C | PCRE2_ALT_CIRCUMFLEX |
                                         PCRE2_NO_START_OPTIMIZE | PCRE2_NO_AUTO_POSSESS,
                                     &ec, &eo, NULL);
    if (!code) {
        sb_free(&t);
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(ec, buf, sizeof buf);
        sb_printf(err, "error parsing regexp: %s", (const char *)buf);
        return NULL;
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
    cel_re *re = xcalloc(1, sizeof *re);
    re->code = code;
    re->tlen = t.len;
    re->translated = t.s ? t.s : xstrdup("");
    return re;
}

void cel_regex_free(void *p) {
    cel_re *re = p;
    if (!re) return;
    pcre2_code_free(re->code);
    pike_free(atomic_load(&re->pike));
    free(re->translated);
    free(re);
}

/* The linear-time matcher of re, built on first use (NULL if too large). */
static pike_prog *pike_of(cel_re *re) {
    pike_prog *g = atomic_load(&re->pike);
    if (g || atomic_load(&re->pike_failed)) return g;
    g = pike_compile(re->translated, re->tlen);
    if (!g) {
        atomic_store(&re->pike_failed, 1);
        return NULL;
    }
    pike_prog *expected = NULL;
    if (!atomic_compare_exchange_strong(&re->pike, &expected, g)) {   /* another thread won */
        pike_free(g);
        g = expected;
    }
    return g;
}

int cel_regex_search_linear(void *p, const char *s, size_t n, size_t start, size_t *ms, size_t *me) {
    pike_prog *g = pike_of(p);
    return g ? pike_search(g, s, n, start, ms, me) : -1;
}

static _Thread_local pcre2_match_data *s_md;
static _Thread_local pcre2_match_context *s_mc;

int cel_regex_search(void *p, const char *s, size_t n, size_t start, size_t *ms, size_t *me, const char **msg,
                     bool *linear) {
    cel_re *re = p;
    if (!s_md) {
        s_md = pcre2_match_data_create(1, NULL);
        s_mc = pcre2_match_context_create(NULL);
        pcre2_set_match_limit(s_mc, 1000000);
        pcre2_set_depth_limit(s_mc, 10000);
    }
    int rc = linear && *linear ? PCRE2_ERROR_MATCHLIMIT
                               : pcre2_match(re->code, (PCRE2_SPTR)s, n, start, 0, s_md, s_mc);
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
        rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        /* RE2 never backtracks. When PCRE2's backtracking gives up, the Pike
         * VM answers in linear time with the same leftmost-first match. */
        pike_prog *g = pike_of(re);
        if (!g) {
            *msg = "regex match exceeded its limit (pattern too large for linear-time matching)";
            return -1;
        }
        if (linear) *linear = true;   /* the next searches of this call go straight to the VM */
        size_t a = 0, b = 0;
        int r = pike_search(g, s, n, start, &a, &b);
        if (r == 1 && ms) {
            *ms = a;
            *me = b;
        }
        return r;
    }
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc < 0) {
        *msg = "regex match failed";
        return -1;
    }
    if (ms) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s_md);
        *ms = ov[0];
        *me = ov[1];
    }
    return 1;
}
