/*
 * yaml_scalar.h -- the one rule by which drasim writes a string as a YAML
 * scalar (manifests, inventories, `sweep --emit-job`, header comments).
 *
 * A string is written plain only when every YAML reader drasim's output may
 * meet reads it back as the same string: YAML 1.1 (libyaml, PyYAML,
 * sigs.k8s.io/yaml / goyaml.v2 behind kubectl: `yes`, `0b101`, `1_000`,
 * `1:20`, `2001-12-14` are not strings there) and the YAML 1.2 core schema
 * (`0o17`, `1e3`, `.NaN`). Otherwise it is double-quoted, and every character
 * that is not printable in YAML or is a line break in either version (C0 and
 * C1 controls, DEL, NEL, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF) is written as
 * an escape, so a scalar never spans lines and never ends a comment.
 */
#ifndef DRASIM_MODEL_YAML_SCALAR_H
#define DRASIM_MODEL_YAML_SCALAR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* Valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF) without NUL:
 * the strings a YAML scalar can carry exactly. */
bool yaml_utf8_ok(const char *s, size_t n);
/* True when s, written plain, reads back as the same string under YAML 1.1
 * and 1.2 (only printable ASCII qualifies). */
bool yaml_plain_ok(const char *s, size_t n);
/* Text a ConfigMap's `data` may hold as is: valid UTF-8 of YAML-printable
 * characters (tab, LF, CR allowed), none of NEL, U+2028, U+2029, U+FEFF, C1
 * controls, DEL; anything else belongs in `binaryData`. */
bool yaml_safe_text(const char *s, size_t n);
/* s as one scalar: plain when yaml_plain_ok, else double-quoted with escapes.
 * Bytes that are not UTF-8 (callers refuse them first: yaml_utf8_ok) are
 * written as \xNN, which a reader takes as U+00NN. */
void yaml_scalar(strbuf *out, const char *s, size_t n);

#endif
