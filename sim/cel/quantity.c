/*
 * quantity.c -- Kubernetes resource.Quantity (k8s.io/apimachinery
 * pkg/api/resource) re-implemented in C.
 *
 * Upstream keeps a value either as an int64Amount {value, scale} (the fast
 * path) or as an arbitrary precision inf.Dec {unscaled, scale}. We keep the
 * same (mantissa, exponent) pair that upstream would hold, in an __int128,
 * and record in `is_dec` which of the two upstream would use, because
 * AsInt64 (and so CEL isInteger/asInteger) depends on it.
 *
 * Parsing of an inf.Dec value works on decimal digit strings so that the
 * "round up to 10^-9" and "cap BinarySI at 2^63-1" rules are exact for any
 * input length. A value whose exact form needs more than 38 significant
 * digits cannot be stored in the struct and is reported as an error (upstream
 * would accept it); that is the only intended deviation.
 */
#include "cel/quantity.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define MAX_DIGITS 38 /* every 38-digit decimal fits in an i128 */

static const char ERR_FORMAT[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
static const char ERR_NUMERIC[] = "unable to parse numeric part of quantity";
static const char ERR_SUFFIX[] = "unable to parse quantity's suffix";
static const char ERR_RANGE[] =
    "quantity needs more than 38 significant digits, which drasim cannot represent";

/* (2^63-1) * 10^9: BinarySI cap expressed in units of 10^-9. */
static const char CAP_NANO[] = "9223372036854775807000000000";

/* ---------------------------------------------------------------- helpers */

static u128 pow10_u128(int k) {
    u128 p = 1;
    while (k-- > 0) p *= 10;
    return p;
}

static u128 uabs128(i128 v) { return v < 0 ? (u128)0 - (u128)v : (u128)v; }

static int ndigits_u128(u128 v) {
    int n = 1;
    while (v >= 10) { v /= 10; n++; }
    return n;
}

/* Writes the decimal digits of v to buf (no NUL); returns the count. */
static int u128_to_digits(u128 v, char *buf) {
    char tmp[48];
    int n = 0;
    do { tmp[n++] = (char)('0' + (int)(v % 10)); v /= 10; } while (v);
    for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    return n;
}

/* v * 10^k into *out if it fits an i128. */
static bool mul_pow10_i128(i128 v, int64_t k, i128 *out) {
    if (v == 0) { *out = 0; return true; }
    if (k < 0 || k > MAX_DIGITS) return false;
    u128 m = uabs128(v), lim = ((u128)1 << 127) - 1;
    for (int64_t i = 0; i < k; i++) {
        if (m > lim / 10) return false;
        m *= 10;
    }
    if (m > lim) return false;
    *out = v < 0 ? -(i128)m : (i128)m;
    return true;
}

static bool add_i128(i128 a, i128 b, i128 *out) {
    i128 max = (i128)(((u128)1 << 127) - 1), min = -max - 1;
    if ((b > 0 && a > max - b) || (b < 0 && a < min - b)) return false;
    *out = a + b;
    return true;
}

/* ---------------------------------------------------------------- scanner */

typedef struct {
    bool positive;
    const char *value; size_t value_n;   /* sign, digits and '.', for inf.Dec */
    size_t num_n, denom_n;               /* numerator w/o leading zeros ("0" counts 1) */
    const char *num, *denom;
    const char *suffix; size_t suffix_n;
} scan;

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_suffix_letter(char c) { return c && strchr("eEinumkKMGTP", c) != NULL; }

/* The hand-written scanner of upstream parseQuantityString, step for step. */
static int scan_quantity(const char *s, size_t n, scan *sc) {
    static const char zero[] = "0";
    size_t pos = 0, i;
    memset(sc, 0, sizeof *sc);
    sc->positive = true;
    sc->suffix = s + n;
    if (pos < n && (s[0] == '-' || s[0] == '+')) {
        sc->positive = s[0] != '-';
        pos++;
    }
    for (i = pos;; i++) {               /* leading zeros */
        if (i >= n) {
            sc->num = sc->value = zero; sc->num_n = sc->value_n = 1;
            return 0;
        }
        if (s[i] != '0') break;
        pos++;
    }
    for (i = pos;; i++) {               /* numerator */
        if (i >= n) {
            sc->num = s + pos; sc->num_n = n - pos;
            sc->value = s; sc->value_n = n;
            return 0;
        }
        if (!is_digit(s[i])) break;
    }
    sc->num = s + pos; sc->num_n = i - pos;
    pos = i;
    if (sc->num_n == 0) { sc->num = zero; sc->num_n = 1; }
    if (pos < n && s[pos] == '.') {     /* denominator */
        pos++;
        for (i = pos;; i++) {
            if (i >= n) {
                sc->denom = s + pos; sc->denom_n = n - pos;
                sc->value = s; sc->value_n = n;
                return 0;
            }
            if (!is_digit(s[i])) break;
        }
        sc->denom = s + pos; sc->denom_n = i - pos;
        pos = i;
    }
    sc->value = s; sc->value_n = pos;
    size_t suffix_start = pos;
    for (i = pos;; i++) {
        if (i >= n) { sc->suffix = s + suffix_start; sc->suffix_n = n - suffix_start; return 0; }
        if (!is_suffix_letter(s[i])) { pos = i; break; }
    }
    if (pos < n && (s[pos] == '-' || s[pos] == '+')) pos++;
    for (i = pos;; i++) {
        if (i >= n) { sc->suffix = s + suffix_start; sc->suffix_n = n - suffix_start; return 0; }
        if (!is_digit(s[i])) break;
    }
    return -1;                          /* ErrFormatWrong */
}

/* Go strconv.ParseInt(s, 10, 64). */
static bool parse_int64(const char *s, size_t n, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (n == 0) return false;
    if (s[0] == '+' || s[0] == '-') { neg = s[0] == '-'; i = 1; }
    if (i >= n) return false;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        if (!is_digit(s[i])) return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (lim - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* suffix.go interpret(): base, exponent and format of a suffix. */
static bool interpret_suffix(const char *s, size_t n, int *base, int32_t *exp, quantity_format *f) {
    static const struct { const char *s; int base; int32_t exp; quantity_format f; } tab[] = {
        {"", 10, 0, QF_DECIMAL_SI},   {"n", 10, -9, QF_DECIMAL_SI}, {"u", 10, -6, QF_DECIMAL_SI},
        {"m", 10, -3, QF_DECIMAL_SI}, {"k", 10, 3, QF_DECIMAL_SI},  {"M", 10, 6, QF_DECIMAL_SI},
        {"G", 10, 9, QF_DECIMAL_SI},  {"T", 10, 12, QF_DECIMAL_SI}, {"P", 10, 15, QF_DECIMAL_SI},
        {"E", 10, 18, QF_DECIMAL_SI}, {"Ki", 2, 10, QF_BINARY_SI},  {"Mi", 2, 20, QF_BINARY_SI},
        {"Gi", 2, 30, QF_BINARY_SI},  {"Ti", 2, 40, QF_BINARY_SI},  {"Pi", 2, 50, QF_BINARY_SI},
        {"Ei", 2, 60, QF_BINARY_SI},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strlen(tab[i].s) == n && memcmp(tab[i].s, s, n) == 0) {
            *base = tab[i].base; *exp = tab[i].exp; *f = tab[i].f;
            return true;
        }
    }
    if (n > 1 && (s[0] == 'e' || s[0] == 'E')) {
        int64_t v;
        if (!parse_int64(s + 1, n - 1, &v)) return false;
        *base = 10;
        *exp = (int32_t)(uint32_t)(uint64_t)v;    /* Go's int32(parsed) truncation */
        *f = QF_DECIMAL_EXPONENT;
        return true;
    }
    return false;
}

/* ------------------------------------------------- inf.Dec parse fallback */

/* A non-negative decimal integer as a digit string (values 0..9, most
 * significant first) followed by `zeros` implicit zero digits. */
typedef struct { unsigned char *d; size_t n, cap; int64_t zeros; } digits;

static void digits_strip_leading(digits *g) {
    size_t k = 0;
    while (k < g->n && g->d[k] == 0) k++;
    memmove(g->d, g->d + k, g->n - k);
    g->n -= k;
}

/* g *= 2^e for 0 <= e <= 60, in chunks of 2^20. */
static void digits_mul_pow2(digits *g, int e) {
    while (e > 0) {
        int k = e > 20 ? 20 : e;
        e -= k;
        uint64_t carry = 0;
        for (size_t i = g->n; i-- > 0;) {
            uint64_t v = ((uint64_t)g->d[i] << k) + carry;
            g->d[i] = (unsigned char)(v % 10);
            carry = v / 10;
        }
        while (carry) {                  /* cap has room: callers reserve 24 */
            memmove(g->d + 1, g->d, g->n);
            g->d[0] = (unsigned char)(carry % 10);
            carry /= 10;
            g->n++;
        }
    }
}

/* g += 1 (g has at least one spare byte of capacity). */
static void digits_increment(digits *g) {
    size_t i = g->n;
    while (i > 0) {
        if (g->d[i - 1] < 9) { g->d[i - 1]++; return; }
        g->d[--i] = 0;
    }
    memmove(g->d + 1, g->d, g->n);
    g->d[0] = 1;
    g->n++;
}

/* Compare g (no leading zeros, zeros appended) with a plain digit literal. */
static int digits_cmp_lit(const digits *g, const char *lit) {
    size_t ln = strlen(lit);
    int64_t gn = (int64_t)g->n + g->zeros;
    if (gn != (int64_t)ln) return gn < (int64_t)ln ? -1 : 1;
    for (size_t i = 0; i < ln; i++) {
        int a = i < g->n ? g->d[i] : 0, b = lit[i] - '0';
        if (a != b) return a < b ? -1 : 1;
    }
    return 0;
}

/* Store the magnitude g (times sign) as mant * 10^exp10 with exp10 = -9 when
 * the upstream form fits, else with trailing zeros moved into the exponent. */
static int digits_store(const digits *g, bool negative, quantity *q) {
    size_t tz_in = 0;
    while (tz_in < g->n && g->d[g->n - 1 - tz_in] == 0) tz_in++;
    size_t sig = g->n - tz_in;
    int64_t total = (int64_t)g->n + g->zeros;
    int64_t exp;
    size_t take;
    if (total <= MAX_DIGITS) { take = g->n; exp = -9; }
    else {
        if (sig > MAX_DIGITS) return -1;
        take = sig;
        exp = -9 + (int64_t)tz_in + g->zeros;
        if (exp > INT32_MAX) return -1;
    }
    i128 m = 0;
    for (size_t i = 0; i < take; i++) m = m * 10 + g->d[i];
    if (total <= MAX_DIGITS)
        for (int64_t z = 0; z < g->zeros; z++) m *= 10;
    q->mant = negative ? -m : m;
    q->exp10 = (int32_t)exp;
    return 0;
}

/* The inf.Dec branch of ParseQuantity: exact value, rounded up (away from
 * zero) to a multiple of 10^-9, BinarySI capped at 2^63-1. */
static int parse_dec(const scan *sc, int base, int32_t exponent, quantity_format *fmt,
                     quantity *q, const char **err) {
    size_t ndig = 0;
    for (size_t i = 0; i < sc->value_n; i++) ndig += is_digit(sc->value[i]);
    if (ndig == 0) { *err = ERR_NUMERIC; return -1; }   /* inf.Dec.SetString fails */

    /* inf scale: digits after '.', then minus the decimal exponent (int32 math). */
    int32_t scale = (int32_t)sc->denom_n;
    if (base == 10) scale = (int32_t)((uint32_t)scale + (uint32_t)(0u - (uint32_t)exponent));

    digits g = {0};
    g.cap = ndig + 24;
    g.d = xmalloc(g.cap);
    for (size_t i = 0; i < sc->value_n; i++)
        if (is_digit(sc->value[i])) g.d[g.n++] = (unsigned char)(sc->value[i] - '0');
    digits_strip_leading(&g);
    bool negative = !sc->positive;
    int rc = 0;

    if (g.n == 0) {                      /* zero: upstream keeps it unrounded */
        q->mant = 0;
        int64_t e = -(int64_t)scale;
        q->exp10 = e > INT32_MAX ? INT32_MAX : (int32_t)e;
        goto done;
    }
    if (base == 2) digits_mul_pow2(&g, exponent);

    /* value * 10^9 = g * 10^k; round up to an integer. */
    int64_t k = 9 - (int64_t)scale;
    if (k >= 0) g.zeros = k;
    else {
        uint64_t drop = (uint64_t)(-k);
        bool sticky = false;
        if (drop >= g.n) { g.n = 0; sticky = true; }
        else {
            for (size_t i = g.n - (size_t)drop; i < g.n; i++) sticky |= g.d[i] != 0;
            g.n -= (size_t)drop;
        }
        if (sticky) digits_increment(&g);
    }
    if (*fmt == QF_BINARY_SI) {
        if (digits_cmp_lit(&g, CAP_NANO) > 0) {
            q->mant = negative ? -(i128)INT64_MAX : (i128)INT64_MAX;
            q->exp10 = 0;
            goto done;
        }
        if ((int64_t)g.n + g.zeros <= 9) *fmt = QF_DECIMAL_SI;   /* 0 < |v| < 1 */
    }
    if (digits_store(&g, negative, q) != 0) { *err = ERR_RANGE; rc = -1; }
done:
    free(g.d);
    return rc;
}

/* ------------------------------------------------------------------ parse */

int quantity_parse(const char *s, size_t n, quantity *out, const char **err) {
    const char *dummy;
    if (!err) err = &dummy;
    if (n == 0) { *err = ERR_FORMAT; return -1; }
    if (n == 1 && s[0] == '0') { *out = quantity_from_int64(0, QF_DECIMAL_SI); return 0; }

    scan sc;
    if (scan_quantity(s, n, &sc) != 0) { *err = ERR_FORMAT; return -1; }
    int base;
    int32_t exponent;
    quantity_format fmt;
    if (!interpret_suffix(sc.suffix, sc.suffix_n, &base, &exponent, &fmt)) {
        *err = ERR_SUFFIX;
        return -1;
    }

    /* int64Amount fast path, with upstream's precision estimate. */
    int64_t precision;
    int32_t scale = 0;
    int64_t mantissa = 1;
    if (fmt != QF_BINARY_SI) {
        scale = exponent;
        precision = 18 - (int64_t)(sc.num_n + sc.denom_n);
    } else if (exponent >= 0 && sc.denom_n == 0) {
        mantissa = (int64_t)1 << exponent;
        precision = 15 - (int64_t)sc.num_n - exponent * 3 / 10 - 1;
    } else {
        precision = -1;
    }
    if (precision >= 0) {
        scale = (int32_t)((uint32_t)scale - (uint32_t)sc.denom_n);
        if (scale >= -9) {
            int64_t v = 0;
            for (size_t i = 0; i < sc.num_n; i++) v = v * 10 + (sc.num[i] - '0');
            for (size_t i = 0; i < sc.denom_n; i++) v = v * 10 + (sc.denom[i] - '0');
            if (v == 0 || v <= INT64_MAX / mantissa) {
                int64_t r = v * mantissa;
                out->mant = sc.positive ? r : -r;
                out->exp10 = scale;
                out->format = (uint8_t)fmt;
                out->is_dec = 0;
                return 0;
            }
        }
    }

    quantity q = {0};
    if (parse_dec(&sc, base, exponent, &fmt, &q, err) != 0) return -1;
    q.format = (uint8_t)fmt;
    q.is_dec = 1;
    *out = q;
    return 0;
}

quantity quantity_from_int64(int64_t v, quantity_format f) {
    quantity q;
    memset(&q, 0, sizeof q);
    q.mant = v;
    q.format = (uint8_t)f;
    return q;
}

/* ------------------------------------------------------------- comparison */

int quantity_sign(const quantity *q) { return q->mant > 0 ? 1 : q->mant < 0 ? -1 : 0; }

/* Compare |a| with |b| exactly, whatever their exponents. */
static int cmp_magnitude(u128 ma, int64_t ea, u128 mb, int64_t eb) {
    if (ea == eb) return ma < mb ? -1 : ma > mb;
    int64_t oa = ndigits_u128(ma) + ea, ob = ndigits_u128(mb) + eb;
    if (oa != ob) return oa < ob ? -1 : 1;
    /* same order of magnitude, so |ea - eb| <= 38 */
    if (ea > eb) {
        u128 p = pow10_u128((int)(ea - eb)), qt = mb / p;
        if (ma != qt) return ma < qt ? -1 : 1;
        return mb % p ? -1 : 0;
    }
    return -cmp_magnitude(mb, eb, ma, ea);
}

int quantity_cmp(const quantity *a, const quantity *b) {
    int sa = quantity_sign(a), sb = quantity_sign(b);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;
    int c = cmp_magnitude(uabs128(a->mant), a->exp10, uabs128(b->mant), b->exp10);
    return sa > 0 ? c : -c;
}

/* ------------------------------------------------------------- arithmetic */

static bool fits_int64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* int64Amount.Add: exact int64 sum at the smaller scale, or false. */
static bool int64_amount_add(i128 av, int32_t as, i128 bv, int32_t bs, i128 *rv, int32_t *rs) {
    if (bv == 0) { *rv = av; *rs = as; return true; }
    if (av == 0) { *rv = bv; *rs = bs; return true; }
    i128 x = av, y = bv;
    int32_t s = as;
    if (as > bs) {
        if (!mul_pow10_i128(av, (int64_t)as - bs, &x) || !fits_int64(x)) return false;
        s = bs;
    } else if (bs > as) {
        if (!mul_pow10_i128(bv, (int64_t)bs - as, &y) || !fits_int64(y)) return false;
    }
    i128 r = x + y;
    if (!fits_int64(r)) return false;
    *rv = r; *rs = s;
    return true;
}

/* Remove factors of ten from the mantissa into the exponent. */
static void normalize(i128 *m, int64_t *e) {
    if (*m == 0) return;
    while (*m % 10 == 0) { *m /= 10; (*e)++; }
}

/* inf.Dec addition: exact, at the larger scale (smaller exponent). When that
 * form overflows, retry with both mantissas normalised. */
static int dec_add(i128 am, int64_t ae, i128 bm, int64_t be, quantity *out) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (attempt == 1) { normalize(&am, &ae); normalize(&bm, &be); }
        int64_t e = ae < be ? ae : be;
        i128 x, y, r;
        if (!mul_pow10_i128(am, ae - e, &x) || !mul_pow10_i128(bm, be - e, &y)) continue;
        if (!add_i128(x, y, &r)) continue;
        out->mant = r;                   /* e lies between two int32 exponents */
        out->exp10 = (int32_t)e;
        out->is_dec = 1;
        return 0;
    }
    return -1;
}

