/*
 * cel_internal.h -- shared internals of the CEL engine: values, types, the
 * compiled node tree, the evaluation context and the function table.
 *
 * Pipeline: cel_parse.c (lexer + parser, macros expanded into dedicated nodes)
 * -> cel_check.c (name resolution, type checking, device-path fusion, constant
 * folding, choice of an evaluator per node) -> cel_eval.c (tree-walking
 * evaluator over function pointers). Values are 16 bytes and never own memory:
 * everything an evaluation builds lives in a per-thread scratch area that is
 * reset after each evaluation, so the steady state allocates nothing.
 */
#ifndef DRASIM_CEL_INTERNAL_H
#define DRASIM_CEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/cel.h"
#include "cel/quantity.h"
#include "cel/semver.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* ---- values ----------------------------------------------------------------- */

typedef enum {
    CV_NULL, CV_BOOL, CV_INT, CV_UINT, CV_DOUBLE, CV_STRING, CV_BYTES,
    CV_LIST, CV_MAP, CV_QTY, CV_SEMVER, CV_OPT, CV_TYPE,
    CV_DEVICE,      /* the `device` object */
    CV_DATTRS,      /* device.attributes (map domain -> map id -> value) */
    CV_DCAPS,       /* device.capacity */
    CV_DOMATTR,     /* device.attributes[domain]; dom = interned domain */
    CV_DOMCAP,      /* device.capacity[domain] */
    CV_ERROR
} cv_kind;

struct cel_list;
struct cel_map;

typedef struct cel_val {
    uint8_t k;          /* cv_kind */
    uint8_t x;          /* CV_STRING: s is interned; CV_ERROR: fatal (cost/memory limit) */
    uint16_t pad;
    uint32_t n;         /* CV_STRING / CV_BYTES: length in bytes */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        const char *s;              /* string, bytes, error message, type name, domain */
        const struct cel_list *l;
        const struct cel_map *m;
        const quantity *q;
        const semver *sv;
        const struct cel_val *o;    /* CV_OPT: NULL = none */
    };
} cel_val;

typedef struct cel_list { uint32_t n; const cel_val *v; } cel_list;
typedef struct cel_map { uint32_t n; const cel_val *k; const cel_val *v; } cel_map;

#define CV_MK(kind) ((cel_val){.k = (kind)})
static inline cel_val cv_bool(bool b) { cel_val v = {.k = CV_BOOL}; v.b = b; return v; }
static inline cel_val cv_int(int64_t i) { cel_val v = {.k = CV_INT}; v.i = i; return v; }
static inline cel_val cv_uint(uint64_t u) { cel_val v = {.k = CV_UINT}; v.u = u; return v; }
static inline cel_val cv_double(double d) { cel_val v = {.k = CV_DOUBLE}; v.d = d; return v; }
static inline cel_val cv_str(const char *s, size_t n) { cel_val v = {.k = CV_STRING}; v.s = s; v.n = (uint32_t)n; return v; }
static inline cel_val cv_bytes(const char *s, size_t n) { cel_val v = {.k = CV_BYTES}; v.s = s; v.n = (uint32_t)n; return v; }
static inline cel_val cv_list(const cel_list *l) { cel_val v = {.k = CV_LIST}; v.l = l; return v; }
static inline cel_val cv_map(const cel_map *m) { cel_val v = {.k = CV_MAP}; v.m = m; return v; }
static inline bool cv_is_err(cel_val v) { return v.k == CV_ERROR; }

/* ---- static types (checker) --------------------------------------------------- */

typedef enum {
    T_DYN, T_ANY, T_FREE, T_NULL, T_BOOL, T_INT, T_UINT, T_DOUBLE, T_STRING, T_BYTES,
    T_LIST, T_MAP, T_OPT, T_QTY, T_SEMVER, T_TYPE, T_DEVICE, T_PARAM
} tkind;

typedef struct ctype {
    uint8_t k;          /* tkind */
    uint8_t param;      /* T_PARAM: index */
    const struct ctype *a, *b;   /* list/opt element; map key, value */
} ctype;

extern const ctype ct_dyn, ct_any, ct_free, ct_null, ct_bool, ct_int, ct_uint, ct_double,
    ct_string, ct_bytes, ct_qty, ct_semver, ct_type, ct_device;

/* ---- compiled nodes ------------------------------------------------------------ */

typedef enum {
    N_CONST, N_IDENT, N_VAR, N_SELECT, N_INDEX, N_CALL, N_LIST, N_MAP,
    N_AND, N_OR, N_COND, N_COMP, N_BIND, N_HAS, N_OPTMAP, N_OPTFLATMAP,
    N_DEVICE, N_DEV_ATTR, N_DEV_CAP, N_DEV_DOM, N_MSG, N_COMP2
} node_op;

