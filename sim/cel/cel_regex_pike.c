/*
 * cel_regex_pike.c -- linear-time, leftmost-first matching for the RE2 subset
 * (a Thompson NFA simulated as a Pike VM, as RE2 and Go's regexp do).
 *
 * cel_regex.c matches with PCRE2's backtracker, which gives RE2's answer
 * (leftmost-first) but may run away on ambiguous patterns; when it hits its
 * match limit, this VM answers instead, in O(subject x program) time, with the
 * same leftmost-first priorities: threads are kept in priority order and a
 * match cuts off every lower-priority thread (Go regexp/syntax semantics).
 *
 * Input is the pattern as cel_regex.c translated it for PCRE2 (already checked
 * against RE2's grammar). Each atom (literal, class, `.`, \d, \pL, ...) keeps
 * its translated text: ASCII membership is precomputed in a bitmap by asking
 * PCRE2 once per ASCII character, other code points ask PCRE2 (anchored, one
 * character), so classes, Unicode properties and case folding are PCRE2's,
 * exactly as on the fast path. Only the overall match span is tracked.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"
#include "util/xalloc.h"

#define PIKE_MAX_INST 200000u   /* program size cap (RE2 refuses huge programs too) */

enum { I_CHAR, I_SPLIT, I_JMP, I_ASSERT, I_MATCH };
enum { A_BOT, A_EOT, A_BOL, A_EOL, A_WORD, A_NOWORD };

typedef struct inst { uint8_t op, arg; uint32_t x, y; } inst;   /* SPLIT: prefer x */

typedef struct atom {
    uint32_t lit;            /* the one code point of a plain literal, or UINT32_MAX */
    uint64_t ascii[2];       /* membership of 0..127 */
    pcre2_code *re;          /* membership of the rest (anchored, one character) */
} atom;

typedef enum { N_EMPTY, N_ATOM, N_ASSERT, N_CAT, N_ALT, N_REP } nkind;
typedef struct rnode {
    nkind k;
    uint32_t a;              /* ATOM: atom index; ASSERT: kind; CAT/ALT: first kid; REP: the kid */
    uint32_t n;              /* CAT/ALT: number of kids */
    int min, max;            /* REP; max -1 = unbounded */
    bool greedy;
} rnode;

struct pike_prog {
    inst *code;
    uint32_t ninst, capinst;
    atom *atoms;
    uint32_t natoms, capatoms;
};

/* ---- parsing the translated pattern --------------------------------------- */

typedef struct flags { bool i, m, s, U; } flags;

typedef struct parser {
    const char *p;
    size_t n, pos;
    rnode *nodes;
    uint32_t nnodes, capnodes;
    uint32_t *kids;          /* CAT/ALT children, contiguous per node */
    uint32_t nkids, capkids;
    pike_prog *prog;
    bool too_big;
} parser;

static uint32_t new_node(parser *P, rnode r) {
    if (P->nnodes == P->capnodes) {
        P->capnodes = P->capnodes ? P->capnodes * 2 : 64;
        P->nodes = xrealloc(P->nodes, P->capnodes * sizeof *P->nodes);
    }
    P->nodes[P->nnodes] = r;
    return P->nnodes++;
}

/* A node whose kids are tmp[0..k): copied to the kids array. */
static uint32_t new_list(parser *P, nkind k, const uint32_t *tmp, uint32_t cnt) {
    if (cnt == 0) return new_node(P, (rnode){.k = N_EMPTY});
    if (cnt == 1) return tmp[0];
    while (P->nkids + cnt > P->capkids) {
        P->capkids = P->capkids ? P->capkids * 2 : 64;
        P->kids = xrealloc(P->kids, P->capkids * sizeof *P->kids);
    }
    memcpy(P->kids + P->nkids, tmp, cnt * sizeof *tmp);
    uint32_t first = P->nkids;
    P->nkids += cnt;
    return new_node(P, (rnode){.k = k, .a = first, .n = cnt});
}

static _Thread_local pcre2_match_data *s_amd;   /* for atom membership tests */

static bool re_accepts(pcre2_code *re, const char *s, size_t n) {
    if (!s_amd) s_amd = pcre2_match_data_create(1, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, PCRE2_ANCHORED, s_amd, NULL);
    return rc > 0 && pcre2_get_ovector_pointer(s_amd)[1] == n;
}