int quantity_add(const quantity *a, const quantity *b, quantity *out) {
    quantity r = *a;
    if (!a->is_dec && !b->is_dec) {
        if (a->mant == 0) r.format = b->format;
        i128 v;
        int32_t s;
        if (int64_amount_add(a->mant, a->exp10, b->mant, b->exp10, &v, &s)) {
            r.mant = v; r.exp10 = s; r.is_dec = 0;
            *out = r;
            return 0;
        }
    } else if (a->mant == 0) {
        r.format = b->format;
    }
    if (dec_add(a->mant, a->exp10, b->mant, b->exp10, &r) != 0) return -1;
    *out = r;
    return 0;
}

int quantity_sub(const quantity *a, const quantity *b, quantity *out) {
    quantity r = *a;
    if (a->mant == 0) r.format = b->format;
    if (!a->is_dec && !b->is_dec) {
        if (a->mant == 0 && b->mant == INT64_MIN) {       /* 0 - y == -y, as inf.Dec */
            r.mant = -b->mant; r.exp10 = b->exp10; r.is_dec = 1;
            *out = r;
            return 0;
        }
        i128 v;
        int32_t s;
        if (b->mant != INT64_MIN &&
            int64_amount_add(a->mant, a->exp10, -b->mant, b->exp10, &v, &s)) {
            r.mant = v; r.exp10 = s; r.is_dec = 0;
            *out = r;
            return 0;
        }
    }
    if (dec_add(a->mant, a->exp10, -b->mant, b->exp10, &r) != 0) return -1;
    *out = r;
    return 0;
}

