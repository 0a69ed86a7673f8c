/* cluster_state.c -- `cluster.state:` parsing and the dump's decoding (see cluster_state.h). */
#include "model/cluster_state.h"

#include <stdlib.h>
#include <string.h>

#include "model/kai.h"
#include "util/xalloc.h"

bool cluster_state_pod_running(const k8s_pod *p) {
    if (!p->node_name || !*p->node_name) return false;
    return !p->phase || !strcmp(p->phase, "Running") || !strcmp(p->phase, "Pending") || !strcmp(p->phase, "Unknown");
}

bool cluster_state_pod_pending(const k8s_pod *p) {
    return (!p->node_name || !*p->node_name) && (!p->phase || !strcmp(p->phase, "Pending"));
}

/* A file name or a non-empty list of them. */
static int parse_files(const ynode *n, scenario *s, cluster_state *st, strbuf *err) {
    size_t cnt = n->kind == YN_SEQ ? n->n : 1;
    if (n->kind == YN_MAP || cnt == 0) {
        yerr(err, n, "state.files: expected a file name or a list of file names");
        return -1;
    }
    st->files = ARENA_NEW(&s->a, const char *, cnt);
    for (size_t i = 0; i < cnt; i++) {
        const ynode *f = n->kind == YN_SEQ ? n->vals[i] : n;
        const char *path;
        if (y_str(f, "state file", &path, err)) return -1;
        if (!*path) {
            yerr(err, f, "state: expected a file name");
            return -1;
        }
        st->files[i] = y_resolve_path(f, path);
    }
    st->nfiles = cnt;
    return 0;
}

int cluster_state_parse(const ynode *n, scenario *s, strbuf *err) {
    cluster_state *st = xcalloc(1, sizeof *st);
    s->state = st;
    k8s_objects_init(&st->objs);
    st->where = n;
    if (n->kind != YN_MAP) {
        if (parse_files(n, s, st, err)) return -1;
    } else {
        static const char *const keys[] = {"files", "remaining", "duration", NULL};
        const ynode *v;
        if (ymap_check_keys(n, keys, "cluster.state", err)) return -1;
        if (ymap_need(n, "files", "cluster.state", &v, err) || parse_files(v, s, st, err)) return -1;
        if ((v = ymap_get(n, "remaining"))) {
            if (scenario_parse_duration_dist(v, &st->remaining, err)) return -1;
            st->has_remaining = true;
        }
        if ((v = ymap_get(n, "duration"))) {
            if (scenario_parse_duration_dist(v, &st->duration, err)) return -1;
            st->has_duration = true;
        }
    }
    st->objs.allow_combined_slices = s->cluster.publish.k8s_minor < 35;
    for (size_t i = 0; i < st->nfiles; i++)
        if (k8s_decode_file(&st->objs, st->files[i], err)) return -1;
    if (cluster_state_read_kai(st, err)) return -1;   /* a KAI snapshot's Queues and PodGroups */
    cluster_state_apply_groups(st);
    return 0;
}

void cluster_state_free(cluster_state *st) {
    if (!st) return;
    k8s_objects_free(&st->objs);
    if (st->kai) kai_objects_free(st->kai);
    free(st->kai);
    free(st);
}
