/*
 * scenario_trace.c -- `workload.trace`: a workload (and its nodes) read from
 * a trace instead of pod groups. Format openb (model/openb_trace.h):
 *
 *   workload:
 *     trace:
 *       format: openb
 *       nodes: openb_node_list_gpu_node.csv   # relative to the scenario file
 *       pods: openb_pod_list_default.csv
 *       mode: inflate          # or replay (creation/deletion times)
 *       ratio: 1.3             # inflate: requested GPUs / cluster GPUs
 *       typicalPods: 95        # fragmentation measure: popularity threshold (%)
 *       profile: openb-artifact # optional: the FGD artifact's run, draw by draw
 *                               # (model/openb_artifact.h; default: drasim)
 *
 * The trace's pods become one pod group per distinct shape; the arrival
 * sequence depends on the seed and is rebuilt by scenario_trace_expand().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "util/gorand.h"
#include "model/openb_trace.h"
#include "model/openb_artifact.h"

#define REPLAY_MAX_SAMPLES 10000000   /* samples of one replay run (each a few dozen bytes) */

static bool same_shape(const openb_pod *a, const openb_pod *b) {
    return a->cpu_milli == b->cpu_milli && a->memory_mib == b->memory_mib && a->num_gpu == b->num_gpu &&
           a->gpu_milli == b->gpu_milli && !strcmp(a->gpu_spec, b->gpu_spec);
}

