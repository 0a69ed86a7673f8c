# CLI tests of groups (issue 12): per-group summary rows (docs/SCHEMA.md,
# summary.grp) derived by hand, the closing lines and the warning about a group
# that never started a pod, and Lua pods' `group`.
set(_grp_out ${CMAKE_CURRENT_BINARY_DIR}/groups-cli)
set(_grp_src ${CMAKE_SOURCE_DIR}/tests/groups)
file(MAKE_DIRECTORY ${_grp_out})

# tests/groups/waits.yaml gives the arithmetic: a waits 0, 0, 8 s; big never
# starts, censored waits 20 and 15 s (the run ends at 20 s).
set(_w ${_grp_out}/waits.db)
drasim_cli_test(NAME groups/waits-by-hand
  COMMAND run ${_grp_src}/waits.yaml -o ${_w}
  EXPECT "5 pods arrived, 3 scheduled, 2 pending at end"
         "\n  pending at end [(]never started[)], by group: big 2 of 2\n"
         "warning: group big: 0 of 2 pods ever started; reason: 0/1 nodes are available: 1 Insufficient nvidia[.]com/gpu[.]"
  REJECT "warning: group a:"
  SQL ${_w} "SELECT group_concat(metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE grp = 'a' AND metric IN ('pods_arrived', 'pods_scheduled', 'pods_succeeded', 'pods_running_at_end', 'pods_pending_at_end')"
            "^pods_arrived=3[.]0000 pods_scheduled=3[.]0000 pods_succeeded=2[.]0000 pods_running_at_end=1[.]0000 pods_pending_at_end=0[.]0000$"
      ${_w} "SELECT group_concat(metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE grp = 'a' AND metric LIKE 'wait%'"
            "^wait_mean_s=2[.]6667 wait_p50_s=0[.]0000 wait_p90_s=8[.]0000 wait_p95_s=8[.]0000 wait_p99_s=8[.]0000 wait_max_s=8[.]0000 wait_censored_mean_s=2[.]6667 wait_censored_p50_s=0[.]0000 wait_censored_p90_s=8[.]0000 wait_censored_p95_s=8[.]0000 wait_censored_p99_s=8[.]0000 wait_censored_max_s=8[.]0000$"
      # big: no started-only waits (NULL); censored [15, 20]: p50 = 15 (rank ceil(0.5 * 2) = 1), p90 = 20
      ${_w} "SELECT group_concat(metric || '=' || iif(value IS NULL, 'NULL', printf('%.4f', value)), ' ') FROM summary WHERE grp = 'big' AND metric LIKE 'wait%'"
            "^wait_mean_s=NULL wait_p50_s=NULL wait_p90_s=NULL wait_p95_s=NULL wait_p99_s=NULL wait_max_s=NULL wait_censored_mean_s=17[.]5000 wait_censored_p50_s=15[.]0000 wait_censored_p90_s=20[.]0000 wait_censored_p95_s=20[.]0000 wait_censored_p99_s=20[.]0000 wait_censored_max_s=20[.]0000$"
      # whole run: started [0, 0, 8]; censored [0, 0, 8, 15, 20]: mean 43 / 5, p50 rank 3 = 8, p90 rank 5 = 20
      ${_w} "SELECT group_concat(metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE grp = '' AND (metric LIKE 'wait%' OR metric IN ('gpu_hours_requested', 'gpu_hours_allocated'))"
            "^wait_mean_s=2[.]6667 wait_p50_s=0[.]0000 wait_p99_s=8[.]0000 wait_max_s=8[.]0000 wait_p90_s=8[.]0000 wait_p95_s=8[.]0000 wait_censored_mean_s=8[.]6000 wait_censored_p50_s=8[.]0000 wait_censored_p90_s=20[.]0000 wait_censored_p95_s=20[.]0000 wait_censored_p99_s=20[.]0000 wait_censored_max_s=20[.]0000 gpu_hours_requested=0[.]0472 gpu_hours_allocated=0[.]0083$"
      # GPU-seconds: a 3 x 1 x 10 requested and held; big 4 x 20 + 4 x 15 = 140 requested, none held
      ${_w} "SELECT group_concat(grp || ':' || metric || '=' || printf('%.4f', value * 3600), ' ') FROM summary WHERE grp != '' AND metric IN ('gpu_hours_requested', 'gpu_hours_allocated')"
            "^a:gpu_hours_requested=30[.]0000 a:gpu_hours_allocated=30[.]0000 big:gpu_hours_requested=140[.]0000 big:gpu_hours_allocated=0[.]0000$"
      # the whole run's rows first (in the order they always had), then the groups'
      ${_w} "SELECT (SELECT max(rowid) FROM summary WHERE grp = '') < (SELECT min(rowid) FROM summary WHERE grp != '')" "^1$")

