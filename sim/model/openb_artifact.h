/*
 * openb_artifact.h -- the FGD paper artifact's run construction (trace
 * setting `profile: openb-artifact`, docs/OPENB.md), so that a drasim run
 * replays hkust-adsl/kubernetes-scheduler-simulator at 8f3d641 run by run.
 *
 * Go's math/rand (util/gorand.h), seeded with the run's seed, in the
 * artifact's order (shared spec openb-fgd.md, Appendix B):
 *  1. rand.Seed(seed) and one discarded rand.Int() (pkg/simulator/core.go
 *     102-103);
 *  2. the trace's pods sorted by name, then rand.Shuffle (simulator.go
 *     847-850, SortClusterPods);
 *  3. tune to ratio x cluster GPU milli (simulator.go 1077-1139):
 *     below the target, draw rand.Intn(len(trace)) over the name-sorted trace
 *     and append the clone while requested milli + the clone's PER-GPU milli
 *     stays <= the target (the overshooting draw is consumed, not added;
 *     clones are appended after the shuffled pods, unshuffled); above it,
 *     remove rand.Intn(len(pods)) from the shuffled list until within;
 *  4. ten rand.Float64() (one per informer reflector the scheduler starts,
 *     client-go tools/cache/reflector.go:400);
 *  5. nodes sorted by name, rand.Perm(len(nodes)); node i is renamed
 *     "%04d-" + name with perm[i] (simulator.go 478-485), so ties between
 *     equal scores (selectHost: smallest name) follow perm.
 */
#ifndef DRASIM_MODEL_OPENB_ARTIFACT_H
#define DRASIM_MODEL_OPENB_ARTIFACT_H

#include <stddef.h>
#include <stdint.h>

#include "util/gorand.h"
#include "util/strbuf.h"
#include "model/openb_trace.h"

/* Steps 1-5. *seq (xmalloc'd, *nseq entries) are indexes into pods in
 * arrival order; rank[i] (nnodes entries, caller's) is node i's perm value;
 * *after (may be NULL) receives the stream after Perm (the scheduler's own
 * draws continue it). -1 with err when the trace has no GPU demand or
 * no CPU request (the artifact panics there). */
int openb_artifact_build(const openb_pod *pods, size_t npods, const openb_node *nodes, size_t nnodes, double ratio,
                         int64_t seed, uint32_t **seq, size_t *nseq, uint32_t *rank, gorand *after, strbuf *err);

#endif
