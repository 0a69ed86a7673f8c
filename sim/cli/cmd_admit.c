/*
 * cmd_admit.c -- `drasim admit SNAPSHOT [-f WORKLOAD]`: would Kueue admit this
 * Workload now, and why not? And `drasim admit --shares SNAPSHOT`: the
 * Dominant Resource Share of every ClusterQueue and Cohort. The snapshot is a
 * YAML stream of Kueue objects (kueue.x-k8s.io v1beta2 or v1beta1) plus
 * Workloads already admitted (status.admission); other kinds (Nodes, ...) are
 * skipped. Semantics: sim/queue/ (Kueue v0.19 line, docs/QUEUES.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model/kai.h"
#include "model/kueue.h"
#include "queue/kq_ahead.h"
#include "queue/kq_objects.h"
#include "queue/kq_tas_admit.h"
#include "report/escape.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: drasim admit SNAPSHOT... [-f WORKLOAD]\n"
            "       drasim admit --shares SNAPSHOT...\n\n"
            "SNAPSHOT is a YAML stream of Kueue objects (ResourceFlavor, ClusterQueue, Cohort,\n"
            "LocalQueue, WorkloadPriorityClass; kueue.x-k8s.io v1beta2 or v1beta1, as\n"
            "`kubectl get -o yaml` prints them) and Workloads: those with status.admission are\n"
            "admitted and hold quota. The Workload asked about is the one in -f WORKLOAD, else\n"
            "the last Workload of the snapshot without status.admission. Cohorts named but not\n"
            "declared exist implicitly, as in Kueue. Several SNAPSHOT files are read as one stream.\n"
            "Topology-Aware Scheduling: Topology objects (kueue.x-k8s.io), a ResourceFlavor's\n"
            "topologyName and core/v1 Nodes (labels, allocatable, taints, Ready) give the tree;\n"
            "a pod set asks with its template's kueue.x-k8s.io/podset-*-topology annotations\n"
            "or spec.podSets[].topologyRequest (docs/QUEUES.md).\n\n"
            "Prints JSON: {\"admitted\": bool, \"flavors\": {podSet: {resource: flavor}},\n"
            "\"borrowing\": bool, \"victims\": [workload names], \"reason\": \"...\", \"why\": \"...\"}\n"
            "(with TAS also \"topologyAssignments\": {podSet: {\"levels\": [...], \"domains\": [...]}}).\n"
            "A workload that fits only by preempting is not admitted in this cycle: \"victims\"\n"
            "lists the Workloads Kueue would preempt.\n"
            "  --shares   print {\"clusterQueues\": {name: {\"share\": N, \"dominantResource\": R}},\n"
            "             \"cohorts\": {...}} (Kueue's weighted share, rounded up)\n"
            "  --no-implicit-cohorts  a Cohort named but not declared is an error\n\n"
            "A snapshot of KAI-Scheduler objects (scheduling.run.ai/v2 Queues, v2alpha2 PodGroups, Pods\n"
            "with the pod-group-name annotation, Nodes) is answered as KAI would: the PodGroup asked\n"
            "about is -f's, else the last one with unbound pods; victims are the jobs KAI would\n"
            "reclaim or preempt. --shares then prints {\"queues\": {name: {gpu|cpu|memory:\n"
            "{\"fairShare\", \"deserved\", \"allocated\", \"requested\"}}}} in the Queue's units\n"
            "(gpu devices, cpu millicores, memory MB).\n\n"
            "exit: 0 admitted (or --shares printed), 1 not admitted, 2 usage error,\n"
            "3 unreadable or invalid input.\n");
}

static void print_shares(kq_loaded *l) {
    strbuf b = {0};
    for (int pass = 0; pass < 2; pass++) {
        sb_puts(&b, pass ? ",\n \"cohorts\": {" : "{\"clusterQueues\": {");
        size_t lo = pass ? l->s.ncq : 0, hi = pass ? l->s.nnodes : l->s.ncq;
        for (size_t i = lo; i < hi; i++) {
            kq_drs d = kq_dominant_share(&l->s, l->s.nodes[i], NULL, 0);
            if (i > lo) sb_puts(&b, ", ");
            json_quote(&b, l->s.nodes[i]->name);
            sb_printf(&b, ": {\"share\": %lld, \"dominantResource\": ", (long long)kq_drs_value(&d));
            if (d.dominant) json_quote(&b, d.dominant);
            else sb_puts(&b, "null");
            sb_puts(&b, "}");
        }
        sb_puts(&b, "}");
    }
    sb_puts(&b, "}\n");
    fputs(sb_str(&b), stdout);
    sb_free(&b);
}

static int vic_cmp(const void *a, const void *b) {
    return strcmp(((const kq_victim *)a)->wl->name, ((const kq_victim *)b)->wl->name);
}

/* "topologyAssignments": {podSet: {"levels": [...], "domains": [{"values": [...], "count": N}]}}
 * (Kueue's v1beta1 TopologyAssignment form). */