/* An atom from its translated text t[0..len) under flags f. */
static uint32_t new_atom(parser *P, const char *t, size_t len, flags f) {
    pike_prog *g = P->prog;
    if (g->natoms == g->capatoms) {
        g->capatoms = g->capatoms ? g->capatoms * 2 : 16;
        g->atoms = xrealloc(g->atoms, g->capatoms * sizeof *g->atoms);
    }
    atom *a = &g->atoms[g->natoms];
    memset(a, 0, sizeof *a);
    a->lit = UINT32_MAX;
    unsigned char c0 = (unsigned char)t[0];
    bool letter = (c0 | 0x20) >= 'a' && (c0 | 0x20) <= 'z';
    if (t[0] != '\\' && t[0] != '[' && t[0] != '.' && !(f.i && (letter || c0 >= 0x80))) {
        uint32_t cp;
        utf8_decode(t, len, &cp);
        a->lit = cp;   /* a plain literal: compared directly */
    } else {
        strbuf src = {0};
        sb_printf(&src, "(?%s%s)", f.i ? "i" : "", f.s ? "s" : "-s");
        sb_append(&src, t, len);
        int ec;
        PCRE2_SIZE eo;
        a->re = pcre2_compile((PCRE2_SPTR)src.s, src.len, PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C, &ec, &eo, NULL);
        sb_free(&src);
        if (!a->re) return UINT32_MAX;
        for (unsigned ch = 0; ch < 128; ch++) {
            char b = (char)ch;
            if (re_accepts(a->re, &b, 1)) a->ascii[ch >> 6] |= 1ull << (ch & 63);
        }
    }
    return g->natoms++;
}

/* Length of the escape at p[i] == '\\' in translated text. */
static size_t escape_len(const char *p, size_t n, size_t i) {
    if (i + 1 >= n) return 1;
    char e = p[i + 1];
    if ((e == 'x' || e == 'p' || e == 'P') && i + 2 < n && p[i + 2] == '{') {
        size_t j = i + 3;
        while (j < n && p[j] != '}') j++;
        return j < n ? j + 1 - i : n - i;
    }
    if (e == 'x') return i + 4 <= n ? 4 : n - i;
    if (e == 'p' || e == 'P') return i + 3 <= n ? 3 : n - i;
    if ((unsigned char)e >= 0x80) {
        uint32_t cp;
        return 1 + (size_t)utf8_decode(p + i + 1, n - i - 1, &cp);
    }
    return 2;
}

static uint32_t parse_alt(parser *P, flags *f, int depth);

/* Parse flags "ims-U" at P->pos into f; returns the character after them. */
static char parse_flags(parser *P, flags *f) {
    bool on = true;
    while (P->pos < P->n) {
        char c = P->p[P->pos];
        if (c == '-') on = false;
        else if (c == 'i') f->i = on;
        else if (c == 'm') f->m = on;
        else if (c == 's') f->s = on;
        else if (c == 'U') f->U = on;
        else return c;
        P->pos++;
    }
    return 0;
}