/* comprehension kinds */
enum { COMP_ALL, COMP_EXISTS, COMP_EXISTS_ONE, COMP_MAP, COMP_MAP_FILTER, COMP_FILTER, COMP_SORTBY };
/* two-variable comprehensions (ext.TwoVarComprehensions); N_COMP2 with 3 args has a filter */
enum { COMP2_ALL, COMP2_EXISTS, COMP2_EXISTS_ONE, COMP2_TLIST, COMP2_TMAP, COMP2_TMAPENTRY };

/* node flags */
enum {
    NF_RECEIVER = 1,    /* N_CALL: args[0] is the receiver */
    NF_OPTIONAL = 2,    /* N_SELECT `.?f`, N_INDEX `[?i]` */
    NF_CAP = 4,         /* N_DEV_DOM / N_DEV_ATTR / N_DEV_CAP: capacity instead of attributes */
};

struct cel_ctx;
struct cnode;
struct cel_func;
typedef cel_val (*cel_evalfn)(struct cel_ctx *c, const struct cnode *n);

typedef struct cnode {
    cel_evalfn ev;
    uint8_t op;             /* node_op */
    uint8_t flags;
    uint8_t sub;            /* N_COMP kind; N_DEV_* field */
    uint8_t nargs;
    uint32_t cost;          /* static cost charged when the node is evaluated */
    int32_t pos;            /* byte offset in the expression */
    int32_t slot, slot2;    /* variable slots (comprehension iter var, accumulator) */
    const ctype *type;
    const char *name;       /* ident, field, function name; N_DEV_*: interned domain */
    const char *name2;      /* N_DEV_ATTR / N_DEV_CAP: interned id */
    cel_val cv;             /* N_CONST value */
    struct cnode **args;
    uint8_t *optel;         /* N_LIST / N_MAP: per element, 1 = optional entry `?` */
    const struct cel_func *fn;
    void *re;               /* precompiled regex (pcre2_code *) for constant patterns */
} cnode;

/* ---- functions ----------------------------------------------------------------- */

typedef cel_val (*cel_impl)(struct cel_ctx *c, const cnode *n, const cel_val *a, int na);

enum {  /* cost models (close to cel-go's runtime cost and the Kubernetes overrides) */
    FC_ONE, FC_ZERO, FC_STR01, FC_STR02, FC_MATCH, FC_CONTAINS, FC_CMP, FC_CONCAT, FC_LIST,
    FC_LIST2, FC_JOIN, FC_SORT
};

typedef struct cel_func {
    const char *name;       /* "contains", "_+_", "strings.quote", ... */
    const char *sigs;       /* overloads, see cel_lib.c */
    cel_impl impl;
    uint8_t cost;
    uint8_t pure;           /* may be folded when every argument is constant */
    uint8_t gate;           /* 1: declared only with cel_options.list_attributes */
} cel_func;

const cel_func *cel_func_lookup(const char *name);
/* Parsed overloads of a function, for the checker. */
typedef struct cel_overload {
    bool member;
    uint8_t nargs;
    const ctype *args[5];
    const ctype *result;
} cel_overload;
size_t cel_func_overloads(const cel_func *f, const cel_overload **out);

/* ---- program and evaluation context ------------------------------------------ */

struct cel_program {
    arena a;
    cnode *root;
    int nslots;
    bool device_env;
    bool list_attributes;
    void **regexes;         /* owned pcre2 codes */
    size_t nregexes, capregexes;
};

typedef struct cel_ctx {
    const k8s_device *dev;
    const char *driver;
    uint64_t cost, limit;
    cel_val *slots;
    bool compile_time;      /* folding constants: no device, no slots */
} cel_ctx;

/* Evaluate one node. */
static inline cel_val cel_ev(cel_ctx *c, const cnode *n) { return n->ev(c, n); }

/* ---- scratch memory (per thread, reset after every evaluation) ---------------- */

void *cel_scratch(cel_ctx *c, size_t n);         /* NULL when over the memory limit */
void cel_scratch_reset(void);
#define CEL_MEMORY_LIMIT ((size_t)256 << 20)

/* ---- errors ---------------------------------------------------------------------- */

