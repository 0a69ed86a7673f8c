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

# issue 25 finding 13: pools identical but for their name are one dimension
# (their total, 4..96): probe 96, then bisect [4, 96) -> 50, 27, 15 pass, 9
# fails, 12, 11, 10 pass: 8 probes (tests/plan/twins.yaml: 10 nodes needed),
# the answer split lexicographically smallest; the grid holds 24^4 points.
drasim_cli_test(NAME plan/twins-searched-by-total
  COMMAND plan ${_plan}/twins.yaml --expect ${_plan}/twins-slo.yaml -j 1
          --vary rack1=1..24 --vary rack2=1..24 --vary rack3=1..24 --vary rack4=1..24
  EXPECT "rack1, rack2, rack3, rack4: identical but for their name.*answer: rack1=1 rack2=1 rack3=1 rack4=7 [(]10 nodes[)] after 8 probes")
# a pool another field names (here a --set) is not a twin: the walk covers each pool
drasim_cli_test(NAME plan/twins-named-not-merged
  COMMAND plan ${_plan}/twins.yaml --expect ${_plan}/twins-slo.yaml -j 2 -q
          --vary rack1=1..6 --vary rack2=1..6 --set cluster.nodePools.rack2.cpu=4
          --set cluster.nodePools.rack3.count=0 --set cluster.nodePools.rack4.count=0
  EXPECT "answer: rack1=4 rack2=6 [(]10 nodes[)]" REJECT "identical but")
# the all-zero fleet is a failing point, not an error: probe 4 passes, 2, 1
# pass, 0 has no node: fails; answer 1 after 4 probes
drasim_cli_test(NAME plan/zero-fleet-fails
  COMMAND plan ${_plan}/twins.yaml --expect ${_plan}/any-slo.yaml -j 1 --vary rack1=0..4
          --set cluster.nodePools.rack2.count=0 --set cluster.nodePools.rack3.count=0
          --set cluster.nodePools.rack4.count=0
  EXPECT "    4      0      0  FAIL    the fleet has no nodes.*answer: rack1=1 [(]1 node[)] after 4 probes")
# issue 25 finding 19: a misspelled group is refused by plan as by check (exit 3), nothing written
drasim_cli_test(NAME plan/refused-typo-group
  COMMAND plan ${_plan}/plan.yaml --expect ${_plan}/typo-group.yaml --vary big=1..8 -o ${_plan_out}/typo.db
  EXIT 3 EXPECT "typo-group.yaml:5:3: threshold 'max[(]wait_censored_p99_s[{]group=lage[}][)] <= 1800': no group 'lage' in the results [(]groups: large, small[)]"
  FILE_ABSENT ${_plan_out}/typo.db)
drasim_cli_test(NAME plan/check-refuses-typo-group
  COMMAND check ${_plan}/plan.yaml --expect ${_plan}/typo-group.yaml
  EXIT 3 EXPECT "typo-group.yaml:5:3: threshold 'max[(]wait_censored_p99_s[{]group=lage[}][)] <= 1800': no group 'lage' in the results")
