/*
 * k8s_validate.c -- offline validation of Kubernetes manifests against the
 * API's OpenAPI v3 schema (a trimmed copy: tools/k8s-schema/README.md).
 *
 *   k8s_validate [--schema FILE] [--quiet] [--documents N] MANIFEST.yaml...   ("-": standard input)
 *
 * Every YAML document is read the way kubectl reads it (YAML 1.1 scalars, as
 * sigs.k8s.io/yaml/goyaml.v2 resolve.go resolves them: a plain `yes` is a
 * boolean, `0x10` an integer) and checked against the schema of its
 * apiVersion + kind: unknown fields (what the API server rejects under strict
 * field validation), required fields, types (string, integer with the int32 /
 * int64 range of its format, number, boolean, object, array), enums,
 * int-or-string, x-kubernetes-preserve-unknown-fields, formats (date-time,
 * byte, and the Quantity syntax of k8s.io/apimachinery resource/quantity.go),
 * $ref, allOf, oneOf/anyOf. A null value stands for an absent field (as Go's
 * JSON decoder takes it). Errors name the file, the document (1-based, in
 * the order of the stream) and the field path:
 *
 *   job.yaml: doc 2: spec.template.spec.containers[0].resources.limits[memory]: ...
 *
 * With --documents N each file must hold exactly N documents: a manifest
 * drasim writes holds one object, and a second one (a document injected
 * through a file name, say) is a violation even when it is a valid object.
 *
 * Exit 0 when every document is valid, 1 when one is not, 2 for usage, I/O
 * or YAML syntax errors.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/yaml_tree.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define REF_PREFIX "#/components/schemas/"
#define QUANTITY "io.k8s.apimachinery.pkg.api.resource.Quantity"

/* ---- the schema ------------------------------------------------------------ */

typedef struct sdef {
    const char *name;
    const ynode *node;
} sdef;

typedef struct schema {
    yfile file;
    const ynode *kinds;   /* "apiVersion/kind" -> definition name */
    sdef *defs;           /* sorted by name */
    size_t ndefs;
} schema;

static int sdef_cmp(const void *a, const void *b) {
    return strcmp(((const sdef *)a)->name, ((const sdef *)b)->name);
}

static const ynode *schema_def(const schema *S, const char *name) {
    sdef key = {.name = name};
    const sdef *d = bsearch(&key, S->defs, S->ndefs, sizeof *S->defs, sdef_cmp);
    return d ? d->node : NULL;
}

/* Load the trimmed schema (JSON, which is YAML): {"kinds": {...}, "schemas": {...}}. */
static int schema_load(schema *S, const char *path, strbuf *err) {
    memset(S, 0, sizeof *S);
    if (yfile_load(path, &S->file, err)) return -1;
    const ynode *root = S->file.ndocs == 1 ? S->file.docs[0] : NULL;
    const ynode *defs = root && root->kind == YN_MAP ? ymap_get(root, "schemas") : NULL;
    S->kinds = root && root->kind == YN_MAP ? ymap_get(root, "kinds") : NULL;
    if (!defs || defs->kind != YN_MAP || !S->kinds || S->kinds->kind != YN_MAP) {
        sb_printf(err, "%s: not a schema file of tools/k8s-schema/trim.py (no \"kinds\" and \"schemas\" maps)", path);
        return -1;
    }
    S->defs = xcalloc(defs->n ? defs->n : 1, sizeof *S->defs);
    for (size_t i = 0; i < defs->n; i++) S->defs[S->ndefs++] = (sdef){defs->keys[i]->str, defs->vals[i]};
    qsort(S->defs, S->ndefs, sizeof *S->defs, sdef_cmp);
    return 0;
}

static const char *sget_str(const ynode *s, const char *key) {
    const ynode *v = ymap_get(s, key);
    return v && v->kind == YN_SCALAR ? v->str : NULL;
}

static bool sget_true(const ynode *s, const char *key) {
    const char *v = sget_str(s, key);
    return v && !strcmp(v, "true");
}

/* ---- YAML scalars as kubectl's YAML-to-JSON conversion types them ----------- */

typedef enum { J_NULL, J_BOOL, J_INT, J_FLOAT, J_STR, J_MAP, J_SEQ } jtype;

static const char *const jtype_names[] = {"null", "a boolean", "an integer", "a number", "a string", "an object", "a list"};

