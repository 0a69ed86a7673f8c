# Issue 13: driver-format dumps of every supported version (tests/recorded/,
# origins in tests/recorded/README.md) load and schedule; GPU counts without
# labels; unknown products; matchAttribute on numaNode; slice order on a
# 16-GPU dynamic-MIG node.
set(_rv ${CMAKE_CURRENT_SOURCE_DIR}/recorded)
set(_rv_out ${CMAKE_CURRENT_BINARY_DIR}/recorded-versions)
file(MAKE_DIRECTORY ${_rv_out})

# v25.8 on AKS (pcieBusID, old MIG names, kubectl List with server metadata):
# the catalog knows the A100 80GB PCIe; 4 x 1g.10gb and 2 x 3g.40gb at once.
drasim_cli_test(NAME recorded/v25.8-aks
  COMMAND run ${_rv}/run-v25.8-aks.yaml -o ${_rv_out}/v25.8.db --force
  EXPECT "rec-v25.8-aks: 1 nodes, 7 pods arrived, 7 scheduled, 0 pending"
  SQL ${_rv_out}/v25.8.db "SELECT gpu_model || '/' || gpus FROM nodes" "^A100-PCIE-80GB/2$"
      ${_rv_out}/v25.8.db "SELECT count(*) FROM claim_allocations WHERE device LIKE 'gpu-_-mig-19-_-1'" "^5$"
      ${_rv_out}/v25.8.db "SELECT count(*) FROM pods WHERE wait_ms = 0" "^6$")
# resource.k8s.io/v1beta1 (basic wrapper) and v1beta2, converted as the API server does
drasim_cli_test(NAME recorded/v1beta1
  COMMAND run ${_rv}/run-v1beta1.yaml -o ${_rv_out}/v1beta1.db --force
  EXPECT "rec-v1beta1: 1 nodes, 3 pods arrived, 3 scheduled"
  SQL ${_rv_out}/v1beta1.db "SELECT gpu_model || '/' || gpus FROM nodes" "^H100-80GB/2$"
      ${_rv_out}/v1beta1.db "SELECT count(*) FROM pods WHERE wait_ms > 1700000" "^1$")
drasim_cli_test(NAME recorded/v1beta2
  COMMAND run ${_rv}/run-v1beta2.yaml -o ${_rv_out}/v1beta2.db --force
  EXPECT "rec-v1beta2: 1 nodes, 4 pods arrived, 4 scheduled, 0 pending"
  SQL ${_rv_out}/v1beta2.db "SELECT count(DISTINCT device) FROM claim_allocations WHERE device LIKE '%-mig-1g10gb-19-%'" "^4$")
# a DRA-only static-MIG node (no GFD labels): 2 GPUs counted from the MIG
# devices' parents, model from productName, allocation reported (was 0 %)
drasim_cli_test(NAME recorded/dra-only-static-mig-gpu-count
  COMMAND run ${_rv}/run-dra-only.yaml -o ${_rv_out}/dra-only.db --force
  EXPECT "GPU allocation 35[.]7% [(]peak 71[.]4%[)]"
  SQL ${_rv_out}/dra-only.db "SELECT gpu_model || '/' || gpus FROM nodes" "^A100-40GB/2$"
      ${_rv_out}/dra-only.db "SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_total'" "^2[.]0$")
# nodes, slices and classes in three files; dynamic MIG split layout
drasim_cli_test(NAME recorded/several-files
  COMMAND run ${_rv}/run-split.yaml -o ${_rv_out}/split.db --force
  EXPECT "rec-split: 2 nodes, 10 pods arrived, 10 scheduled, 0 pending"
  REJECT "warning"
  SQL ${_rv_out}/split.db "SELECT group_concat(name || '=' || gpus, ' ') FROM nodes" "^hgx-0=2 hgx-1=2$"
      ${_rv_out}/split.db "SELECT cpu_milli FROM nodes WHERE name = 'hgx-0'" "^192000$")
# slices only: Nodes from nodeName, with the warning; pods without CPU requests run
drasim_cli_test(NAME recorded/slices-only
  COMMAND run ${_rv}/run-slices-only.yaml -o ${_rv_out}/slices-only.db --force
  EXPECT "warning: .*split/slices.yaml:[0-9]+:[0-9]+: 2 nodes created from ResourceSlice nodeName .*e.g. hgx-0.: their CPU and memory are unknown"
         "rec-slices-only: 2 nodes, 4 pods arrived, 4 scheduled, 0 pending"
  SQL ${_rv_out}/slices-only.db "SELECT group_concat(name || '=' || gpus || '/' || cpu_milli, ' ') FROM nodes" "^hgx-0=2/0 hgx-1=2/0$")
