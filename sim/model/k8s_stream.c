/*
 * k8s_stream.c -- the documents, List wrappers and object headers of a YAML
 * stream of Kubernetes objects (model/k8s_stream.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_stream.h"
#include "util/xalloc.h"

int k8s_walk_object(const ynode *root, int depth, k8s_object_fn fn, void *ctx, strbuf *err) {
    if (y_expect(root, YN_MAP, "Kubernetes object", err)) return -1;
    k8s_header h = {.kind_node = ymap_get(root, "kind"), .api_node = ymap_get(root, "apiVersion"), .depth = depth};
    if (!h.kind_node) { yerr(err, root, "object without 'kind'"); return -1; }
    if (y_str(h.kind_node, "kind", &h.kind, err)) return -1;
    if (h.api_node && y_str(h.api_node, "apiVersion", &h.api, err)) return -1;
    size_t kl = strlen(h.kind);
    const ynode *items = ymap_get(root, "items");
    if (kl >= 4 && strcmp(h.kind + kl - 4, "List") == 0 && items) {
        if (depth > 0) { yerr(err, h.kind_node, "nested %s inside a List is not supported", h.kind); return -1; }
        if (y_is_null(items)) return 0;
        if (y_expect(items, YN_SEQ, "List items", err)) return -1;
        for (size_t i = 0; i < items->n; i++)
            if (k8s_walk_object(items->vals[i], depth + 1, fn, ctx, err)) return -1;
        return 0;
    }
    return fn(ctx, root, &h, err);
}

int k8s_walk_load(yfile_list *files, const char *path, const char *name, const char *data, size_t len,
                  k8s_doc_fn doc, void *ctx, strbuf *err) {
    yfile *f = xcalloc(1, sizeof *f);
    if (path ? yfile_load(path, f, err) : yfile_load_mem(name, data, len, f, err)) {
        free(f);
        return -1;
    }
    return k8s_walk_yfile(files, f, doc, ctx, err);
}

int k8s_walk_yfile(yfile_list *files, yfile *f, k8s_doc_fn doc, void *ctx, strbuf *err) {
    VEC_PUSH(*files, f);
    for (size_t i = 0; i < f->ndocs; i++) {
        if (y_is_null(f->docs[i])) continue;
        if (doc(ctx, f->docs[i], err)) return -1;
    }
    return 0;
}

void yfile_list_free(yfile_list *files) {
    for (size_t i = 0; i < files->len; i++) {
        yfile_free(files->data[i]);
        free(files->data[i]);
    }
    VEC_FREE(*files);
}
