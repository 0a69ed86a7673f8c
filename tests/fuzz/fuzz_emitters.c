/* fuzz_emitters.c -- what drasim writes for other programs, read back by
 * their rules and compared with what was meant (issue 25):
 *
 *   - a string through ydump ({k: s}) loads with libyaml as the same string,
 *     on one line, and a plain one is a string under YAML 1.1 and 1.2
 *     (tests/lib/yaml_resolve.h);
 *   - sh_quote(s) is one POSIX shell word whose value is s;
 *   - csv_text_cell(s) is one RFC 4180 cell that holds s (or 's) and never
 *     starts with = @ tab CR;
 *   - `sweep --emit-job` with arbitrary file names, a --param value and file
 *     contents: refused when a name is not UTF-8 (nothing written), else every
 *     manifest is one YAML document, the ConfigMap gives the file back byte
 *     for byte under its name, and the Job's `sh -c` command and slurm.sh run
 *     `drasim sweep` with exactly the scenario and arguments given (parsed by
 *     the POSIX word rules below, comments and all).
 *
 * Input: five parts, the first four ended by NUL bytes: scenario file name,
 * referenced file name, --param value, a string for the three escapers, then
 * the referenced file's contents (the rest, NUL bytes and all). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/unbase64.h"
#include "../lib/yaml_resolve.h"
#include "model/yaml_scalar.h"
#include "model/yaml_tree.h"
#include "report/escape.h"
#include "report/sweep_job.h"
#include "util/arena.h"
#include "util/fileio.h"

#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "fuzz_emitters: %s:%d: %s\n", __FILE__, __LINE__, #c); \
            abort();                                                               \
        }                                                                          \
    } while (0)

/* ---- a POSIX shell word reader (enough for what drasim writes) -------------- */

typedef struct words {
    char **w;
    size_t n;
} words;

static void words_free(words *ws) {
    for (size_t i = 0; i < ws->n; i++) free(ws->w[i]);
    free(ws->w);
    ws->w = NULL;
    ws->n = 0;
}

/* The words of the commands in s[0..len): `'...'`, `"..."` (with $(...) kept
 * raw), backslash escapes, `# comments`; a command ends at an unquoted newline
 * or `;`, recorded as the word "\n". Returns -1 on an unterminated quote. */
static int sh_words(const char *s, size_t len, words *out) {
    strbuf cur = {0};
    bool in_word = false;
    size_t i = 0;
    int rc = 0;
#define END_WORD()                                                    \
    do {                                                              \
        if (in_word) {                                                \
            out->w = realloc(out->w, (out->n + 1) * sizeof *out->w);  \
            out->w[out->n++] = strdup(sb_str(&cur));                  \
            sb_clear(&cur);                                           \
            in_word = false;                                          \
        }                                                             \
    } while (0)
    while (i < len && !rc) {
        char c = s[i];
        if (c == '\'') {
            const char *e = memchr(s + i + 1, '\'', len - i - 1);
            if (!e) rc = -1;
            else {
                sb_append(&cur, s + i + 1, (size_t)(e - s - i - 1));
                i = (size_t)(e - s) + 1;
                in_word = true;
            }
        } else if (c == '"') {
            size_t j = i + 1;
            int depth = 0;
            while (j < len && (depth || s[j] != '"')) {
                if (s[j] == '\\' && j + 1 < len) {
                    sb_putc(&cur, s[j + 1]);
                    j += 2;
                    continue;
                }
                if (s[j] == '$' && j + 1 < len && s[j + 1] == '(') depth++;
                else if (s[j] == ')' && depth) depth--;
                sb_putc(&cur, s[j++]);
            }
            if (j >= len) rc = -1;
            i = j + 1;
            in_word = true;
        } else if (c == '\\' && i + 1 < len) {
            if (s[i + 1] != '\n') sb_putc(&cur, s[i + 1]), in_word = true;
            i += 2;
        } else if (c == ' ' || c == '\t') {
            END_WORD();
            i++;
        } else if (c == '\n' || c == ';') {
            END_WORD();
            out->w = realloc(out->w, (out->n + 1) * sizeof *out->w);
            out->w[out->n++] = strdup("\n");
            i++;
        } else if (c == '#' && !in_word) {
            while (i < len && s[i] != '\n') i++;
        } else {
            sb_putc(&cur, c);
            in_word = true;
            i++;
        }
    }
    END_WORD();
#undef END_WORD
    sb_free(&cur);
    return rc;
}

/* The words after "exec drasim sweep" up to "--shard" must be `want`. */
static void check_exec(const words *ws, const char *const *want, size_t nwant) {
    size_t i = 0;
    while (i + 2 < ws->n && !(!strcmp(ws->w[i], "exec") && !strcmp(ws->w[i + 1], "drasim") && !strcmp(ws->w[i + 2], "sweep")))
        i++;
    CHECK(i + 2 < ws->n);
    i += 3;
    for (size_t k = 0; k < nwant; k++, i++) {
        CHECK(i < ws->n);
        CHECK(!strcmp(ws->w[i], want[k]));
    }
    CHECK(i < ws->n && !strcmp(ws->w[i], "--shard"));
}

