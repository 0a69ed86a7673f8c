/*
 * yaml_resolve.h -- the tag a YAML reader gives a PLAIN scalar, written from
 * the specifications (not from drasim's emitter, sim/model/yaml_scalar.c,
 * which it checks): YAML 1.1's type repository (yaml.org/type: bool, null,
 * int, float, merge, value, timestamp; libyaml, PyYAML and goyaml.v2 behind
 * kubectl follow it) and YAML 1.2.2's core schema (yaml.org/spec/1.2.2,
 * 10.3.2 Tag Resolution). A quoted scalar is always a string. Header-only,
 * for tests and fuzz targets.
 */
#ifndef DRASIM_TESTS_YAML_RESOLVE_H
#define DRASIM_TESTS_YAML_RESOLVE_H

#include <regex.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct yaml_rule {
    const char *tag, *re;
} yaml_rule;

/* https://yaml.org/type/{bool,null,int,float,merge,value,timestamp}.html */
static const yaml_rule yaml11_rules[] = {
    {"bool", "^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"},
    {"null", "^(~|null|Null|NULL|)$"},
    {"int", "^[-+]?0b[0-1_]+$"},
    {"int", "^[-+]?0[0-7_]+$"},
    {"int", "^[-+]?(0|[1-9][0-9_]*)$"},
    {"int", "^[-+]?0x[0-9a-fA-F_]+$"},
    {"int", "^[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+$"},
    {"float", "^[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?$"},
    {"float", "^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*$"},
    {"float", "^[-+]?\\.(inf|Inf|INF)$"},
    {"float", "^\\.(nan|NaN|NAN)$"},
    {"merge", "^<<$"},
    {"value", "^=$"},
    {"timestamp", "^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$"},
    {"timestamp", "^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]"
                  "(\\.[0-9]*)?(([ \t]*)Z|[-+][0-9][0-9]?(:[0-9][0-9])?)?$"},
    {NULL, NULL}};

/* YAML 1.2.2, 10.3.2 (core schema) */
static const yaml_rule yaml12_rules[] = {
    {"null", "^(null|Null|NULL|~|)$"},
    {"bool", "^(true|True|TRUE|false|False|FALSE)$"},
    {"int", "^[-+]?[0-9]+$"},
    {"int", "^0o[0-7]+$"},
    {"int", "^0x[0-9a-fA-F]+$"},
    {"float", "^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"},
    {"float", "^[-+]?\\.(inf|Inf|INF)$"},
    {"float", "^\\.(nan|NaN|NAN)$"},
    {NULL, NULL}};

/* The tag of plain scalar s under `rules`: "str" when no rule matches. */
static inline const char *yaml_resolve(const yaml_rule *rules, const char *s) {
    for (const yaml_rule *r = rules; r->tag; r++) {
        regex_t re;
        if (regcomp(&re, r->re, REG_EXTENDED | REG_NOSUB)) abort();
        int m = regexec(&re, s, 0, NULL, 0);
        regfree(&re);
        if (m == 0) return r->tag;
    }
    return "str";
}

/* NULL when plain s is a string under both versions, else "TAG (YAML 1.x)". */
static inline const char *yaml_plain_not_str(const char *s) {
    static char why[64];
    const char *t11 = yaml_resolve(yaml11_rules, s), *t12 = yaml_resolve(yaml12_rules, s);
    if (t11[0] == 's' && t12[0] == 's') return NULL;
    snprintf(why, sizeof why, "%s (YAML %s)", t11[0] != 's' ? t11 : t12, t11[0] != 's' ? "1.1" : "1.2");
    return why;
}

#endif
