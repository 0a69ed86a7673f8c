/*
 * dra_driver.h -- what differs between the NVIDIA DRA driver releases drasim
 * publishes slices for (v25.3, v25.8, v25.12 of NVIDIA/k8s-dra-driver-gpu and
 * v0.4 of kubernetes-sigs/dra-driver-nvidia-gpu): attribute sets, MIG device
 * names, the resourceslice controller's slice names and the Helm chart's
 * DeviceClasses. docs/INVENTORY.md has the table with sources.
 */
#ifndef DRASIM_MODEL_DRA_DRIVER_H
#define DRASIM_MODEL_DRA_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/cluster.h"
#include "util/rng.h"

/* "v25.12", "25.12" or "v25.12.0" -> DRA_DRIVER_V25_12. Returns 0 or -1. */
int dra_driver_parse(const char *s, dra_driver_version *out);
const char *dra_driver_name(dra_driver_version v);      /* "v25.12" */
const char *dra_driver_names(void);                    /* "v25.3, v25.8, v25.12, v0.4" */

/* Feature flags of a release (each cites its source in dra_driver.c). */
bool dra_driver_has_dynamic_mig(dra_driver_version v);      /* DynamicMIG gate: v25.12+ */
bool dra_driver_has_index_attrs(dra_driver_version v);      /* minor/index/parentIndex: v25.3 */
bool dra_driver_std_pci_bus_id(dra_driver_version v);       /* resource.kubernetes.io/pciBusID vs pcieBusID */
bool dra_driver_has_addressing_mode(dra_driver_version v);  /* addressingMode: v25.12+ */
bool dra_driver_profile_in_mig_names(dra_driver_version v); /* gpu-0-mig-1g10gb-19-0 vs gpu-0-mig-19-0-1 */

/* The name the API server gives the index-th of n slices of `node`'s pool
 * for `driver` (generateName of that release's resourceslice controller plus
 * 5 random characters drawn from r). Written to buf (>= 64 bytes). */
void dra_slice_name(char *buf, size_t size, dra_driver_version v, const char *node, const char *driver, size_t index,
                    size_t n, rng *r);

/* The chart's DeviceClasses with default values: gpu.nvidia.com (with
 * extendedResourceName from v25.12 on), mig.nvidia.com, vfio.gpu.nvidia.com
 * (v25.12+), compute-domain-daemon.nvidia.com and
 * compute-domain-default-channel.nvidia.com. */
k8s_device_class *dra_driver_classes(arena *a, dra_driver_version v, size_t *n);

#endif