/* One pod group per distinct shape, in order of first appearance. */
static void build_shapes(scenario *s, trace_spec *t) {
    t->pod_group = ARENA_NEW(&s->a, uint32_t, t->npods ? t->npods : 1);
    t->group_pod = ARENA_NEW(&s->a, uint32_t, t->npods ? t->npods : 1);
    size_t ng = 0, mask = 63;
    while (mask < 2 * t->npods) mask = mask * 2 + 1;
    uint32_t *slot = xcalloc(mask + 1, sizeof *slot);   /* group + 1 by shape hash, 0 = empty */
    for (size_t i = 0; i < t->npods; i++) {
        const openb_pod *p = &t->pods[i];
        uint64_t h = (uint64_t)p->cpu_milli * 0x9e3779b97f4a7c15ULL ^ (uint64_t)p->memory_mib * 0xff51afd7ed558ccdULL ^
                     (uint64_t)(p->num_gpu * 1001 + p->gpu_milli) * 0xc4ceb9fe1a85ec53ULL;
        for (const char *c = p->gpu_spec; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
        h ^= h >> 31;
        size_t k = h & mask;
        while (slot[k] && !same_shape(&t->pods[t->group_pod[slot[k] - 1]], p)) k = (k + 1) & mask;
        if (!slot[k]) {
            t->group_pod[ng] = (uint32_t)i;
            slot[k] = (uint32_t)++ng;
        }
        t->pod_group[i] = slot[k] - 1;   /* groups in order of first appearance, as a scan of them gives */
    }
    free(slot);
    s->ngroups = ng;
    s->groups = ARENA_NEW(&s->a, pod_group_spec, ng ? ng : 1);
    for (size_t i = 0; i < t->npods; i++) s->groups[t->pod_group[i]].typical_count++;   /* typical pods: the trace's pods */
    char buf[256];
    const char *qerr;
    for (size_t g = 0; g < ng; g++) {
        const openb_pod *p = &t->pods[t->group_pod[g]];
        pod_group_spec *pg = &s->groups[g];
        snprintf(buf, sizeof buf, "openb-c%lld-m%lld-g%dx%d%s%s", (long long)p->cpu_milli, (long long)p->memory_mib,
                 p->num_gpu, p->gpu_milli, *p->gpu_spec ? "-" : "", p->gpu_spec);
        pg->name = intern(buf);
        pg->where = t->where;
        pg->duration.kind = DIST_FIXED;
        pg->arrival.kind = ARRIVAL_CONSTANT;
        pg->requests = ARENA_NEW(&s->a, k8s_resource_amount, 2);
        pg->nrequests = 2;
        pg->requests[0].name = intern("cpu");
        snprintf(buf, sizeof buf, "%lldm", (long long)p->cpu_milli);
        quantity_parse(buf, strlen(buf), &pg->requests[0].value, &qerr);
        pg->requests[1].name = intern("memory");
        snprintf(buf, sizeof buf, "%lldMi", (long long)p->memory_mib);
        quantity_parse(buf, strlen(buf), &pg->requests[1].value, &qerr);
        pg->has_dp = true;
        pg->gpu_spec = p->gpu_spec;
        pg->dp_resources = ARENA_NEW(&s->a, k8s_resource_amount, 1);
        if (p->num_gpu > 0) {
            pg->ndp_resources = 1;
            pg->dp_resources[0].name = intern("alibabacloud.com/gpu-milli");
            pg->dp_resources[0].value = quantity_from_int64(openb_pod_gpu_milli(p), QF_DECIMAL_SI);
        }
    }
}

int scenario_parse_trace(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"format", "nodes", "pods", "mode", "ratio", "typicalPods", "profile", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "workload.trace", err)) return -1;
    trace_spec *t = ARENA_NEW(&s->a, trace_spec, 1);
    t->where = m;
    t->ratio = 1.3;
    t->typical_pct = 95;
    if (ymap_need(m, "format", "workload.trace", &v, err)) return -1;
    if (!y_scalar_eq(v, "openb")) {
        yerr(err, v, "workload.trace.format: expected openb, found %s", v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    t->format = "openb";
    if ((v = ymap_get(m, "mode"))) {
        if (y_scalar_eq(v, "inflate")) t->mode = TRACE_INFLATE;
        else if (y_scalar_eq(v, "replay")) t->mode = TRACE_REPLAY;
        else {
            yerr(err, v, "workload.trace.mode: expected inflate or replay");
            return -1;
        }
    }
    if ((v = ymap_get(m, "profile"))) {
        if (y_scalar_eq(v, "openb-artifact")) t->artifact = true;
        else if (!y_scalar_eq(v, "drasim")) {
            yerr(err, v, "workload.trace.profile: expected drasim or openb-artifact");
            return -1;
        }
    }
    if ((v = ymap_get(m, "ratio"))) {
        if (y_double(v, "workload.trace.ratio", &t->ratio, err)) return -1;
        if (!(t->ratio > 0 && t->ratio <= 100)) {
            yerr(err, v, "workload.trace.ratio: expected a number above 0 and at most 100");
            return -1;
        }
    }
    if ((v = ymap_get(m, "typicalPods"))) {
        if (y_double(v, "workload.trace.typicalPods", &t->typical_pct, err)) return -1;
        if (!(t->typical_pct > 0 && t->typical_pct <= 100)) {
            yerr(err, v, "workload.trace.typicalPods: expected a percentage above 0 and at most 100");
            return -1;
        }
    }
    openb_node *nodes;
    openb_pod *pods;
    if (ymap_need(m, "nodes", "workload.trace", &v, err) || scenario_parse_path(v, "workload.trace.nodes", &t->nodes_file, err)) return -1;
    if (openb_load_nodes(t->nodes_file, &s->a, &nodes, &t->nnodes, err)) return -1;
    if (ymap_need(m, "pods", "workload.trace", &v, err) || scenario_parse_path(v, "workload.trace.pods", &t->pods_file, err)) return -1;
    if (openb_load_pods(t->pods_file, &s->a, &pods, &t->npods, err)) return -1;
    t->nodes = nodes;
    t->pods = pods;
    if (t->nnodes == 0 || t->npods == 0) {
        yerr(err, m, "workload.trace: %s lists no %s", t->nnodes ? t->pods_file : t->nodes_file,
             t->nnodes ? "pods" : "nodes");
        return -1;
    }
    if (t->mode == TRACE_INFLATE) {   /* sampling until a share of GPU capacity needs GPUs on both sides */
        int64_t pod_milli = 0, node_gpus = 0;
        for (size_t i = 0; i < t->npods; i++) pod_milli += openb_pod_gpu_milli(&pods[i]);
        for (size_t i = 0; i < t->nnodes; i++) node_gpus += nodes[i].gpus;
        if (pod_milli <= 0 || node_gpus <= 0) {
            yerr(err, ymap_get(m, pod_milli <= 0 ? "pods" : "nodes"),
                 "workload.trace.mode inflate: %s %s no GPU, so there is no GPU demand to sample up to ratio x GPU "
                 "capacity (use mode replay)", pod_milli <= 0 ? t->pods_file : t->nodes_file,
                 pod_milli <= 0 ? "requests" : "has");
            return -1;
        }
    }
    if (t->artifact && t->mode != TRACE_INFLATE) {
        yerr(err, ymap_get(m, "profile"), "workload.trace.profile openb-artifact: needs mode inflate");
        return -1;
    }
    if (t->mode == TRACE_REPLAY)
        for (size_t i = 0; i < t->npods; i++)
            if (pods[i].creation_s < 0) {
                yerr(err, v, "workload.trace.mode replay: pod '%s' in %s has no creation_time", pods[i].name,
                     t->pods_file);
                return -1;
            }
    s->trace = t;
    build_shapes(s, t);
    return 0;
}

static const trace_spec *cmp_trace;
static int cmp_creation(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int64_t tx = cmp_trace->pods[x].creation_s, ty = cmp_trace->pods[y].creation_s;
    if (tx != ty) return tx < ty ? -1 : 1;
    return (x > y) - (x < y);
}

int scenario_trace_expand(scenario *s, strbuf *err) {
    trace_spec *t = s->trace;
    if (!t) return 0;
    uint32_t *seq;
    size_t n;
    if (t->artifact) {
        if (!t->node_rank) {
            t->node_rank = ARENA_NEW(&s->a, uint32_t, t->nnodes ? t->nnodes : 1);
            t->go_after = ARENA_NEW(&s->a, gorand, 1);
        }
        if (openb_artifact_build(t->pods, t->npods, t->nodes, t->nnodes, t->ratio, (int64_t)s->seed, &seq, &n,
                                 t->node_rank, t->go_after, err))
            return -1;
    } else if (t->mode == TRACE_INFLATE) {
        int64_t cap = 0;
        for (size_t i = 0; i < t->nnodes; i++) cap += (int64_t)t->nodes[i].gpus * 1000;
        seq = openb_inflate(t->pods, t->npods, cap, t->ratio, s->seed, &n);
    } else {
        /* samples every output.sampleInterval up to the last event: refuse a
         * horizon that would need more than REPLAY_MAX_SAMPLES of them */
        sim_time last = 0;
        for (size_t i = 0; i < t->npods; i++) {
            const openb_pod *p = &t->pods[i];
            int64_t end = p->deletion_s > p->creation_s ? p->deletion_s : p->creation_s;
            if (SIM_SECONDS(end) > last) last = SIM_SECONDS(end);
        }
        if (last > s->stop_time) last = s->stop_time;
        if (s->sample_interval > 0 && last / s->sample_interval > REPLAY_MAX_SAMPLES) {
            yerr(err, t->where,
                 "workload.trace.mode replay: %s spans %lld s, %lld samples at output.sampleInterval (at most %d): "
                 "raise output.sampleInterval or set stop.time",
                 t->pods_file, (long long)(last / 1000), (long long)(last / s->sample_interval), REPLAY_MAX_SAMPLES);
            return -1;
        }
        n = t->npods;
        seq = xmalloc(n * sizeof *seq);
        for (size_t i = 0; i < n; i++) seq[i] = (uint32_t)i;
        cmp_trace = t;
        qsort(seq, n, sizeof *seq, cmp_creation);
        cmp_trace = NULL;
    }
    t->nseq = n;
    t->seq = ARENA_NEW(&s->a, uint32_t, n ? n : 1);
    t->seq_time = ARENA_NEW(&s->a, sim_time, n ? n : 1);
    t->seq_duration = ARENA_NEW(&s->a, sim_time, n ? n : 1);
    memcpy(t->seq, seq, n * sizeof *seq);
    free(seq);
    for (size_t g = 0; g < s->ngroups; g++) s->groups[g].count = 0;
    for (size_t k = 0; k < n; k++) {
        const openb_pod *p = &t->pods[t->seq[k]];
        s->groups[t->pod_group[t->seq[k]]].count++;
        if (t->mode == TRACE_INFLATE) {
            t->seq_time[k] = SIM_SECONDS((sim_time)k);   /* one arrival per second, nobody leaves */
            t->seq_duration[k] = SIM_TIME_NEVER;
        } else {
            t->seq_time[k] = SIM_SECONDS(p->creation_s);
            t->seq_duration[k] = p->deletion_s >= 0 ? SIM_SECONDS(p->deletion_s - p->creation_s) : SIM_TIME_NEVER;
        }
    }
    return 0;
}
