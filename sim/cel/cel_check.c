/*
 * cel_check.c -- the checking pass: resolves identifiers and functions, infers
 * static types (with dyn as the escape hatch, as cel-go's checker does),
 * rejects calls without a matching overload, mixed-type aggregate literals
 * (Kubernetes' homogeneous aggregate literals) and bad regex literals, fuses
 * `device.attributes[D].ID` paths into direct lookups, and folds constant
 * sub-expressions (keeping their runtime cost).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"
#include "util/intern.h"

typedef struct scope {
    const char *name;
    int slot;
    const ctype *t;
    const struct scope *up;
} scope;

typedef struct checker {
    struct cel_program *p;
    arena *a;
    const char *src;
    size_t len;
    strbuf *err;
    bool failed;
    const cel_options *o;
} checker;

static void cerr(checker *ck, int32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cerr(checker *ck, int32_t pos, const char *fmt, ...) {
    if (ck->failed) return;
    ck->failed = true;
    int line, col;
    cel_pos_linecol(ck->src, ck->len, pos, &line, &col);
    sb_clear(ck->err);
    sb_printf(ck->err, "compilation failed: ERROR: <input>:%d:%d: ", line, col);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(ck->err, fmt, ap);
    va_end(ap);
}

/* ---- types ---------------------------------------------------------------------------- */

static const ctype *mk(arena *a, tkind k, const ctype *x, const ctype *y) {
    ctype *t = a ? arena_alloc(a, sizeof *t) : calloc(1, sizeof *t);
    t->k = (uint8_t)k;
    t->a = x;
    t->b = y;
    return t;
}

static bool is_dynish(const ctype *t) { return t->k == T_DYN || t->k == T_ANY || t->k == T_FREE; }

static void type_str(strbuf *b, const ctype *t) {
    switch ((tkind)t->k) {
    case T_DYN: sb_puts(b, "dyn"); break;
    case T_ANY: sb_puts(b, "any"); break;
    case T_FREE: sb_puts(b, "_var0"); break;
    case T_NULL: sb_puts(b, "null_type"); break;
    case T_BOOL: sb_puts(b, "bool"); break;
    case T_INT: sb_puts(b, "int"); break;
    case T_UINT: sb_puts(b, "uint"); break;
    case T_DOUBLE: sb_puts(b, "double"); break;
    case T_STRING: sb_puts(b, "string"); break;
    case T_BYTES: sb_puts(b, "bytes"); break;
    case T_LIST: sb_puts(b, "list("); type_str(b, t->a); sb_putc(b, ')'); break;
    case T_MAP: sb_puts(b, "map("); type_str(b, t->a); sb_puts(b, ", "); type_str(b, t->b); sb_putc(b, ')'); break;
    case T_OPT: sb_puts(b, "optional_type("); type_str(b, t->a); sb_putc(b, ')'); break;
    case T_QTY: sb_puts(b, "kubernetes.Quantity"); break;
    case T_SEMVER: sb_puts(b, "kubernetes.Semver"); break;
    case T_TYPE: sb_puts(b, "type"); break;
    case T_DEVICE: sb_puts(b, "kubernetes.DRADevice"); break;
    case T_PARAM: sb_putc(b, (char)('A' + t->param)); break;
    }
}

/* Join two types (for type parameters, conditionals, list elements): NULL if incompatible. */
static const ctype *join(arena *a, const ctype *x, const ctype *y) {
    if (x == y) return x;
    if (x->k == T_FREE) return y;
    if (y->k == T_FREE) return x;
    if (is_dynish(x) || is_dynish(y)) return &ct_dyn;
    if (x->k != y->k) return NULL;
    switch (x->k) {
    case T_LIST: case T_OPT: {
        const ctype *e = join(a, x->a, y->a);
        if (!e) return NULL;
        return e == x->a ? x : mk(a, x->k, e, NULL);
    }
    case T_MAP: {
        const ctype *k = join(a, x->a, y->a), *v = join(a, x->b, y->b);
        if (!k || !v) return NULL;
        return k == x->a && v == x->b ? x : mk(a, T_MAP, k, v);
    }
    default: return x;
    }
}

