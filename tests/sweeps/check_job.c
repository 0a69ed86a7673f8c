/* check_job.c -- `check_job DIR N P IMAGE OUT`: a structural check of the
 * manifests `drasim sweep --emit-job DIR` wrote (not a validation against the
 * Kubernetes API's OpenAPI schema): each file parses with drasim's YAML
 * reader and has the fields an Indexed Job of N shards, P at a time, needs,
 * with the right values and consistent names. Then it lays the ConfigMap's
 * files out as the pod would see them (OUT/in/<path>) and writes the pod's
 * script to OUT/pod.sh, so that a test can run a shard the way the pod does.
 * Exit 0 and "job ok", or 1 and the first problem. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/yaml_tree.h"

static const char *dir;
static int fails;

static void bad(const char *file, const char *what) {
    fprintf(stderr, "%s/%s: %s\n", dir, file, what);
    fails++;
}

static const ynode *at(const ynode *n, const char *path) {   /* "spec.template.spec" */
    char key[128];
    while (n && *path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, path);
        n = n->kind == YN_MAP ? ymap_get(n, key) : NULL;
        path += k + (path[k] == '.');
    }
    return n;
}

static const char *str_at(const ynode *n, const char *path) {
    const ynode *v = at(n, path);
    return v && v->kind == YN_SCALAR ? v->str : NULL;
}

static void want(const char *file, const ynode *root, const char *path, const char *value) {
    const char *v = str_at(root, path);
    if (!v || (value && strcmp(v, value))) {
        char m[512];
        snprintf(m, sizeof m, "%s is %s, expected %s", path, v ? v : "missing", value ? value : "a value");
        bad(file, m);
    }
}

static const ynode *load(const char *file, yfile *f) {
    char path[4096];
    strbuf err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (yfile_load(path, f, &err) || f->ndocs != 1 || f->docs[0]->kind != YN_MAP) {
        bad(file, err.len ? sb_str(&err) : "not one YAML map");
        sb_free(&err);
        return NULL;
    }
    sb_free(&err);
    return f->docs[0];
}

static bool rfc1123(const char *s) {
    size_t n = s ? strlen(s) : 0;
    if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-') return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-')) return false;
    return true;
}

static int unb64(int c) {
    const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(t, c) : NULL;
    return p ? (int)(p - t) : -1;
}

