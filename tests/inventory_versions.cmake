# Issue 13: slices as each NVIDIA DRA driver release publishes them, read back
# identically; drasim inventory --set/--k8s-version/--seed.
set(_iv ${CMAKE_CURRENT_SOURCE_DIR}/inventory)
set(_iv_out ${CMAKE_CURRENT_BINARY_DIR}/inventory-versions)
file(MAKE_DIRECTORY ${_iv_out})

drasim_cli_test(NAME inventory/round-trip-every-driver-version RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${_iv_out}/rt
          -P ${_iv}/round_trip.cmake
  EXPECT "round trips: 12 identical")

# --set edits the scenario before the cluster is built, as in drasim run
drasim_cli_test(NAME inventory/set-and-catalog
  COMMAND inventory ${_iv}/versions-scenario.yaml --set cluster.nodePools[0].count=5
          --set cluster.draDriver.version=v25.8 --set cluster.nodePools[2].gpu.mig=none
          --catalog ${CMAKE_SOURCE_DIR}/data/gpu-catalog.yaml -o ${_iv_out}/set.yaml --force
  FILE_EXISTS ${_iv_out}/set.yaml)
drasim_cli_test(NAME inventory/set-count-applied RAW
  COMMAND sh -c "grep -c '^kind: Node' '${_iv_out}/set.yaml'
grep -c 'pcieBusID:' '${_iv_out}/set.yaml'
grep -c 'resource.kubernetes.io/pciBusID' '${_iv_out}/set.yaml'
grep -c 'name: h100-4-gpu.nvidia.com-' '${_iv_out}/set.yaml'"
  DEPENDS inventory/set-and-catalog
  EXPECT "^7\n[1-9][0-9]*\n0\n1\n$")
drasim_cli_test(NAME inventory/set-bad-key EXIT 3
  COMMAND inventory ${_iv}/versions-scenario.yaml --set cluster.draDriver.version=v9
  EXPECT "--set cluster.draDriver.version:1:[0-9]+: draDriver.version: expected one of v25.3, v25.8, v25.12, v0.4, found 'v9'")
drasim_cli_test(NAME inventory/k8s-version-bad EXIT 2
  COMMAND inventory ${_iv}/versions-scenario.yaml --k8s-version 1.33
  EXPECT "--k8s-version: expected 1.34, 1.35 or 1.36, found '1.33'")
drasim_cli_test(NAME inventory/dynamic-mig-needs-v25.12 EXIT 3
  COMMAND inventory ${_iv}/versions-scenario.yaml --set cluster.draDriver.version=v25.3
  EXPECT "versions-scenario.yaml:27:[0-9]+: gpu.mig: dynamic MIG needs driver v25.12 or later .draDriver.version is v25.3.")
# the seed draws slice names and device order: another seed, other names;
# without --seed the scenario's (3)
drasim_cli_test(NAME inventory/seed-changes-names RAW
  COMMAND sh -c "for s in '--seed 3' '--seed 4' ''
do '$<TARGET_FILE:drasim>' inventory '${_iv}/versions-scenario.yaml' $s > '${_iv_out}/seed.yaml' || exit 1
grep -m1 'name: 00000-gpu' '${_iv_out}/seed.yaml'
done"
  EXPECT "^  name: 00000-gpu.nvidia.com-h100-0-nwdmv\n  name: 00000-gpu.nvidia.com-h100-0-24k6j\n  name: 00000-gpu.nvidia.com-h100-0-nwdmv\n$")
# --k8s-version changes the scheduler too: DRA-backed extended resources
# (DRAExtendedResource) only from 1.36
drasim_cli_test(NAME inventory/extended-resources-1.36
  COMMAND run ${_iv}/extended-scenario.yaml -o ${_iv_out}/ext.db --force
  EXPECT "extended: 1 nodes, 2 pods arrived, 2 scheduled, 0 pending")
drasim_cli_test(NAME inventory/extended-resources-off-1.35 EXIT 3
  COMMAND run ${_iv}/extended-scenario.yaml --k8s-version 1.35 -o ${_iv_out}/ext135.db --force
  EXPECT "extended-scenario.yaml:15:5: pod group 'ext': extended resource nvidia.com/gpu: Kubernetes 1.35 serves no extended resource through DRA"
  FILE_ABSENT ${_iv_out}/ext135.db)
# every driver release's output, compute-domain slices included, passes the
# offline Kubernetes API schema (tools/k8s-schema; it reads no kind: List, so
# not the recorded dumps)
foreach(_v v25.3 v25.8 v25.12 v0.4)
  set(_mig)
  if(_v STREQUAL "v25.3" OR _v STREQUAL "v25.8")
    set(_mig --set cluster.nodePools[2].gpu.mig=none)
    set(_nc 4)
  else()
    set(_nc 5)
  endif()
  drasim_k8s_validate(NAME k8s-schema/inventory-driver-${_v}
    COMMAND inventory ${_iv}/versions-scenario.yaml --set cluster.draDriver.version=${_v} ${_mig}
    EXPECT "4 Node, ${_nc} DeviceClass, [0-9]+ ResourceSlice")
endforeach()
