# Placement beyond upstream (docs/PLACEMENT.md): the dynamic-MIG example runs
# with fragmentation-aware placement, deterministically; an unknown policy is
# refused. (tests/place/mig-1gpu.yaml sets policy fgd itself.)
include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
set(_place_out ${CMAKE_CURRENT_BINARY_DIR}/place-cli)
file(MAKE_DIRECTORY ${_place_out})

set(_db ${_place_out}/mig-fgd.db)
drasim_run_facts(_facts ${_db})
drasim_cli_test(NAME place/dra-mig-frag-fgd
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-mig-frag.yaml --policy fgd -o ${_db}
  EXPECT "dra-mig-frag: 4 nodes, 1691 pods arrived, 1672 scheduled, 19 pending at end"
  SQL ${_facts}
      ${_db} "SELECT value > 0 FROM summary WHERE grp = '' AND metric = 'mig_placements_chosen'" "^1$"
      ${_db} "SELECT value >= 0 AND value <= 100 FROM summary WHERE grp = '' AND metric = 'frag_mig_pct_mean'" "^1$")

drasim_cli_test(NAME place/mig-same-seed-same-bytes RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
          -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/place/mig-1gpu.yaml -DOUT=${_place_out}/det.db
          -P ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)

# Every policy runs on every scenario now (tests/policy.cmake); an unknown
# name is refused before anything is written.
drasim_cli_test(NAME place/unknown-policy
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-mig-frag.yaml --policy tetris -o ${_place_out}/unknown-policy.db
  EXIT 2
  EXPECT "^drasim run: --policy: expected one of random, dotprod, gpu-clustering, gpu-packing, bestfit, fgd, found 'tetris'\n$"
  FILE_ABSENT ${_place_out}/unknown-policy.db)