cel_val cel_err(cel_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cel_val cel_err_static(const char *msg);
cel_val cel_err_fatal(const char *msg);
cel_val cel_no_overload(cel_ctx *c, const char *fname, const cel_val *a, int na);
const char *cv_type_name(cel_val v);
cel_val cel_oom(void);
cel_val cel_cost_exceeded(void);

/* ---- value operations ---------------------------------------------------------- */

/* CEL equality: returns CV_BOOL or CV_ERROR. */
cel_val cel_equal(cel_ctx *c, cel_val a, cel_val b);
bool cel_equal_b(cel_ctx *c, cel_val a, cel_val b);      /* errors count as "not equal" */
/* Ordering: -1/0/1, or -2 when the pair is not ordered (no such overload); 2 for NaN. */
int cel_compare(cel_val a, cel_val b);
/* Materialise device views (attributes/capacity maps) as ordinary maps. */
cel_val cel_materialize(cel_ctx *c, cel_val v);
/* Map lookup: returns true and *out when found; *err set for a bad key type. */
bool cel_map_find(cel_ctx *c, cel_val m, cel_val key, cel_val *out, cel_val *err);
size_t utf8_count(const char *s, size_t n);
bool utf8_valid(const char *s, size_t n);
/* Decode one code point at s (n bytes left); returns its length (>= 1). */
int utf8_decode(const char *s, size_t n, uint32_t *cp);
int utf8_encode(uint32_t cp, char *out);

/* Canonical printing (tests/cel-conformance/README.md). */
void cel_print(strbuf *out, cel_val v);
void cel_fmt_double_repr(strbuf *out, double d);         /* Python repr */
void cel_fmt_double_go(strbuf *out, double d);           /* Go strconv 'g', -1 */

/* Copy a value into an arena (for constants). */
cel_val cel_val_copy(arena *a, cel_val v);

/* Device views. */
cel_val cel_dev_attr_value(cel_ctx *c, const k8s_attribute *a);

/* Attribute (dom, id) of d (interned strings), in either run, or NULL. */
static inline const k8s_attribute *cel_dev_find_attr(const k8s_device *d, const char *dom, const char *id) {
    const k8s_attribute *a = d->attrs;
    for (size_t i = 0, e = d->nattrs; i < e; i++)
        if (a[i].id == id && a[i].domain == dom) return &a[i];
    a = d->attrs_own;
    for (size_t i = 0, e = d->nattrs_own; i < e; i++)
        if (a[i].id == id && a[i].domain == dom) return &a[i];
    return NULL;
}
cel_val cel_dev_lookup(cel_ctx *c, bool cap, const char *dom, const char *id, size_t idlen, bool *found);
cel_val cel_dev_check_attrs(cel_ctx *c);   /* error value for unusable attributes, or CV_NULL */

/* Regex support (cel_regex.c). */
void *cel_regex_compile(const char *pat, size_t n, strbuf *err);
void cel_regex_free(void *re);
/* 1 match, 0 no match, -1 error (*msg set). With ms/me: bounds of the first match. */
/* Search from `start`. `linear` (may be NULL) carries over a loop of searches
 * on one subject (findAll): once PCRE2 has given up, it is not asked again. */
int cel_regex_search(void *re, const char *s, size_t n, size_t start, size_t *ms, size_t *me, const char **msg,
                     bool *linear);
/* The linear-time leftmost-first matcher behind it (cel_regex_pike.c), built
 * from the PCRE2 translation; NULL when the program would be too large. */
typedef struct pike_prog pike_prog;
pike_prog *pike_compile(const char *translated, size_t n);
int pike_search(const pike_prog *g, const char *s, size_t n, size_t from, size_t *ms, size_t *me);
void pike_free(pike_prog *g);
/* The linear-time matcher alone, for tests: 1 match, 0 none, -1 too large. */
int cel_regex_search_linear(void *re, const char *s, size_t n, size_t start, size_t *ms, size_t *me);

/* Parser entry (cel_parse.c): returns the root or NULL with err set. */
cnode *cel_parse(arena *a, const char *expr, size_t len, strbuf *err, int *nslots_hint);
/* Checker entry (cel_check.c). */
int cel_check(struct cel_program *p, const char *expr, size_t len, const cel_options *o, bool any_result,
              strbuf *err);
/* Assign evaluators (cel_eval.c). */
void cel_bind_evaluators(cnode *n);
/* Evaluate a program root with a fresh context. */
cel_val cel_run(const struct cel_program *p, const k8s_device *dev, const char *driver, cel_ctx *c);

/* Column (1-based, in code points) and line of a byte offset. */
void cel_pos_linecol(const char *expr, size_t len, int32_t pos, int *line, int *col);

/* Allocate a node in the program arena. */
cnode *cel_node(arena *a, node_op op, int32_t pos, int nargs);

#endif
