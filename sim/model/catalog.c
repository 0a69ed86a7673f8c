/*
 * catalog.c -- load and validate the GPU catalog (data/gpu-catalog.yaml):
 * models, their MIG profile tables and mig-parted layouts. Every problem in
 * the file is reported as "FILE:LINE:COL: message"; unknown keys are errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cluster.h"
#include "util/intern.h"

/* Read an integer field that must lie in [lo, hi]. */
static int get_int(const ynode *map, const char *key, const char *what, int64_t lo, int64_t hi,
                   int64_t *out, strbuf *err) {
    const ynode *v;
    if (ymap_need(map, key, what, &v, err)) return -1;
    if (y_int(v, key, out, err)) return -1;
    if (*out < lo || *out > hi) {
        yerr(err, v, "%s: %s must be between %lld and %lld, found %lld", what, key, (long long)lo,
             (long long)hi, (long long)*out);
        return -1;
    }
    return 0;
}

static int get_str(const ynode *map, const char *key, const char *what, const char **out, strbuf *err) {
    const ynode *v;
    if (ymap_need(map, key, what, &v, err)) return -1;
    if (y_str(v, key, out, err)) return -1;
    if (!**out) {
        yerr(err, v, "%s: %s must not be empty", what, key);
        return -1;
    }
    return 0;
}

/* "8.0" -> 8, 0 */
static int parse_cc(const ynode *v, gpu_model *m, strbuf *err) {
    const char *s;
    if (y_str(v, "computeCapability", &s, err)) return -1;
    int maj, min, used = 0;
    if (sscanf(s, "%d.%d%n", &maj, &min, &used) != 2 || s[used] || maj < 1 || min < 0) {
        yerr(err, v, "computeCapability: expected MAJOR.MINOR such as \"9.0\", found '%s'", s);
        return -1;
    }
    m->cc_major = maj;
    m->cc_minor = min;
    return 0;
}

static int parse_profile(arena *a, const ynode *n, const gpu_model *m, mig_profile *p, strbuf *err) {
    static const char *const keys[] = {"name", "id", "memorySlices", "computeSlices", "multiprocessors",
                                       "memoryMiB", "copyEngines", "decoders", "encoders", "jpegEngines",
                                       "ofaEngines", "maxInstances", "starts", NULL};
    if (ymap_check_keys(n, keys, "a MIG profile", err)) return -1;
    int64_t v;
    if (get_str(n, "name", "a MIG profile", &p->name, err)) return -1;
    const char *what = p->name;
    if (get_int(n, "id", what, 0, 63, &v, err)) return -1;
    p->id = (int)v;
    if (get_int(n, "memorySlices", what, 1, m->mem_slices_total, &v, err)) return -1;
    p->mem_slices = p->size = (int)v;
    if (get_int(n, "computeSlices", what, 1, m->compute_slices_total, &v, err)) return -1;
    p->compute_slices = (int)v;
    if (get_int(n, "multiprocessors", what, 1, m->multiprocessors, &v, err)) return -1;
    p->multiprocessors = (int)v;
    if (get_int(n, "memoryMiB", what, 1, m->memory_mib, &v, err)) return -1;
    p->memory_mib = v;
    if (get_int(n, "copyEngines", what, 0, 64, &v, err)) return -1;
    p->copy_engines = (int)v;
    if (get_int(n, "decoders", what, 0, 64, &v, err)) return -1;
    p->decoders = (int)v;
    if (get_int(n, "encoders", what, 0, 64, &v, err)) return -1;
    p->encoders = (int)v;
    if (get_int(n, "jpegEngines", what, 0, 64, &v, err)) return -1;
    p->jpeg = (int)v;
    if (get_int(n, "ofaEngines", what, 0, 64, &v, err)) return -1;
    p->ofa = (int)v;
    if (get_int(n, "maxInstances", what, 1, m->mem_slices_total, &v, err)) return -1;
    p->max_instances = (int)v;
    const ynode *st;
    if (ymap_need(n, "starts", what, &st, err) || y_expect(st, YN_SEQ, "starts", err)) return -1;
    if (st->n == 0) {
        yerr(err, st, "%s: starts must list at least one placement", what);
        return -1;
    }
    p->starts = ARENA_NEW(a, int, st->n);
    for (size_t i = 0; i < st->n; i++) {
        if (y_int(st->vals[i], "starts[]", &v, err)) return -1;
        if (v < 0 || v + p->size > m->mem_slices_total || (i > 0 && v <= p->starts[i - 1])) {
            yerr(err, st->vals[i], "%s: placement start %lld must be ascending and leave room for %d memory slices of %d",
                 what, (long long)v, p->size, m->mem_slices_total);
            return -1;
        }
        p->starts[i] = (int)v;
    }
    p->nstarts = (int)st->n;
    return 0;
}

