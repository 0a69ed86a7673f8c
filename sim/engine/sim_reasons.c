/* sim_reasons.c -- pods pending at the end per group and reason (see sim_reasons.h). */
#include "engine/sim_reasons.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct keyed {
    sim_reason_row row;
    size_t gi;   /* group index, for the order */
} keyed;

static int cmp_row(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->gi != y->gi) return x->gi < y->gi ? -1 : 1;
    if (x->row.pods != y->row.pods) return x->row.pods > y->row.pods ? -1 : 1;
    if (!x->row.reason || !y->row.reason) return (x->row.reason == NULL) - (y->row.reason == NULL);
    return strcmp(x->row.reason, y->row.reason);
}

sim_reason_row *sim_pending_reasons(const sim_run *run, size_t *n) {
    *n = 0;
    size_t nc = run->sched.nclasses;
    if (!nc) return NULL;
    int64_t *per_class = xcalloc(nc, sizeof *per_class);
    for (size_t i = 0; i < run->pods.len; i++) {
        const sim_pod *p = &run->pods.data[i];
        if (p->state == POD_PENDING && p->group < nc) per_class[p->group]++;
    }
    keyed *k = xcalloc(nc, sizeof *k);
    size_t nk = 0;
    for (size_t c = 0; c < nc; c++) {
        if (!per_class[c]) continue;
        const char *name = run->sched.classes[c].name;
        const char *reason = run->class_reason ? run->class_reason[c] : NULL;
        size_t gi = 0;
        while (gi < run->groups.len && strcmp(run->groups.data[gi].name, name)) gi++;
        size_t j = 0;
        while (j < nk && !(k[j].gi == gi && !strcmp(k[j].row.grp, name) &&
                           (k[j].row.reason == reason || (k[j].row.reason && reason && !strcmp(k[j].row.reason, reason)))))
            j++;
        if (j == nk) k[nk++] = (keyed){{name, reason, 0}, gi};
        k[j].row.pods += per_class[c];
    }
    free(per_class);
    qsort(k, nk, sizeof *k, cmp_row);
    sim_reason_row *out = nk ? xcalloc(nk, sizeof *out) : NULL;
    for (size_t j = 0; j < nk; j++) out[j] = k[j].row;
    free(k);
    *n = nk;
    return out;
}
