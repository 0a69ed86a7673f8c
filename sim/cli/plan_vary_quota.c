/* plan_vary_quota.c -- `drasim plan --vary queues.CQ.FLAVOR.RESOURCE=V1,V2,...`
 * (or =LO..HI[/STEP]): a ClusterQueue's quota as a dimension of the plan
 * (issue 27 item 5, docs/QUEUES.md "Which quota?"). Each value is one
 * combination of plan_choices.c: no order is assumed between quotas (a larger
 * quota for one team may hurt another), so every listed value is run and the
 * first one (in the order given) whose fleet is cheapest wins: list the
 * values ascending and the answer is the smallest quota that passes.
 * The key may end in .nominalQuota (the default), .borrowingLimit or
 * .lendingLimit. The ClusterQueue must be among the scenario's
 * queues.objects: the probes set it there by index.
 * KAI-Scheduler (queues: {manager: kai}): queues.QUEUE.RESOURCE[.FIELD],
 * RESOURCE gpu|cpu|memory and FIELD quota (the default: deserved), limit or
 * overQuotaWeight of the Queue's spec.resources (scheduling.run.ai/v2
 * Queue, KAI v0.13.0 pkg/apis/scheduling/v2/queue_types.go); values are
 * KAI's plain numbers in the Queue's units, -1 = unlimited. */
#include "cli/plan_vary_quota.h"

#include <stdlib.h>
#include <string.h>

#include "cel/quantity.h"
#include "model/yaml_tree.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define MAX_QUOTA_VALUES 100

static const char *const quota_fields[] = {"nominalQuota", "borrowingLimit", "lendingLimit"};
static const char *const kai_resources[] = {"gpu", "cpu", "memory"};
static const char *const kai_fields[] = {"quota", "limit", "overQuotaWeight"};

static const char *one_of(const char *const *names, size_t n, const char *s, size_t len) {
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && !strncmp(names[i], s, len)) return names[i];
    return NULL;
}

/* KAI's form "queues.QUEUE.RESOURCE[.FIELD]=..." (RESOURCE one of
 * kai_resources, FIELD one of kai_fields, default quota): 0 with its parts,
 * -1 when the key is not of that form (then it is Kueue's). */
static int split_kai(const char *text, const char **q, size_t *nq, const char **res, const char **field) {
    const char *eq = strchr(text, '=');
    const char *k = text + 7, *end = eq ? eq : text + strlen(text);
    const char *d1 = memchr(k, '.', (size_t)(end - k));
    if (!d1 || d1 == k) return -1;
    const char *r = d1 + 1, *d2 = memchr(r, '.', (size_t)(end - r));
    *res = one_of(kai_resources, 3, r, (size_t)((d2 ? d2 : end) - r));
    if (!*res) return -1;
    *field = d2 ? one_of(kai_fields, 3, d2 + 1, (size_t)(end - d2 - 1)) : kai_fields[0];
    if (!*field) return -1;
    *q = k, *nq = (size_t)(d1 - k);
    return 0;
}

bool plan_vary_is_quota(const char *text) {
    return !strncmp(text, "queues.", 7);
}

/* The parts of "queues.CQ.FLAVOR.RESOURCE[.FIELD]=..." (FIELD: one of
 * quota_fields, default nominalQuota). 0, or -1 when a part is empty. */
static int split_key(const char *text, const char **cq, size_t *ncq, const char **flavor, size_t *nflavor,
                     const char **res, size_t *nres, const char **field) {
    const char *eq = strchr(text, '=');
    const char *k = text + 7, *end = eq ? eq : text + strlen(text);
    const char *d1 = memchr(k, '.', (size_t)(end - k));
    const char *d2 = d1 ? memchr(d1 + 1, '.', (size_t)(end - d1 - 1)) : NULL;
    if (!d1 || !d2 || d1 == k || d2 == d1 + 1 || d2 + 1 >= end) return -1;
    *cq = k, *ncq = (size_t)(d1 - k);
    *flavor = d1 + 1, *nflavor = (size_t)(d2 - d1 - 1);
    *res = d2 + 1, *nres = (size_t)(end - d2 - 1);
    *field = quota_fields[0];
    for (size_t i = 0; i < sizeof quota_fields / sizeof *quota_fields; i++) {
        size_t n = strlen(quota_fields[i]);
        if (*nres > n + 1 && (*res)[*nres - n - 1] == '.' && !strncmp(*res + *nres - n, quota_fields[i], n)) {
            *field = quota_fields[i];
            *nres -= n + 1;
        }
    }
    return 0;
}

