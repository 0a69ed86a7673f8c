# DRA mode of `drasim run`: the DRA quickstart runs (and is deterministic),
# bad DRA scenarios exit 3 naming FILE:LINE:COL and leave the database alone.
include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
set(_dra_check ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set(_dra_out ${CMAKE_CURRENT_BINARY_DIR}/dra-cli)
file(MAKE_DIRECTORY ${_dra_out})

# No device is held by two pods at once (no shared claims here), and every
# scheduled pod of a group with claims got devices.
set(_db ${_dra_out}/dra-quickstart.db)
drasim_run_facts(_facts ${_db})
drasim_cli_test(NAME dra-sched/quickstart
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml -o ${_db}
  EXPECT "dra-quickstart: 44 nodes, 1000 pods arrived, 1000 scheduled, 0 pending at end [(]0 unschedulable[)]"
  SQL ${_facts}
      ${_db} "SELECT mode, nodes, pods FROM runs" "^dra[|]44[|]1000$"
      ${_db} "SELECT count(*) FROM claim_allocations a JOIN claim_allocations b ON a.run_id = b.run_id AND a.pool = b.pool AND a.device = b.device AND a.pod_id < b.pod_id JOIN pods p ON p.run_id = a.run_id AND p.pod_id = a.pod_id JOIN pods q ON q.run_id = b.run_id AND q.pod_id = b.pod_id JOIN runs r ON r.run_id = a.run_id WHERE p.scheduled_ms < coalesce(q.completion_ms, r.end_ms) AND q.scheduled_ms < coalesce(p.completion_ms, r.end_ms)" "^0$"
      ${_db} "SELECT count(DISTINCT c.pod_id) = (SELECT value FROM summary WHERE grp = '' AND metric = 'dra_claims_created') * 1 FROM claim_allocations c" "^1$"
      ${_db} "SELECT value FROM summary WHERE grp = '' AND metric = 'dra_claims_created'" "^600[.]0$")

drasim_cli_test(NAME dra-sched/same-seed-same-bytes RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
          -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml -DOUT=${_dra_out}/det.db
          -P ${_dra_check})

foreach(_case
    "dra_unserved|dra_unserved.yaml:12:5: pod group 'mig': extended resource nvidia.com/mig-1g.5gb is not served"
    "dra_bad_claim|dra_bad_claim.yaml:20:92: unknown field 'cont' in ResourceClaimTemplate g/gpu")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  drasim_cli_test(NAME dra-sched/error-${_name} RAW
    COMMAND ${CMAKE_COMMAND} -DMODE=error -DDRASIM=$<TARGET_FILE:drasim>
            -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/scenarios/${_name}.yaml -DOUT=${_dra_out}/${_name}.db
            "-DEXPECT=${_expect}" -P ${_dra_check})
endforeach()

# The OpenB default experiment in DRA mode (GPUs as shared devices with a milli
# capacity), with the openb-artifact profile: the arrival curve at 130 %
# arrived is the published BestFit seed-43 row (93.25 / 6.69, the same as
# device-plugin mode); the arrived demand is 130 % by construction.
set(_db ${_dra_out}/openb-dra.db)
drasim_cli_test(NAME dra-sched/openb-default-dra
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/openb/default-dra.yaml --policy bestfit --seed 43 -o ${_db}
  EXPECT "openb-default-dra: 1213 nodes, [0-9]+ pods arrived"
         "policy bestfit: 130% of GPU capacity arrived[;] 9[23][.][0-9]+% of GPUs allocated"
  SQL ${_db} "SELECT mode, policy, seed, nodes FROM runs" "^dra[|]bestfit[|]43[|]1213$"
      ${_db} "SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_total'" "^6212[.]0$"
      ${_db} "SELECT value BETWEEN 93.24 AND 93.26 FROM summary WHERE grp = '' AND metric = 'gpu_milli_alloc_pct_end'" "^1$"
      ${_db} "SELECT gpu_alloc_pct, frag_gpu_pct FROM arrival_curve WHERE arrived_pct = 130" "^93[.]25[|]6[.]69$"
      ${_db} "SELECT value BETWEEN 129.9 AND 130.1 FROM summary WHERE grp = '' AND metric = 'arrived_gpu_pct'" "^1$"
      ${_db} "SELECT value FROM summary WHERE grp = '' AND metric = 'dra_device_choice_differs'" "^0[.]0$"
      ${_db} "SELECT (SELECT value FROM summary WHERE grp = '' AND metric = 'pods_arrived') = (SELECT value FROM summary WHERE grp = '' AND metric = 'pods_scheduled') + (SELECT value FROM summary WHERE grp = '' AND metric = 'pods_pending_at_end')" "^1$")
