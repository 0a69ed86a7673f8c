# CEL conformance: one ctest per case file in tests/cel-conformance/, each
# running every case through the real `drasim cel eval` (fork/exec, no shell).
# Cases that are known not to pass are listed, with the reason, in skip.txt.
add_executable(cel_conformance_runner ${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/runner.c)
target_link_libraries(cel_conformance_runner PRIVATE drasim_lib)
add_dependencies(cel_conformance_runner drasim)
file(GLOB DRASIM_CEL_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/*.yaml)
foreach(cases ${DRASIM_CEL_CASES})
  get_filename_component(stem ${cases} NAME_WE)
  add_test(NAME cel-conformance/${stem}
           COMMAND cel_conformance_runner $<TARGET_FILE:drasim>
                   ${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/skip.txt ${cases})
endforeach()

# `drasim cel eval --device FILE#DEVICE`: the device variable read from a ResourceSlice.
set(CEL_SLICE ${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/cli/slice.yaml)
drasim_cli_test(NAME cel-cli/device-match
  COMMAND cel eval --device "${CEL_SLICE}#gpu-0-mig-1g10gb-19-0"
          "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\" && device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"9Gi\")) > 0 && device.attributes[\"resource.kubernetes.io\"].numaNode == 0"
  EXPECT "^true\n$")
drasim_cli_test(NAME cel-cli/device-print
  COMMAND cel eval "--device=${CEL_SLICE}#gpu-0" "device.attributes[\"gpu.nvidia.com\"]"
  EXPECT "^\\{\"driverVersion\": semver\\(\"570.172.8\"\\), \"productName\": \"NVIDIA H100 80GB HBM3\", \"type\": \"gpu\"\\}\n$")
drasim_cli_test(NAME cel-cli/device-bad-version
  COMMAND cel eval --device "${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/cli/slice-broken.yaml#broken" "true"
  EXIT 3
  EXPECT "slice-broken.yaml:[0-9]+:[0-9]+: ResourceSlice node-h100-b-gpu.nvidia.com: .*invalid semantic version 'v570'"
  REJECT "true")
drasim_cli_test(NAME cel-cli/leading-dash
  COMMAND cel eval -- -2.3e+1
  EXPECT "^-23.0\n$")