/* Append value v (interned) to ch unless listed already. 0 or -1 with err. */
static int add_value(plan_choice *ch, const char *text, const char *v, strbuf *err) {
    for (size_t i = 0; i < ch->n; i++)
        if (ch->values[i] == v) {
            sb_printf(err, "--vary %s: the value '%s' is listed twice", text, v);
            return -1;
        }
    if (ch->n == MAX_QUOTA_VALUES) {
        sb_printf(err, "--vary %s: more than %d values (each is a run per seed); give a step, LO..HI/STEP", text,
                  MAX_QUOTA_VALUES);
        return -1;
    }
    ch->values = xrealloc(ch->values, (ch->n + 1) * sizeof *ch->values);
    ch->values[ch->n++] = v;
    return 0;
}

/* "LO..HI" or "LO..HI/STEP" (whole numbers) into ch's values. 1 when s is
 * no range, 0 done, -1 with err. */
static int parse_range(plan_choice *ch, const char *text, const char *s, strbuf *err) {
    const char *dots = strstr(s, "..");
    if (!dots) return 1;
    char *e1, *e2, *e3 = NULL;
    long long lo = strtoll(s, &e1, 10), hi = strtoll(dots + 2, &e2, 10), step = 1;
    if (*e2 == '/') step = strtoll(e2 + 1, &e3, 10);
    if (e1 != dots || e1 == s || e2 == dots + 2 || (e3 ? (*e3 || e3 == e2 + 1) : *e2) || lo < 0 || hi < lo ||
        step < 1 || hi > (1LL << 53)) {
        sb_printf(err, "--vary %s: expected LO..HI or LO..HI/STEP, whole numbers with 0 <= LO <= HI and STEP >= 1",
                  text);
        return -1;
    }
    for (long long v = lo; v <= hi; v += step) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", v);
        if (add_value(ch, text, intern(buf), err)) return -1;
    }
    return 0;
}

int plan_vary_quota(const char *text, plan_choice *ch, strbuf *err) {
    const char *cq, *flavor, *res, *field, *eq = strchr(text, '=');
    size_t ncq, nflavor, nres;
    memset(ch, 0, sizeof *ch);
    ch->arg = intern(text);
    strbuf o = {0};
    sb_printf(&o, "--vary %s", text);
    ch->origin = intern(sb_str(&o));
    sb_free(&o);
    const char *kq0, *kres0, *kfield0;
    size_t nkq0;
    if (eq && !split_kai(text, &kq0, &nkq0, &kres0, &kfield0)) {   /* KAI: FLAVOR.RESOURCE reads QUEUE.RESOURCE */
        cq = kq0, ncq = nkq0, flavor = kq0 + nkq0 + 1;
    } else if (!eq || split_key(text, &cq, &ncq, &flavor, &nflavor, &res, &nres, &field)) {
        sb_printf(err, "--vary %s: expected queues.CLUSTERQUEUE.FLAVOR.RESOURCE[.nominalQuota|.borrowingLimit|"
                       ".lendingLimit]=V1,V2,... or =LO..HI[/STEP], e.g. queues.team-a.h100.nvidia.com/gpu=16..40/8; "
                       "for KAI, queues.QUEUE.gpu|cpu|memory[.quota|.limit|.overQuotaWeight]=...",
                  text);
        return -1;
    }
    strbuf p = {0};
    sb_printf(&p, "queues.%.*s", (int)ncq, cq);
    ch->pool = intern(sb_str(&p));
    sb_free(&p);
    ch->field = intern_n(flavor, (size_t)(eq - flavor));   /* FLAVOR.RESOURCE[.FIELD] as given */
    const char *s = eq + 1;
    if (!*s) {
        sb_printf(err, "--vary %s: the list of values is empty", text);
        return -1;
    }
    int r = parse_range(ch, text, s, err);
    if (r <= 0) return r;
    const char *kq, *kres, *kfield;
    size_t nkq;
    bool kai = split_kai(text, &kq, &nkq, &kres, &kfield) == 0;
    for (;;) {   /* V1,V2,...: Kubernetes quantities (KAI: plain numbers) */
        const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
        quantity q;
        const char *why = NULL;
        if (end == s) {
            sb_printf(err, "--vary %s: an empty value in the list", text);
            return -1;
        }
        if (kai) {   /* KAI: float64 fields, >= 0 or -1 (unlimited; queue_webhook.go) */
            char *e;
            double v = strtod(s, &e);
            if (e != end || (v < 0 && v != -1) || (v == -1 && kfield == kai_fields[2])) {
                sb_printf(err, "--vary %s: '%.*s' is not a KAI %s (a number >= 0%s)", text, (int)(end - s), s, kfield,
                          kfield == kai_fields[2] ? "" : ", or -1 for unlimited");
                return -1;
            }
        } else if (quantity_parse(s, (size_t)(end - s), &q, &why) || quantity_sign(&q) < 0) {
            sb_printf(err, "--vary %s: '%.*s' is not a quota (a quantity >= 0, e.g. 32, 500m, 2Ti)", text,
                      (int)(end - s), s);
            return -1;
        }
        if (add_value(ch, text, intern_n(s, (size_t)(end - s)), err)) return -1;
        if (!comma) break;
        s = comma + 1;
    }
    return 0;
}

