# Docs that cannot go stale (docs/TESTING.md, "Tested documentation"):
#   docs/blocks/<doc>      every Markdown file's shell blocks run as a reader would
#                          (tests/docs/run_doc_blocks.sh; new docs are picked up by the glob)
#   docs/readme-ci-command README's test command is what .ci/run runs
#   docs/readme-docs-table README's docs table lists every docs/*.md
#   docs/scenario-fields   docs/SCENARIOS.md's fields <-> scenarios drasim loads and the loader's keys
#   docs/schema            docs/SCHEMA.md <-> tables, columns, metrics and values of real databases
#   docs/report-plots      docs/REPORTS.md's plot files <-> what drasim report draws
#   docs/paths             the files and folders the docs name exist
#   docs/flags             the options the docs pass to drasim are in its --help
set(_docs_out ${CMAKE_BINARY_DIR}/docs-tests)
file(MAKE_DIRECTORY ${_docs_out})   # fields-dp/fields-dra write their databases straight into it, whichever docs test runs first
set(_docs_sh ${CMAKE_SOURCE_DIR}/tests/docs)

# The blocks check the documents' content, which does not depend on the build;
# in a sanitizer build they would take minutes (the OpenB and PLACEMENT
# reproductions run 80 simulations), so they run in the normal build only.
file(GLOB _docs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/*.md)
foreach(_doc ${_docs})
  if(DRASIM_SANITIZE)
    break()
  endif()
  file(RELATIVE_PATH _rel ${CMAKE_SOURCE_DIR} ${_doc})
  string(MAKE_C_IDENTIFIER "${_rel}" _id)
  drasim_cli_test(NAME docs/blocks/${_rel} RAW
    COMMAND sh ${_docs_sh}/run_doc_blocks.sh ${_doc} ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim> ${_docs_out}/${_id}
    EXPECT "${_rel}: [0-9]+ shell block[(]s[)] run, ok"
    REJECT "docs test: "
    LABELS docs TIMEOUT 300)
endforeach()

drasim_cli_test(NAME docs/readme-ci-command RAW
  COMMAND sh ${_docs_sh}/check_ci_command.sh ${CMAKE_SOURCE_DIR}
  EXPECT "README.md and .ci/run agree: tools/setup && ctest" LABELS docs)
drasim_cli_test(NAME docs/readme-docs-table RAW
  COMMAND sh ${_docs_sh}/check_docs_table.sh ${CMAKE_SOURCE_DIR}
  EXPECT "README.md lists all [0-9]+ documents" LABELS docs)
drasim_cli_test(NAME docs/paths RAW
  COMMAND sh ${_docs_sh}/check_doc_paths.sh ${CMAKE_SOURCE_DIR}
  EXPECT "all [0-9]+ paths the docs name exist" LABELS docs)
drasim_cli_test(NAME docs/flags RAW
  COMMAND sh ${_docs_sh}/check_doc_flags.sh ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim>
  EXPECT "all [0-9]+ options the docs pass to drasim are in its --help" LABELS docs)
drasim_cli_test(NAME docs/scenario-fields RAW
  COMMAND sh ${_docs_sh}/check_scenario_fields.sh ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim> ${_docs_out}/fields
  EXPECT "all [0-9]+ keys the loader accepts are in docs/SCENARIOS.md; all [0-9]+ fields documented"
  LABELS docs TIMEOUT 300)
drasim_cli_test(NAME docs/schema RAW
  COMMAND sh ${_docs_sh}/check_schema.sh ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim> ${_docs_out}/schema
  EXPECT "docs/SCHEMA.md matches 36 table definitions and [0-9]+ metrics of 31 databases"
  LABELS docs TIMEOUT 300)
drasim_cli_test(NAME docs/report-plots RAW   # a stand-in gnuplot: no rendering, no gnuplot needed
  COMMAND sh ${_docs_sh}/check_report_plots.sh ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim> ${_docs_out}/plots
  EXPECT "the [0-9]+ plot files of docs/REPORTS.md are exactly those drasim report makes"
  LABELS docs TIMEOUT 300)

# The scenarios that use the rare fields run, and their results are the documented ones:
# runs.policy names RequestedToCapacityRatio and the DRA MIG policy (docs/SCHEMA.md), and
# `arrival: {times: [...], start: 5m}` counts the times from start (docs/SCENARIOS.md).
drasim_cli_test(NAME docs/fields-device-plugin
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/docs/fields-device-plugin.yaml -o ${_docs_out}/fields-dp.db
  EXPECT "fields-device-plugin: 2 nodes, 7 pods arrived, 7 scheduled, 0 pending at end"
  SQL ${_docs_out}/fields-dp.db "SELECT policy FROM runs" "^RequestedToCapacityRatio$"
  SQL ${_docs_out}/fields-dp.db "SELECT group_concat(arrival_ms, ' ') FROM (SELECT arrival_ms FROM pods WHERE name LIKE 'pinned-%' ORDER BY pod_id)"
      "^300000 310000 420000$"
  SQL ${_docs_out}/fields-dp.db "SELECT resource, allocatable FROM node_resources WHERE node_id = 0"
      "^nvidia.com/gpu.shared[|]8$"
  LABELS docs)
drasim_cli_test(NAME docs/fields-dra
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/docs/fields-dra.yaml -o ${_docs_out}/fields-dra.db
  EXPECT "fields-dra: 2 nodes, 5 pods arrived, 5 scheduled, 0 pending at end"
  SQL ${_docs_out}/fields-dra.db "SELECT mode || ' ' || policy FROM runs" "^dra fgd$"
  SQL ${_docs_out}/fields-dra.db "SELECT count(DISTINCT pod_id) || ' ' || count(DISTINCT device) FROM claim_allocations WHERE claim = 'team-gpu'"
      "^3 1$"
  SQL ${_docs_out}/fields-dra.db "SELECT value FROM summary WHERE grp = '' AND metric = 'dra_shared_claims_allocated'" "^1[.]0$"
  LABELS docs)
