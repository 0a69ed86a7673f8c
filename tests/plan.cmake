# `drasim plan` (docs/CI.md): the answer equals a full grid's while probing at
# most a third of it; bad input exits 2 (usage) or 3 (expect file) and writes
# nothing.
set(_plan ${CMAKE_SOURCE_DIR}/tests/plan)
set(_plan_out ${CMAKE_CURRENT_BINARY_DIR}/plan)
file(MAKE_DIRECTORY ${_plan_out})
drasim_cli_test(NAME plan/equals-grid RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DDIR=${_plan} -P ${_plan}/grid_check.cmake
  EXPECT "grid answer: big=[0-9]+ small=[0-9]+" TIMEOUT 60)
drasim_cli_test(NAME plan/database-and-report
  COMMAND plan ${_plan}/plan.yaml --expect ${_plan}/slo.yaml --seeds 1..2 --vary big=1..8 --vary small=1..8
          -j 2 -o ${_plan_out}/plan.db --force
  EXPECT "answer: big=4 small=8 [(]12 nodes[)] after 7 probes"
  SQL ${_plan_out}/plan.db "SELECT count(*) FROM plan" "^7$"
      ${_plan_out}/plan.db "SELECT count(*) FROM runs" "^14$"
      ${_plan_out}/plan.db "SELECT point FROM plan WHERE answer = 1" "^big=4 small=8$"
      ${_plan_out}/plan.db "SELECT count(DISTINCT run_id) FROM sweep WHERE param = 'cluster.nodePools.big.count'" "^14$")
drasim_cli_test(NAME plan/cost
  COMMAND plan ${_plan}/plan.yaml --expect ${_plan}/slo.yaml --seeds 1..2 --vary big=1..8 --vary small=1..8
          -j 2 --cost big=3 --cost small=1 -q
  EXPECT "answer: big=4 small=8 [(]12 nodes, 20 per hour[)]")
foreach(_case
    "no-pool|--vary nope=1..3|2|has no node pool named 'nope' [(]its pools: big, small[)]"
    "inverted|--vary big=5..2|2|--vary big=5..2: inverted range"
    "negative|--vary big=-1..2|2|MIN must be at least 0"
    "cost-unknown|--vary big=1..2 --cost small=2|2|no --vary names the pool 'small'")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _vary)
  list(GET _p 2 _exit)
  list(GET _p 3 _msg)
  separate_arguments(_vary)
  drasim_cli_test(NAME plan/refused-${_name}
    COMMAND plan ${_plan}/plan.yaml --expect ${_plan}/slo.yaml ${_vary} -o ${_plan_out}/${_name}.db
    EXIT ${_exit} EXPECT "${_msg}" FILE_ABSENT ${_plan_out}/${_name}.db)
endforeach()
drasim_cli_test(NAME plan/refused-bad-expect
  COMMAND plan ${_plan}/plan.yaml --expect ${CMAKE_SOURCE_DIR}/tests/check/bad-threshold.yaml --vary big=1..2
          -o ${_plan_out}/bad-expect.db
  EXIT 3 EXPECT "bad-threshold.yaml:[0-9]+:[0-9]+" FILE_ABSENT ${_plan_out}/bad-expect.db)
