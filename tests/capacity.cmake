# Where idle GPU capacity goes and allocation per model/pool (issue 12 item 4; docs/SCHEMA.md).
set(_cap ${CMAKE_SOURCE_DIR}/tests/capacity)
set(_capdb ${CMAKE_CURRENT_BINARY_DIR}/capacity)
file(MAKE_DIRECTORY ${_capdb})
# tests/capacity/breakdown.yaml's comment derives each part, at the end (t = 1h):
# gpu_total 4 physical GPUs (the MIG GPU counts 1, not 6/7); allocated 1; idle 3 =
# stranded 1 (cpu-full) + MIG layout 1 (2 x 3/7 + 1/7) + fragmented 0.5 (FGD: the CPU-only
# typical pod, half of the pods, counts the free GPU of `whole` as fragment) + usable 0.5.
drasim_cli_test(NAME capacity/breakdown
  COMMAND run ${_cap}/breakdown.yaml -o ${_capdb}/breakdown.db --force
  SQL ${_capdb}/breakdown.db "SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_total'" "^4[.]0$"
  SQL ${_capdb}/breakdown.db "SELECT idle_gpus, stranded_gpus, idle_mig_layout_gpus, idle_fragmented_gpus, idle_usable_gpus, idle_unavailable_gpus FROM samples WHERE time_ms = 3600000" "^3[.]0[|]1[.]0[|]1[.]0[|]0[.]5[|]0[.]5[|]0[.]0$"
  SQL ${_capdb}/breakdown.db "SELECT count(*) FROM samples WHERE abs(idle_gpus - stranded_gpus - idle_mig_layout_gpus - idle_fragmented_gpus - idle_usable_gpus - idle_unavailable_gpus) > 1e-9 OR abs(idle_gpus + gpu_equiv_alloc - 4) > 1e-9" "^0$")
# A static-MIG fleet's gpu_total is its physical GPUs (quickstart: 224; the MIG layouts alone gave less).
drasim_cli_test(NAME capacity/mig-gpu-total
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_capdb}/quickstart.db --force
  SQL ${_capdb}/quickstart.db "SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_total'" "^224[.]0$"
  SQL ${_capdb}/quickstart.db "SELECT sum(gpus) FROM nodes" "^224$")
# Whole-GPU pods, both modes: h100 pool 4 pods x 2 GPUs x 30 min = 4 GPU-h of 8 GPUs;
# a100 1 pod x 2 GPUs x 30 min = 1 GPU-h of 4 GPUs.
foreach(_m device-plugin dra)
  drasim_cli_test(NAME capacity/alloc-groups-${_m}
    COMMAND run ${_cap}/whole.yaml --set scheduling.mode=${_m} -o ${_capdb}/whole-${_m}.db --force
    SQL ${_capdb}/whole-${_m}.db "SELECT pool, gpu_model, gpus, gpu_hours_allocated FROM alloc_groups ORDER BY pool" "^a100[|]A100-80GB[|]4[.]0[|]1[.]0\nh100[|]H100-80GB[|]8[.]0[|]4[.]0$")
endforeach()
# Report plots of the breakdown (docs/REPORTS.md idle_capacity): one configuration draws the five
# causes over time (constant from t = 0: usable 0.5, stranded 1, MIG layout 1, fragmented 0.5,
# unavailable 0); two draw each cause's time-weighted mean per configuration (the same numbers).
drasim_cli_test(NAME capacity/report-idle-one RAW
  COMMAND sh ${_cap}/report_data.sh $<TARGET_FILE:drasim> ${_capdb}/report-idle-one idle_capacity ${_capdb}/breakdown.db
  EXPECT "\n0[.]000000 0[.]5 1 1 0[.]5 0\n" "\n1[.]000000 0[.]5 1 1 0[.]5 0\n"
  DEPENDS capacity/breakdown)
drasim_cli_test(NAME capacity/report-idle-configs RAW
  COMMAND sh ${_cap}/report_data.sh $<TARGET_FILE:drasim> ${_capdb}/report-idle-configs idle_capacity
          ${_capdb}/breakdown.db ${_capdb}/quickstart.db
  EXPECT "\n1 0[.]5 0[.]5 0[.]5 [0-9.]+ [0-9.]+ [0-9.]+\n2 1 1 1 0 0 0\n3 1 1 1 18[.]2857 18[.]2857 18[.]2857\n4 0[.]5 0[.]5 0[.]5 [0-9.]+ [0-9.]+ [0-9.]+\n5 0 0 0 0 0 0\n"
  DEPENDS capacity/breakdown capacity/mig-gpu-total)
# Allocation per node pool, both modes on one page (whole.yaml, 1 h): a100 1 GPU-h of 4 GPUs = 25 %,
# h100 4 GPU-h of 8 GPUs = 50 %, in the device-plugin and the DRA run alike.
drasim_cli_test(NAME capacity/report-alloc-by-pool RAW
  COMMAND sh ${_cap}/report_data.sh $<TARGET_FILE:drasim> ${_capdb}/report-pool alloc_by_pool
          ${_capdb}/whole-device-plugin.db ${_capdb}/whole-dra.db
  EXPECT "\n1 25 25 25 25 25 25\n2 50 50 50 50 50 50\n"
  DEPENDS capacity/alloc-groups-device-plugin capacity/alloc-groups-dra)
# samples.mig_alloc in DRA mode counts MIG devices (type mig) of live allocations;
# tests/capacity/dra-mig.yaml derives each sample (a whole GPU is not counted).
drasim_cli_test(NAME capacity/dra-mig-alloc
  COMMAND run ${_cap}/dra-mig.yaml -o ${_capdb}/dra-mig.db --force
  SQL ${_capdb}/dra-mig.db "SELECT group_concat(m, ' ') FROM (SELECT (time_ms / 60000) || ':' || mig_alloc AS m FROM samples ORDER BY time_ms)"
      "^0:1 5:3 10:4 15:4 20:5 25:4 30:4 35:1 40:1 45:0 50:0 55:0 60:0$")
# Summary and report agree on a static-MIG fleet (issue 12: "73.4 % vs 71.0 %"; docs/REPORTS.md):
# quickstart's gpu_alloc_pct is 56.50 % of 224 physical GPUs in the summary and in the report's
# tables; the samples the curve draws use the same 224 GPUs, and their step integral (one-minute
# samples) is within 0.05 points of the summary's exact time-weighted mean.
drasim_cli_test(NAME capacity/summary-report-agree RAW
  COMMAND sh ${_cap}/report_data.sh $<TARGET_FILE:drasim> ${_capdb}/report-agree index.html,plots.gp ${_capdb}/quickstart.db
  EXPECT "gpu_alloc_pct</th><td class=\"num\">56[.]50<" "allocated GPUs [(]% of 224 GPUs[)]"
  REJECT "gpu_alloc_pct</th><td class=\"num\">56[.]4"
  SQL ${_capdb}/quickstart.db "SELECT round(value, 4) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_pct'" "^56[.]5045$"
  SQL ${_capdb}/quickstart.db "SELECT count(*) FROM samples WHERE abs(gpu_alloc_pct * 224 / 100.0 - gpu_equiv_alloc) > 1e-9" "^0$"
  SQL ${_capdb}/quickstart.db "SELECT abs(sum(gpu_alloc_pct * (nt - time_ms)) / max(nt) - (SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_alloc_pct')) < 0.05 FROM (SELECT gpu_alloc_pct, time_ms, lead(time_ms) OVER (ORDER BY time_ms) AS nt FROM samples) WHERE nt IS NOT NULL" "^1$"
  DEPENDS capacity/mig-gpu-total)