/* One atom, assertion or group; UINT32_MAX at a '|' / ')' / end (nothing). */
static uint32_t parse_primary(parser *P, flags *f, int depth) {
    const char *p = P->p;
    size_t i = P->pos, n = P->n;
    char c = p[i];
    if (c == '(') {
        P->pos = i + 1;
        flags inner = *f;
        if (P->pos < n && p[P->pos] == '?') {
            P->pos++;
            char k = P->pos < n ? p[P->pos] : 0;
            if (k == 'P' || k == '<') {   /* named group */
                while (P->pos < n && p[P->pos] != '>') P->pos++;
                P->pos++;
            } else if (k == ':') {
                P->pos++;
            } else {
                char end = parse_flags(P, &inner);
                P->pos++;
                if (end == ')') {   /* (?i): flags for the rest of the enclosing group */
                    *f = inner;
                    return new_node(P, (rnode){.k = N_EMPTY});
                }
            }
        }
        uint32_t r = parse_alt(P, &inner, depth + 1);
        if (P->pos < n && p[P->pos] == ')') P->pos++;
        return r;
    }
    if (c == '^' || c == '$') {
        P->pos = i + 1;
        uint32_t kind = c == '^' ? (f->m ? A_BOL : A_BOT) : (f->m ? A_EOL : A_EOT);
        return new_node(P, (rnode){.k = N_ASSERT, .a = kind});
    }
    size_t len;
    if (c == '\\') {
        char e = i + 1 < n ? p[i + 1] : 0;
        if (e == 'b' || e == 'B' || e == 'A' || e == 'z') {
            P->pos = i + 2;
            uint32_t kind = e == 'b' ? A_WORD : e == 'B' ? A_NOWORD : e == 'A' ? A_BOT : A_EOT;
            return new_node(P, (rnode){.k = N_ASSERT, .a = kind});
        }
        len = escape_len(p, n, i);
    } else if (c == '[') {
        size_t j = i + 1;
        if (j < n && p[j] == '^') j++;
        while (j < n && p[j] != ']') {
            if (p[j] == '\\') j += escape_len(p, n, j);
            else if (p[j] == '[' && j + 1 < n && p[j + 1] == ':') {
                size_t k = j + 2;   /* translate() lets only [:name:] / [:^name:] through */
                while (k + 1 < n && !(p[k] == ':' && p[k + 1] == ']')) k++;
                j = k + 1 < n ? k + 2 : n;
            } else j++;
        }
        len = (j < n ? j + 1 : n) - i;
    } else {
        uint32_t cp;
        len = (size_t)utf8_decode(p + i, n - i, &cp);
    }
    P->pos = i + len;
    uint32_t at = new_atom(P, p + i, len, *f);
    if (at == UINT32_MAX) { P->too_big = true; return new_node(P, (rnode){.k = N_EMPTY}); }
    return new_node(P, (rnode){.k = N_ATOM, .a = at});
}

/* A primary with its quantifiers. */
static uint32_t parse_repeat(parser *P, flags *f, int depth) {
    uint32_t r = parse_primary(P, f, depth);
    const char *p = P->p;
    while (P->pos < P->n) {
        char c = p[P->pos];
        int lo, hi;
        if (c == '*') { lo = 0; hi = -1; P->pos++; }
        else if (c == '+') { lo = 1; hi = -1; P->pos++; }
        else if (c == '?') { lo = 0; hi = 1; P->pos++; }
        else if (c == '{') {
            size_t j = P->pos + 1;
            long a = 0, b;
            while (j < P->n && p[j] >= '0' && p[j] <= '9') a = a * 10 + (p[j++] - '0');
            b = a;
            if (j < P->n && p[j] == ',') {
                j++;
                if (j < P->n && p[j] >= '0' && p[j] <= '9') {
                    b = 0;
                    while (j < P->n && p[j] >= '0' && p[j] <= '9') b = b * 10 + (p[j++] - '0');
                } else b = -1;
            }
            P->pos = j + 1;   /* past '}' (translate checked the form and bounds <= 1000) */
            lo = (int)a;
            hi = (int)b;
        } else break;
        bool greedy = true;
        if (P->pos < P->n && p[P->pos] == '?') { greedy = false; P->pos++; }
        if (f->U) greedy = !greedy;
        r = new_node(P, (rnode){.k = N_REP, .a = r, .min = lo, .max = hi, .greedy = greedy});
    }
    return r;
}

static uint32_t parse_concat(parser *P, flags *f, int depth) {
    uint32_t *tmp = NULL;
    size_t cnt = 0, cap = 0;
    while (P->pos < P->n && P->p[P->pos] != '|' && P->p[P->pos] != ')') {
        uint32_t r = parse_repeat(P, f, depth);
        if (cnt == cap) { cap = cap ? cap * 2 : 8; tmp = xrealloc(tmp, cap * sizeof *tmp); }
        tmp[cnt++] = r;
    }
    uint32_t r = new_list(P, N_CAT, tmp, (uint32_t)cnt);
    free(tmp);
    return r;
}

static uint32_t parse_alt(parser *P, flags *f, int depth) {
    uint32_t *tmp = NULL;
    size_t cnt = 0, cap = 0;
    for (;;) {
        uint32_t r = parse_concat(P, f, depth);
        if (cnt == cap) { cap = cap ? cap * 2 : 4; tmp = xrealloc(tmp, cap * sizeof *tmp); }
        tmp[cnt++] = r;
        if (P->pos < P->n && P->p[P->pos] == '|') { P->pos++; continue; }
        break;
    }
    uint32_t r = new_list(P, N_ALT, tmp, (uint32_t)cnt);
    free(tmp);
    return r;
}