/* Exact equality for homogeneous literals; unresolved element types match anything. */
static bool type_exact(const ctype *x, const ctype *y) {
    if (x == y || x->k == T_FREE || y->k == T_FREE) return true;
    if (x->k != y->k) return false;
    switch (x->k) {
    case T_LIST: case T_OPT: return type_exact(x->a, y->a);
    case T_MAP: return type_exact(x->a, y->a) && type_exact(x->b, y->b);
    default: return true;
    }
}

static bool unify(arena *a, const ctype *p, const ctype *t, const ctype **bind) {
    if (p->k == T_PARAM) {
        const ctype **b = &bind[p->param];
        if (!*b) { *b = t; return true; }
        const ctype *j = join(a, *b, t);
        if (!j) return false;
        *b = j;
        return true;
    }
    if (is_dynish(t) || p->k == T_DYN) return true;
    if (p->k != t->k) return false;
    switch (p->k) {
    case T_LIST: case T_OPT: return unify(a, p->a, t->a, bind);
    case T_MAP: return unify(a, p->a, t->a, bind) && unify(a, p->b, t->b, bind);
    default: return true;
    }
}

static const ctype *subst(arena *a, const ctype *t, const ctype **bind) {
    switch (t->k) {
    case T_PARAM: return bind[t->param] ? bind[t->param] : &ct_dyn;
    case T_LIST: case T_OPT: {
        const ctype *e = subst(a, t->a, bind);
        return e == t->a ? t : mk(a, t->k, e, NULL);
    }
    case T_MAP: {
        const ctype *k = subst(a, t->a, bind), *v = subst(a, t->b, bind);
        return k == t->a && v == t->b ? t : mk(a, T_MAP, k, v);
    }
    default: return t;
    }
}

static bool type_same(const ctype *x, const ctype *y) {
    if (x == y) return true;
    if (x->k != y->k) return false;
    switch (x->k) {
    case T_LIST: case T_OPT: return type_same(x->a, y->a);
    case T_MAP: return type_same(x->a, y->a) && type_same(x->b, y->b);
    default: return true;
    }
}

/* ---- signature parsing (cel_lib.c tables) ---------------------------------------------- */

static const ctype ct_params[4] = {{T_PARAM, 0, 0, 0}, {T_PARAM, 1, 0, 0}, {T_PARAM, 2, 0, 0}, {T_PARAM, 3, 0, 0}};

static const ctype *parse_type(const char **sp) {
    const char *s = *sp;
    while (*s == ' ') s++;
    static const struct { const char *n; const ctype *t; } prims[] = {
        {"int", &ct_int}, {"uint", &ct_uint}, {"double", &ct_double}, {"bool", &ct_bool},
        {"string", &ct_string}, {"bytes", &ct_bytes}, {"null", &ct_null}, {"dyn", &ct_dyn},
        {"qty", &ct_qty}, {"semver", &ct_semver}, {"type", &ct_type}, {"free", &ct_free}};
    const ctype *r = NULL;
    if (!strncmp(s, "list(", 5)) {
        s += 5;
        const ctype *e = parse_type(&s);
        s++;   /* ')' */
        r = mk(NULL, T_LIST, e, NULL);
    } else if (!strncmp(s, "opt(", 4)) {
        s += 4;
        const ctype *e = parse_type(&s);
        s++;
        r = mk(NULL, T_OPT, e, NULL);
    } else if (!strncmp(s, "map(", 4)) {
        s += 4;
        const ctype *k = parse_type(&s);
        s++;   /* ',' */
        const ctype *v = parse_type(&s);
        s++;
        r = mk(NULL, T_MAP, k, v);
    } else if (*s >= 'A' && *s <= 'D' && !(s[1] >= 'a' && s[1] <= 'z')) {
        r = &ct_params[*s - 'A'];
        s++;
    } else {
        for (size_t i = 0; i < sizeof prims / sizeof *prims; i++) {
            size_t l = strlen(prims[i].n);
            if (!strncmp(s, prims[i].n, l) && !(s[l] >= 'a' && s[l] <= 'z')) {
                r = prims[i].t;
                s += l;
                break;
            }
        }
    }
    if (!r) {
        fprintf(stderr, "cel: bad signature type at '%s'\n", s);
        abort();
    }
    *sp = s;
    return r;
}