/* A layout is a map profile -> instance count, expanded in order. */
static int parse_layout(arena *a, const ynode *key, const ynode *n, const gpu_model *m, mig_layout *l,
                        strbuf *err) {
    if (y_str(key, "layout name", &l->name, err)) return -1;
    if (y_expect(n, YN_MAP, l->name, err)) return -1;
    int total = 0;
    for (size_t i = 0; i < n->n; i++) {
        const char *pname;
        int64_t cnt;
        if (y_str(n->keys[i], "profile", &pname, err)) return -1;
        const mig_profile *p = gpu_model_profile(m, pname);
        if (!p) {
            yerr(err, n->keys[i], "layout %s: model %s has no MIG profile '%s'", l->name, m->key, pname);
            return -1;
        }
        if (y_int(n->vals[i], pname, &cnt, err)) return -1;
        if (cnt < 1 || cnt > p->max_instances) {
            yerr(err, n->vals[i], "layout %s: %s count must be between 1 and %d, found %lld", l->name, pname,
                 p->max_instances, (long long)cnt);
            return -1;
        }
        total += (int)cnt;
    }
    l->profiles = ARENA_NEW(a, const char *, total ? total : 1);
    for (size_t i = 0; i < n->n; i++) {
        int64_t cnt;
        y_int(n->vals[i], "", &cnt, err);
        for (int64_t k = 0; k < cnt; k++) l->profiles[l->nprofiles++] = intern_n(n->keys[i]->str, n->keys[i]->len);
    }
    /* the layout must be placeable on the model, or the data file is wrong */
    mig_placement *pl = malloc(sizeof *pl * (size_t)(total ? total : 1));
    int rc = mig_layout_place(m, l, pl, err);
    free(pl);
    if (rc) {
        strbuf msg = {0};
        sb_puts(&msg, sb_str(err));
        yerr(err, key, "%s", sb_str(&msg));
        sb_free(&msg);
    }
    return rc;
}

static int parse_model(arena *a, const ynode *n, gpu_model *m, strbuf *err) {
    static const char *const keys[] = {"key", "aliases", "productName", "gfdProduct", "pciDeviceId", "architecture",
                                       "brand", "computeCapability", "memoryMiB", "multiprocessors",
                                       "memorySlices", "computeSlices", "migProfiles", "migLayouts",
                                       "nvlinkDomainGpus", "nodeGpus", "maxPowerW", NULL};
    if (ymap_check_keys(n, keys, "a GPU model", err)) return -1;
    int64_t v;
    const ynode *x;
    if (get_str(n, "key", "a GPU model", &m->key, err)) return -1;
    const char *w = m->key;
    if ((x = ymap_get(n, "aliases")) && !y_is_null(x)) {   /* other names of the model, e.g. H100-NVL */
        if (y_expect(x, YN_SEQ, "aliases", err)) return -1;
        m->aliases = ARENA_NEW(a, const char *, x->n ? x->n : 1);
        for (size_t i = 0; i < x->n; i++)
            if (y_str(x->vals[i], "aliases", &m->aliases[m->naliases++], err)) return -1;
    }
    if (get_str(n, "productName", w, &m->product_name, err) || get_str(n, "gfdProduct", w, &m->gfd_product, err) ||
        get_str(n, "pciDeviceId", w, &m->pci_device_id, err) ||
        get_str(n, "architecture", w, &m->architecture, err) || get_str(n, "brand", w, &m->brand, err))
        return -1;
    if (ymap_need(n, "computeCapability", w, &x, err) || parse_cc(x, m, err)) return -1;
    if (get_int(n, "memoryMiB", w, 1, INT64_C(1) << 40, &v, err)) return -1;
    m->memory_mib = v;
    if (get_int(n, "multiprocessors", w, 1, 100000, &v, err)) return -1;
    m->multiprocessors = (int)v;
    if (get_int(n, "memorySlices", w, 1, 32, &v, err)) return -1;
    m->mem_slices_total = (int)v;
    if (get_int(n, "computeSlices", w, 1, 32, &v, err)) return -1;
    m->compute_slices_total = (int)v;
    /* the system around the GPU (optional): NVLink domain size, GPUs per node */
    if (ymap_get(n, "nvlinkDomainGpus")) {
        if (get_int(n, "nvlinkDomainGpus", w, 1, 100000, &v, err)) return -1;
        m->nvlink_domain_gpus = (int)v;
    }
    if (ymap_get(n, "nodeGpus")) {
        if (get_int(n, "nodeGpus", w, 1, 64, &v, err)) return -1;
        m->node_gpus = (int)v;
    }

    if (ymap_get(n, "maxPowerW")) {   /* board power (TDP), watts: docs/COST.md */
        if (get_int(n, "maxPowerW", w, 1, 100000, &v, err)) return -1;
        m->max_power_w = (double)v;
    }

    const ynode *profs = ymap_get(n, "migProfiles");
    if (profs && !y_is_null(profs)) {
        if (y_expect(profs, YN_SEQ, "migProfiles", err)) return -1;
        m->profiles = ARENA_NEW(a, mig_profile, profs->n ? profs->n : 1);
        for (size_t i = 0; i < profs->n; i++) {
            mig_profile *p = &m->profiles[m->nprofiles];
            if (parse_profile(a, profs->vals[i], m, p, err)) return -1;
            if (gpu_model_profile(m, p->name)) {
                yerr(err, profs->vals[i], "%s: duplicate MIG profile '%s'", w, p->name);
                return -1;
            }
            m->nprofiles++;
        }
    }
    const ynode *lays = ymap_get(n, "migLayouts");
    if (lays && !y_is_null(lays)) {
        if (y_expect(lays, YN_MAP, "migLayouts", err)) return -1;
        m->layouts = ARENA_NEW(a, mig_layout, lays->n ? lays->n : 1);
        for (size_t i = 0; i < lays->n; i++) {
            if (parse_layout(a, lays->keys[i], lays->vals[i], m, &m->layouts[i], err)) return -1;
            m->nlayouts++;
        }
    }
    return 0;
}