static void print_topology(strbuf *b, const kq_pending *p, const kq_tas_assignment *ta) {
    sb_puts(b, ", \"topologyAssignments\": {");
    bool first = true;
    for (size_t ps = 0; ta && ps < p->npod_sets; ps++) {
        if (!ta[ps].nlevels) continue;
        if (!first) sb_puts(b, ", ");
        first = false;
        json_quote(b, p->ps_names[ps]);
        sb_puts(b, ": {\"levels\": [");
        for (size_t l = 0; l < ta[ps].nlevels; l++) {
            if (l) sb_puts(b, ", ");
            json_quote(b, ta[ps].levels[l]);
        }
        sb_puts(b, "], \"domains\": [");
        for (size_t d = 0; d < ta[ps].ndomains; d++) {
            sb_puts(b, d ? ", {\"values\": [" : "{\"values\": [");
            for (size_t l = 0; l < ta[ps].nlevels; l++) {
                if (l) sb_puts(b, ", ");
                json_quote(b, ta[ps].domains[d].values[l]);
            }
            sb_printf(b, "], \"count\": %d}", ta[ps].domains[d].count);
        }
        sb_puts(b, "]}");
    }
    sb_puts(b, "}");
}

static void print_result(const kq_pending *p, const kq_result *r, const char *reason, const kq_tas_assignment *ta,
                         bool tas, const kq_ahead *ah) {
    strbuf b = {0};
    sb_printf(&b, "{\"admitted\": %s, \"flavors\": {", r->admitted ? "true" : "false");
    for (size_t ps = 0; ps < p->npod_sets; ps++) {
        bool any = false;
        for (size_t i = 0; i < r->nchoices; i++) {
            if (r->choices[i].pod_set != ps) continue;
            if (!any) {
                if (sb_str(&b)[b.len - 1] != '{') sb_puts(&b, ", ");
                json_quote(&b, p->ps_names[ps]);
                sb_puts(&b, ": {");
            } else {
                sb_puts(&b, ", ");
            }
            any = true;
            json_quote(&b, r->choices[i].resource);
            sb_puts(&b, ": ");
            json_quote(&b, r->choices[i].flavor);
        }
        if (any) sb_puts(&b, "}");
    }
    sb_printf(&b, "}, \"borrowing\": %s, \"victims\": [", r->borrowing ? "true" : "false");
    for (size_t i = 0; i < r->nvictims; i++) {
        if (i) sb_puts(&b, ", ");
        json_quote(&b, r->victims[i].wl->name);
    }
    sb_puts(&b, "], \"victimReasons\": [");
    for (size_t i = 0; i < r->nvictims; i++) {
        if (i) sb_puts(&b, ", ");
        json_quote(&b, r->victims[i].reason);
    }
    sb_puts(&b, "]");
    if (ah && ah->admitted) {   /* pending Workloads Kueue admits first (queue/kq_ahead.h) */
        sb_puts(&b, ", \"admittedAhead\": [");
        for (size_t i = 0; i < ah->admitted; i++) {
            if (i) sb_puts(&b, ", ");
            json_quote(&b, ah->wls[i]->name);
        }
        sb_puts(&b, "]");
    }
    if (tas) print_topology(&b, p, ta);
    sb_puts(&b, ", \"reason\": ");
    json_quote(&b, reason);
    sb_puts(&b, ", \"why\": ");
    json_quote(&b, sb_str((strbuf *)&r->why));
    sb_puts(&b, "}\n");
    fputs(sb_str(&b), stdout);
    sb_free(&b);
}

