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