static int parse_catalog(const ynode *root, gpu_catalog *c, strbuf *err) {
    static const char *const keys[] = {"apiVersion", "kind", "driverVersion", "cudaDriverVersion", "models", NULL};
    if (ymap_check_keys(root, keys, "the GPU catalog", err)) return -1;
    const ynode *v;
    if (ymap_need(root, "apiVersion", "the GPU catalog", &v, err)) return -1;
    if (!y_scalar_eq(v, "drasim/v1")) {
        yerr(err, v, "apiVersion: expected drasim/v1");
        return -1;
    }
    if (ymap_need(root, "kind", "the GPU catalog", &v, err)) return -1;
    if (!y_scalar_eq(v, "GpuCatalog")) {
        yerr(err, v, "kind: expected GpuCatalog");
        return -1;
    }
    if (get_str(root, "driverVersion", "the GPU catalog", &c->driver_version, err) ||
        get_str(root, "cudaDriverVersion", "the GPU catalog", &c->cuda_driver_version, err))
        return -1;
    const ynode *models;
    if (ymap_need(root, "models", "the GPU catalog", &models, err) || y_expect(models, YN_SEQ, "models", err))
        return -1;
    c->models = ARENA_NEW(&c->a, gpu_model, models->n ? models->n : 1);
    for (size_t i = 0; i < models->n; i++) {
        gpu_model *m = &c->models[c->nmodels];
        if (parse_model(&c->a, models->vals[i], m, err)) return -1;
        for (int k = -1; k < m->naliases; k++) {
            const char *name = k < 0 ? m->key : m->aliases[k];
            if (catalog_find(c, name)) {
                yerr(err, models->vals[i], "duplicate GPU model '%s'", name);
                return -1;
            }
        }
        c->nmodels++;
    }
    return 0;
}

/* Where the data file lives: $DRASIM_DATADIR, the install dir, the source tree. */
static const char *default_path(char *buf, size_t n) {
    const char *dirs[3] = {getenv("DRASIM_DATADIR"), DRASIM_INSTALL_DATADIR, DRASIM_SOURCE_DATADIR};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        struct stat st;
        snprintf(buf, n, "%s/data/gpu-catalog.yaml", dirs[i]);
        if (stat(buf, &st) == 0) return buf;
    }
    return NULL;
}

int catalog_load(const char *path, gpu_catalog *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    char buf[4096];
    if (!path) path = default_path(buf, sizeof buf);
    if (!path) {
        sb_clear(err);
        sb_printf(err, "cannot find data/gpu-catalog.yaml (set DRASIM_DATADIR to the directory holding data/)");
        return -1;
    }
    yfile f;
    if (yfile_load(path, &f, err)) return -1;
    int rc;
    if (f.ndocs != 1) {
        sb_clear(err);
        sb_printf(err, "%s: expected exactly one YAML document, found %zu", path, f.ndocs);
        rc = -1;
    } else {
        rc = parse_catalog(f.docs[0], out, err);
    }
    /* strings are interned; everything else was copied into out->a */
    yfile_free(&f);
    if (rc) catalog_free(out);
    return rc;
}

void catalog_free(gpu_catalog *c) {
    arena_free(&c->a);
    c->models = NULL;
    c->nmodels = 0;
}

const gpu_model *catalog_find(const gpu_catalog *c, const char *key) {
    for (int i = 0; i < c->nmodels; i++) {
        if (!strcmp(c->models[i].key, key)) return &c->models[i];
        for (int k = 0; k < c->models[i].naliases; k++)
            if (!strcmp(c->models[i].aliases[k], key)) return &c->models[i];
    }
    return NULL;
}

const mig_profile *gpu_model_profile(const gpu_model *m, const char *name) {
    for (int i = 0; i < m->nprofiles; i++)
        if (!strcmp(m->profiles[i].name, name)) return &m->profiles[i];
    return NULL;
}

const mig_layout *gpu_model_layout(const gpu_model *m, const char *name) {
    for (int i = 0; i < m->nlayouts; i++)
        if (!strcmp(m->layouts[i].name, name)) return &m->layouts[i];
    return NULL;
}