# --quiet keeps the warning (stderr) and drops the closing lines
drasim_cli_test(NAME groups/warning-quiet
  COMMAND run ${_grp_src}/waits.yaml -o ${_grp_out}/waits-quiet.db -q
  EXPECT "^warning: group big: 0 of 2 pods ever started; reason: 0/1 nodes are available"
  REJECT "pending at end")

# Lua pods: the `group` field; classes of one name are one group; default `lua`
drasim_cli_test(NAME groups/lua-group-field
  COMMAND run ${_grp_src}/lua-groups.yaml -o ${_grp_out}/lua.db
  REJECT "warning"
  SQL ${_grp_out}/lua.db "SELECT group_concat(grp || ':' || metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE grp != '' AND metric IN ('pods_arrived', 'wait_max_s', 'gpu_hours_allocated')"
      "^train:pods_arrived=2[.]0000 train:wait_max_s=1200[.]0000 train:gpu_hours_allocated=0[.]6667 lua:pods_arrived=1[.]0000 lua:wait_max_s=0[.]0000 lua:gpu_hours_allocated=0[.]0000$"
      ${_grp_out}/lua.db "SELECT count(*) FROM pod_groups WHERE name = 'train'" "^2$")

# drasim check: per-group thresholds (metric{group=NAME}, docs/CI.md)
drasim_cli_test(NAME groups/check-group-thresholds
  COMMAND check ${_grp_src}/waits.yaml --expect ${_grp_src}/expect-groups.yaml
  EXIT 1
  EXPECT "wait_censored_p99_s[{]group=a[}] <= 8 +8 +<= 8 +pass"
         "max[(]pods_pending_at_end[{]group=big[}][)] == 2 +2 +== 2 +pass"
         "wait_censored_p50_s[{] group = big [}] == 15 +15 +== 15 +pass"
         "wait_censored_max_s[{]group=big[}] <= 10 +20 +<= 10 +FAIL"
         "wait_p99_s[{]group=big[}] <= 1800 +missing +<= 1800 +FAIL"
         "5 checks, 2 failed")
drasim_cli_test(NAME groups/check-unknown-group
  COMMAND check ${_grp_src}/waits.yaml --expect ${_grp_src}/expect-unknown-group.yaml
  EXIT 3
  EXPECT "expect-unknown-group[.]yaml:7:3: threshold 'wait_censored_p99_s[{]group=bigg[}] <= 60': no group 'bigg' in the results [(]groups: a, big[)]")
drasim_cli_test(NAME groups/check-bad-group-syntax
  COMMAND check ${_grp_src}/waits.yaml --expect ${_grp_src}/expect-bad-group.yaml
  EXIT 3
  EXPECT "expect-bad-group[.]yaml:5:3: threshold 'wait_censored_p99_s[{]group=[}] <= 60': expected [{]group=NAME[}] after the metric name")

# GPU-hours allocated is the time integral gpu_alloc_pct measures, in both modes
# (allocated = gpu_alloc_pct / 100 x gpu_total x sim_end_s / 3600), and the
# groups' rows add up to the whole run's
foreach(_m quickstart examples/dra-quickstart)
  string(REPLACE "examples/" "" _n ${_m})
  set(_db ${_grp_out}/${_n}.db)
  drasim_cli_test(NAME groups/gpu-hours-${_n}
    COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/${_m}.yaml -o ${_db} -q
    SQL ${_db} "SELECT abs((SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_hours_allocated') - (SELECT a.value * t.value * e.value / 360000.0 FROM summary a, summary t, summary e WHERE a.grp = '' AND t.grp = '' AND e.grp = '' AND a.metric = 'gpu_alloc_pct' AND t.metric = 'gpu_total' AND e.metric = 'sim_end_s')) < 1e-6" "^1$"
        ${_db} "SELECT m.metric || ' ' || (abs(m.value - (SELECT sum(g.value) FROM summary g WHERE g.grp != '' AND g.metric = m.metric)) < 1e-6) FROM summary m WHERE m.grp = '' AND m.metric IN ('gpu_hours_requested', 'gpu_hours_allocated', 'pods_arrived', 'pods_pending_at_end') ORDER BY m.metric"
        "^gpu_hours_allocated 1\ngpu_hours_requested 1\npods_arrived 1\npods_pending_at_end 1$")
endforeach()
