# Hostile input, round 2 (issue 25): validation, bounded output, signals and the
# round-1 findings still present. Each test fails on the main of before the fix;
# expectations are worked out by hand in the comments (tests/hostile-valid/).
set(_hv ${CMAKE_CURRENT_SOURCE_DIR}/hostile-valid)
set(_hv_out ${CMAKE_CURRENT_BINARY_DIR}/hostile-valid)
file(MAKE_DIRECTORY ${_hv_out})
set(_hv_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)

# ---- finding 14: compare pads rows to the widest name. A 100,000-character
# metric name: the text table cuts it to 60 columns ("…" last), so the whole
# output stays small (quickstart's ~40 metrics x ~100 columns, < 20,000 bytes;
# before: every row padded to 100,000); csv keeps the name whole.
drasim_cli_test(NAME hostile/compare-wide-name RAW
  COMMAND sh ${_hv}/compare_wide.sh $<TARGET_FILE:drasim> ${_hv_qs}
  WORKDIR ${_hv_out}
  EXPECT "text-bytes=[0-9]?[0-9]?[0-9]?[0-9]\n" " xyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxyx… 1\\.5 1\\.5 " "csv-longest=1000[0-9][0-9]\n")