/* cache.go podsReadyForAllAdmittedWorkloads: every admitted Workload of the
 * snapshot (status.admission) has the condition PodsReady True. */
static bool all_pods_ready(const kq_objects *o) {
    for (size_t i = 0; i < o->workloads.len; i++)
        if (o->workloads.data[i]->admitted_cq && !o->workloads.data[i]->pods_ready) return false;
    return true;
}

/* Free the snapshot trees admit loaded and did not hand over, and their errors. */
static void free_trees(yfile **trees, strbuf *load_err, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (trees[i]) {
            yfile_free(trees[i]);
            free(trees[i]);
        }
        sb_free(&load_err[i]);
    }
    free(trees);
    free(load_err);
}

int cmd_admit(int argc, char **argv) {
    const char *snapshot = NULL, *wfile = NULL;
    const char **snaps = xcalloc((size_t)argc + 1, sizeof *snaps);
    size_t nsnaps = 0;
    bool shares = false, implicit = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(stdout); free(snaps); return EXIT_OK; }
        if (!strcmp(argv[i], "--shares")) shares = true;
        else if (!strcmp(argv[i], "--no-implicit-cohorts")) implicit = false;
        else if (!strcmp(argv[i], "-f") && i + 1 < argc) wfile = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "drasim admit: unknown option '%s'\n", argv[i]);
            usage(stderr);
            free(snaps);
            return EXIT_ERROR;
        } else {
            snaps[nsnaps++] = argv[i];
            if (!snapshot) snapshot = argv[i];
        }
    }
    if (!snapshot || (shares && wfile)) {
        if (shares && wfile) fprintf(stderr, "drasim admit: --shares takes no -f WORKLOAD\n");
        else usage(stderr);
        free(snaps);
        return EXIT_ERROR;
    }
    /* Each snapshot is parsed once (the parse is most of admit's time): its
     * trees tell KAI's objects (scheduling.run.ai, cmd_admit_kai.c) from
     * Kueue's, then Kueue's decoder reads the same trees. A file that does not
     * load counts as not KAI; Kueue's decoding reports it, in file order. */
    yfile **trees = xcalloc(nsnaps + 1, sizeof *trees);
    strbuf *load_err = xcalloc(nsnaps + 1, sizeof *load_err);
    bool kai = false;
    for (size_t i = 0; i < nsnaps && !kai; i++) {
        trees[i] = xcalloc(1, sizeof *trees[i]);
        if (yfile_load(snaps[i], trees[i], &load_err[i])) {
            free(trees[i]);
            trees[i] = NULL;
        } else
            kai = kai_yfile_is_kai(trees[i]);
    }
    if (kai) {
        free_trees(trees, load_err, nsnaps);
        int krc = cmd_admit_kai(snaps, nsnaps, wfile, shares);
        free(snaps);
        return krc;
    }
    kq_objects o;
    kq_objects_init(&o);
    strbuf err = {0};
    int rc = EXIT_OK;
    size_t nsnap = 0;
    for (size_t i = 0; i < nsnaps; i++) {
        if (!trees[i]) {
            sb_clear(&err);
            sb_puts(&err, sb_str(&load_err[i]));
            free_trees(trees, load_err, nsnaps);
            goto bad;
        }
        yfile *t = trees[i];
        trees[i] = NULL;   /* o keeps it */
        if (kq_decode_yfile(&o, t, true, &err)) {
            free_trees(trees, load_err, nsnaps);
            goto bad;
        }
    }
    free_trees(trees, load_err, nsnaps);
    nsnap = o.workloads.len;
    if (wfile && kq_decode_file(&o, wfile, false, &err)) goto bad;
    if (kq_objects_check(&o, implicit, &err)) goto bad;
    const kq_workload *w = NULL;
    if (!shares) {
        if (wfile) {
            for (size_t i = nsnap; i < o.workloads.len; i++) w = o.workloads.data[i];
            if (!w) {
                sb_printf(&err, "%s: no Workload in the file", wfile);
                goto bad;
            }
            if (w->admitted_cq) {
                sb_printf(&err, "%s: Workload %s is admitted already (status.admission)", wfile, w->meta.name);
                goto bad;
            }
        } else {
            for (size_t i = 0; i < o.workloads.len; i++)
                if (!o.workloads.data[i]->admitted_cq) w = o.workloads.data[i];
            if (!w) {
                sb_printf(&err, "%s: no pending Workload (without status.admission) to ask about; use -f WORKLOAD",
                          snapshot);
                goto bad;
            }
        }
    }
    kq_loaded l;
    kq_load_admitted(&l, &o);
    if (shares) {
        print_shares(&l);
    } else {
        kq_pending p;
        kq_result r = {0};
        strbuf why = {0};
        kq_ahead ah = {0};
        if (kq_pending_from(&l, &o, w, &p, &why)) {
            sb_puts(&r.why, sb_str(&why));
            print_result(&p, &r, sb_str(&why), NULL, o.topologies.len > 0, NULL);
            rc = EXIT_NEGATIVE;
        } else if (kq_admit_ahead(&l, &o, w, &p, &ah), ah.blocker) {
            /* StrictFIFO: a head ahead of it does not fit and stays the head */
            sb_printf(&r.why, "ClusterQueue %s (StrictFIFO): queued behind Workload %s, which does not fit", p.cq->name,
                      ah.blocker);
            print_result(&p, &r, sb_str(&r.why), NULL, o.topologies.len > 0, &ah);
            rc = EXIT_NEGATIVE;
        } else {
            kq_try_admit(&l.s, &p, &r);
            kq_tas_assignment *ta = xcalloc(p.npod_sets ? p.npod_sets : 1, sizeof *ta);
            kq_tas_admit(&o, &p, &r, ta);
            if (r.nvictims > 1) qsort(r.victims, r.nvictims, sizeof *r.victims, vic_cmp);
            const char *reason = r.admitted ? "" : sb_str(&r.reason);
            if (r.admitted && o.config.wait_ready.on && o.config.wait_ready.block_admission &&
                (!all_pods_ready(&o) || ah.admitted)) {   /* one admitted ahead is not PodsReady either */
                /* scheduler.go waitForPodsReadyIfNeeded: it fits, but Kueue waits to admit it */
                r.admitted = false;
                reason = "waiting for all admitted workloads to be in PodsReady condition";
                sb_puts(&r.why, "waitForPodsReady.blockAdmission: an admitted Workload is not PodsReady yet; "
                                "Kueue admits this one (quota permitting) once all are");
            }
            print_result(&p, &r, reason, ta, o.topologies.len > 0, &ah);
            for (size_t i = 0; i < p.npod_sets; i++) kq_tas_assignment_free(&ta[i]);
            free(ta);
            rc = r.admitted ? EXIT_OK : EXIT_NEGATIVE;
        }
        kq_ahead_free(&ah);
        sb_free(&why);
        kq_result_free(&r);
        kq_pending_free(&p);
    }
    kq_loaded_free(&l);
    kq_objects_free(&o);
    sb_free(&err);
    free(snaps);
    intern_reset();
    return rc;
bad:
    fprintf(stderr, "drasim admit: %s\n", sb_str(&err));
    kq_objects_free(&o);
    sb_free(&err);
    free(snaps);
    intern_reset();
    return EXIT_BAD_INPUT;
}
