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

# The Pareto front in the report (issue 30: "the report shows the Pareto front
# of cost against the SLO metric"). tests/plan/minimize-cost.yaml by hand: the
# front of cost_total against max(wait_censored_max_s) is two points: two spot
# nodes alone (od=0 spot=2: 2 x 4 x 2 h = 16, the third job starts after 1 h:
# 3600 s) and the answer (od=2 spot=1 with 2 reserved: 2 x 6 x 2 + 4 x 2 = 32,
# no wait); every other probe costs more at the same or a worse wait (od=1
# spot=0: 20 at 7200 s; 24 and 28 at 3600 s). plan_pareto has every probe.
# --report DIR draws plan_pareto (the front as a staircase by SLO value, in
# the data file's second block) and `drasim report PLAN.db` draws it again.
drasim_cli_test(NAME plan/minimize-pareto-front-report
  COMMAND ${_pm_cost} -j 2 -q -o ${_pm_out}/pareto.db --report ${_pm_out}/pareto-plan --force
  SQL ${_pm_out}/pareto.db "SELECT group_concat(p.point || ':' || f.value || '@' || f.slo_value || ':' || p.answer, ' ') FROM plan_pareto f JOIN plan p USING (probe) WHERE f.front = 1"
      "^od=0 spot=2 od[.]price[.]reserved=0:16[.]0@3600[.]0:0 od=2 spot=1 od[.]price[.]reserved=2:32[.]0@0[.]0:1$"
      ${_pm_out}/pareto.db "SELECT (SELECT count(*) FROM plan_pareto) = (SELECT count(*) FROM plan) AND (SELECT count(DISTINCT objective || slo || slo_limit || lower_better) FROM plan_pareto) = 1 AND (SELECT objective || ' ' || slo FROM plan_pareto LIMIT 1) = 'cost_total max(wait_censored_max_s) <= 60'"
      "^1$"
  FILE_EXISTS ${_pm_out}/pareto-plan/plan_pareto.png ${_pm_out}/pareto-plan/plan_pareto.svg)
drasim_cli_test(NAME plan/minimize-pareto-plot-data RAW
  COMMAND sh -c "sed -n '/^# the Pareto front/,$p' \"$0/data/plan_pareto.dat\" | tr '\\n' '|' && grep -c 'plan_pareto[.]png' \"$0/index.html\""
          ${_pm_out}/pareto-plan
  DEPENDS plan/minimize-pareto-front-report
  EXPECT "^# the Pareto front, by the SLO's value[|]0 32[|]3600 16[|][1-9]")
drasim_cli_test(NAME plan/minimize-pareto-drasim-report
  COMMAND report ${_pm_out}/pareto.db -o ${_pm_out}/pareto-report --force
  DEPENDS plan/minimize-pareto-front-report
  FILE_EXISTS ${_pm_out}/pareto-report/plan_pareto.png ${_pm_out}/pareto-report/data/plan_pareto.dat)
# without --minimize, plan writes no plan_pareto table and draws no front
drasim_cli_test(NAME plan/no-pareto-without-minimize
  COMMAND plan ${_pm}/minimize-cost.yaml --expect ${_pm}/start-slo.yaml --vary od=0..3 --vary spot=0..2 -j 2 -q
          -o ${_pm_out}/no-pareto.db --report ${_pm_out}/no-pareto --force
  SQL ${_pm_out}/no-pareto.db "SELECT count(*) FROM sqlite_master WHERE name = 'plan_pareto'" "^0$"
  FILE_EXISTS ${_pm_out}/no-pareto/plan_1.png
  FILE_ABSENT ${_pm_out}/no-pareto/plan_pareto.png ${_pm_out}/no-pareto/data/plan_pareto.dat)