/* ---- compiling to instructions ------------------------------------------------ */

static uint32_t emit(parser *P, uint8_t op, uint8_t arg, uint32_t x, uint32_t y) {
    pike_prog *g = P->prog;
    if (g->ninst >= PIKE_MAX_INST) { P->too_big = true; return g->ninst ? g->ninst - 1 : 0; }
    if (g->ninst == g->capinst) {
        g->capinst = g->capinst ? g->capinst * 2 : 64;
        g->code = xrealloc(g->code, g->capinst * sizeof *g->code);
    }
    g->code[g->ninst] = (inst){op, arg, x, y};
    return g->ninst++;
}

/* SPLIT at `at` to body (next instruction) and `out`, in the given preference. */
static void set_split(parser *P, uint32_t at, uint32_t body, uint32_t out, bool greedy) {
    if (P->too_big) return;
    P->prog->code[at].x = greedy ? body : out;
    P->prog->code[at].y = greedy ? out : body;
}

static void gen(parser *P, uint32_t ni) {
    if (P->too_big) return;
    rnode r = P->nodes[ni];
    switch (r.k) {
    case N_EMPTY: return;
    case N_ATOM: emit(P, I_CHAR, 0, r.a, 0); return;
    case N_ASSERT: emit(P, I_ASSERT, (uint8_t)r.a, 0, 0); return;
    case N_CAT:
        for (uint32_t k = 0; k < r.n; k++) gen(P, P->kids[r.a + k]);
        return;
    case N_ALT: {
        uint32_t *jumps = xmalloc(r.n * sizeof *jumps);
        for (uint32_t k = 0; k + 1 < r.n; k++) {
            uint32_t sp = emit(P, I_SPLIT, 0, 0, 0);
            gen(P, P->kids[r.a + k]);
            jumps[k] = emit(P, I_JMP, 0, 0, 0);
            set_split(P, sp, sp + 1, P->prog->ninst, true);
        }
        gen(P, P->kids[r.a + r.n - 1]);
        for (uint32_t k = 0; k + 1 < r.n && !P->too_big; k++) P->prog->code[jumps[k]].x = P->prog->ninst;
        free(jumps);
        return;
    }
    case N_REP: {
        for (int k = 0; k < r.min && !P->too_big; k++) gen(P, r.a);
        if (r.max < 0) {   /* x*: L: SPLIT body, out; body: x; JMP L */
            uint32_t sp = emit(P, I_SPLIT, 0, 0, 0);
            gen(P, r.a);
            emit(P, I_JMP, 0, sp, 0);
            set_split(P, sp, sp + 1, P->prog->ninst, r.greedy);
            return;
        }
        int opt = r.max - r.min;   /* x? nested (max - min) times */
        uint32_t *splits = xmalloc((size_t)(opt > 0 ? opt : 1) * sizeof *splits);
        for (int k = 0; k < opt && !P->too_big; k++) {
            splits[k] = emit(P, I_SPLIT, 0, 0, 0);
            gen(P, r.a);
        }
        for (int k = 0; k < opt && !P->too_big; k++) set_split(P, splits[k], splits[k] + 1, P->prog->ninst, r.greedy);
        free(splits);
        return;
    }
    }
}

void pike_free(pike_prog *g) {
    if (!g) return;
    for (uint32_t i = 0; i < g->natoms; i++)
        if (g->atoms[i].re) pcre2_code_free(g->atoms[i].re);
    free(g->atoms);
    free(g->code);
    free(g);
}

pike_prog *pike_compile(const char *t, size_t n) {
    pike_prog *g = xcalloc(1, sizeof *g);
    parser P = {.p = t, .n = n, .prog = g};
    flags f = {0};
    uint32_t root = parse_alt(&P, &f, 0);
    if (!P.too_big) {
        gen(&P, root);
        emit(&P, I_MATCH, 0, 0, 0);
    }
    free(P.nodes);
    free(P.kids);
    if (P.too_big) {
        pike_free(g);
        return NULL;
    }
    return g;
}

