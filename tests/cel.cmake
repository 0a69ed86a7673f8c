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
add_test(NAME cel-cli/device-match
         COMMAND drasim cel eval --device "${CEL_SLICE}#gpu-0-mig-1g10gb-19-0"
                 "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\" && device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"9Gi\")) > 0 && device.attributes[\"resource.kubernetes.io\"].numaNode == 0")
set_tests_properties(cel-cli/device-match PROPERTIES PASS_REGULAR_EXPRESSION "^true\n$")
add_test(NAME cel-cli/device-print COMMAND drasim cel eval "--device=${CEL_SLICE}#gpu-0" "device.attributes[\"gpu.nvidia.com\"]")
set_tests_properties(cel-cli/device-print PROPERTIES PASS_REGULAR_EXPRESSION
  "^\\{\"driverVersion\": semver\\(\"570.172.8\"\\), \"productName\": \"NVIDIA H100 80GB HBM3\", \"type\": \"gpu\"\\}\n$")
add_test(NAME cel-cli/device-bad-version
         COMMAND drasim cel eval --device "${CMAKE_CURRENT_SOURCE_DIR}/cel-conformance/cli/slice-broken.yaml#broken" "true")
set_tests_properties(cel-cli/device-bad-version PROPERTIES
  PASS_REGULAR_EXPRESSION "slice-broken.yaml:[0-9]+:[0-9]+: ResourceSlice node-h100-b-gpu.nvidia.com: .*invalid semantic version 'v570'")
add_test(NAME cel-cli/leading-dash COMMAND drasim cel eval -- -2.3e+1)
set_tests_properties(cel-cli/leading-dash PROPERTIES PASS_REGULAR_EXPRESSION "^-23.0\n$")
