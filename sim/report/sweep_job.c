/* sweep_job.c -- the Indexed Job, ConfigMap and Slurm script of a sweep (see sweep_job.h). */
#include "report/sweep_job.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/yaml_scalar.h"
#include "model/yaml_tree.h"
#include "report/escape.h"
#include "store/output_path.h"
#include "util/datadir.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#define CONFIGMAP_MAX (900 * 1024)   /* of the API's 1 MiB per object, room left for the metadata */
#define IMAGE_DATADIR "/usr/local/share/drasim"   /* DRASIM_DATADIR of the Containerfile's image */

typedef struct jfile {
    char *real;   /* absolute, resolved */
    char *rel;    /* relative to the common root */
} jfile;

static char *dir_of(const char *path) {
    char *d = xstrdup(path);
    char *s = strrchr(d, '/');
    if (s == d) s[1] = 0;
    else if (s) *s = 0;
    return d;
}

/* Shorten `root` (a directory) until `dir` is inside it. */
static void common_dir(char *root, const char *dir) {
    for (;;) {
        size_t n = strlen(root);
        if (!strncmp(root, dir, n) && (dir[n] == '/' || dir[n] == 0 || (n == 1 && root[0] == '/'))) return;
        char *s = strrchr(root, '/');
        if (!s || s == root) {
            strcpy(root, "/");
            return;
        }
        *s = 0;
    }
}

static const char *rel_to(const char *root, const char *path) {
    size_t n = strlen(root);
    if (n == 1) return path + 1;   /* root "/" */
    return path[n] == '/' ? path + n + 1 : path + n;
}

static void base64(strbuf *out, const unsigned char *p, size_t n) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        sb_putc(out, t[v >> 18 & 63]);
        sb_putc(out, t[v >> 12 & 63]);
        sb_putc(out, i + 1 < n ? t[v >> 6 & 63] : '=');
        sb_putc(out, i + 2 < n ? t[v & 63] : '=');
    }
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A SQLite database (its 16-byte header)? */
static bool is_sqlite(const char *path) {
    char h[16] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool yes = fread(h, 1, 16, f) == 16 && !memcmp(h, "SQLite format 3", 16);
    fclose(f);
    return yes;
}

/* Every regular file below `dir` (sorted, so the ConfigMap is the same each
 * time), appended to *v: what a Lua generator there may open. Symbolic links
 * to files are followed, links to directories are not (no loops); SQLite
 * databases (results, not inputs) and the directory `skip` (--emit-job's own
 * output) are left out. At most 16 levels and 10,000 files, else an error. */