typedef struct ovcache { const cel_func *f; cel_overload *ov; size_t n; } ovcache;
static ovcache *s_ov;
static size_t s_nov, s_capov;

size_t cel_func_overloads(const cel_func *f, const cel_overload **out) {
    for (size_t i = 0; i < s_nov; i++)
        if (s_ov[i].f == f) { *out = s_ov[i].ov; return s_ov[i].n; }
    /* parse "M a,b>r; G a>r" */
    size_t cnt = 1;
    for (const char *s = f->sigs; *s; s++) cnt += *s == ';';
    cel_overload *ov = calloc(cnt, sizeof *ov);
    size_t n = 0;
    const char *s = f->sigs;
    while (*s) {
        while (*s == ' ' || *s == ';') s++;
        if (!*s) break;
        cel_overload *o = &ov[n++];
        o->member = *s == 'M';
        s++;
        while (*s == ' ') s++;
        while (*s != '>') {
            o->args[o->nargs++] = parse_type(&s);
            while (*s == ' ' || *s == ',') s++;
        }
        s++;
        o->result = parse_type(&s);
        while (*s == ' ') s++;
    }
    if (s_nov == s_capov) {
        s_capov = s_capov ? s_capov * 2 : 64;
        s_ov = realloc(s_ov, s_capov * sizeof *s_ov);
    }
    s_ov[s_nov++] = (ovcache){f, ov, n};
    *out = ov;
    return n;
}

/* ---- checking ------------------------------------------------------------------------------ */

static const ctype *check(checker *ck, cnode **np, const scope *sc);

static const scope *lookup(const scope *sc, const char *name) {
    for (; sc; sc = sc->up)
        if (!strcmp(sc->name, name)) return sc;
    return NULL;
}

static const ctype *const_type(arena *a, cel_val v) {
    switch (v.k) {
    case CV_NULL: return &ct_null;
    case CV_BOOL: return &ct_bool;
    case CV_INT: return &ct_int;
    case CV_UINT: return &ct_uint;
    case CV_DOUBLE: return &ct_double;
    case CV_STRING: return &ct_string;
    case CV_BYTES: return &ct_bytes;
    case CV_QTY: return &ct_qty;
    case CV_SEMVER: return &ct_semver;
    default: return &ct_dyn;
    }
}

static bool all_const(const cnode *n, int k) {
    for (int i = 0; i < k; i++)
        if (n->args[i]->op != N_CONST) return false;
    return true;
}

static int kids(const cnode *n) {
    if (n->op == N_LIST) return (int)n->cv.n;
    if (n->op == N_MAP) return (int)n->cv.n * 2;
    return n->nargs;
}

/* Evaluate a constant sub-tree now and replace it by its value (keeping its cost). */
static void fold(checker *ck, cnode *n) {
    if (!all_const(n, kids(n))) return;
    cel_ctx c = {.limit = CEL_MAX_COST, .compile_time = true};
    cel_val v = cel_ev(&c, n);
    if (v.k != CV_ERROR && v.k < CV_DEVICE) {
        cel_val cv = cel_val_copy(ck->a, v);
        if (cv.k == CV_STRING && cv.n <= 256 && !cv.x) {
            cv.s = intern_n(cv.s, cv.n);
            cv.x = 1;
        }
        n->op = N_CONST;
        n->cv = cv;
        n->cost = (uint32_t)(c.cost > UINT32_MAX ? UINT32_MAX : c.cost);
        n->nargs = 0;
        n->optel = NULL;
        cel_bind_evaluators(n);
    }
    cel_scratch_reset();
}

static const char *qualified_name(arena *a, const cnode *n) {
    if (n->op == N_IDENT) return n->name;
    if (n->op == N_SELECT && !(n->flags & NF_OPTIONAL)) {
        const char *q = qualified_name(a, n->args[0]);
        if (!q) return NULL;
        size_t l = strlen(q) + strlen(n->name) + 2;
        char *r = arena_alloc(a, l);
        snprintf(r, l, "%s.%s", q, n->name);
        return r;
    }
    return NULL;
}