/* ---- the three escapers on one string ---------------------------------------- */

static void check_escapers(const char *s) {
    size_t n = strlen(s);
    /* YAML */
    arena a = {0};
    ynode *m = yb_map(&a);
    yb_add(&a, m, "k", yb_str(&a, s));
    strbuf out = {0}, err = {0};
    ydump(&out, m);
    const char *nl = memchr(out.s, '\n', out.len);
    CHECK(nl && (size_t)(nl - out.s) == out.len - 1);
    CHECK(!strchr(sb_str(&out), '\r') && !strstr(sb_str(&out), "\xc2\x85") && !strstr(sb_str(&out), "\xe2\x80\xa8") &&
          !strstr(sb_str(&out), "\xe2\x80\xa9"));
    if (yaml_utf8_ok(s, n)) {
        yfile f;
        CHECK(yfile_load_mem("f.yaml", out.s, out.len, &f, &err) == 0);
        CHECK(f.ndocs == 1 && f.docs[0]->kind == YN_MAP && f.docs[0]->n == 1);
        const ynode *v = f.docs[0]->vals[0];
        CHECK(v->kind == YN_SCALAR && v->len == n && !memcmp(v->str, s, n));
        CHECK(!v->plain || !yaml_plain_not_str(v->str));
        yfile_free(&f);
    }
    arena_free(&a);
    /* shell */
    sb_clear(&out);
    sh_quote(&out, s);
    words ws = {0};
    CHECK(sh_words(out.s, out.len, &ws) == 0);
    CHECK(ws.n == 1 && !strcmp(ws.w[0], s));
    words_free(&ws);
    /* CSV: one cell (quoted: "" is a quote), holding s or 's */
    sb_clear(&out);
    csv_text_cell(&out, s);
    strbuf cell = {0};
    const char *p = sb_str(&out);
    if (*p == '"') {
        for (p++; *p; p++) {
            if (*p == '"') {
                CHECK(p[1] == '"' || p[1] == 0);
                if (!p[1]) break;
                p++;
            }
            sb_putc(&cell, *p);
        }
    } else {
        CHECK(!strpbrk(p, ",\"\r\n"));
        sb_puts(&cell, p);
    }
    const char *c = sb_str(&cell);
    CHECK(!strcmp(c, s) || (c[0] == '\'' && !strcmp(c + 1, s)));
    CHECK(!(c[0] && strchr("=@\t\r", c[0])));
    sb_free(&cell);
    sb_free(&out);
    sb_free(&err);
}

/* ---- sweep --emit-job ---------------------------------------------------------- */

static void file_name(char *dst, size_t cap, const char *src, const char *dflt) {
    snprintf(dst, cap, "%.100s", *src ? src : dflt);
    for (char *c = dst; *c; c++)
        if (*c == '/') *c = '_';
    if (!strcmp(dst, ".") || !strcmp(dst, "..")) snprintf(dst, cap, "x%s", *src ? src : dflt);
}

