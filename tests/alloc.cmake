# DRA allocator suites: the conformance runner drives the real `drasim allocate`
# over tests/dra-conformance (upstream-derived cases) and tests/alloc-cases
# (drasim's own cases for the allocator.md §7 checklist), one ctest per case.
add_executable(dra_conformance_runner ${CMAKE_CURRENT_SOURCE_DIR}/dra_conformance_runner.c)
target_link_libraries(dra_conformance_runner PRIVATE drasim_lib)

foreach(suite dra-conformance alloc-cases)
  file(GLOB cases LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${suite}/*)
  foreach(case ${cases})
    if(IS_DIRECTORY ${case} AND EXISTS ${case}/expect.yaml)
      get_filename_component(name ${case} NAME)
      add_test(NAME ${suite}/${name}
               COMMAND dra_conformance_runner $<TARGET_FILE:drasim> ${case})
    endif()
  endforeach()
endforeach()
