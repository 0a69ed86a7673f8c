/*
 * kq_tas_admit.h -- Kueue TAS in an admission cycle: after the quota check,
 * the TopologyAssignment of every pod set on a TAS flavor (kq_tas_admit.c).
 */
#ifndef DRASIM_QUEUE_KQ_TAS_ADMIT_H
#define DRASIM_QUEUE_KQ_TAS_ADMIT_H

#include "queue/kq.h"
#include "queue/kq_tas.h"

/* `out` has one entry per pod set (nlevels 0: no TAS for it). A workload the
 * quota admits but the topology does not hold becomes not admitted (mode
 * Preempt, or NoFit when empty nodes would not hold it either) with Kueue's
 * reason. No effect when the snapshot has no Topology. */
void kq_tas_admit(const kq_objects *o, const kq_pending *p, kq_result *r, kq_tas_assignment *out);

#endif
