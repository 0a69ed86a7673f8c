/*
 * cmd_admit_kai.c -- `drasim admit` for a KAI-Scheduler snapshot (a YAML
 * stream of scheduling.run.ai/v2 Queues, v2alpha2 PodGroups, Pods, Nodes,
 * PriorityClasses, ResourceClaims/-Templates/-Slices): would KAI allocate this
 * PodGroup in the next cycle, whom would it reclaim or preempt, and
 * `--shares`: the fair share of every queue per resource. Semantics:
 * sim/queue/kai*.c (KAI v0.13.0, docs/QUEUES.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model/kai.h"
#include "queue/kai_snapshot.h"
#include "report/escape.h"
#include "util/intern.h"

/* In the Queue's own units: cpu millicores, memory MB, gpu devices. */
static double unit(int r, double v) { return r == KAI_MEM && v != KAI_UNLIMITED ? v / 1e6 : v; }

static void num(strbuf *b, double v) { sb_printf(b, "%.15g", v == 0 ? 0 : v); }

static void print_shares(const kai_state *s) {
    strbuf b = {0};
    sb_puts(&b, "{\"queues\": {");
    for (size_t i = 0; i < s->nq; i++) {
        const kai_q *q = &s->q[i];
        if (i) sb_puts(&b, ",\n ");
        json_quote(&b, q->name);
        sb_puts(&b, ": {");
        for (int r = 0; r < KAI_NRES; r++) {
            if (r) sb_puts(&b, ", ");
            sb_printf(&b, "\"%s\": {\"fairShare\": ", kai_res_name[r]);
            num(&b, unit(r, q->fair[r]));
            sb_puts(&b, ", \"deserved\": ");
            num(&b, unit(r, q->deserved[r]));
            sb_puts(&b, ", \"allocated\": ");
            num(&b, unit(r, q->allocated[r]));
            sb_puts(&b, ", \"requested\": ");
            num(&b, unit(r, q->request[r]));
            sb_puts(&b, "}");
        }
        sb_puts(&b, "}");
    }
    sb_puts(&b, "}}\n");
    fputs(sb_str(&b), stdout);
    sb_free(&b);
}

static int vic_cmp(const void *a, const void *b) {
    const kai_victim *x = a, *y = b;
    return strcmp(x->job->name, y->job->name);
}

static void print_result(const kai_state *s, const kai_job *j, bool admitted, const char *reason, const char *why) {
    kai_victim *v = s->nvictims ? malloc(s->nvictims * sizeof *v) : NULL;
    size_t nv = 0;
    for (size_t i = 0; i < s->nvictims; i++)
        if (s->victims[i].for_job == j) v[nv++] = s->victims[i];
    if (nv > 1) qsort(v, nv, sizeof *v, vic_cmp);
    bool borrowing = false;   /* over its deserved quota once it runs */
    if (j->queue >= 0)
        for (int r = 0; r < KAI_NRES; r++) {
            const kai_q *q = &s->q[j->queue];
            double use = q->allocated[r] + (admitted || j->pipelined ? 0 : j->req[r]);
            if (q->deserved[r] != KAI_UNLIMITED && use > q->deserved[r] + 1e-9 && (j->req[r] > 0 || j->alloc[r] > 0))
                borrowing = true;
        }
    strbuf b = {0};
    sb_printf(&b, "{\"admitted\": %s, \"flavors\": {}, \"borrowing\": %s, \"victims\": [", admitted ? "true" : "false",
              borrowing ? "true" : "false");
    for (size_t i = 0; i < nv; i++) {
        if (i) sb_puts(&b, ", ");
        json_quote(&b, v[i].job->name);
    }
    sb_puts(&b, "], \"victimReasons\": [");
    for (size_t i = 0; i < nv; i++) {
        if (i) sb_puts(&b, ", ");
        json_quote(&b, v[i].reason);
    }
    sb_puts(&b, "], \"reason\": ");
    json_quote(&b, reason);
    sb_puts(&b, ", \"why\": ");
    json_quote(&b, why);
    sb_puts(&b, "}\n");
    fputs(sb_str(&b), stdout);
    sb_free(&b);
    free(v);
}