# the 1.34 combined dynamic-MIG layout: read on 1.34; refused with a hint on 1.36
drasim_cli_test(NAME recorded/combined-1.34
  COMMAND run ${_rv}/run-combined-1.34.yaml -o ${_rv_out}/combined.db --force
  EXPECT "rec-combined-1.34: 1 nodes, 8 pods arrived, 8 scheduled, 0 pending"
  SQL ${_rv_out}/combined.db "SELECT count(DISTINCT device) FROM claim_allocations" "^8$"
      ${_rv_out}/combined.db "SELECT count(*) FROM claim_allocations WHERE device IN ('gpu-0', 'gpu-1')" "^1$")
drasim_cli_test(NAME recorded/combined-needs-1.34 EXIT 3
  COMMAND run ${_rv}/run-combined-1.34.yaml --k8s-version 1.36 -o ${_rv_out}/combined-136.db --force
  EXPECT "dyn-combined-1.34.yaml:[0-9]+:[0-9]+: ResourceSlice .*: devices and sharedCounters are mutually exclusive in one slice .the dynamic-MIG layout the driver publishes on Kubernetes 1.34: set cluster.kubernetesVersion: \"1.34\" to read it."
  FILE_ABSENT ${_rv_out}/combined-136.db)
# a product the catalog does not know: a warning naming it; the run goes on
drasim_cli_test(NAME recorded/unknown-product
  COMMAND run ${_rv}/run-unknown-a30.yaml -o ${_rv_out}/a30.db --force
  EXPECT "warning: .*unknown-a30.yaml:8:3: Node a30-0: GPU product 'NVIDIA A30' is not in the GPU catalog"
         "rec-unknown-a30: 1 nodes, 1 pods arrived, 1 scheduled"
  SQL ${_rv_out}/a30.db "SELECT ifnull(gpu_model, 'none') || '/' || gpus FROM nodes" "^none/1$")
# matchAttribute on resource.kubernetes.io/numaNode never fits (no release
# publishes it); the same claim on productName does
drasim_cli_test(NAME recorded/numa-node-match-attribute-fails
  COMMAND run ${_rv}/run-numa.yaml -o ${_rv_out}/numa.db --force
  EXPECT "numa: 1 pod: 0/1 nodes are available: 1 cannot allocate all claims"
  SQL ${_rv_out}/numa.db "SELECT group_concat(name || '=' || state, ' ') FROM (SELECT name, state FROM pods ORDER BY name)"
      "^numa-0=Pending product-0=Succeeded$")
# a 16-GPU dynamic-MIG node: 18 slices whose v0.36 names sort in publication
# order (00000 < 00001 < ... < 00011), so first fit takes GPU 0's MIG device
# and, GPU 0 then being partly used, the whole gpu-1 (with unpadded names
# slice 10 sorted before slice 2 and the allocator took gpu-8 first)
drasim_cli_test(NAME recorded/slice-order-16-gpu-dynamic-mig RAW
  COMMAND sh -c "'$<TARGET_FILE:drasim>' inventory '${CMAKE_CURRENT_SOURCE_DIR}/inventory/dyn16-scenario.yaml' -o '${_rv_out}/dyn16.yaml' --force || exit 1
grep -c '^kind: ResourceSlice' '${_rv_out}/dyn16.yaml'
grep '^  name: 000' '${_rv_out}/dyn16.yaml' | cut -c9-14 | sort -c && echo sorted
'$<TARGET_FILE:drasim>' allocate '${_rv_out}/dyn16.yaml' '${CMAKE_CURRENT_SOURCE_DIR}/inventory/dyn16-claims.yaml' | grep 'device:'"
  EXPECT "^18\nsorted\n        device: gpu-0-mig-1g10gb-19-0\n        device: gpu-1\n$")
# drasim allocate --k8s-version 1.34 reads the combined layout; the counters
# count only with DRAPartitionableDevices on (off by default on 1.34)
drasim_cli_test(NAME recorded/allocate-combined-1.34
  COMMAND allocate --k8s-version 1.34 --features AdminAccess,PrioritizedList,PartitionableDevices
          ${_rv}/dyn-combined-1.34.yaml ${CMAKE_CURRENT_SOURCE_DIR}/inventory/dyn16-claims.yaml
  EXPECT "device: gpu-0-mig-1g10gb-19-0\n(.*\n)*        device: gpu-1\n")
drasim_cli_test(NAME recorded/allocate-combined-1.34-gate-off EXIT 1
  COMMAND allocate --k8s-version 1.34 ${_rv}/dyn-combined-1.34.yaml ${CMAKE_CURRENT_SOURCE_DIR}/inventory/dyn16-claims.yaml
  EXPECT "the claims do not fit on node hgx134-0")
