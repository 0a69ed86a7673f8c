# The DRA allocator's search budget (issue 10): exponential searches stop after
# a number of search steps, in `drasim allocate` and in `drasim run`, with the
# message / pending reason "allocation search budget exhausted".
set(_ab_dir ${CMAKE_SOURCE_DIR}/tests/alloc-budget)
set(_ab_out ${CMAKE_CURRENT_BINARY_DIR}/alloc-budget)
file(MAKE_DIRECTORY ${_ab_out})

# 64 devices on a 7-unit counter, count 8: without a budget this runs for minutes.
drasim_cli_test(NAME alloc-budget/allocate-default-budget
  COMMAND allocate --stats ${_ab_dir}/counter-64-devices-count-8.yaml
  EXIT 2
  EXPECT "drasim allocate: allocation search budget exhausted: no answer within 1000000 search steps"
         "search steps: 1000001\n"
  TIMEOUT 60)
drasim_cli_test(NAME alloc-budget/allocate-flag
  COMMAND allocate --search-budget 5000 --stats ${_ab_dir}/counter-64-devices-count-8.yaml
  EXIT 2
  EXPECT "allocation search budget exhausted: no answer within 5000 search steps" "search steps: 5001\n")
drasim_cli_test(NAME alloc-budget/allocate-max-steps-alias
  COMMAND allocate --max-steps 77 ${_ab_dir}/counter-64-devices-count-8.yaml
  EXIT 2
  EXPECT "within 77 search steps")
drasim_cli_test(NAME alloc-budget/allocate-bad-flag
  COMMAND allocate --search-budget -3 ${_ab_dir}/counter-64-devices-count-8.yaml
  EXIT 2
  EXPECT "--search-budget needs a non-negative integer, not '-3'")
drasim_cli_test(NAME alloc-budget/allocate-help-documents-budget
  COMMAND allocate --help
  EXPECT "--search-budget N  give up after N search steps" "default 1000000, 0 = no limit")

# drasim run: the unsatisfiable MIG claim is pending with the budget's reason
# (and the run is quick).
drasim_cli_test(NAME alloc-budget/run-pending-reason
  COMMAND run ${_ab_dir}/mig-25x2g-one-node.yaml -o ${_ab_out}/run25.db -q
  ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
  SQL ${_ab_out}/run25.db "select state || ': ' || reason from pods"
      "^Pending: 0/1 nodes are available: 1 allocation search budget exhausted[.]$"
  TIMEOUT 30)
# 24 of them fit: the budget does not stand in the way of a satisfiable claim.
drasim_cli_test(NAME alloc-budget/run-satisfiable-within-budget
  COMMAND run ${_ab_dir}/mig-25x2g-one-node.yaml --set workload.podGroups.big.gpu.dra.claims[0].spec.devices.requests[0].exactly.count=24
          -o ${_ab_out}/run24.db -q
  ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
  SQL ${_ab_out}/run24.db "select state from pods" "^Running$"
  TIMEOUT 30)
drasim_cli_test(NAME alloc-budget/run-negative-budget
  COMMAND run ${_ab_dir}/mig-25x2g-one-node.yaml --set scheduling.searchBudget=-1 -o ${_ab_out}/neg.db
  ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
  EXIT 3
  EXPECT "scheduling.searchBudget: expected a number of search steps >= 0 [(]0 = no limit[)], found -1"
  FILE_ABSENT ${_ab_out}/neg.db)
drasim_cli_test(NAME alloc-budget/run-help-documents-budget
  COMMAND run --help
  EXPECT "--set scheduling.searchBudget=N: DRA allocator search steps per node" "default 1000000, 0 = no limit")

# Issue 31: the short answer for one plain ExactCount request (alloc_search.c
# quick_status) counts the search's steps exactly: 8 of 8 free GPUs take
# 8 + 3 steps (budget 10: pending, 11: both pods run); 8 with 7 free fail
# after 2^7 = 128 steps (budget 127: budget exhausted, 128: unsatisfiable).
foreach(_b 10 11)
  if(_b EQUAL 10)
    set(_want "^Pending 0/1 nodes are available: 1 allocation search budget exhausted[.]\nPending ")
  else()
    set(_want "^Succeeded 513\nSucceeded 300513$")
  endif()
  drasim_cli_test(NAME alloc-budget/run-plain-8-of-8-budget-${_b}
    COMMAND run ${_ab_dir}/plain-8gpu-steps.yaml --set scheduling.searchBudget=${_b} -o ${_ab_out}/plain8-${_b}.db -q
    ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
    SQL ${_ab_out}/plain8-${_b}.db "select state || ' ' || coalesce(scheduled_ms, reason) from pods order by pod_id" "${_want}"
    TIMEOUT 30)
endforeach()
foreach(_b 127 128)
  if(_b EQUAL 127)
    set(_want "^Pending: 0/1 nodes are available: 1 allocation search budget exhausted[.]$")
  else()
    set(_want "^Pending: 0/1 nodes are available: 1 request g needs 8 devices on one node.+the largest free block on any node is 7[.]$")
  endif()
  drasim_cli_test(NAME alloc-budget/run-plain-8-of-7-budget-${_b}
    COMMAND run ${_ab_dir}/plain-7-of-8-steps.yaml --set scheduling.searchBudget=${_b} -o ${_ab_out}/plain7-${_b}.db -q
    ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
    SQL ${_ab_out}/plain7-${_b}.db "select state || ': ' || reason from pods where name = 'eight-0'" "${_want}"
    TIMEOUT 30)
endforeach()
