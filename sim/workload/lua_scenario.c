/*
 * lua_scenario.c -- the `workload.lua` section of a scenario file:
 *   workload:
 *     lua: {script: gen.lua, args: {rate: 4}, instructionLimit: 100000000, memoryLimit: 256Mi}
 * The script path is relative to the scenario file's directory.
 */
#include <string.h>

#include "cel/quantity.h"
#include "model/scenario.h"

#define DEFAULT_INSTRUCTIONS 100000000LL
#define DEFAULT_MEMORY (256LL * 1024 * 1024)

/* `dir of file` + "/" + rel, or rel itself when absolute or the file has no directory. */
static const char *resolve(arena *a, const char *file, const char *rel) {
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (rel[0] == '/' || !slash) return arena_strndup(a, rel, strlen(rel));
    size_t dl = (size_t)(slash - file) + 1, rl = strlen(rel);
    char *p = arena_alloc(a, dl + rl + 1);
    memcpy(p, file, dl);
    memcpy(p + dl, rel, rl + 1);
    return p;
}

/* workload.lua.args become Lua tables: map keys must be scalars (a YAML
 * complex key such as `? [a, b]` has no Lua string form); depth bounded. */
static int check_args(const ynode *n, int depth, strbuf *err) {
    if (n->kind == YN_SCALAR) return 0;
    if (depth > 64) {
        yerr(err, n, "workload.lua.args: nested more than 64 levels deep");
        return -1;
    }
    for (size_t i = 0; i < n->n; i++) {
        if (n->kind == YN_MAP && n->keys[i]->kind != YN_SCALAR) {
            yerr(err, n->keys[i], "workload.lua.args: map keys must be scalars (strings or numbers)");
            return -1;
        }
        if (check_args(n->vals[i], depth + 1, err)) return -1;
    }
    return 0;
}

int scenario_parse_lua_source(const ynode *n, scenario *s, strbuf *err) {
    static const char *const keys[] = {"script", "args", "instructionLimit", "memoryLimit", "timeLimit", NULL};
    const ynode *v;
    if (ymap_check_keys(n, keys, "workload.lua", err)) return -1;
    lua_source_spec *l = ARENA_NEW(&s->a, lua_source_spec, 1);
    l->where = n;
    l->instruction_limit = DEFAULT_INSTRUCTIONS;
    l->memory_limit = DEFAULT_MEMORY;
    if (ymap_need(n, "script", "workload.lua", &v, err) || y_str(v, "workload.lua.script", &l->script, err)) return -1;
    if (!*l->script) {
        yerr(err, v, "workload.lua.script: expected a file name");
        return -1;
    }
    l->path = resolve(&s->a, n->file, l->script);
    if ((v = ymap_get(n, "args"))) {
        if (y_expect(v, YN_MAP, "workload.lua.args", err) || check_args(v, 0, err)) return -1;
        l->args = v;
    }
    if ((v = ymap_get(n, "instructionLimit"))) {
        if (y_int(v, "workload.lua.instructionLimit", &l->instruction_limit, err)) return -1;
        if (l->instruction_limit < 1000) {
            yerr(err, v, "workload.lua.instructionLimit: expected an integer of at least 1000");
            return -1;
        }
    }
    if ((v = ymap_get(n, "memoryLimit"))) {
        quantity q;
        const char *qerr = NULL;
        if (v->kind != YN_SCALAR || quantity_parse(v->str, v->len, &q, &qerr)) {
            yerr(err, v, "workload.lua.memoryLimit: expected a quantity such as 256Mi%s%s", qerr ? ": " : "",
                 qerr ? qerr : "");
            return -1;
        }
        l->memory_limit = quantity_value(&q);
        if (l->memory_limit < 1024 * 1024) {
            yerr(err, v, "workload.lua.memoryLimit: expected at least 1Mi");
            return -1;
        }
    }
    if ((v = ymap_get(n, "timeLimit"))) {
        if (v->kind != YN_SCALAR || parse_duration_text(v->str, &l->time_limit) || l->time_limit < 1000) {
            yerr(err, v, "workload.lua.timeLimit: expected a duration of at least 1s, such as 60s or 5m");
            return -1;
        }
    }
    s->lua = l;
    return 0;
}