static void write_file(const char *out, const char *rel, const char *data, size_t n, bool b64) {
    char path[4096];
    snprintf(path, sizeof path, "%s/in/%s", out, rel);
    for (char *s = path + strlen(out) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        bad("configmap.yaml", "cannot write an item");
        return;
    }
    if (!b64) fwrite(data, 1, n, f);
    else
        for (size_t i = 0; i + 4 <= n; i += 4) {
            int v[4];
            for (int k = 0; k < 4; k++) v[k] = data[i + k] == '=' ? 0 : unb64((unsigned char)data[i + k]);
            if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
                bad("configmap.yaml", "binaryData is not base64");
                break;
            }
            unsigned u = (unsigned)(v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]);
            fputc((int)(u >> 16), f);
            if (data[i + 2] != '=') fputc((int)(u >> 8 & 255), f);
            if (data[i + 3] != '=') fputc((int)(u & 255), f);
        }
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: check_job DIR N P IMAGE OUT\n");
        return 2;
    }
    dir = argv[1];
    const char *n = argv[2], *p = argv[3], *image = argv[4], *out = argv[5];
    char in[4096];
    snprintf(in, sizeof in, "%s/in", out);
    mkdir(out, 0755);
    mkdir(in, 0755);
    yfile jf = {0}, cf = {0}, pf = {0}, mf = {0};
    const ynode *job = load("job.yaml", &jf), *cm = load("configmap.yaml", &cf), *pvc = load("results-pvc.yaml", &pf),
                *merge = load("merge-job.yaml", &mf);
    if (!job || !cm || !pvc || !merge) return 1;
    want("job.yaml", job, "apiVersion", "batch/v1");
    want("job.yaml", job, "kind", "Job");
    if (!rfc1123(str_at(job, "metadata.name"))) bad("job.yaml", "metadata.name is not a DNS label");
    want("job.yaml", job, "spec.completionMode", "Indexed");
    want("job.yaml", job, "spec.completions", n);
    want("job.yaml", job, "spec.parallelism", p);
    if (atol(p) > 100000) bad("job.yaml", "parallelism above 10^5 (Indexed Jobs)");
    want("job.yaml", job, "spec.backoffLimitPerIndex", "1");
    want("job.yaml", job, "spec.template.spec.restartPolicy", "Never");
    const ynode *ctrs = at(job, "spec.template.spec.containers");
    const ynode *c = ctrs && ctrs->kind == YN_SEQ && ctrs->n == 1 ? ctrs->vals[0] : NULL;
    if (!c) {
        bad("job.yaml", "spec.template.spec.containers: expected one container");
        return 1;
    }
    want("job.yaml", c, "name", NULL);
    want("job.yaml", c, "image", image);
    want("job.yaml", c, "resources.requests.cpu", NULL);
    want("job.yaml", c, "resources.requests.memory", NULL);
    const ynode *cmd = at(c, "command");
    const char *script = cmd && cmd->kind == YN_SEQ && cmd->n == 3 && y_scalar_eq(cmd->vals[0], "sh") &&
                                 y_scalar_eq(cmd->vals[1], "-c")
                             ? cmd->vals[2]->str
                             : NULL;
    char shard[64];
    snprintf(shard, sizeof shard, "--shard auto/%s ", n);
    if (!script || !strstr(script, "drasim sweep ") || !strstr(script, shard) || !strstr(script, "$JOB_COMPLETION_INDEX"))
        bad("job.yaml", "command is not sh -c '... drasim sweep ... --shard auto/N ...'");
    /* volumes: the ConfigMap and the claim of the other files; every mount names one */
    const ynode *vols = at(job, "spec.template.spec.volumes"), *mounts = at(c, "volumeMounts");
    bool have_cm = false, have_pvc = false;
    for (size_t i = 0; vols && vols->kind == YN_SEQ && i < vols->n; i++) {
        const char *cmn = str_at(vols->vals[i], "configMap.name"), *claim = str_at(vols->vals[i], "persistentVolumeClaim.claimName");
        if (cmn && !strcmp(cmn, str_at(cm, "metadata.name") ? str_at(cm, "metadata.name") : "")) have_cm = true;
        if (claim && !strcmp(claim, str_at(pvc, "metadata.name") ? str_at(pvc, "metadata.name") : "")) have_pvc = true;
    }
    if (!have_cm) bad("job.yaml", "no volume of configmap.yaml's ConfigMap");
    if (!have_pvc) bad("job.yaml", "no volume of results-pvc.yaml's claim");
    for (size_t i = 0; mounts && mounts->kind == YN_SEQ && i < mounts->n; i++) {
        const char *mn = str_at(mounts->vals[i], "name");
        bool found = false;
        for (size_t k = 0; vols && k < vols->n; k++) found |= mn && str_at(vols->vals[k], "name") && !strcmp(mn, str_at(vols->vals[k], "name"));
        if (!found || !str_at(mounts->vals[i], "mountPath")) bad("job.yaml", "a volumeMount names no volume");
    }
    if (!mounts || mounts->kind != YN_SEQ || mounts->n != 2) bad("job.yaml", "expected two volumeMounts");
    /* the ConfigMap: every item's key is in data or binaryData, paths relative */
    want("configmap.yaml", cm, "apiVersion", "v1");
    want("configmap.yaml", cm, "kind", "ConfigMap");
    size_t nitems = 0;
    for (size_t i = 0; vols && i < vols->n; i++) {
        const ynode *items = at(vols->vals[i], "configMap.items");
        for (size_t k = 0; items && items->kind == YN_SEQ && k < items->n; k++, nitems++) {
            const char *key = str_at(items->vals[k], "key"), *path = str_at(items->vals[k], "path");
            const ynode *d = key ? at(cm, "data") : NULL, *b = key ? at(cm, "binaryData") : NULL;
            const ynode *v = d ? ymap_get(d, key) : NULL, *bv = b ? ymap_get(b, key) : NULL;
            if (!path || path[0] == '/' || strstr(path, "..") || (!v && !bv)) {
                bad("configmap.yaml", "an item's key is missing or its path is not relative");
                continue;
            }
            if (v) write_file(out, path, v->str, v->len, false);
            else write_file(out, path, bv->str, bv->len, true);
        }
    }
    if (!nitems) bad("job.yaml", "the ConfigMap volume lists no items (the scenario)");
    want("results-pvc.yaml", pvc, "kind", "PersistentVolumeClaim");
    want("results-pvc.yaml", pvc, "spec.resources.requests.storage", NULL);
    want("merge-job.yaml", merge, "kind", "Job");
    want("merge-job.yaml", merge, "spec.template.spec.restartPolicy", "Never");
    char path[4096];
    snprintf(path, sizeof path, "%s/pod.sh", out);
    FILE *f = fopen(path, "w");
    if (f && script) fputs(script, f);
    if (f) fclose(f);
    yfile_free(&jf);
    yfile_free(&cf);
    yfile_free(&pf);
    yfile_free(&mf);
    if (fails) return 1;
    printf("job ok: %zu file%s in the ConfigMap, %s shards, %s at a time\n", nitems, nitems == 1 ? "" : "s", n, p);
    return 0;
}
