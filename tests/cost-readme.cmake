# The README's "What it costs and draws" table (scenarios/examples/h100-fleet-priced.yaml,
# issue 30): each row's figures as printed, rounded as in the table, under the
# device plugin and under DRA (the README says they are the same in every row).
set(_cr_out ${CMAKE_CURRENT_BINARY_DIR}/cost-readme)
file(MAKE_DIRECTORY ${_cr_out})
set(_cr_scn ${CMAKE_SOURCE_DIR}/scenarios/examples/h100-fleet-priced.yaml)
# cost | on demand or spot | idle | per useful GPU-h | energy | peak (envelope %) | training p99 wait
set(_cr_q "SELECT group_concat(v, ' ') FROM (SELECT CASE metric WHEN 'cost_per_useful_gpu_hour' THEN printf('%.2f', value) WHEN 'power_peak_kw' THEN printf('%.1f', value) ELSE printf('%.0f', value) END AS v, CASE metric WHEN 'cost_total' THEN 1 WHEN 'cost_on_demand' THEN 2 WHEN 'cost_idle' THEN 3 WHEN 'cost_per_useful_gpu_hour' THEN 4 WHEN 'energy_kwh' THEN 5 WHEN 'power_peak_kw' THEN 6 WHEN 'power_peak_envelope_pct' THEN 7 ELSE 8 END AS k FROM summary WHERE (grp = '' AND metric IN ('cost_total', 'cost_on_demand', 'cost_idle', 'cost_per_useful_gpu_hour', 'energy_kwh', 'power_peak_kw', 'power_peak_envelope_pct')) OR (grp = 'train-8gpu' AND metric = 'wait_p99_s') ORDER BY k)")
set(_cr_burst "cluster.nodePools[0].price={onDemand: 80.62, reserved: 4, reservedPrice: 52}"
              "cluster.nodePools[0].autoscaling={min: 4, max: 10}" "cluster.nodePools[0].count=4"
              "cluster.nodePools[1].price={reserved: 3, reservedPrice: 52}")
set(_cr_spot "cluster.nodePools[0].price={reserved: 4, reservedPrice: 52}" "cluster.nodePools[0].count=4"
             "cluster.nodePools.h100-spot.count=3" "cluster.nodePools[1].price={reserved: 3, reservedPrice: 52}")
foreach(_mode device-plugin dra)
  set(_row_on_demand "^9674 9674 2830 14[.]24 956 93[.]7 117 2791$")
  set(_row_burst "^6620 2252 1445 9[.]62 936 122[.]0 153 270$")
  set(_row_spot "^5368 1000 1669 8[.]55 897 93[.]7 117 1492$")
  foreach(_row on_demand burst spot)
    set(_sets)
    if(_row STREQUAL "burst")
      foreach(_s IN LISTS _cr_burst)
        list(APPEND _sets --set "${_s}")
      endforeach()
    elseif(_row STREQUAL "spot")
      foreach(_s IN LISTS _cr_spot)
        list(APPEND _sets --set "${_s}")
      endforeach()
    endif()
    set(_db ${_cr_out}/${_row}-${_mode}.db)
    drasim_cli_test(NAME cost-readme/${_row}-${_mode}
      COMMAND run ${_cr_scn} --set scheduling.mode=${_mode} ${_sets} -o ${_db} --force -q
      SQL ${_db} "${_cr_q}" "${_row_${_row}}")
  endforeach()
endforeach()
# the spot row's interruptions and lost work, as the README's sentence says
drasim_cli_test(NAME cost-readme/spot-interruptions
  COMMAND run ${_cr_scn} --set "cluster.nodePools[0].price={reserved: 4, reservedPrice: 52}"
          --set "cluster.nodePools[0].count=4" --set "cluster.nodePools.h100-spot.count=3"
          --set "cluster.nodePools[1].price={reserved: 3, reservedPrice: 52}" -o ${_cr_out}/spot-lost.db --force -q
  SQL ${_cr_out}/spot-lost.db "SELECT group_concat(printf('%.0f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('spot_interruptions', 'gpu_hours_lost') ORDER BY metric" "^(10 56|56 10)$")
