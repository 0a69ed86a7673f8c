# Scoring hints (issue 26 item 5; derivation in tests/hints/spread.yaml): a
# group starved by LeastAllocated's spreading gets a warning, stored and
# printed, naming the remedies; packing removes both the starvation and the
# warning; `scheduling.policy: none` is kube-scheduler's own scoring.
set(_h ${CMAKE_SOURCE_DIR}/tests/hints)
set(_h_out ${CMAKE_CURRENT_BINARY_DIR}/hints-cli)
file(MAKE_DIRECTORY ${_h_out})

foreach(_mode device-plugin dra)
  set(_d ${_h_out}/spread-${_mode}.db)
  drasim_cli_test(NAME hints/spread-warns-${_mode}
    COMMAND run ${_h}/spread.yaml -o ${_d} --set scheduling.mode=${_mode} --set scheduling.policy=none
    EXPECT "warning: group big: 1 of 1 pods never started, though in 36 of 36 samples since the first of them arrived the fleet had 8 GPUs idle but no node had 8 free: LeastAllocated"
           "Remedies: .*scheduling[.]policy: bestfit, gpu-packing or fgd" "MostAllocated.*a separate node pool"
    SQL ${_d} "SELECT grp || ':' || kind FROM run_warnings" "^big:scoring-spreads$"
        ${_d} "SELECT policy FROM runs" "^LeastAllocated$")
endforeach()
drasim_cli_test(NAME hints/packed-no-warning-policy
  COMMAND run ${_h}/spread.yaml -o ${_h_out}/packed-policy.db --set scheduling.policy=bestfit
  SQL ${_h_out}/packed-policy.db "SELECT count(*) FROM run_warnings" "^0$"
      ${_h_out}/packed-policy.db "SELECT scheduled_ms FROM pods WHERE name = 'big-0'" "^60000$")
drasim_cli_test(NAME hints/packed-no-warning-most-allocated
  COMMAND run ${_h}/spread.yaml -o ${_h_out}/packed-most.db
          "--set" "scheduling.scoring={type: MostAllocated, resources: [{name: nvidia.com/gpu, weight: 5}, {name: cpu, weight: 1}]}"
  SQL ${_h_out}/packed-most.db "SELECT count(*) FROM run_warnings" "^0$"
      ${_h_out}/packed-most.db "SELECT scheduled_ms FROM pods WHERE name = 'big-0'" "^60000$")