static bool write_file(const char *path, const char *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static char *read_file(const char *path, size_t *n) {
    strbuf b = {0}, err = {0};
    if (file_read_all(path, &b, &err)) {
        sb_free(&err);
        return NULL;
    }
    sb_free(&err);
    *n = b.len;
    return b.s ? b.s : calloc(1, 1);
}

static const char *const outputs[] = {"configmap.yaml", "results-pvc.yaml", "job.yaml", "merge-job.yaml", "collect.sh", "slurm.sh"};

static void check_emit(const char *scen_name, const char *ref_name, const char *param, const char *content, size_t clen) {
    char dir[] = "/tmp/fuzz-emitters-XXXXXX";
    if (!mkdtemp(dir)) return;
    char sn[128], rn[128], scen[256], ref[256], out[256];
    file_name(sn, sizeof sn, scen_name, "s.yaml");
    file_name(rn, sizeof rn, ref_name, "r.csv");
    if (!strcmp(sn, rn)) strcat(rn, "2");
    snprintf(scen, sizeof scen, "%s/%s", dir, sn);
    snprintf(ref, sizeof ref, "%s/%s", dir, rn);
    snprintf(out, sizeof out, "%s/out", dir);
    if (write_file(scen, "apiVersion: drasim/v1\n", 22) && write_file(ref, content, clen) && !mkdir(out, 0755)) {
        const char *args[] = {"--param", param}, *inputs[] = {ref};
        sweep_job j = {.scenario = scen, .args = args, .nargs = 2, .shards = 3, .parallelism = 2, .image = "drasim:latest",
                       .dir = out, .inputs = inputs, .ninputs = 1};
        strbuf err = {0}, path = {0};
        bool text = yaml_utf8_ok(scen, strlen(scen)) && yaml_utf8_ok(rn, strlen(rn)) && yaml_utf8_ok(param, strlen(param));
        int rc = sweep_emit_job(&j, &err);
        CHECK((rc == 0) == text);   /* refused exactly when a name cannot be carried */
        for (size_t i = 0; i < 6; i++) {
            sb_clear(&path);
            sb_printf(&path, "%s/%s", out, outputs[i]);
            struct stat st;
            CHECK((stat(sb_str(&path), &st) == 0) == (rc == 0));   /* all or nothing */
        }
        if (rc == 0) {
            yfile f[4];
            for (size_t i = 0; i < 4; i++) {
                sb_clear(&path);
                sb_printf(&path, "%s/%s", out, outputs[i]);
                CHECK(yfile_load(sb_str(&path), &f[i], &err) == 0);
                CHECK(f[i].ndocs == 1 && f[i].docs[0]->kind == YN_MAP);
            }
            /* the ConfigMap gives the referenced file back (key f1-...) */
            const ynode *cm = f[0].docs[0], *data = ymap_get(cm, "data"), *bin = ymap_get(cm, "binaryData");
            const ynode *v = NULL;
            size_t found = 0;
            for (size_t k = 0; data && k < data->n; k++)
                if (!strncmp(data->keys[k]->str, "f1-", 3)) v = data->vals[k], found++;
            const ynode *b = NULL;
            for (size_t k = 0; bin && k < bin->n; k++)
                if (!strncmp(bin->keys[k]->str, "f1-", 3)) b = bin->vals[k], found++;
            CHECK(found == 1);
            if (v) {
                CHECK(v->len == clen && !memcmp(v->str, content, clen));
                CHECK(!v->plain || !yaml_plain_not_str(v->str));
            } else {
                unsigned char *dec = malloc(b->len + 1);
                size_t n = unbase64(b->str, dec);
                CHECK(n == clen && !memcmp(dec, content, n));
                free(dec);
            }
            /* the Job's command and slurm.sh run drasim sweep with what was given */
            const ynode *spec = ymap_get(ymap_get(ymap_get(f[2].docs[0], "spec"), "template"), "spec");
            const ynode *ctr = ymap_get(spec, "containers")->vals[0], *cmd = ymap_get(ctr, "command");
            CHECK(cmd && cmd->n == 3);
            const ynode *vol = ymap_get(ymap_get(spec, "volumes")->vals[0], "configMap");
            const ynode *its = ymap_get(vol, "items");
            bool path_ok = false;
            for (size_t k = 0; k < its->n; k++) path_ok |= !strcmp(ymap_get(its->vals[k], "path")->str, rn);
            CHECK(path_ok);
            strbuf pod_scen = {0};
            sb_printf(&pod_scen, "/tmp/sweep/%s", sn);
            const char *want_pod[] = {sb_str(&pod_scen), "--param", param};
            words ws = {0};
            CHECK(sh_words(cmd->vals[2]->str, cmd->vals[2]->len, &ws) == 0);
            check_exec(&ws, want_pod, 3);
            words_free(&ws);
            sb_free(&pod_scen);
            sb_clear(&path);
            sb_printf(&path, "%s/slurm.sh", out);
            size_t sl;
            char *slurm = read_file(sb_str(&path), &sl);
            CHECK(slurm);
            CHECK(sh_words(slurm, sl, &ws) == 0);
            const char *want_slurm[] = {scen, "--param", param};
            check_exec(&ws, want_slurm, 3);
            size_t cmds = 0;   /* set -eu / cd / mkdir / exec: nothing else runs */
            for (size_t k = 0; k < ws.n; k++)
                if (strcmp(ws.w[k], "\n") && (k == 0 || !strcmp(ws.w[k - 1], "\n"))) cmds++;
            CHECK(cmds == 4);
            words_free(&ws);
            free(slurm);
            for (size_t i = 0; i < 4; i++) yfile_free(&f[i]);
        }
        for (size_t i = 0; i < 6; i++) {
            sb_clear(&path);
            sb_printf(&path, "%s/%s", out, outputs[i]);
            unlink(sb_str(&path));
        }
        sb_free(&err);
        sb_free(&path);
    }
    rmdir(out);
    unlink(ref);
    unlink(scen);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 8192) return 0;
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    const char *part[5] = {"", "", "", "", ""};
    size_t plen[5] = {0}, np = 0, start = 0;
    for (size_t i = 0; i <= size && np < 5; i++)
        if (i == size || (buf[i] == 0 && np < 4)) {
            part[np] = buf + start;
            plen[np++] = i - start;
            start = i + 1;
        }
    check_escapers(part[3]);
    check_escapers(part[2]);
    check_emit(part[0], part[1], part[2], part[4], plen[4]);
    free(buf);
    return 0;
}