/* ------------------------------------------------------------- formatting */

static const char *decimal_si_suffix(int64_t exp) {
    switch (exp) {
    case -9: return "n";
    case -6: return "u";
    case -3: return "m";
    case 0: return "";
    case 3: return "k";
    case 6: return "M";
    case 9: return "G";
    case 12: return "T";
    case 15: return "P";
    case 18: return "E";
    default: return NULL;
    }
}

/* True when q is an exact integer; stores it in *v if it fits an i128. */
static bool integer_value(const quantity *q, i128 *v) {
    if (q->exp10 >= 0) return mul_pow10_i128(q->mant, q->exp10, v);
    int64_t d = -(int64_t)q->exp10;
    if (d > MAX_DIGITS) return false;                 /* mant != 0 here */
    i128 p = (i128)pow10_u128((int)d);
    if (q->mant % p != 0) return false;
    *v = q->mant / p;
    return true;
}

size_t quantity_format_str(const quantity *q, char *buf, size_t n) {
    char tmp[128];
    size_t len = 0;
    if (q->mant == 0) {
        tmp[len++] = '0';
    } else {
        int fmt = q->format;
        i128 iv = 0;
        if (fmt == QF_BINARY_SI) {
            quantity k1024 = quantity_from_int64(1024, QF_DECIMAL_SI);
            quantity m1024 = quantity_from_int64(-1024, QF_DECIMAL_SI);
            if (quantity_cmp(q, &m1024) > 0 && quantity_cmp(q, &k1024) < 0) fmt = QF_DECIMAL_SI;
            else if (!integer_value(q, &iv)) fmt = QF_DECIMAL_SI;
        } else if (fmt != QF_DECIMAL_SI) {
            fmt = QF_DECIMAL_EXPONENT;
        }
        if (q->mant < 0) tmp[len++] = '-';
        if (fmt == QF_BINARY_SI) {
            static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            u128 m = uabs128(iv);
            int e = 0;
            while (e < 6 && m >= 1024 && m % 1024 == 0) { m /= 1024; e++; }
            len += (size_t)u128_to_digits(m, tmp + len);
            len += (size_t)sprintf(tmp + len, "%s", bin[e]);
        } else {
            i128 m = q->mant;
            int64_t e = q->exp10;
            normalize(&m, &e);
            len += (size_t)u128_to_digits(uabs128(m), tmp + len);
            int64_t r = e % 3;                    /* C and Go agree on the sign */
            int pad = (r == 1 || r == -2) ? 1 : (r == 2 || r == -1) ? 2 : 0;
            for (int i = 0; i < pad; i++) tmp[len++] = '0';
            e -= pad;
            const char *suf = fmt == QF_DECIMAL_SI ? decimal_si_suffix(e) : NULL;
            if (suf) len += (size_t)sprintf(tmp + len, "%s", suf);
            else if (e != 0) len += (size_t)sprintf(tmp + len, "e%lld", (long long)e);
        }
    }
    tmp[len] = '\0';
    if (n > 0) {
        size_t c = len < n - 1 ? len : n - 1;
        memcpy(buf, tmp, c);
        buf[c] = '\0';
    }
    return len;
}