/* ---- the VM ------------------------------------------------------------------- */

static bool is_word(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool assert_holds(int kind, const char *s, size_t n, size_t pos) {
    switch (kind) {
    case A_BOT: return pos == 0;
    case A_EOT: return pos == n;
    case A_BOL: return pos == 0 || s[pos - 1] == '\n';
    case A_EOL: return pos == n || s[pos] == '\n';
    default: {
        bool before = pos > 0 && is_word((unsigned char)s[pos - 1]);
        bool after = pos < n && is_word((unsigned char)s[pos]);
        return (before != after) == (kind == A_WORD);
    }
    }
}

static bool atom_accepts(const atom *a, const char *s, size_t len, uint32_t cp) {
    if (a->lit != UINT32_MAX) return cp == a->lit;
    if (cp < 128) return (a->ascii[cp >> 6] >> (cp & 63)) & 1;
    return re_accepts(a->re, s, len);
}

typedef struct tlist { uint32_t *pc; size_t *start; uint32_t n; } tlist;

typedef struct vm {
    const pike_prog *g;
    uint64_t *mark;          /* mark[pc] == gen: already in the list being built */
    uint32_t *stack;
    const char *s;
    size_t n;
} vm;

/* Add pc's closure (through JMP, SPLIT, ASSERT at pos) to l in priority order. */
static void add_thread(vm *V, tlist *l, uint64_t gen, uint32_t pc0, size_t start, size_t pos) {
    uint32_t sp = 0;
    V->stack[sp++] = pc0;
    while (sp) {
        uint32_t pc = V->stack[--sp];
        if (V->mark[pc] == gen) continue;
        V->mark[pc] = gen;
        const inst *in = &V->g->code[pc];
        switch (in->op) {
        case I_JMP: V->stack[sp++] = in->x; break;
        case I_SPLIT: V->stack[sp++] = in->y; V->stack[sp++] = in->x; break;   /* x first */
        case I_ASSERT:
            if (assert_holds(in->arg, V->s, V->n, pos)) V->stack[sp++] = pc + 1;
            break;
        default:
            l->pc[l->n] = pc;
            l->start[l->n++] = start;
        }
    }
}

int pike_search(const pike_prog *g, const char *s, size_t n, size_t from, size_t *ms, size_t *me) {
    uint32_t ni = g->ninst;
    vm V = {.g = g, .s = s, .n = n};
    V.mark = xcalloc(ni, sizeof *V.mark);
    V.stack = xmalloc((2 * (size_t)ni + 2) * sizeof *V.stack);
    tlist a = {xmalloc(ni * sizeof(uint32_t)), xmalloc(ni * sizeof(size_t)), 0};
    tlist b = {xmalloc(ni * sizeof(uint32_t)), xmalloc(ni * sizeof(size_t)), 0};
    tlist *cl = &a, *nl = &b;
    uint64_t gen = 1;
    bool matched = false;
    size_t best_s = 0, best_e = 0;
    for (size_t pos = from;;) {
        if (!matched) add_thread(&V, cl, gen, 0, pos, pos);   /* a new start, lowest priority */
        if (cl->n == 0 && matched) break;
        uint32_t cp = 0;
        size_t clen = 0;
        if (pos < n) clen = (size_t)utf8_decode(s + pos, n - pos, &cp);
        uint64_t ngen = gen + 1;
        nl->n = 0;
        for (uint32_t t = 0; t < cl->n; t++) {
            const inst *in = &g->code[cl->pc[t]];
            if (in->op == I_MATCH) {
                matched = true;
                best_s = cl->start[t];
                best_e = pos;
                break;   /* lower-priority threads lose (leftmost-first) */
            }
            if (pos < n && atom_accepts(&g->atoms[in->x], s + pos, clen, cp))
                add_thread(&V, nl, ngen, cl->pc[t] + 1, cl->start[t], pos + clen);
        }
        tlist *tmp = cl;
        cl = nl;
        nl = tmp;
        gen = ngen;
        if (pos >= n) break;
        pos += clen;
    }
    free(V.mark);
    free(V.stack);
    free(a.pc); free(a.start);
    free(b.pc); free(b.start);
    if (!matched) return 0;
    *ms = best_s;
    *me = best_e;
    return 1;
}
