/*
 * sim_crash.h -- pods whose container a GPU failure killed (issue 26): the
 * work lost since the last checkpoint, the GPU-time held while no progress
 * is made, and kubelet's restarts in place (CrashLoopBackOff).
 *
 * A fatal XID kills the CUDA process of every pod on that GPU
 * (workload/faults_crash.c decides what follows from the pod's
 * restartPolicy). The pod keeps its devices: the device plugin never hands a
 * bound pod other devices, so an in-place restart runs on the failed GPU
 * again and fails at once until the GPU is repaired. kubelet restarts a
 * failed container after a back-off that starts at 10 s and doubles up to
 * 5 min, and forgets it once the container ran 10 min without failing
 * (kubernetes pkg/kubelet/kubelet.go, v1.33 and later: initialCrashLoopBackOff
 * = 10 s, MaxCrashLoopBackOff = v1beta1.MaxContainerBackOff = 300 s, the
 * same values as containerBackOffPeriod/MaxContainerBackOff of earlier
 * releases; KEP-4603's alpha gates ReduceDefaultCrashLoopBackOffDecay (1 s
 * to 60 s) and KubeletCrashLoopBackOffMax are off by default and not
 * modelled; client-go util/flowcontrol/backoff.go: IsInBackOffSince, Next,
 * hasExpired after 2 x max).
 *
 * A pod's progress is the run time that counts towards its duration: a
 * stalled pod (one whose completion waits for its work) makes none while
 * its process is dead, and resumes from its last checkpoint (owner job; a
 * bare pod from the start). A service's replica does not stall: its
 * lifetime goes on. Records exist only for pods a crash touched, so runs
 * without GPU failures pay one NULL test per completion and per pod end.
 */
#ifndef DRASIM_ENGINE_SIM_CRASH_H
#define DRASIM_ENGINE_SIM_CRASH_H

#include "engine/sim.h"

#define CRASH_BACKOFF_INITIAL SIM_SECONDS(10)   /* kubelet.go initialCrashLoopBackOff */
#define CRASH_BACKOFF_MAX SIM_SECONDS(300)      /* MaxCrashLoopBackOff */

/* The progress of pod id at t (run time since its start when no crash touched it). */
sim_time sim_crash_progress(const sim_run *r, uint32_t id, sim_time t);

/* Pod id's process died at t. `stalls`: its completion waits for its progress
 * (the kubelet model: its queued completion is void); else only measured
 * (DRA mode, usage profiles, a service's replica). Returns false when it was
 * dead already (nothing counted). */
bool sim_crash_kill(sim_run *r, uint32_t id, bool stalls, sim_time t);
/* kubelet: the dead container of pod id exited at t; when it starts again
 * (t itself when the back-off has nothing against it), its back-off entry
 * updated as of that start. */
sim_time sim_crash_restart_at(sim_run *r, uint32_t id, sim_time t);
/* The container starts at t (a restart); `runs`: it keeps running (its GPUs
 * are healthy), its progress resumes from what was saved and, when it
 * stalls, its completion is queued again. */
void sim_crash_start(sim_run *r, uint32_t id, bool runs, sim_time t);
/* Measured only: pod id's GPUs are healthy again at t (the crash loop ends). */
void sim_crash_close(sim_run *r, uint32_t id, sim_time t);
/* restartPolicy Never: the container failed, so does the pod (POD_FAILED,
 * reason Error) and its resources are free; its owner creates a replacement
 * that redoes the work since the last checkpoint (sim_replace). */
void sim_crash_fail(sim_run *r, uint32_t id, sim_time t);
/* Whether pod id's process is dead now. */
bool sim_crash_down(const sim_run *r, uint32_t id);

/* Engine hooks (r->crash set): a completion of pod id at t that no longer
 * counts; whether pod id has a completion queued (sim_stop_completion); pod
 * id ends at t. */
bool sim_crash_stale(const sim_run *r, uint32_t id, sim_time t);
bool sim_crash_has_completion(const sim_run *r, uint32_t id);
void sim_crash_ended(sim_run *r, uint32_t id, sim_time t);
void sim_crash_free(sim_run *r);

/* Summary metrics, whole run and per group (after sim_group_summary); every
 * run writes them, 0 when no GPU failed under a pod (docs/SCHEMA.md). */
void sim_crash_summary(sim_run *r);

#endif