int cmd_admit_kai(const char **snaps, size_t nsnaps, const char *wfile, bool shares) {
    kai_objects o;
    kai_objects_init(&o);
    strbuf err = {0};
    int rc = EXIT_OK;
    for (size_t i = 0; i < nsnaps; i++)
        if (kai_decode_file(&o, snaps[i], true, false, &err)) goto bad;
    size_t nsnap_groups = o.groups.len, nsnap_pods = o.pods.len;
    if (wfile && kai_decode_file(&o, wfile, false, false, &err)) goto bad;
    if (kai_objects_check(&o, &err)) goto bad;
    kai_snapshot sn;
    kai_snapshot_build(&sn, &o);
    if (shares) {
        kai_compute_shares(&sn.s);
        print_shares(&sn.s);
    } else {
        /* The job asked about: -f's PodGroup (or bare pod), else the last pending one. */
        kai_job *j = NULL;
        if (wfile) {
            if (o.groups.len > nsnap_groups) j = sn.jobs[o.groups.len - 1];
            else if (o.pods.len > nsnap_pods) j = sn.jobs[sn.njobs - 1];
        } else {
            for (size_t i = 0; i < sn.njobs; i++)
                if (sn.jobs[i]->npods && !sn.jobs[i]->running) j = sn.jobs[i];
        }
        if (!j || !j->npods) {
            if (!j) sb_printf(&err, "%s: no pending PodGroup (one whose pods are not bound) to ask about; use -f",
                              wfile ? wfile : snaps[0]);
            else sb_printf(&err, "PodGroup %s has no pending pods (pod-group-name annotation) to allocate", j->name);
            kai_snapshot_free(&sn);
            goto bad;
        }
        strbuf why = {0};
        bool admitted = false;
        const char *reason = "";
        if (j->queue < 0) {
            kai_why(&sn.s, j, &why);
            reason = sb_str(&why);
        } else if (!kai_is_leaf(&sn.s, j->queue)) {
            sb_printf(&why, "Queue '%s' is not a leaf queue", j->queue_name);
            reason = sb_str(&why);
        } else {
            double req[KAI_NRES];
            memcpy(req, j->req, sizeof req);
            kai_cycle(&sn.s);
            admitted = j->allocated_now;
            if (!admitted) {
                size_t nv = 0;
                for (size_t i = 0; i < sn.s.nvictims; i++) nv += sn.s.victims[i].for_job == j;
                static char msg[128];
                if (nv) {
                    bool rec = j->action == KAI_ACT_RECLAIM;
                    snprintf(msg, sizeof msg, "Pending the eviction of %zu job(s) (%s)", nv, rec ? "reclaim" : "preempt");
                    reason = msg;
                    sb_printf(&why, "queue %s: %s %zu job(s); pipelined until they are gone", sn.s.q[j->queue].name,
                              rec ? "reclaims from queues over their fair share" : "preempts lower-priority",
                              nv);
                } else {
                    kai_why(&sn.s, j, &why);
                    reason = sb_str(&why);
                }
            } else {
                memcpy(j->req, req, sizeof req);   /* for "borrowing" */
                for (int r = 0; r < KAI_NRES; r++) j->alloc[r] -= req[r];
            }
        }
        print_result(&sn.s, j, admitted, admitted ? "" : reason, sb_str(&why));
        rc = admitted ? EXIT_OK : EXIT_NEGATIVE;
        sb_free(&why);
    }
    kai_snapshot_free(&sn);
    kai_objects_free(&o);
    sb_free(&err);
    intern_reset();
    return rc;
bad:
    fprintf(stderr, "drasim admit: %s\n", sb_str(&err));
    kai_objects_free(&o);
    sb_free(&err);
    intern_reset();
    return EXIT_BAD_INPUT;
}