static bool ident_root_is_var(const cnode *n, const scope *sc, const cel_options *o) {
    while (n->op == N_SELECT) n = n->args[0];
    if (n->op != N_IDENT) return true;
    if (lookup(sc, n->name)) return true;
    if (o->device_env && !strcmp(n->name, "device")) return true;
    return false;
}

static const ctype *select_type(checker *ck, cnode *n, const ctype *t) {
    switch (t->k) {
    case T_DEVICE:
        if (!strcmp(n->name, "driver")) return &ct_string;
        if (!strcmp(n->name, "attributes"))
            return mk(ck->a, T_MAP, &ct_string, mk(ck->a, T_MAP, &ct_string, ck->o->list_attributes ? &ct_dyn : &ct_any));
        if (!strcmp(n->name, "capacity")) return mk(ck->a, T_MAP, &ct_string, mk(ck->a, T_MAP, &ct_string, &ct_qty));
        if (!strcmp(n->name, "allowMultipleAllocations") && ck->o->consumable_capacity) return &ct_bool;
        cerr(ck, n->pos, "undefined field '%s'", n->name);
        return NULL;
    case T_MAP: return t->b;
    case T_DYN: case T_ANY: case T_FREE: return &ct_dyn;
    case T_OPT: {
        const ctype *in = select_type(ck, n, t->a);
        if (!in) return NULL;
        return in->k == T_OPT ? in : mk(ck->a, T_OPT, in, NULL);
    }
    default: {
        strbuf b = {0};
        type_str(&b, t);
        cerr(ck, n->pos, "type '%s' does not support field selection", sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    }
}

static const ctype *index_type(checker *ck, cnode *n, const ctype *t, const ctype *it) {
    switch (t->k) {
    case T_LIST:
        if (it->k == T_INT || is_dynish(it)) return t->a;
        break;
    case T_MAP:
        if (unify(ck->a, t->a, it, (const ctype *[4]){0}) || it->k == T_NULL) return t->b;
        if (join(ck->a, t->a, it)) return t->b;
        break;
    case T_DYN: case T_ANY: case T_FREE:
        return &ct_dyn;
    case T_OPT: {
        const ctype *in = index_type(ck, n, t->a, it);
        if (!in) return NULL;
        return in->k == T_OPT ? in : mk(ck->a, T_OPT, in, NULL);
    }
    default: break;
    }
    strbuf b = {0};
    sb_puts(&b, "found no matching overload for '_[_]' applied to '(");
    type_str(&b, t);
    sb_puts(&b, ", ");
    type_str(&b, it);
    sb_puts(&b, ")'");
    cerr(ck, n->pos, "%s", sb_str(&b));
    sb_free(&b);
    return NULL;
}

static bool boolish(const ctype *t) { return t->k == T_BOOL || is_dynish(t); }

static void no_overload(checker *ck, const cnode *n, const char *name, const ctype **ts, int k) {
    strbuf b = {0};
    sb_printf(&b, "found no matching overload for '%s' applied to '", name);
    if (n->flags & NF_RECEIVER && k > 0) {
        type_str(&b, ts[0]);
        sb_putc(&b, '.');
    }
    sb_putc(&b, '(');
    for (int i = (n->flags & NF_RECEIVER) ? 1 : 0, f = 1; i < k; i++, f = 0) {
        if (!f) sb_puts(&b, ", ");
        type_str(&b, ts[i]);
    }
    sb_puts(&b, ")'");
    cerr(ck, n->pos, "%s", sb_str(&b));
    sb_free(&b);
}

static const ctype *check_call(checker *ck, cnode **np, const scope *sc) {
    cnode *n = *np;
    /* namespaced functions: strings.quote(x), sets.contains(a, b), optional.of(x) ... */
    if ((n->flags & NF_RECEIVER) && !ident_root_is_var(n->args[0], sc, ck->o)) {
        const char *q = qualified_name(ck->a, n->args[0]);
        if (q) {
            size_t l = strlen(q) + strlen(n->name) + 2;
            char *full = arena_alloc(ck->a, l);
            snprintf(full, l, "%s.%s", q, n->name);
            if (cel_func_lookup(full)) {
                n->name = full;
                n->flags &= (uint8_t)~NF_RECEIVER;
                for (int i = 1; i < n->nargs; i++) n->args[i - 1] = n->args[i];
                n->nargs--;
            }
        }
    }
    const cel_func *f = cel_func_lookup(n->name);
    if (!f) {
        if (n->flags & NF_RECEIVER) cerr(ck, n->pos, "undeclared reference to '%s' (in container '')", n->name);
        else cerr(ck, n->pos, "undeclared reference to '%s' (in container '')", n->name);
        return NULL;
    }
    const ctype *tsbuf[8];
    const ctype **ts = n->nargs <= 8 ? tsbuf : arena_alloc(ck->a, sizeof *ts * n->nargs);
    for (int i = 0; i < n->nargs; i++) {
        ts[i] = check(ck, &n->args[i], sc);
        if (!ts[i]) return NULL;
    }
    const cel_overload *ov;
    size_t nov = cel_func_overloads(f, &ov);
    const ctype *res = NULL;
    bool member = (n->flags & NF_RECEIVER) != 0;
    for (size_t i = 0; i < nov; i++) {
        if (ov[i].member != member || ov[i].nargs != n->nargs) continue;
        const ctype *bind[4] = {0};
        bool ok = true;
        for (int j = 0; j < n->nargs && ok; j++) ok = unify(ck->a, ov[i].args[j], ts[j], bind);
        if (!ok) continue;
        const ctype *r = subst(ck->a, ov[i].result, bind);
        if (!res) res = r;
        else if (!type_same(res, r)) res = &ct_dyn;
    }
    if (!res) {
        no_overload(ck, n, n->name, ts, n->nargs);
        return NULL;
    }
    n->fn = f;
    /* regex literals are compiled (and validated) once */
    if ((!strcmp(f->name, "matches") || !strcmp(f->name, "find") || !strcmp(f->name, "findAll")) &&
        n->nargs >= 2 && n->args[1]->op == N_CONST && n->args[1]->cv.k == CV_STRING) {
        strbuf e = {0};
        void *re = cel_regex_compile(n->args[1]->cv.s, n->args[1]->cv.n, &e);
        if (!re) {
            cerr(ck, n->args[1]->pos, "invalid matches argument: %s", sb_str(&e));
            sb_free(&e);
            return NULL;
        }
        sb_free(&e);
        struct cel_program *p = ck->p;
        if (p->nregexes == p->capregexes) {
            p->capregexes = p->capregexes ? p->capregexes * 2 : 8;
            p->regexes = realloc(p->regexes, p->capregexes * sizeof *p->regexes);
        }
        p->regexes[p->nregexes++] = re;
        n->re = re;
    }
    return res;
}

static const ctype *check(checker *ck, cnode **np, const scope *sc) {
    cnode *n = *np;
    const ctype *t = NULL;
    switch ((node_op)n->op) {
    case N_CONST:
        if (n->cv.k == CV_STRING && n->cv.n <= 256) {
            n->cv.s = intern_n(n->cv.s, n->cv.n);
            n->cv.x = 1;
        }
        t = const_type(ck->a, n->cv);
        break;
    case N_IDENT: {
        const scope *v = lookup(sc, n->name);
        if (v) {
            n->op = N_VAR;
            n->slot = v->slot;
            n->cost = 1;
            t = v->t;
        } else if (ck->o->device_env && !strcmp(n->name, "device")) {
            n->op = N_DEVICE;
            n->cost = 1;
            t = &ct_device;
        } else {
            cerr(ck, n->pos, "undeclared reference to '%s' (in container '')", n->name);
            return NULL;
        }
        break;
    }
    case N_MSG:
        cerr(ck, n->pos, "undeclared reference to '%s' (in container '')", n->name);
        return NULL;
    case N_SELECT: {
        const ctype *ot = check(ck, &n->args[0], sc);
        if (!ot) return NULL;
        if (n->flags & NF_OPTIONAL) {
            if (ot->k == T_DEVICE || (!is_dynish(ot) && ot->k != T_MAP && ot->k != T_OPT)) {
                strbuf b = {0};
                type_str(&b, ot);
                cerr(ck, n->pos, "type '%s' does not support field selection", sb_str(&b));
                sb_free(&b);
                return NULL;
            }
            const ctype *in = select_type(ck, n, ot->k == T_OPT ? ot->a : ot);
            if (!in) return NULL;
            t = in->k == T_OPT ? in : mk(ck->a, T_OPT, in, NULL);
        } else {
            t = select_type(ck, n, ot);
            if (!t) return NULL;
        }
        n->cost = 1;
        /* device.attributes[...] / device.capacity[...] fusion */
        cnode *o = n->args[0];
        if (!(n->flags & NF_OPTIONAL)) {
            if (o->op == N_DEVICE && (!strcmp(n->name, "attributes") || !strcmp(n->name, "capacity"))) {
                n->op = N_DEV_DOM;
                n->sub = 1;   /* root view */
                if (n->name[0] == 'c') n->flags |= NF_CAP;
                n->cost = 2;
                n->name = NULL;
                n->nargs = 0;
            } else if (o->op == N_DEV_DOM && o->sub == 1) {
                /* device.attributes.DOMAIN */
                n->op = N_DEV_DOM;
                n->sub = 0;
                n->flags = (uint8_t)(o->flags & NF_CAP);
                n->name = intern(n->name);
                n->cost = o->cost + 1;
                n->nargs = 0;
            } else if (o->op == N_DEV_DOM && o->sub == 0) {
                n->op = (o->flags & NF_CAP) ? N_DEV_CAP : N_DEV_ATTR;
                n->flags = o->flags;
                n->name2 = intern(n->name);
                n->name = o->name;
                n->cost = o->cost + 1;
                n->nargs = 0;
            }
        }
        break;
    }
    case N_INDEX: {
        const ctype *ot = check(ck, &n->args[0], sc);
        if (!ot) return NULL;
        const ctype *it = check(ck, &n->args[1], sc);
        if (!it) return NULL;
        if (n->flags & NF_OPTIONAL) {
            const ctype *base = ot->k == T_OPT ? ot->a : ot;
            const ctype *in = index_type(ck, n, base, it);
            if (!in) return NULL;
            t = in->k == T_OPT ? in : mk(ck->a, T_OPT, in, NULL);
        } else {
            t = index_type(ck, n, ot, it);
            if (!t) return NULL;
        }
        n->cost = 1;
        cnode *o = n->args[0], *k = n->args[1];
        if (!(n->flags & NF_OPTIONAL) && k->op == N_CONST && k->cv.k == CV_STRING && o->op == N_DEV_DOM) {
            if (o->sub == 1) {
                n->op = N_DEV_DOM;
                n->sub = 0;
                n->flags = (uint8_t)(o->flags & NF_CAP);
                n->name = intern_n(k->cv.s, k->cv.n);
                n->cost = o->cost + 1;
                n->nargs = 0;
            } else {
                n->op = (o->flags & NF_CAP) ? N_DEV_CAP : N_DEV_ATTR;
                n->flags = o->flags;
                n->name2 = intern_n(k->cv.s, k->cv.n);
                n->name = o->name;
                n->cost = o->cost + 1;
                n->nargs = 0;
            }
        }
        break;
    }
    case N_CALL:
        t = check_call(ck, np, sc);
        if (!t) return NULL;
        n->cost = 1;
        break;
    case N_LIST: {
        const ctype *et = &ct_free;
        const ctype *first = NULL;
        for (uint32_t i = 0; i < n->cv.n; i++) {
            const ctype *e = check(ck, &n->args[i], sc);
            if (!e) return NULL;
            if (n->optel && n->optel[i]) {
                if (e->k == T_OPT) e = e->a;
                else if (!is_dynish(e)) {
                    strbuf b = {0};
                    type_str(&b, e);
                    cerr(ck, n->args[i]->pos, "expected type 'optional_type' but found '%s'", sb_str(&b));
                    sb_free(&b);
                    return NULL;
                }
            }
            if (first && !type_exact(first, e)) {
                strbuf b = {0}, c = {0};
                type_str(&b, first);
                type_str(&c, e);
                cerr(ck, n->args[i]->pos, "expected type '%s' but found '%s'", sb_str(&b), sb_str(&c));
                sb_free(&b);
                sb_free(&c);
                return NULL;
            }
            if (!first || first->k == T_FREE) first = e;
            const ctype *j = join(ck->a, et, e);
            et = j ? j : &ct_dyn;
        }
        t = mk(ck->a, T_LIST, et, NULL);
        n->cost = 10;
        break;
    }
    case N_MAP: {
        const ctype *kt = &ct_free, *vt = &ct_free, *fk = NULL, *fv = NULL;
        for (uint32_t i = 0; i < n->cv.n; i++) {
            const ctype *k = check(ck, &n->args[2 * i], sc);
            if (!k) return NULL;
            const ctype *v = check(ck, &n->args[2 * i + 1], sc);
            if (!v) return NULL;
            if (n->optel && n->optel[i]) {
                if (v->k == T_OPT) v = v->a;
                else if (!is_dynish(v)) {
                    strbuf b = {0};
                    type_str(&b, v);
                    cerr(ck, n->args[2 * i + 1]->pos, "expected type 'optional_type' but found '%s'", sb_str(&b));
                    sb_free(&b);
                    return NULL;
                }
            }
            for (int w = 0; w < 2; w++) {
                const ctype **f = w ? &fv : &fk, *x = w ? v : k;
                if (*f && !type_exact(*f, x)) {
                    strbuf b = {0}, c = {0};
                    type_str(&b, *f);
                    type_str(&c, x);
                    cerr(ck, n->args[2 * i + w]->pos, "expected type '%s' but found '%s'", sb_str(&b), sb_str(&c));
                    sb_free(&b);
                    sb_free(&c);
                    return NULL;
                }
                if (!*f || (*f)->k == T_FREE) *f = x;
            }
            const ctype *j = join(ck->a, kt, k);
            kt = j ? j : &ct_dyn;
            j = join(ck->a, vt, v);
            vt = j ? j : &ct_dyn;
        }
        t = mk(ck->a, T_MAP, kt, vt);
        n->cost = 30;
        break;
    }
    case N_AND: case N_OR: {
        const ctype *a = check(ck, &n->args[0], sc);
        if (!a) return NULL;
        const ctype *b = check(ck, &n->args[1], sc);
        if (!b) return NULL;
        if (!boolish(a) || !boolish(b)) {
            const ctype *ts[2] = {a, b};
            no_overload(ck, n, n->op == N_AND ? "_&&_" : "_||_", ts, 2);
            return NULL;
        }
        t = &ct_bool;
        break;
    }
    case N_COND: {
        const ctype *c = check(ck, &n->args[0], sc);
        if (!c) return NULL;
        const ctype *a = check(ck, &n->args[1], sc);
        if (!a) return NULL;
        const ctype *b = check(ck, &n->args[2], sc);
        if (!b) return NULL;
        const ctype *j = join(ck->a, a, b);
        if (!boolish(c) || !j) {
            const ctype *ts[3] = {c, a, b};
            no_overload(ck, n, "_?_:_", ts, 3);
            return NULL;
        }
        t = j;
        break;
    }
    case N_COMP: {
        const ctype *rt = check(ck, &n->args[0], sc);
        if (!rt) return NULL;
        const ctype *vt;
        if (rt->k == T_LIST) vt = rt->a;
        else if (rt->k == T_MAP) vt = rt->a;
        else if (is_dynish(rt)) vt = &ct_dyn;
        else {
            strbuf b = {0};
            type_str(&b, rt);
            cerr(ck, n->args[0]->pos, "expression of type '%s' cannot be range of a comprehension (must be list, map, or dynamic)", sb_str(&b));
            sb_free(&b);
            return NULL;
        }
        if (vt->k == T_FREE) vt = &ct_dyn;
        scope s = {n->name, n->slot, vt, sc};
        const ctype *bt = check(ck, &n->args[1], &s);
        if (!bt) return NULL;
        switch (n->sub) {
        case COMP_ALL: case COMP_EXISTS: case COMP_EXISTS_ONE: case COMP_FILTER:
            if (!boolish(bt)) {
                const ctype *ts[2] = {&ct_bool, bt};
                no_overload(ck, n, n->sub == COMP_ALL ? "_&&_" : n->sub == COMP_EXISTS ? "_||_" : "_?_:_", ts, 2);
                return NULL;
            }
            t = n->sub == COMP_FILTER ? mk(ck->a, T_LIST, vt, NULL) : &ct_bool;
            break;
        case COMP_MAP:
            t = mk(ck->a, T_LIST, bt, NULL);
            break;
        case COMP_MAP_FILTER: {
            if (!boolish(bt)) {
                const ctype *ts[3] = {bt, &ct_dyn, &ct_dyn};
                no_overload(ck, n, "_?_:_", ts, 3);
                return NULL;
            }
            const ctype *tt = check(ck, &n->args[2], &s);
            if (!tt) return NULL;
            t = mk(ck->a, T_LIST, tt, NULL);
            break;
        }
        case COMP_SORTBY:
            if (rt->k != T_LIST && !is_dynish(rt)) {
                strbuf b = {0};
                type_str(&b, rt);
                cerr(ck, n->pos, "found no matching overload for 'sortBy' applied to '%s'", sb_str(&b));
                sb_free(&b);
                return NULL;
            }
            t = mk(ck->a, T_LIST, vt, NULL);
            break;
        }
        break;
    }
    case N_BIND: {
        const ctype *it = check(ck, &n->args[0], sc);
        if (!it) return NULL;
        scope s = {n->name, n->slot, it, sc};
        t = check(ck, &n->args[1], &s);
        if (!t) return NULL;
        break;
    }
    case N_OPTMAP: case N_OPTFLATMAP: {
        const ctype *ot = check(ck, &n->args[0], sc);
        if (!ot) return NULL;
        if (ot->k != T_OPT && !is_dynish(ot)) {
            const ctype *ts[1] = {ot};
            no_overload(ck, n, n->op == N_OPTMAP ? "optMap" : "optFlatMap", ts, 1);
            return NULL;
        }
        scope s = {n->name, n->slot, ot->k == T_OPT ? ot->a : &ct_dyn, sc};
        const ctype *bt = check(ck, &n->args[1], &s);
        if (!bt) return NULL;
        if (n->op == N_OPTMAP) t = mk(ck->a, T_OPT, bt, NULL);
        else {
            if (bt->k != T_OPT && !is_dynish(bt)) {
                const ctype *ts[1] = {bt};
                no_overload(ck, n, "optFlatMap", ts, 1);
                return NULL;
            }
            t = bt;
        }
        break;
    }
    case N_HAS: {
        const ctype *ot = check(ck, &n->args[0], sc);
        if (!ot) return NULL;
        if (ot->k == T_DEVICE) {
            if (!select_type(ck, n, ot)) return NULL;
        } else if (ot->k != T_MAP && ot->k != T_OPT && !is_dynish(ot)) {
            strbuf b = {0};
            type_str(&b, ot);
            cerr(ck, n->pos, "type '%s' does not support field selection", sb_str(&b));
            sb_free(&b);
            return NULL;
        }
        t = &ct_bool;
        break;
    }
    default:
        cerr(ck, n->pos, "internal error: unexpected node");
        return NULL;
    }
    n->type = t;
    cel_bind_evaluators(n);
    switch (n->op) {
    case N_CALL:
        if (n->fn && n->fn->pure) fold(ck, n);
        break;
    case N_LIST: case N_MAP: case N_AND: case N_OR: case N_COND: case N_SELECT: case N_INDEX: case N_HAS:
        fold(ck, n);
        break;
    default: break;
    }
    return t;
}

int cel_check(struct cel_program *p, const char *expr, size_t len, const cel_options *o, bool any_result, strbuf *err) {
    checker ck = {.p = p, .a = &p->a, .src = expr, .len = len, .err = err, .o = o};
    const ctype *t = check(&ck, &p->root, NULL);
    if (!t || ck.failed) return -1;
    if (o->device_env && !any_result) {
        bool ok = t->k == T_BOOL || t->k == T_ANY || (t->k == T_DYN && o->list_attributes);
        if (!ok) {
            strbuf b = {0};
            type_str(&b, t);
            sb_clear(err);
            sb_printf(err, "must evaluate to bool or the unknown type, not %s", sb_str(&b));
            sb_free(&b);
            return -1;
        }
    }
    return 0;
}