static int tree_files(const char *dir, const char *skip, int depth, char ***v, size_t *n, strbuf *err) {
    if (depth > 16 || *n > 10000) {
        sb_printf(err, "--emit-job: %s: more than 10,000 files or 16 levels below a Lua script's directory (a generator "
                       "may read any of them, so all are shipped); give the script a directory of its own", dir);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) return 0;   /* unreadable: the generator cannot read it either */
    char **names = NULL;
    size_t nn = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        names = xrealloc(names, (nn + 1) * sizeof *names);
        names[nn++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, str_cmp);
    int rc = 0;
    char real[PATH_MAX];
    for (size_t i = 0; i < nn; i++) {
        strbuf p = {0};
        sb_printf(&p, "%s/%s", dir, names[i]);
        struct stat lst, st;
        if (!rc && !lstat(sb_str(&p), &lst) && !stat(sb_str(&p), &st)) {
            if (S_ISDIR(st.st_mode) && !S_ISLNK(lst.st_mode)) {
                if (!(realpath(sb_str(&p), real) && !strcmp(real, skip))) rc = tree_files(sb_str(&p), skip, depth + 1, v, n, err);
            } else if (S_ISREG(st.st_mode) && !is_sqlite(sb_str(&p))) {
                *v = xrealloc(*v, (*n + 1) * sizeof **v);
                (*v)[(*n)++] = xstrdup(sb_str(&p));
            }
        }
        sb_free(&p);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* A Kubernetes name (RFC 1123 label) from the scenario file's name: "drasim-<base>". */
static void job_name(const char *scenario, strbuf *out) {
    const char *b = strrchr(scenario, '/');
    b = b ? b + 1 : scenario;
    sb_puts(out, "drasim-");
    size_t n = strcspn(b, ".");
    for (size_t i = 0; i < n && out->len < 40; i++) {
        char c = b[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '-';
        if (c == '-' && sb_str(out)[out->len - 1] == '-') continue;
        sb_putc(out, c);
    }
    while (out->len && sb_str(out)[out->len - 1] == '-') out->len--, out->s[out->len] = 0;
}

/* The files of one --emit-job, built whole before the first is written. */
typedef struct staged {
    const char *name, *signature;
    strbuf text;
} staged;

static void stage(staged *st, size_t *n, const char *name, const char *signature, const strbuf *text) {
    st[*n] = (staged){name, signature, {0}};
    sb_append(&st[*n].text, text->s, text->len);
    (*n)++;
}

/* Write every staged file (each atomically, output_path.h); when one fails,
 * remove the ones this call wrote, so DIR holds all of them or none. */
static int write_all(const sweep_job *j, staged *st, size_t n, strbuf *err) {
    strbuf path = {0};
    size_t done = 0;
    int rc = 0;
    for (; done < n && !rc; done++) {
        sb_clear(&path);
        sb_printf(&path, "%s/%s", j->dir, st[done].name);
        output_target t = {.path = sb_str(&path), .kind = OUTPUT_FILE, .signature = st[done].signature,
                           .force = j->force, .option = "--emit-job"};
        rc = output_check(&t, err) || output_write_file(sb_str(&path), st[done].text.s, st[done].text.len, err) ? -1 : 0;
        if (!rc && st[done].signature[0] == '#' && st[done].signature[1] == '!') chmod(sb_str(&path), 0755);
    }
    if (rc)
        for (size_t i = 0; i + 1 < done; i++) {
            sb_clear(&path);
            sb_printf(&path, "%s/%s", j->dir, st[i].name);
            unlink(sb_str(&path));
        }
    sb_free(&path);
    return rc;
}

/* A string shown in a comment line goes through the one YAML scalar rule
 * (model/yaml_scalar.h): as is when plain, else double-quoted with every
 * line break and control character escaped, so it can never end the comment
 * (in YAML: LF, CR, NEL, U+2028, U+2029; in sh: LF). */
static void comment_str(strbuf *t, const char *s) { yaml_scalar(t, s, strlen(s)); }

/* Refuse a string a manifest cannot carry exactly (not UTF-8), naming where it came from. */
static int need_text(const char *what, const char *s, strbuf *err) {
    if (yaml_utf8_ok(s, strlen(s))) return 0;
    sb_printf(err, "--emit-job: %s ", what);
    comment_str(err, s);
    sb_puts(err, " is not UTF-8 text; a Kubernetes manifest cannot carry it (rename it)");
    return -1;
}

static ynode *kv_map(arena *a, const char *k1, ynode *v1) {
    ynode *m = yb_map(a);
    yb_add(a, m, k1, v1);
    return m;
}

int sweep_emit_job(const sweep_job *j, strbuf *err) {
    int rc = -1;
    arena a = {0};
    strbuf name = {0}, text = {0}, cmd = {0}, sargs = {0};
    jfile *in = NULL;   /* files copied into the ConfigMap; in[0] the scenario */
    size_t nin = 0;
    char **links = NULL;   /* data directories the scenario names by a relative path: their real paths */
    size_t nlinks = 0;
    char real[PATH_MAX], buf[PATH_MAX], roots[3][PATH_MAX];
    const char *root_names[3] = {"data", "lua", "reports"};
    char *root = NULL;
    staged st[6];
    size_t nst = 0;
    char **all = NULL;   /* j->inputs and the trees' files */
    size_t nall = 0;

    /* the data directories this drasim reads (the image has its own copy) */
    for (int r = 0; r < 3; r++) {
        roots[r][0] = 0;
        if (datadir_find(root_names[r], buf, sizeof buf) && realpath(buf, real)) snprintf(roots[r], PATH_MAX, "%s", real);
    }
    /* the files read, then every file of the Lua generators' directories */
    char skip[PATH_MAX];
    if (!realpath(j->dir, skip)) snprintf(skip, sizeof skip, "%s", j->dir);
    for (size_t i = 0; i < j->ninputs; i++) {
        all = xrealloc(all, (nall + 1) * sizeof *all);
        all[nall++] = xstrdup(j->inputs[i]);
    }
    for (size_t t = 0; t < j->ntrees; t++)
        if (tree_files(j->trees[t], skip, 0, &all, &nall, err)) goto done;
    if (!realpath(j->scenario, real)) {
        sb_printf(err, "%s: %s", j->scenario, strerror(errno));
        goto done;
    }
    in = xcalloc(nall + 1, sizeof *in);
    in[nin++].real = xstrdup(real);
    root = dir_of(real);
    for (size_t i = 0; i < nall; i++) {
        if (!realpath(all[i], real)) continue;
        size_t seen = 0;
        while (seen < nin && strcmp(real, in[seen].real)) seen++;
        if (seen < nin) continue;
        int r = 0;
        for (; r < 3; r++) {
            size_t n = strlen(roots[r]);
            if (n && !strncmp(real, roots[r], n) && real[n] == '/') break;
        }
        if (r < 3) {
            /* in the image: found there by the data-directory lookup, or named
             * relative to the scenario (then DIR/<root> must be a link to it) */
            snprintf(buf, sizeof buf, "%s%s", root_names[r], real + strlen(roots[r]));
            char look[PATH_MAX];
            if (datadir_find(buf, look, sizeof look) && !strcmp(look, all[i])) continue;
            size_t k = 0;
            while (k < nlinks && strcmp(links[k], roots[r])) k++;
            if (k == nlinks) {
                links = xrealloc(links, (nlinks + 1) * sizeof *links);
                links[nlinks++] = xstrdup(roots[r]);
                char *parent = dir_of(roots[r]);
                common_dir(root, parent);
                free(parent);
            }
            continue;
        }
        in[nin++].real = xstrdup(real);
        char *d = dir_of(real);
        common_dir(root, d);
        free(d);
    }
    for (size_t i = 0; i < nin; i++) in[i].rel = xstrdup(rel_to(root, in[i].real));
    /* what the manifests carry: the scenario's path, the arguments, the files' paths */
    if (need_text("the scenario path", j->scenario, err)) goto done;
    for (size_t i = 0; i < j->nargs; i++)
        if (need_text(i && j->args[i - 1][0] == '-' ? j->args[i - 1] : "an argument", j->args[i], err)) goto done;
    for (size_t i = 1; i < nin; i++)
        if (need_text("the path of a file the scenario reads", in[i].rel, err)) goto done;

    job_name(j->scenario, &name);
    const char *nm = sb_str(&name);
    strbuf cm_name = {0}, pvc_name = {0};
    sb_printf(&cm_name, "%s-files", nm);
    sb_printf(&pvc_name, "%s-results", nm);

    /* the ConfigMap: each file under a key, mounted at its path below the common root */
    ynode *cm = yb_map(&a), *meta = yb_map(&a), *data = yb_map(&a), *bin = yb_map(&a), *items = yb_seq(&a);
    yb_add(&a, cm, "apiVersion", yb_str(&a, "v1"));
    yb_add(&a, cm, "kind", yb_str(&a, "ConfigMap"));
    yb_add(&a, meta, "name", yb_str(&a, sb_str(&cm_name)));
    yb_add(&a, meta, "labels", kv_map(&a, "app.kubernetes.io/name", yb_str(&a, "drasim")));
    yb_add(&a, cm, "metadata", meta);
    size_t total = 0;
    for (size_t i = 0; i < nin; i++) {
        strbuf content = {0}, key = {0};
        if (file_read_all(in[i].real, &content, err)) {
            sb_free(&content);
            goto done_names;
        }
        sb_printf(&key, "f%zu-", i);
        const char *b = strrchr(in[i].rel, '/');
        for (const char *c = b ? b + 1 : in[i].rel; *c && key.len < 200; c++)
            sb_putc(&key, (strchr("-._", *c) || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                           (*c >= '0' && *c <= '9'))
                              ? *c
                              : '_');
        if (yaml_safe_text(content.s ? content.s : "", content.len)) {   /* else bytes: base64 */
            yb_add(&a, data, sb_str(&key), yb_strn(&a, content.s ? content.s : "", content.len));
            total += content.len + key.len;
        } else {
            strbuf b64 = {0};
            base64(&b64, (const unsigned char *)content.s, content.len);
            yb_add(&a, bin, sb_str(&key), yb_str(&a, sb_str(&b64)));
            total += b64.len + key.len;
            sb_free(&b64);
        }
        ynode *it = yb_map(&a);
        yb_add(&a, it, "key", yb_str(&a, sb_str(&key)));
        yb_add(&a, it, "path", yb_str(&a, in[i].rel));
        yb_push(&a, items, it);
        sb_free(&content);
        sb_free(&key);
    }
    if (total > CONFIGMAP_MAX) {
        sb_printf(err, "%s and the files it reads take %zu bytes, more than a ConfigMap holds (%d KiB here of the API's "
                       "1 MiB); put the large files into the image or a volume",
                  j->scenario, total, CONFIGMAP_MAX / 1024);
        goto done_names;
    }
    if (data->n) yb_add(&a, cm, "data", data);
    if (bin->n) yb_add(&a, cm, "binaryData", bin);
    sb_puts(&text, SWEEP_JOB_SIGNATURE "\n# The scenario ");
    comment_str(&text, j->scenario);
    sb_printf(&text, " and the files it reads (%zu bytes), for job.yaml.\n", total);
    ydump(&text, cm);
    stage(st, &nst, "configmap.yaml", SWEEP_JOB_SIGNATURE, &text);

    /* the sweep's arguments, shell-quoted, after the scenario */
    for (size_t i = 0; i < j->nargs; i++) {
        sb_putc(&sargs, ' ');
        sh_quote(&sargs, j->args[i]);
    }

    /* the results volume */
    ynode *pvc = yb_map(&a), *pspec = yb_map(&a), *acc = yb_seq(&a);
    yb_add(&a, pvc, "apiVersion", yb_str(&a, "v1"));
    yb_add(&a, pvc, "kind", yb_str(&a, "PersistentVolumeClaim"));
    yb_add(&a, pvc, "metadata", kv_map(&a, "name", yb_str(&a, sb_str(&pvc_name))));
    yb_push(&a, acc, yb_str(&a, "ReadWriteMany"));
    yb_add(&a, pspec, "accessModes", acc);
    yb_add(&a, pspec, "resources", kv_map(&a, "requests", kv_map(&a, "storage", yb_str(&a, "10Gi"))));
    yb_add(&a, pvc, "spec", pspec);
    sb_clear(&text);
    sb_puts(&text, SWEEP_JOB_SIGNATURE "\n# Every shard writes /results/shard-NNNNN.db here (ReadWriteMany: shards run on "
                   "several nodes;\n# set storageClassName to a class that offers it).\n");
    ydump(&text, pvc);
    stage(st, &nst, "results-pvc.yaml", SWEEP_JOB_SIGNATURE, &text);

    /* the pod's script: the ConfigMap's files copied to a writable tree,
     * links to the image's data directories, then this shard */
    sb_puts(&cmd, "set -eu; mkdir -p /tmp/sweep; cp -RL /sweep/in/. /tmp/sweep/");
    for (size_t k = 0; k < nlinks; k++) {
        const char *rel = rel_to(root, links[k]), *b = strrchr(links[k], '/');
        sb_puts(&cmd, "; mkdir -p \"$(dirname /tmp/sweep/");
        sh_quote(&cmd, rel);
        sb_puts(&cmd, ")\"; ln -sfn \"${DRASIM_DATADIR:-" IMAGE_DATADIR "}\"/");
        sh_quote(&cmd, b ? b + 1 : links[k]);
        sb_puts(&cmd, " /tmp/sweep/");
        sh_quote(&cmd, rel);
    }
    sb_puts(&cmd, "; exec drasim sweep /tmp/sweep/");
    sh_quote(&cmd, in[0].rel);
    sb_printf(&cmd, "%s --shard auto/%llu -o \"/results/shard-$(printf %%05d \"$JOB_COMPLETION_INDEX\").db\" --force -q",
              sb_str(&sargs), (unsigned long long)j->shards);

    ynode *job = yb_map(&a), *jmeta = yb_map(&a), *spec = yb_map(&a), *tmpl = yb_map(&a), *pspec2 = yb_map(&a);
    ynode *ctrs = yb_seq(&a), *c = yb_map(&a), *command = yb_seq(&a), *mounts = yb_seq(&a), *vols = yb_seq(&a);
    yb_add(&a, job, "apiVersion", yb_str(&a, "batch/v1"));
    yb_add(&a, job, "kind", yb_str(&a, "Job"));
    yb_add(&a, jmeta, "name", yb_str(&a, nm));
    yb_add(&a, jmeta, "labels", kv_map(&a, "app.kubernetes.io/name", yb_str(&a, "drasim")));
    yb_add(&a, job, "metadata", jmeta);
    yb_add(&a, spec, "completionMode", yb_str(&a, "Indexed"));
    yb_add(&a, spec, "completions", yb_int(&a, (int64_t)j->shards));
    yb_add(&a, spec, "parallelism", yb_int(&a, (int64_t)j->parallelism));
    yb_add(&a, spec, "backoffLimitPerIndex", yb_int(&a, 1));
    yb_add(&a, spec, "ttlSecondsAfterFinished", yb_int(&a, 86400));
    yb_add(&a, c, "name", yb_str(&a, "drasim"));
    yb_add(&a, c, "image", yb_str(&a, j->image));
    yb_push(&a, command, yb_str(&a, "sh"));
    yb_push(&a, command, yb_str(&a, "-c"));
    yb_push(&a, command, yb_str(&a, sb_str(&cmd)));
    yb_add(&a, c, "command", command);
    ynode *req = yb_map(&a), *lim = yb_map(&a), *res = yb_map(&a);
    yb_add(&a, req, "cpu", yb_str(&a, "1"));
    yb_add(&a, req, "memory", yb_str(&a, "1Gi"));
    yb_add(&a, lim, "memory", yb_str(&a, "2Gi"));
    yb_add(&a, res, "requests", req);
    yb_add(&a, res, "limits", lim);
    yb_add(&a, c, "resources", res);
    ynode *m1 = yb_map(&a), *m2 = yb_map(&a);
    yb_add(&a, m1, "name", yb_str(&a, "scenario"));
    yb_add(&a, m1, "mountPath", yb_str(&a, "/sweep/in"));
    yb_add(&a, m1, "readOnly", yb_bool(&a, true));
    yb_add(&a, m2, "name", yb_str(&a, "results"));
    yb_add(&a, m2, "mountPath", yb_str(&a, "/results"));
    yb_push(&a, mounts, m1);
    yb_push(&a, mounts, m2);
    yb_add(&a, c, "volumeMounts", mounts);
    yb_push(&a, ctrs, c);
    ynode *v1 = yb_map(&a), *v2 = yb_map(&a), *cmv = yb_map(&a);
    yb_add(&a, v1, "name", yb_str(&a, "scenario"));
    yb_add(&a, cmv, "name", yb_str(&a, sb_str(&cm_name)));
    yb_add(&a, cmv, "items", items);
    yb_add(&a, v1, "configMap", cmv);
    yb_add(&a, v2, "name", yb_str(&a, "results"));
    yb_add(&a, v2, "persistentVolumeClaim", kv_map(&a, "claimName", yb_str(&a, sb_str(&pvc_name))));
    yb_push(&a, vols, v1);
    yb_push(&a, vols, v2);
    yb_add(&a, pspec2, "restartPolicy", yb_str(&a, "Never"));
    /* the image runs as uid 10001 (Containerfile): the results volume group-writable for it */
    yb_add(&a, pspec2, "securityContext", kv_map(&a, "fsGroup", yb_int(&a, 10001)));
    yb_add(&a, pspec2, "containers", ctrs);
    yb_add(&a, pspec2, "volumes", vols);
    yb_add(&a, tmpl, "spec", pspec2);
    yb_add(&a, spec, "template", tmpl);
    yb_add(&a, job, "spec", spec);
    sb_clear(&text);
    strbuf shown = {0};
    sb_puts(&shown, "drasim sweep ");
    sh_quote(&shown, j->scenario);
    sb_puts(&shown, sb_str(&sargs));
    sb_printf(&text, SWEEP_JOB_SIGNATURE "\n# %llu shards, %llu at a time, of: ", (unsigned long long)j->shards,
              (unsigned long long)j->parallelism);
    comment_str(&text, sb_str(&shown));
    sb_puts(&text, "\n# Shard I writes /results/shard-I.db (5 digits). kubectl apply -f configmap.yaml -f results-pvc.yaml "
                   "-f job.yaml\n");
    sb_free(&shown);
    ydump(&text, job);
    stage(st, &nst, "job.yaml", SWEEP_JOB_SIGNATURE, &text);

    /* the merge, as a Job on the same volume */
    ynode *mj = yb_map(&a), *ms = yb_map(&a), *mt = yb_map(&a), *mp = yb_map(&a), *mc = yb_seq(&a), *mcc = yb_map(&a);
    ynode *mcmd = yb_seq(&a), *mm = yb_seq(&a), *mv = yb_seq(&a), *mmount = yb_map(&a);
    strbuf mname = {0}, mscript = {0};
    sb_printf(&mname, "%s-merge", nm);
    sb_printf(&mscript, "set -eu; n=$(ls /results/shard-*.db | wc -l); [ \"$n\" -eq %llu ] || { echo \"$n of %llu "
                        "shard databases\" >&2; exit 1; }; drasim merge /results/shard-*.db -o /results/all.db --force",
              (unsigned long long)j->shards, (unsigned long long)j->shards);
    yb_add(&a, mj, "apiVersion", yb_str(&a, "batch/v1"));
    yb_add(&a, mj, "kind", yb_str(&a, "Job"));
    yb_add(&a, mj, "metadata", kv_map(&a, "name", yb_str(&a, sb_str(&mname))));
    yb_add(&a, ms, "backoffLimit", yb_int(&a, 0));
    yb_add(&a, mcc, "name", yb_str(&a, "merge"));
    yb_add(&a, mcc, "image", yb_str(&a, j->image));
    yb_push(&a, mcmd, yb_str(&a, "sh"));
    yb_push(&a, mcmd, yb_str(&a, "-c"));
    yb_push(&a, mcmd, yb_str(&a, sb_str(&mscript)));
    yb_add(&a, mcc, "command", mcmd);
    yb_add(&a, mmount, "name", yb_str(&a, "results"));
    yb_add(&a, mmount, "mountPath", yb_str(&a, "/results"));
    yb_push(&a, mm, mmount);
    yb_add(&a, mcc, "volumeMounts", mm);
    yb_push(&a, mc, mcc);
    yb_push(&a, mv, v2);
    yb_add(&a, mp, "restartPolicy", yb_str(&a, "Never"));
    yb_add(&a, mp, "securityContext", kv_map(&a, "fsGroup", yb_int(&a, 10001)));
    yb_add(&a, mp, "containers", mc);
    yb_add(&a, mp, "volumes", mv);
    yb_add(&a, mt, "spec", mp);
    yb_add(&a, ms, "template", mt);
    yb_add(&a, mj, "spec", ms);
    sb_clear(&text);
    sb_puts(&text, SWEEP_JOB_SIGNATURE "\n# After job.yaml completes: merges the shards into /results/all.db.\n");
    ydump(&text, mj);
    stage(st, &nst, "merge-job.yaml", SWEEP_JOB_SIGNATURE, &text);

    /* the commands that collect the results: every interpolated value shell-quoted */
    {
        sb_clear(&text);
        sb_puts(&text, "#!/bin/sh\n" SWEEP_JOB_SIGNATURE "\n"
                       "# Run the sweep as an Indexed Job, merge its shards, copy all.db here (docs/SWEEPS.md).\n"
                       "#   sh collect.sh [--timeout SECONDS]   how long to wait for each Job (default 86400)\n"
                       "# Exit 0 with all.db here; 1 when a Job failed (its failed indexes listed); 3 on timeout.\n"
                       "set -eu\n"
                       "d=$(dirname \"$0\")\n");
        strbuf fetch = {0};
        sb_printf(&fetch, "%s-fetch", nm);
        const char *vars[][2] = {{"job", nm}, {"merge", sb_str(&mname)}, {"fetch", sb_str(&fetch)},
                                 {"claim", sb_str(&pvc_name)}, {"image", j->image}};
        for (size_t v = 0; v < sizeof vars / sizeof *vars; v++) {
            sb_printf(&text, "%s%s=", v ? "\n" : "", vars[v][0]);
            sh_quote(&text, vars[v][1]);
        }
        sb_free(&fetch);
        sb_puts(&text,
                "\ntimeout=86400\n"
                "poll=${DRASIM_COLLECT_POLL:-30}   # seconds between two looks at a Job\n"
                "while [ $# -gt 0 ]; do\n"
                "  case $1 in\n"
                "    --timeout) [ $# -ge 2 ] || { echo \"collect.sh: --timeout needs SECONDS\" >&2; exit 2; }; timeout=$2; shift 2 ;;\n"
                "    --timeout=*) timeout=${1#--timeout=}; shift ;;\n"
                "    *) echo \"usage: sh collect.sh [--timeout SECONDS]\" >&2; exit 2 ;;\n"
                "  esac\n"
                "done\n"
                "case $timeout in '' | *[!0-9]*) echo \"collect.sh: --timeout $timeout: expected whole seconds\" >&2; exit 2 ;; esac\n"
                "\n"
                "# wait_job JOB: until it is Complete (return) or Failed (exit 1, with its failed indexes):\n"
                "# a Job ends in exactly one of the two (batch/v1 JobStatus.conditions), so waiting for\n"
                "# Complete alone would hang when a shard fails for good (backoffLimitPerIndex).\n"
                "wait_job() {\n"
                "  waited=0\n"
                "  while :; do\n"
                "    conds=$(kubectl get \"job/$1\" -o 'jsonpath={range .status.conditions[?(@.status==\"True\")]}{.type}{\" \"}{end}')\n"
                "    case \" $conds \" in\n"
                "      *' Complete '*) return 0 ;;\n"
                "      *' Failed '*)\n"
                "        failed=$(kubectl get \"job/$1\" -o 'jsonpath={.status.failedIndexes}')\n"
                "        reason=$(kubectl get \"job/$1\" -o 'jsonpath={.status.conditions[?(@.type==\"Failed\")].reason}')\n"
                "        echo \"collect.sh: job/$1 failed (${reason:-no reason given})${failed:+; failed indexes: $failed}\" >&2\n"
                "        [ -z \"$failed\" ] || echo \"collect.sh: a shard's log: kubectl logs -l job-name=$1,batch.kubernetes.io/job-completion-index=I\" >&2\n"
                "        exit 1 ;;\n"
                "    esac\n"
                "    if [ \"$waited\" -ge \"$timeout\" ]; then\n"
                "      echo \"collect.sh: job/$1 is neither Complete nor Failed after ${timeout}s (--timeout); it goes on: sh $0 waits again\" >&2\n"
                "      exit 3\n"
                "    fi\n"
                "    sleep \"$poll\"\n"
                "    waited=$((waited + poll))\n"
                "  done\n"
                "}\n"
                "\n"
                "kubectl apply -f \"$d/configmap.yaml\" -f \"$d/results-pvc.yaml\" -f \"$d/job.yaml\"\n"
                "wait_job \"$job\"\n"
                "kubectl apply -f \"$d/merge-job.yaml\"\n"
                "wait_job \"$merge\"\n"
                "# a pod on the results volume to copy from (kubectl cp needs a running container)\n"
                "kubectl run \"$fetch\" --image=\"$image\" --restart=Never --command --overrides=\"{\\\"spec\\\":{\\\"volumes\\\":"
                "[{\\\"name\\\":\\\"results\\\",\\\"persistentVolumeClaim\\\":{\\\"claimName\\\":\\\"$claim\\\"}}],"
                "\\\"containers\\\":[{\\\"name\\\":\\\"$fetch\\\",\\\"image\\\":\\\"$image\\\",\\\"command\\\":[\\\"sleep\\\","
                "\\\"3600\\\"],\\\"volumeMounts\\\":[{\\\"name\\\":\\\"results\\\",\\\"mountPath\\\":\\\"/results\\\"}]}]}}\" "
                "-- sleep 3600\n"
                "kubectl wait --for=condition=Ready --timeout=10m \"pod/$fetch\"\n"
                "kubectl cp \"$fetch:/results/all.db\" all.db\n"
                "kubectl delete \"pod/$fetch\"\n"
                "echo \"all.db: drasim report all.db -o report\"\n");
        stage(st, &nst, "collect.sh", "#!/bin/sh\n" SWEEP_JOB_SIGNATURE, &text);
    }

    /* the Slurm recipe: the same shards as an array job on a shared file system */
    {
        strbuf submit = {0};
        sh_quote(&submit, j->dir);
        sb_puts(&submit, "/slurm.sh");
        sb_clear(&text);
        sb_printf(&text,
                  "#!/bin/sh\n" SWEEP_JOB_SIGNATURE "\n"
                  "# %llu shards as a Slurm job array, %llu at a time. Submit from the directory the sweep was\n"
                  "# emitted from (paths are relative to it): sbatch ",
                  (unsigned long long)j->shards, (unsigned long long)j->parallelism);
        comment_str(&text, sb_str(&submit));
        sb_printf(&text,
                  "\n# then, when every task is done: drasim merge results/shard-*.db -o all.db\n"
                  "#SBATCH --job-name=%s\n"
                  "#SBATCH --array=0-%llu%%%llu\n"
                  "#SBATCH --cpus-per-task=1\n"
                  "#SBATCH --mem=2G\n"
                  "#SBATCH --output=%s-%%a.log\n"
                  "set -eu\n"
                  "cd \"${SLURM_SUBMIT_DIR:-.}\"\n"
                  "mkdir -p results\n"
                  "exec drasim sweep ",
                  nm, (unsigned long long)j->shards - 1, (unsigned long long)j->parallelism, nm);
        sh_quote(&text, j->scenario);
        sb_printf(&text, "%s --shard auto/%llu -o \"results/shard-$(printf %%05d \"$SLURM_ARRAY_TASK_ID\").db\" --force -q\n",
                  sb_str(&sargs), (unsigned long long)j->shards);
        stage(st, &nst, "slurm.sh", "#!/bin/sh\n" SWEEP_JOB_SIGNATURE, &text);
        sb_free(&submit);
    }
    rc = write_all(j, st, nst, err);
    sb_free(&mname);
    sb_free(&mscript);
done_names:
    sb_free(&cm_name);
    sb_free(&pvc_name);
done:
    for (size_t i = 0; i < nall; i++) free(all[i]);
    free(all);
    for (size_t i = 0; i < nst; i++) sb_free(&st[i].text);
    for (size_t i = 0; i < nin; i++) free(in[i].real), free(in[i].rel);
    free(in);
    for (size_t k = 0; k < nlinks; k++) free(links[k]);
    free(links);
    free(root);
    sb_free(&name);
    sb_free(&text);
    sb_free(&cmd);
    sb_free(&sargs);
    arena_free(&a);
    return rc;
}
