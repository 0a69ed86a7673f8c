/*
 * sim_pin.h -- pods the queue layer pins to nodes (queue/gate.h queue_pin):
 * Kueue's topology ungater adds the assigned domain's labels to a pod's
 * nodeSelector (kubernetes-sigs/kueue ff69552e79
 * pkg/controller/tas/topology_ungater.go: maps.Copy into
 * pod.Spec.NodeSelector). In drasim a pod's nodeSelector is its class's, so
 * the pod moves to the class of its pod group with that selector added
 * (one class per group and selector, made once); kube-scheduler's
 * NodeAffinity filter then keeps it in its domain. The pod keeps its name
 * ("<group>-<ordinal>"), its gang and, when evicted, its owner's replacement
 * goes to the pod group's own class again (the new pod is gated afresh).
 */
#ifndef DRASIM_ENGINE_SIM_PIN_H
#define DRASIM_ENGINE_SIM_PIN_H

#include "engine/sim.h"
#include "queue/gate.h"

/* Pin pending pod `pin->pod` (see above). */
void sim_pin_pod(sim_run *r, const queue_pin *pin);
/* The class a pinned pod's class was made from (c itself otherwise). */
uint32_t sim_class_origin(const sim_run *r, uint32_t c);
void sim_pins_free(sim_run *r);

#endif
