# OpenB profile openb-artifact through the CLI (exact per-seed curves in
# unit/test_openb_artifact; the whole matrix is tools/openb/reproduce.sh),
# the nodes table of trace runs, and hostile trace inputs.
set(_oa_out ${CMAKE_CURRENT_BINARY_DIR}/openb-artifact-cli)
file(MAKE_DIRECTORY ${_oa_out})
set(_oa_in ${CMAKE_SOURCE_DIR}/tests/openb)

# the documented seed-42 values (shared spec openb-fgd.md, Appendix A), and
# what the nodes table records for the trace's nodes (GPUs, model, 1001 pods)
drasim_cli_test(NAME openb-artifact/default-fgd-42
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/openb/default.yaml --policy fgd --seed 42 -o ${_oa_out}/fgd42.db
  EXPECT "policy fgd: 130% of GPU capacity arrived"
  SQL ${_oa_out}/fgd42.db "SELECT gpu_alloc_pct, frag_gpu_pct FROM arrival_curve WHERE arrived_pct = 130" "^95[.]29[|]4[.]69$"
  SQL ${_oa_out}/fgd42.db "SELECT gpus, max_pods, gpu_model FROM nodes WHERE name = 'openb-node-0000'" "^2[|]1001[|]P100$"
  SQL ${_oa_out}/fgd42.db "SELECT sum(gpus), count(*), count(DISTINCT gpu_model) FROM nodes" "^6212[|]1213[|]7$")

drasim_cli_test(NAME openb-artifact/default-bestfit-42
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/openb/default.yaml --policy bestfit --seed 42 -o ${_oa_out}/bf42.db
  SQL ${_oa_out}/bf42.db "SELECT gpu_alloc_pct, frag_gpu_pct FROM arrival_curve WHERE arrived_pct = 130" "^93[.]13[|]6[.]8$")

drasim_cli_test(NAME openb-artifact/error-inflate-cpu-only
  COMMAND run ${_oa_in}/inflate-cpu-only.yaml -o ${_oa_out}/cpu-only.db
  EXIT 3
  EXPECT "inflate-cpu-only[.]yaml:[0-9]+:[0-9]+: .*cpu_only_pods[.]csv requests no GPU"
  FILE_ABSENT ${_oa_out}/cpu-only.db)

drasim_cli_test(NAME openb-artifact/error-replay-huge-times
  COMMAND run ${_oa_in}/replay-huge-times.yaml -o ${_oa_out}/huge.db
  EXIT 3
  EXPECT "replay-huge-times[.]yaml:[0-9]+:[0-9]+: .*spans 1000000000000010 s, .*samples"
  FILE_ABSENT ${_oa_out}/huge.db
  TIMEOUT 20)

drasim_cli_test(NAME openb-artifact/error-profile-needs-inflate
  COMMAND run ${_oa_in}/artifact-replay.yaml -o ${_oa_out}/ar.db
  EXIT 3
  EXPECT "artifact-replay[.]yaml:17:14: workload[.]trace[.]profile openb-artifact: needs mode inflate")

drasim_cli_test(NAME openb-artifact/error-bad-profile
  COMMAND run ${_oa_in}/bad-profile.yaml -o ${_oa_out}/bp.db
  EXIT 3
  EXPECT "bad-profile[.]yaml:16:14: workload[.]trace[.]profile: expected drasim or openb-artifact")
