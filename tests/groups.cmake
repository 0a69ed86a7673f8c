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

# Issue 26: the run's closing lines carry a table per group, and the headline
# leads with the censored waits when a pod never started. waits.yaml (above):
# a: 3 arrived, 3 started, censored waits 0, 0, 8 s (p50 0, p99 8), 30 GPU-s
# = 0.0083 GPU-h; big: 2 arrived, none started, censored 15, 20 s (p50 15,
# p99 20); whole run censored [0, 0, 8, 15, 20]: mean 43 / 5 = 8.6, p99 20;
# started only [0, 0, 8]: mean 2.7, p99 8.
drasim_cli_test(NAME groups/run-group-table
  COMMAND run ${_grp_src}/waits.yaml -o ${_grp_out}/waits-table.db
  EXPECT "wait [(]censored, 2 never started[)] mean 8[.]6 s, p99 20[.]0 s[;] started pods only: mean 2[.]7 s, p99 8[.]0 s"
         "\n +group +arrived +started +never started +wait p50 s +wait p99 s +GPU-hours\n"
         "\n +a +3 +3 +0 +0[.]0 +8[.]0 +0[.]01\n"
         "\n +big +2 +0 +2 +15[.]0 +20[.]0 +0[.]00\n")
# every pod started: the headline keeps the started-only waits (nothing censored)
drasim_cli_test(NAME groups/run-headline-all-started
  COMMAND run ${_grp_src}/lua-groups.yaml -o ${_grp_out}/lua-headline.db
  EXPECT "[)][;] wait mean [0-9.]+ s, p99 [0-9.]+ s\n"
  REJECT "censored, ")

# compare per group, paired by seed (tests/groups/paired.lua): seed k submits
# k `hold` pods (1 GPU, 10 s) at 0 and the `w` pod at 1 s.
#   A, 1 GPU: the holds run one after the other; w waits 10k - 1: 9, 19, 29 s.
#   B, 2 GPUs: k=1 w starts at once (0); k=2 at 10 s (9); k=3 h3 and w both
#   start at 10 s (9). B - A per seed: -9, -10, -20: mean -13, sd
#   sqrt(((4)^2 + 3^2 + (-7)^2) / 2) = sqrt(37) = 6.083, half width
#   t(0.975, 2) x sd / sqrt(3) = 4.303 x 6.083 / 1.732 = 15.11 (paired t).
#   The means: A 19 ± 4.303 x 10 / 1.732 = 24.8, B 6 ± 4.303 x sqrt(27) / 1.732 = 12.9.
drasim_cli_test(NAME groups/paired-a
  COMMAND run ${_grp_src}/paired.yaml --seeds 1..3 -o ${_grp_out}/paired-a.db -q)
drasim_cli_test(NAME groups/paired-b
  COMMAND run ${_grp_src}/paired.yaml --seeds 1..3 -o ${_grp_out}/paired-b.db -q --set "cluster.nodePools[0].gpu.count=2")
drasim_cli_test(NAME groups/compare-paired-by-seed
  COMMAND compare ${_grp_out}/paired-a.db ${_grp_out}/paired-b.db
  EXPECT "\nper group [(]summary[.]grp[;]"
         "\nw +wait_censored_p99_s +19 ± 24[.]8 +6 ± 12[.]9 +-13 ± 15[.]1 +-68[.]42% +paired t, n=3\n"
         "\nw +pods_arrived +1 ± 0 +1 ± 0 +[+]0 ± 0 +0% +paired t, n=3\n"
  DEPENDS groups/paired-a groups/paired-b)
drasim_cli_test(NAME groups/compare-paired-csv
  COMMAND compare ${_grp_out}/paired-a.db ${_grp_out}/paired-b.db --format csv
  EXPECT "^run,metric,A,B,delta,delta_pct,A_ci95,B_ci95,delta_ci95,statistic\n"
         "\ngroup w,wait_censored_p99_s,19,6,-13,-68[.]42%,24[.]84[0-9]*,12[.]9[0-9]*,15[.]1[0-9]*,\"paired t, n=3\"\n"
  DEPENDS groups/paired-a groups/paired-b)
# other seeds on B (2..4: w waits 9, 9 for k=2, 3 and, k=4, h1 h2 run at 0, h3 h4
# at 10, w at 20: 19): no pairing, Welch: B mean 37 / 3 = 12.33, var 33.3;
# se^2 = 100 / 3 + 33.3 / 3 = 44.4, df = 44.4^2 / ((33.3^2 + 11.1^2) / 2) = 3.2
# -> t(0.975, 3) = 3.182 x 6.667 = 21.2
drasim_cli_test(NAME groups/paired-b-other-seeds
  COMMAND run ${_grp_src}/paired.yaml --seeds 2..4 -o ${_grp_out}/paired-b24.db -q --set "cluster.nodePools[0].gpu.count=2")
