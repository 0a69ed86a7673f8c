/*
 * k8s_stream.h -- walk a YAML stream of Kubernetes objects, the part every
 * object decoder shares (core/DRA in k8s_decode.c, Kueue in kueue_decode.c,
 * KAI in kai_decode.c): the documents of a file, `kind: List` (or `XxxList`)
 * wrappers with `items` as kubectl prints them, and each object's `kind` and
 * `apiVersion`. What an object means stays with its decoder.
 */
#ifndef DRASIM_MODEL_K8S_STREAM_H
#define DRASIM_MODEL_K8S_STREAM_H

#include <stddef.h>

#include "model/yaml_tree.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* The loaded files a decoder keeps (decoded objects point into them). */
typedef VEC(yfile *) yfile_list;

/* One object's header, read and type-checked by the walker. */
typedef struct k8s_header {
    const ynode *kind_node, *api_node;  /* api_node NULL when absent */
    const char *kind, *api;             /* api NULL when absent */
    int depth;                          /* 0: a document; 1: an item of a List */
} k8s_header;

typedef int (*k8s_object_fn)(void *ctx, const ynode *obj, const k8s_header *h, strbuf *err);
typedef int (*k8s_doc_fn)(void *ctx, const ynode *doc, strbuf *err);

/* Check that ROOT is a map with a string `kind` (and a string `apiVersion` if
 * present), then hand it to FN; a List with `items` hands each item instead
 * (nested Lists are refused, as are objects without `kind`). 0 or -1 with err. */
int k8s_walk_object(const ynode *root, int depth, k8s_object_fn fn, void *ctx, strbuf *err);

/* Load PATH (or, with PATH NULL, the text DATA/LEN called NAME), keep the file
 * in FILES and hand every non-empty document to DOC. 0 or -1 with err; on
 * error what was decoded before stays valid and the file is still kept. */
int k8s_walk_load(yfile_list *files, const char *path, const char *name, const char *data, size_t len,
                  k8s_doc_fn doc, void *ctx, strbuf *err);

/* The same for a file loaded already (heap-allocated, yfile_load): FILES
 * takes it over, whatever the result. */
int k8s_walk_yfile(yfile_list *files, yfile *f, k8s_doc_fn doc, void *ctx, strbuf *err);

/* Free the files and the list. */
void yfile_list_free(yfile_list *files);

#endif