typedef struct jval {
    jtype t;
    int64_t i;   /* J_INT */
    double f;    /* J_FLOAT */
    bool b;      /* J_BOOL */
} jval;

static bool in_list(const char *s, const char *const *list) {
    for (; *list; list++)
        if (!strcmp(s, *list)) return true;
    return false;
}

/* Go's strconv.ParseInt(s, 0, 64): sign, then 0x / 0o / 0b / leading-0 octal or decimal. */
static bool go_parse_int(const char *s, int64_t *out) {
    bool neg = false;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    else if (s[0] == '0' && s[1]) base = 8, s += 1;
    if (!*s) return false;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; *s; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : 99;
        if (d >= base) return false;
        if (v > (lim - (uint64_t)d) / (uint64_t)base) return false;   /* out of int64: goyaml tries a float next */
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* goyaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool yaml_float(const char *s) {
    if (*s == '+' || *s == '-') s++;
    size_t a = strspn(s, "0123456789");
    if (a) {
        s += a;
        if (*s == '.') s += 1 + strspn(s + 1, "0123456789");
    } else {
        if (*s != '.' || !strspn(s + 1, "0123456789")) return false;
        s += 1 + strspn(s + 1, "0123456789");
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        size_t e = strspn(s, "0123456789");
        if (!e) return false;
        s += e;
    }
    return *s == 0;
}

/* The JSON type and value of node n (sigs.k8s.io/yaml/goyaml.v2 resolve.go,
 * v2.4.0 fork vendored by kubernetes 1.35). */
static jval resolve(const ynode *n) {
    static const char *const yes[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", NULL};
    static const char *const no[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", NULL};
    static const char *const nul[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const inf[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
                                      ".nan", ".NaN", ".NAN", NULL};
    jval v = {.t = J_STR};
    if (n->kind == YN_MAP) return (jval){.t = J_MAP};
    if (n->kind == YN_SEQ) return (jval){.t = J_SEQ};
    const char *tag = n->tag ? strrchr(n->tag, ':') ? strrchr(n->tag, ':') + 1 : n->tag : NULL;
    if (tag && !strcmp(tag, "str")) return v;
    if (!n->plain && !tag) return v;
    if (strlen(n->str) != n->len) return v;
    if (in_list(n->str, nul)) return (jval){.t = J_NULL};
    if (in_list(n->str, yes)) return (jval){.t = J_BOOL, .b = true};
    if (in_list(n->str, no)) return (jval){.t = J_BOOL, .b = false};
    if (in_list(n->str, inf)) return (jval){.t = J_FLOAT, .f = n->str[1] == 'n' || n->str[2] == 'n' ? NAN : INFINITY};
    char c = n->str[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        strbuf plain = {0};   /* goyaml drops every '_' first */
        for (const char *p = n->str; *p; p++)
            if (*p != '_') sb_putc(&plain, *p);
        const char *s = sb_str(&plain);
        if (go_parse_int(s, &v.i)) v.t = J_INT;
        else if (yaml_float(s)) v.t = J_FLOAT, v.f = strtod(s, NULL);
        sb_free(&plain);
    }
    return v;
}

/* ---- validation -------------------------------------------------------------- */

typedef struct vctx {
    const schema *S;
    const char *file;
    size_t doc;
    strbuf path;   /* "spec.template.spec.containers[0]" */
    int errors;
    int quiet;     /* > 0 while trying the alternatives of a oneOf: count, print nothing */
    bool print;    /* print errors at all (--quiet clears it) */
} vctx;

static void verr(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verr(vctx *c, const char *fmt, ...) {
    c->errors++;
    if (c->quiet || !c->print) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: doc %zu: %s%s", c->file, c->doc, sb_str(&c->path), c->path.len ? ": " : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A short rendering of a scalar for messages (" \"20\""; nothing for a list or map). */
static const char *shown(const ynode *n, char *buf, size_t size) {
    if (n->kind != YN_SCALAR) return "";
    snprintf(buf, size, " \"%.40s%s\"", n->str, n->len > 40 ? "..." : "");
    return buf;
}

/* resource.Quantity's syntax (k8s.io/apimachinery pkg/api/resource/quantity.go,
 * ParseQuantity): <sign?><digits>[.<digits>]<suffix>, the suffix one of
 * Ki Mi Gi Ti Pi Ei, n u m "" k M G T P E, or e/E<signed integer>. */
static bool quantity_ok(const char *s) {
    if (*s == '+' || *s == '-') s++;
    size_t a = strspn(s, "0123456789");
    s += a;
    size_t b = 0;
    if (*s == '.') {
        b = strspn(s + 1, "0123456789");
        s += 1 + b;
    }
    if (!a && !b) return false;
    static const char *const suffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E", NULL};
    if (in_list(s, suffixes)) return true;
    if (*s != 'e' && *s != 'E') return false;
    s++;
    if (*s == '+' || *s == '-') s++;
    return strspn(s, "0123456789") > 0 && !s[strspn(s, "0123456789")];
}

/* RFC 3339 date-time (metav1.Time): 2006-01-02T15:04:05[.frac](Z|+hh:mm). */
static bool date_time_ok(const char *s) {
    const char *p = "dddd-dd-ddTdd:dd:dd";
    for (; *p; p++, s++)
        if (*p == 'd' ? !(*s >= '0' && *s <= '9') : *p == 'T' ? (*s != 'T' && *s != 't') : *s != *p) return false;
    if (*s == '.') {
        size_t f = strspn(s + 1, "0123456789");
        if (!f) return false;
        s += 1 + f;
    }
    if ((*s == 'Z' || *s == 'z') && !s[1]) return true;
    if (*s != '+' && *s != '-') return false;
    s++;
    return strlen(s) == 5 && s[2] == ':' && strspn(s, "0123456789") == 2 && strspn(s + 3, "0123456789") == 2;
}

/* base64 (format "byte": Go's encoding/json reads []byte with StdEncoding). */
static bool base64_ok(const char *s) {
    size_t n = 0, pad = 0;
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r') continue;
        if (*s == '=') pad++;
        else if (pad || !(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", *s))) return false;
        n++;
    }
    return n % 4 == 0 && pad <= 2;
}

static void validate(vctx *c, const ynode *v, const ynode *s);

static void path_push(vctx *c, size_t *mark, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void path_push(vctx *c, size_t *mark, const char *fmt, ...) {
    *mark = c->path.len;
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sb_puts(&c->path, c->path.len || buf[0] != '.' ? buf : buf + 1);
}

static void path_pop(vctx *c, size_t mark) {
    c->path.len = mark;
    if (c->path.s) c->path.s[mark] = 0;
}

/* A map key as the JSON object key it becomes (goyaml resolves keys too). */
static const char *key_text(const ynode *k) {
    jval j = resolve(k);
    if (j.t == J_BOOL) return j.b ? "true" : "false";
    if (j.t == J_NULL) return "null";
    return k->str;
}

static void validate_object(vctx *c, const ynode *v, const ynode *s) {
    const ynode *props = ymap_get(s, "properties"), *addl = ymap_get(s, "additionalProperties");
    bool preserve = sget_true(s, "x-kubernetes-preserve-unknown-fields");
    bool addl_schema = addl && addl->kind == YN_MAP, addl_any = addl && addl->kind == YN_SCALAR && !strcmp(addl->str, "true");
    bool free_form = !props && !addl;   /* {type: object} alone, e.g. RawExtension */
    for (size_t i = 0; i < v->n; i++) {
        const char *key = key_text(v->keys[i]);
        const ynode *ps = props ? ymap_get(props, key) : NULL;
        size_t mark;
        if (ps) {
            path_push(c, &mark, ".%s", key);
            validate(c, v->vals[i], ps);
            path_pop(c, mark);
        } else if (addl_schema) {
            path_push(c, &mark, "[%s]", key);
            validate(c, v->vals[i], addl);
            path_pop(c, mark);
        } else if (!addl_any && !preserve && !free_form) {
            verr(c, "unknown field \"%s\"", key);
        }
    }
    const ynode *req = ymap_get(s, "required");
    for (size_t i = 0; req && req->kind == YN_SEQ && i < req->n; i++) {
        const ynode *f = ymap_get(v, req->vals[i]->str);
        if (!f || resolve(f).t == J_NULL) verr(c, "missing required field \"%s\"", req->vals[i]->str);
    }
}

/* How many of the alternatives in list `alts` v satisfies (without messages). */
static size_t count_matches(vctx *c, const ynode *v, const ynode *alts) {
    size_t ok = 0;
    for (size_t i = 0; i < alts->n; i++) {
        int before = c->errors;
        c->quiet++;
        validate(c, v, alts->vals[i]);
        c->quiet--;
        if (c->errors == before) ok++;
        c->errors = before;
    }
    return ok;
}

static void alt_names(const ynode *alts, strbuf *out) {
    for (size_t i = 0; i < alts->n; i++) {
        const char *t = alts->vals[i]->kind == YN_MAP ? sget_str(alts->vals[i], "type") : NULL;
        sb_printf(out, "%s%s", i ? " or " : "", t ? t : "another schema");
    }
}

/* v against schema s; errors carry the current path. */
static void validate(vctx *c, const ynode *v, const ynode *s) {
    if (!s || s->kind != YN_MAP) return;
    const char *ref = sget_str(s, "$ref");
    if (ref) {
        const char *name = !strncmp(ref, REF_PREFIX, strlen(REF_PREFIX)) ? ref + strlen(REF_PREFIX) : ref;
        const ynode *d = schema_def(c->S, name);
        if (!d) verr(c, "the schema has no definition %s", name);
        validate(c, v, d);
        if (!strcmp(name, QUANTITY) && v->kind == YN_SCALAR && resolve(v).t == J_STR && !quantity_ok(v->str))
            verr(c, "\"%s\" is not a quantity (such as 500m, 1Gi, 2)", v->str);
    }
    const ynode *all = ymap_get(s, "allOf");
    for (size_t i = 0; all && all->kind == YN_SEQ && i < all->n; i++) validate(c, v, all->vals[i]);

    jval j = resolve(v);
    if (j.t == J_NULL) return;   /* an explicit null is an absent field */
    char buf[64];
    const char *format = sget_str(s, "format");
    if ((format && !strcmp(format, "int-or-string")) || sget_true(s, "x-kubernetes-int-or-string")) {
        if (j.t != J_INT && j.t != J_STR) {
            verr(c, "expected an integer or a string, got %s", jtype_names[j.t]);
            return;
        }
    }
    const ynode *one = ymap_get(s, "oneOf"), *any = ymap_get(s, "anyOf");
    for (int k = 0; k < 2; k++) {
        const ynode *alts = k ? any : one;
        if (!alts || alts->kind != YN_SEQ) continue;
        size_t n = count_matches(c, v, alts);
        if (k ? n == 0 : n != 1) {
            strbuf names = {0};
            alt_names(alts, &names);
            verr(c, "expected %s, got %s%s", sb_str(&names), jtype_names[j.t], shown(v, buf, sizeof buf));
            sb_free(&names);
        }
    }

    const char *type = sget_str(s, "type");
    if (!type && ymap_get(s, "properties")) type = "object";
    if (type) {
        if (!strcmp(type, "object")) {
            if (j.t != J_MAP) verr(c, "expected an object, got %s%s", jtype_names[j.t], shown(v, buf, sizeof buf));
            else validate_object(c, v, s);
        } else if (!strcmp(type, "array")) {
            if (j.t != J_SEQ) verr(c, "expected a list, got %s%s", jtype_names[j.t], shown(v, buf, sizeof buf));
            else {
                const ynode *items = ymap_get(s, "items");
                for (size_t i = 0; i < v->n; i++) {
                    size_t mark;
                    path_push(c, &mark, "[%zu]", i);
                    validate(c, v->vals[i], items);
                    path_pop(c, mark);
                }
            }
        } else if (!strcmp(type, "string")) {
            if (j.t != J_STR) verr(c, "expected a string, got %s%s%s", jtype_names[j.t], shown(v, buf, sizeof buf),
                                  v->kind == YN_SCALAR ? " (quote it)" : "");
            else if (format && !strcmp(format, "date-time") && !date_time_ok(v->str))
                verr(c, "\"%s\" is not an RFC 3339 date-time", v->str);
            else if (format && !strcmp(format, "byte") && !base64_ok(v->str))
                verr(c, "not base64 (format byte)");
        } else if (!strcmp(type, "integer")) {
            /* a float with an integral value becomes an integer in JSON (2.0 -> 2) */
            bool whole = j.t == J_FLOAT && isfinite(j.f) && j.f == floor(j.f) && fabs(j.f) < 9.2e18;
            if (j.t != J_INT && !whole)
                verr(c, "expected an integer%s%s%s, got %s%s", format ? " (" : "", format ? format : "", format ? ")" : "",
                     jtype_names[j.t], shown(v, buf, sizeof buf));
            else {
                int64_t x = j.t == J_INT ? j.i : (int64_t)j.f;
                if (format && !strcmp(format, "int32") && (x < INT32_MIN || x > INT32_MAX))
                    verr(c, "%" PRId64 " is out of the int32 range", x);
            }
        } else if (!strcmp(type, "number")) {
            if (j.t != J_INT && j.t != J_FLOAT) verr(c, "expected a number, got %s%s", jtype_names[j.t], shown(v, buf, sizeof buf));
        } else if (!strcmp(type, "boolean")) {
            if (j.t != J_BOOL) verr(c, "expected a boolean, got %s%s", jtype_names[j.t], shown(v, buf, sizeof buf));
        }
    }
    const ynode *en = ymap_get(s, "enum");
    if (en && en->kind == YN_SEQ && v->kind == YN_SCALAR) {
        bool found = false;
        for (size_t i = 0; i < en->n && !found; i++) found = !strcmp(en->vals[i]->str, v->str);
        if (!found) {
            strbuf vals = {0};
            for (size_t i = 0; i < en->n; i++) sb_printf(&vals, "%s%s", i ? ", " : "", en->vals[i]->str);
            verr(c, "\"%s\" is not one of %s", v->str, sb_str(&vals));
            sb_free(&vals);
        }
    }
}

/* The kinds seen and how often, in first-seen order ("44 Node, 2 DeviceClass"). */
typedef struct kind_count {
    char *kind;
    size_t n;
} kind_count;

static void count_kind(kind_count **kc, size_t *nkc, const char *kind) {
    for (size_t i = 0; i < *nkc; i++)
        if (!strcmp((*kc)[i].kind, kind)) {
            (*kc)[i].n++;
            return;
        }
    *kc = xrealloc(*kc, (*nkc + 1) * sizeof **kc);
    (*kc)[(*nkc)++] = (kind_count){xstrdup(kind), 1};
}

/* One document: its apiVersion + kind name the schema. */
static void validate_doc(vctx *c, const ynode *doc, kind_count **kc, size_t *nkc) {
    if (doc->kind != YN_MAP) {
        verr(c, "expected a Kubernetes object (a map with apiVersion and kind), got %s", jtype_names[resolve(doc).t]);
        return;
    }
    const ynode *av = ymap_get(doc, "apiVersion"), *kd = ymap_get(doc, "kind");
    if (!av || !kd || av->kind != YN_SCALAR || kd->kind != YN_SCALAR) {
        verr(c, "missing apiVersion or kind");
        return;
    }
    const ynode *items = ymap_get(doc, "items");
    if (!strcmp(av->str, "v1") && !strcmp(kd->str, "List") && c->path.len == 0) {
        /* kubectl's List wrapper (`kubectl get a,b -o yaml`): each item is an object of its own */
        if (!items || items->kind != YN_SEQ) {
            if (items && !(items->kind == YN_SCALAR && resolve(items).t == J_NULL)) verr(c, "items: expected a list");
            return;
        }
        for (size_t i = 0; i < items->n; i++) {
            size_t mark;
            path_push(c, &mark, "items[%zu]", i);
            validate_doc(c, items->vals[i], kc, nkc);
            path_pop(c, mark);
        }
        return;
    }
    strbuf gvk = {0};
    sb_printf(&gvk, "%s/%s", av->str, kd->str);
    const char *name = sget_str(c->S->kinds, sb_str(&gvk));
    if (!name) verr(c, "no schema for apiVersion %s, kind %s (tools/k8s-schema/trim.py ROOTS)", av->str, kd->str);
    else {
        validate(c, doc, schema_def(c->S, name));
        count_kind(kc, nkc, kd->str);
    }
    sb_free(&gvk);
}

/* Where the next document of text[0..len) starts after `from`: the next line
 * that begins with "---" (a document marker; YAML forbids it inside a scalar
 * at column 0), or len. */
static size_t next_doc(const char *text, size_t len, size_t from) {
    size_t i = from;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        i = nl ? (size_t)(nl - text) + 1 : len;
        if (i + 3 <= len && !memcmp(text + i, "---", 3) && (i + 3 == len || strchr(" \t\r\n", text[i + 3]))) return i;
    }
    return len;
}

/* Validate every document of one file ("-": standard input), a document at a
 * time (a 10,000-node inventory is 66 MB). Returns 0 valid, 1 violations, 2
 * unreadable or not YAML. */
static int validate_file(const schema *S, const char *path, bool print, long want_docs) {
    strbuf text = {0}, err = {0}, counts = {0};
    int rc = 0;
    if (!strcmp(path, "-")) {
        char chunk[65536];
        size_t k;
        while ((k = fread(chunk, 1, sizeof chunk, stdin)) > 0) sb_append(&text, chunk, k);
        if (ferror(stdin)) sb_puts(&err, "-: cannot read standard input"), rc = 2;
    } else if (file_read_all(path, &text, &err)) {
        rc = 2;
    }
    vctx c = {.S = S, .file = path, .print = print};
    kind_count *kc = NULL;
    size_t nkc = 0, ndocs = 0;
    for (size_t at = 0; !rc && at < text.len;) {
        size_t end = next_doc(text.s, text.len, at);
        yfile f;
        if (yfile_load_mem(path, text.s + at, end - at, &f, &err)) {
            /* the message's line is relative to this document: load the whole file for the right one */
            yfile whole;
            sb_clear(&err);
            bool whole_ok = !(!strcmp(path, "-") ? yfile_load_mem(path, text.s, text.len, &whole, &err)
                                                 : yfile_load(path, &whole, &err));
            if (whole_ok) {   /* only this piece fails: say where it starts */
                yfile_free(&whole);
                sb_printf(&err, "%s: not valid YAML in the document starting at byte %zu", path, at);
            }
            rc = 2;
            break;
        }
        for (size_t d = 0; d < f.ndocs; d++) {
            c.doc = ++ndocs;
            sb_clear(&c.path);
            validate_doc(&c, f.docs[d], &kc, &nkc);
        }
        yfile_free(&f);
        at = end;
    }
    if (!rc && want_docs >= 0 && ndocs != (size_t)want_docs) {
        fprintf(stderr, "%s: %zu document%s, expected %ld (--documents): an object nobody asked for?\n", path, ndocs,
                ndocs == 1 ? "" : "s", want_docs);
        c.errors++;
    }
    if (rc) {
        fprintf(stderr, "k8s_validate: %s\n", sb_str(&err));
    } else if (c.errors) {
        fprintf(stderr, "%s: %d schema violation%s in %zu document%s\n", path, c.errors, c.errors == 1 ? "" : "s", ndocs,
                ndocs == 1 ? "" : "s");
        rc = 1;
    } else {
        for (size_t i = 0; i < nkc; i++) sb_printf(&counts, "%s%zu %s", i ? ", " : "", kc[i].n, kc[i].kind);
        const char *version = sget_str(S->file.docs[0], "kubernetes");
        printf("%s: %zu document%s valid (%s; Kubernetes %s)\n", path, ndocs, ndocs == 1 ? "" : "s",
               counts.len ? sb_str(&counts) : "none", version ? version : "?");
    }
    for (size_t i = 0; i < nkc; i++) free(kc[i].kind);
    free(kc);
    sb_free(&c.path);
    sb_free(&counts);
    sb_free(&text);
    sb_free(&err);
    return rc;
}

static int usage(void) {
    fprintf(stderr, "usage: k8s_validate [--schema FILE] [--quiet] [--documents N] MANIFEST.yaml...   (\"-\": standard input)\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *schema_path = K8S_SCHEMA_DEFAULT;
    bool print = true;
    long want_docs = -1;
    int first = 1;
    for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
        if (!strcmp(argv[first], "--schema") && first + 1 < argc) schema_path = argv[++first];
        else if (!strcmp(argv[first], "--quiet")) print = false;
        else if (!strcmp(argv[first], "--documents") && first + 1 < argc) {
            char *end;
            want_docs = strtol(argv[++first], &end, 10);
            if (*end || end == argv[first] || want_docs < 0) return usage();
        }
        else if (!strcmp(argv[first], "--")) {
            first++;
            break;
        } else return usage();
    }
    if (first >= argc) return usage();
    schema S;
    strbuf err = {0};
    if (schema_load(&S, schema_path, &err)) {
        fprintf(stderr, "k8s_validate: %s\n", sb_str(&err));
        return 2;
    }
    int rc = 0;
    for (int a = first; a < argc; a++) {
        int frc = validate_file(&S, argv[a], print, want_docs);
        if (frc == 2 || (frc == 1 && rc == 0)) rc = frc;
    }
    free(S.defs);
    yfile_free(&S.file);
    sb_free(&err);
    return rc;
}