/* --------------------------------------------------------------- accessors */

bool quantity_as_int64(const quantity *q, int64_t *out) {
    if (q->is_dec || q->exp10 < 0) return false;
    i128 v;
    if (!mul_pow10_i128(q->mant, q->exp10, &v) || !fits_int64(v)) return false;
    *out = (int64_t)v;
    return true;
}

/* Go math.Pow10, table for table, so products round the same way. */
static double go_pow10(int64_t n) {
    static const double tab[32] = {
        1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10,
        1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
        1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
    static const double pos32[10] = {1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288};
    static const double neg32[11] = {1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160,
                                     1e-192, 1e-224, 1e-256, 1e-288, 1e-320};
    if (n >= 0 && n <= 308) return pos32[n / 32] * tab[n % 32];
    if (n >= -323 && n <= 0) return neg32[-n / 32] / tab[-n % 32];
    return n > 0 ? HUGE_VAL : 0.0;
}

double quantity_approx_float(const quantity *q) {
    double base = (double)q->mant;
    if (q->exp10 == 0) return base;
    return base * go_pow10(q->exp10);
}

/* ceil(|q| / 10^scale) away from zero, saturated to int64. */
static int64_t scaled_value(const quantity *q, int scale) {
    int64_t shift = (int64_t)q->exp10 - scale;
    i128 r;
    if (q->mant == 0) return 0;
    if (shift >= 0) {
        if (!mul_pow10_i128(q->mant, shift, &r)) return q->mant > 0 ? INT64_MAX : INT64_MIN;
    } else if (-shift > MAX_DIGITS) {
        r = q->mant > 0 ? 1 : -1;
    } else {
        i128 p = (i128)pow10_u128((int)-shift);
        r = q->mant / p;
        if (q->mant % p != 0) r += q->mant > 0 ? 1 : -1;
    }
    if (r > INT64_MAX) return INT64_MAX;
    if (r < INT64_MIN) return INT64_MIN;
    return (int64_t)r;
}

int64_t quantity_milli_value(const quantity *q) { return scaled_value(q, -3); }
int64_t quantity_value(const quantity *q) { return scaled_value(q, 0); }