static const char *scalar(const ynode *map, const char *key) {
    const ynode *v = map && map->kind == YN_MAP ? ymap_get(map, key) : NULL;
    return v && v->kind == YN_SCALAR ? v->str : NULL;
}

/* The index of the item of seq whose key (or metadata.name) equals name[n], or -1. */
static long find_named(const ynode *seq, const char *kind, const char *name, size_t n) {
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->n; i++) {
        const ynode *it = seq->vals[i];
        const char *nm = kind ? scalar(ymap_get(it, "metadata"), "name") : scalar(it, "name");
        if (kind && (!scalar(it, "kind") || strcmp(scalar(it, "kind"), kind))) continue;
        if (nm && strlen(nm) == n && !strncmp(nm, name, n)) return (long)i;
    }
    return -1;
}

/* "a, b, c": the names of seq's items (of `kind`, by metadata.name; else by name). */
static void names_of(const ynode *seq, const char *kind, strbuf *out) {
    size_t k = 0;
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->n; i++) {
        const ynode *it = seq->vals[i];
        if (kind && (!scalar(it, "kind") || strcmp(scalar(it, "kind"), kind))) continue;
        const char *nm = kind ? scalar(ymap_get(it, "metadata"), "name") : scalar(it, "name");
        if (nm) sb_printf(out, "%s%s", k++ ? ", " : "", nm);
    }
    if (!k) sb_puts(out, "none");
}

/* A KAI Queue's spec.resources.RESOURCE.FIELD among queues.objects. */
static int kai_check(const ynode *q, const ynode *objs, const char *scenario, plan_choice *ch, strbuf *err) {
    const char *kq, *res, *field;
    size_t nkq;
    split_kai(ch->arg, &kq, &nkq, &res, &field);
    strbuf list = {0};
    long i = find_named(objs, "Queue", kq, nkq);
    if (i < 0) {
        names_of(objs, "Queue", &list);
        sb_printf(err, "--vary %s: %s has no Queue '%.*s' among queues.objects (its Queues: %s%s)", ch->arg, scenario,
                  (int)nkq, kq, sb_str(&list),
                  q && ymap_get(q, "files") ? "; quotas in queues.files cannot be varied: move the Queue into "
                                              "queues.objects" : "");
        sb_free(&list);
        return -1;
    }
    const ynode *rs = ymap_get(ymap_get(objs->vals[i], "spec"), "resources");
    if (!rs || rs->kind != YN_MAP || !ymap_get(rs, res)) {
        sb_printf(err, "--vary %s: Queue '%.*s' has no spec.resources.%s", ch->arg, (int)nkq, kq, res);
        return -1;
    }
    strbuf k = {0};
    sb_printf(&k, "queues.objects[%ld].spec.resources.%s.%s", i, res, field);
    ch->set_key = intern(sb_str(&k));
    sb_free(&k);
    return 0;
}

