/*
 * kai_snapshot.h -- a KAI snapshot as one cycle's state (`drasim admit`).
 */
#ifndef DRASIM_QUEUE_KAI_SNAPSHOT_H
#define DRASIM_QUEUE_KAI_SNAPSHOT_H

#include "queue/kai.h"

typedef struct kai_snapshot {
    kai_state s;
    kai_job **jobs;                  /* one per PodGroup (input order), then bare pods */
    size_t njobs;
} kai_snapshot;

void kai_snapshot_build(kai_snapshot *sn, const kai_objects *o);
void kai_snapshot_free(kai_snapshot *sn);
/* A pod's request in KAI's units (gpu incl. fractions and DRA claims; `o`
 * may be NULL: no claims). */
void kai_pod_request(const kai_objects *o, const k8s_pod *p, double out[KAI_NRES]);

/* The GPUs a claim requests as KAI counts them (pkg/common/resources/dra.go). */
double kai_claim_gpus(const k8s_claim_spec *c);

#endif