drasim_cli_test(NAME groups/compare-welch-other-seeds
  COMMAND compare ${_grp_out}/paired-a.db ${_grp_out}/paired-b24.db
  EXPECT "\nw +wait_censored_p99_s +19 ± 24[.]8 +12[.]3333 ± 14[.]3 +-6[.]66667 ± 21[.]2 +-35[.]09% +Welch t, n=3[+]3\n"
  DEPENDS groups/paired-a groups/paired-b-other-seeds)

# check: per-group baselines (docs/CI.md). Against paired-a.db (1 GPU), the
# 2-GPU fleet: w's censored p99 19 -> 6 (lower is better: passes); hold's
# p99 10 -> 10/3 (0, 0, 10), "better: higher" with tolerance 0 is worse, but the
# paired CI (-6.67 ± 4.303 x 5.774 / 1.732 = 14.3) includes 0: noise, passes.
file(WRITE ${_grp_out}/expect-group-baseline.yaml
     "apiVersion: drasim/v1\nkind: Expect\nseeds: 1..3\nset: [\"cluster.nodePools[0].gpu.count=2\"]\nbaseline:\n"
     "  file: paired-a.db\n  metrics:\n    wait_censored_p99_s{group=w}: 1\n"
     "    wait_censored_p99_s{group=hold}: {tolerance: 0, better: higher}\n")
drasim_cli_test(NAME groups/check-group-baseline
  COMMAND check ${_grp_src}/paired.yaml --expect ${_grp_out}/expect-group-baseline.yaml
  EXPECT "baseline: wait_censored_p99_s[{]group=w[}] no worse by 1 +6 +<= 20 [(]baseline 19 [+] 1[)], diff -13 ± 15[.]1 [(]95% CI, paired[)] +pass"
         "baseline: wait_censored_p99_s[{]group=hold[}] no worse by 0 +3[.]333 +>= 10 [(]baseline 10 - 0[)], diff -6[.]667 ± 14[.]3 [(]95% CI, paired[)] +pass"
         "2 checks, 0 failed"
  DEPENDS groups/paired-a)
# one seed (3) each side: no interval, the means decide: w waits 9 now, 29 in
# the baseline; "better: higher" makes 9 worse: fails
drasim_cli_test(NAME groups/paired-a-seed3
  COMMAND run ${_grp_src}/paired.yaml --seed 3 -o ${_grp_out}/paired-a3.db -q)
file(WRITE ${_grp_out}/expect-group-baseline-fail.yaml
     "apiVersion: drasim/v1\nkind: Expect\nseeds: 3\nset: [\"cluster.nodePools[0].gpu.count=2\"]\nbaseline:\n"
     "  file: paired-a3.db\n  metrics:\n    wait_censored_p99_s{group=w}: {tolerance: 0, better: higher}\n")
drasim_cli_test(NAME groups/check-group-baseline-fails
  COMMAND check ${_grp_src}/paired.yaml --expect ${_grp_out}/expect-group-baseline-fail.yaml
  EXIT 1
  EXPECT "baseline: wait_censored_p99_s[{]group=w[}] no worse by 0 +9 +>= 29 [(]baseline 29 - 0[)] +FAIL" "1 check, 1 failed"
  DEPENDS groups/paired-a-seed3)
file(WRITE ${_grp_out}/expect-group-baseline-unknown.yaml
     "apiVersion: drasim/v1\nkind: Expect\nseeds: 3\nbaseline:\n"
     "  file: paired-a3.db\n  metrics:\n    wait_censored_p99_s{group=ww}: 1\n")
drasim_cli_test(NAME groups/check-group-baseline-unknown-group
  COMMAND check ${_grp_src}/paired.yaml --expect ${_grp_out}/expect-group-baseline-unknown.yaml
  EXIT 3
  EXPECT "baseline metric 'wait_censored_p99_s[{]group=ww[}]': no group 'ww' in the results [(]groups: hold, w[)]"
  DEPENDS groups/paired-a-seed3)

# drasim report opens with the answer (issue 26): per configuration a row per
# group (waits.yaml's numbers, worked out above: a 3/3/0, p50 0, p99 8;
# big 2/0/2, p50 15, p99 20) and the warning about big, before the plots.
drasim_cli_test(NAME groups/report-answer-first RAW
  COMMAND sh -c "$<TARGET_FILE:drasim> report ${_grp_out}/waits-table.db -o ${_grp_out}/answer-report --force >/dev/null && tr -d '\\n' < ${_grp_out}/answer-report/index.html"
  EXPECT "<h2 id=\"answer\">Answer by group</h2>.*<h2 id=\"plots\">"
         "<tr><th><a href=\"group-a[.]html\">a</a></th><td class=\"num\">3</td><td class=\"num\">3</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">8</td>"
         "<tr><th><a href=\"group-big[.]html\">big</a></th><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">2</td><td class=\"num\">15</td><td class=\"num\">20</td>"
         "<li>group <b>big</b>: none of its 2 pods ever started"
  REJECT "<li>group <b>a</b>"
  DEPENDS groups/run-group-table)