int plan_vary_quota_check(const ynode *root, const char *scenario, plan_choice *ch, strbuf *err) {
    const char *cq, *flavor, *res, *field;
    size_t ncq, nflavor, nres;
    const ynode *q = root && root->kind == YN_MAP ? ymap_get(root, "queues") : NULL;
    const ynode *objs = q && q->kind == YN_MAP ? ymap_get(q, "objects") : NULL;
    const char *manager = scalar(q, "manager");
    bool kai = manager && !strcmp(manager, "kai");
    if (!split_kai(ch->arg, &cq, &ncq, &res, &field)) {
        if (kai) return kai_check(q, objs, scenario, ch, err);
        sb_printf(err, "--vary %s: names a KAI Queue's quota (queues.QUEUE.gpu|cpu|memory[.FIELD]) but %s's queues "
                       "are not KAI's (queues.manager: kai)", ch->arg, scenario);
        return -1;
    }
    if (kai) {
        sb_printf(err, "--vary %s: %s's queues are KAI's: expected queues.QUEUE.gpu|cpu|memory[.quota|.limit|"
                       ".overQuotaWeight]", ch->arg, scenario);
        return -1;
    }
    split_key(ch->arg, &cq, &ncq, &flavor, &nflavor, &res, &nres, &field);
    strbuf list = {0};
    long i = find_named(objs, "ClusterQueue", cq, ncq);
    if (i < 0) {
        names_of(objs, "ClusterQueue", &list);
        sb_printf(err, "--vary %s: %s has no ClusterQueue '%.*s' among queues.objects (its ClusterQueues: %s%s)",
                  ch->arg, scenario, (int)ncq, cq, sb_str(&list),
                  q && ymap_get(q, "files") ? "; quotas in queues.files cannot be varied: move the ClusterQueue "
                                              "into queues.objects" : "");
        sb_free(&list);
        return -1;
    }
    const ynode *groups = ymap_get(ymap_get(objs->vals[i], "spec"), "resourceGroups");
    for (size_t g = 0; groups && groups->kind == YN_SEQ && g < groups->n; g++) {
        const ynode *flavors = ymap_get(groups->vals[g], "flavors");
        long f = find_named(flavors, NULL, flavor, nflavor);
        if (f < 0) continue;
        const ynode *resources = ymap_get(flavors->vals[f], "resources");
        long r = find_named(resources, NULL, res, nres);
        if (r < 0) {
            names_of(resources, NULL, &list);
            sb_printf(err, "--vary %s: flavor '%.*s' of ClusterQueue '%.*s' has no quota for '%.*s' (its resources: %s)",
                      ch->arg, (int)nflavor, flavor, (int)ncq, cq, (int)nres, res, sb_str(&list));
            sb_free(&list);
            return -1;
        }
        strbuf k = {0};
        sb_printf(&k, "queues.objects[%ld].spec.resourceGroups[%zu].flavors[%ld].resources[%ld].%s", i, g, f, r,
                  field);
        ch->set_key = intern(sb_str(&k));
        sb_free(&k);
        return 0;
    }
    for (size_t g = 0; groups && groups->kind == YN_SEQ && g < groups->n; g++)
        names_of(ymap_get(groups->vals[g], "flavors"), NULL, &list), sb_puts(&list, g + 1 < groups->n ? ", " : "");
    sb_printf(err, "--vary %s: ClusterQueue '%.*s' has no flavor '%.*s' (its flavors: %s)", ch->arg, (int)ncq, cq,
              (int)nflavor, flavor, list.len ? sb_str(&list) : "none");
    sb_free(&list);
    return -1;
}
