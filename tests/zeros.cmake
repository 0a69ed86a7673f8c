# No silent zeros (issue 26 item 4): every event counter is written, failed
# GPUs are the unavailable part of idle capacity, a GPU scoring weight in DRA
# mode is refused. Expectations derived in each scenario's header (tests/zeros/).
set(_z_out ${CMAKE_CURRENT_BINARY_DIR}/zeros-cli)
set(_z ${CMAKE_SOURCE_DIR}/tests/zeros)
file(MAKE_DIRECTORY ${_z_out})

# a clean run passes max(evictions) <= 0 (and the other counters, run and group)
drasim_cli_test(NAME zeros/clean-run-passes
  COMMAND check ${_z}/clean.yaml --expect ${_z}/expect-clean.yaml
  EXPECT "max[(]evictions[)] <= 0 +0 +<= 0 +pass" "evictions[{]group=one[}] <= 0 +0 +<= 0 +pass" "8 checks, 0 failed")

# 1 GPU out 1h..4h, the whole 2-GPU node 4h..5h, over 6h: 5/6 GPU unavailable on average, both modes
foreach(_mode dra device-plugin)
  set(_d ${_z_out}/unavailable-${_mode}.db)
  drasim_cli_test(NAME zeros/idle-unavailable-${_mode}
    COMMAND run ${_z}/unavailable.yaml -o ${_d} --set scheduling.mode=${_mode}
    SQL ${_d} "SELECT group_concat(metric || '=' || printf('%.4f', value), ' ') FROM (SELECT * FROM summary WHERE grp = '' AND metric IN ('idle_gpus_mean', 'idle_unavailable_gpus_mean', 'gpu_hours_unavailable') ORDER BY metric)"
              "^gpu_hours_unavailable=5[.]0000 idle_gpus_mean=2[.]0000 idle_unavailable_gpus_mean=0[.]8333$"
        ${_d} "SELECT count(*) FROM samples WHERE time_ms > 3600000 AND time_ms < 14400000 AND idle_unavailable_gpus <> 1" "^0$"
        ${_d} "SELECT count(*) FROM samples WHERE time_ms >= 14400000 AND time_ms < 18000000 AND idle_unavailable_gpus <> 2" "^0$")
endforeach()

# a GPU weight in DRA mode: FILE:LINE:COL, exit 3, nothing written; the same file in device-plugin mode runs
drasim_cli_test(NAME zeros/dra-gpu-weight-refused
  COMMAND run ${_z}/dra-gpu-weight.yaml -o ${_z_out}/weight.db
  EXIT 3 EXPECT "dra-gpu-weight[.]yaml:15:41: scoring resource nvidia[.]com/gpu: in DRA mode kube-scheduler does not score GPUs"
  FILE_ABSENT ${_z_out}/weight.db)
drasim_cli_test(NAME zeros/dp-gpu-weight-runs
  COMMAND run ${_z}/dra-gpu-weight.yaml -o ${_z_out}/weight-dp.db --set scheduling.mode=device-plugin
  EXPECT "1 pods arrived, 1 scheduled")
