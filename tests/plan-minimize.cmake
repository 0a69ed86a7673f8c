# drasim plan --minimize cost|energy (docs/CI.md "By cost or energy"; issue 30):
# the answer by the measured bill or energy of the runs, over pool counts, a
# reserved split and a GPU model, each derived by hand in its scenario's
# comment; the Pareto front; the same probes for every -j; bad arguments exit 2.
set(_pm ${CMAKE_SOURCE_DIR}/tests/plan)
set(_pm_out ${CMAKE_CURRENT_BINARY_DIR}/plan-minimize)
file(MAKE_DIRECTORY ${_pm_out})
set(_pm_cost plan ${_pm}/minimize-cost.yaml --expect ${_pm}/start-slo.yaml --vary od=0..3 --vary spot=0..2
             --vary od.price.reserved=0,2 --minimize cost)

drasim_cli_test(NAME plan/minimize-cost-reserved-spot
  COMMAND ${_pm_cost} -j 2 -o ${_pm_out}/cost.db --force
  EXPECT "answer: od=2 spot=1 od.price.reserved=2 [(]3 nodes, 24 per hour[)]"
         "minimized cost_total: 32 at the answer"
         # the reserved-0 combination's answer: 1 x 10 x 2 h + 2 x 4 x 2 h
         " +[0-9]+ +1 +2 +0 +3 +18 +36  pass"
         "Pareto front: cost_total against max[(]wait_censored_max_s[)] <= 60 [(]lower is better[)], 2 of [0-9]+ probes"
         # two spot nodes alone: 2 x 4 x 2 h = 16, the third job starts at 1 h
         "  probe +[0-9]+  cost_total 16 +slo 3600 +FAIL  od=0 spot=2 od.price.reserved=0"
         "  probe +[0-9]+  cost_total 32 +slo 0 +pass  od=2 spot=1 od.price.reserved=2"
  SQL ${_pm_out}/cost.db "SELECT point FROM plan WHERE answer = 1" "^od=2 spot=1 od.price.reserved=2$")
# determinism across -j: --minimize searches in steps of 4 points whatever -j
drasim_cli_test(NAME plan/minimize-same-for-every-j RAW
  COMMAND sh -c "\"$0\" \"$@\" -j 1 > \"$OUT.1\" && \"$0\" \"$@\" -j 3 > \"$OUT.3\" && cmp \"$OUT.1\" \"$OUT.3\" && echo same-output"
          $<TARGET_FILE:drasim> ${_pm_cost}
  ENV OUT=${_pm_out}/j
  EXPECT "^same-output")
drasim_cli_test(NAME plan/minimize-energy-gpu-model
  COMMAND plan ${_pm}/minimize-energy.yaml --expect ${_pm}/start-slo.yaml --vary gpu=1..3
          --vary gpu.gpuModel=H100-80GB,A100-80GB --minimize energy -j 2
  EXPECT "answer: gpu=2 gpu.gpu.model=A100-80GB [(]2 nodes[)]" "minimized energy_kwh: 8 at the answer"
         "    [0-9]+    2      H100-80GB      2        12.8  pass")

foreach(_case
    "bad-objective|${_pm}/minimize-cost.yaml|--vary od=1..3 --minimize money|--minimize money: expected cost or energy"
    "reserved-unvaried|${_pm}/minimize-cost.yaml|--vary spot=0..2 --vary od.reserved=0,2 --minimize cost|--vary od.reserved=0,2: a reserved split needs the pool's count varied too"
    "reserved-no-price|${_pm}/minimize-energy.yaml|--vary gpu=1..3 --vary gpu.reserved=1 --minimize cost|node pool 'gpu' has no price.reservedPrice"
    "unpriced-pool|${_pm}/minimize-energy.yaml|--vary gpu=1..3 --minimize cost|--minimize cost: varied pool 'gpu' has no price per node-hour"
    # tests/cost/fleet-hand.yaml: pool h100 has 1 reserved node: it is varied from 1 up
    "below-reserved|${CMAKE_SOURCE_DIR}/tests/cost/fleet-hand.yaml|--vary h100=0..2 --minimize cost|--vary h100=0..2: pool 'h100' has 1 reserved nodes [(]price.reserved[)]: vary it from 1 up")
  string(REPLACE "|" ";" _f "${_case}")
  list(GET _f 0 _name)
  list(GET _f 1 _scn)
  list(GET _f 2 _args)
  list(GET _f 3 _msg)
  separate_arguments(_args)
  drasim_cli_test(NAME plan/minimize-bad-${_name}
    COMMAND plan ${_scn} --expect ${_pm}/start-slo.yaml ${_args} -o ${_pm_out}/bad-${_name}.db
    EXIT 2 EXPECT "${_msg}" FILE_ABSENT ${_pm_out}/bad-${_name}.db)
endforeach()
# without prices or power, a --minimize plan cannot answer: it says so (exit 2)
drasim_cli_test(NAME plan/minimize-energy-without-power
  COMMAND plan ${_pm}/minimize-cost.yaml --expect ${_pm}/start-slo.yaml --vary od=1..3 --minimize energy -j 2
  EXIT 2 EXPECT "--minimize: the runs have no energy_kwh")
