/*
 * yaml_fast.h -- a fast reader for the common subset of YAML (block and flow
 * collections, plain and quoted one-line scalars, comments, `---`), which
 * builds exactly the tree libyaml's path in yaml_tree.c builds: same kinds,
 * values, styles, marks and documents. Anything outside the subset, and
 * every error, makes it give up; yfile_load_mem then parses the whole input
 * again with libyaml, so messages and unusual input behave as before.
 */
#ifndef DRASIM_MODEL_YAML_FAST_H
#define DRASIM_MODEL_YAML_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/yaml_tree.h"

/* 0: loaded into *out; 1: gave up (*out is empty; *why, when given, names
 * the first construct outside the subset). */
int yfast_load(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, const char **why);

/* yfast_load for input with data[len] == 0, read in place. */
int yfast_load_z(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, const char **why);

/* The libyaml path alone (yfile_load_mem without the fast reader). */
int yfile_load_mem_libyaml(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out,
                           strbuf *err);

/* Are the two loaded streams identical (documents, kinds, values, styles,
 * tags, file names, marks)? If not, the first difference is put in why. */
bool yfile_same(const yfile *a, const yfile *b, strbuf *why);

#endif
