# drasim_run_facts(<out> <db>): SQL checks (groups of <db> <query> <regex> for
# drasim_cli_test's SQL) that hold for every results database, whatever the
# scenario: every pod is counted once and in exactly one state, the summary
# counts and wait statistics agree with the pods table (waits recomputed here,
# percentiles by nearest rank: the ceil(p*n)-th smallest wait, written with
# integer arithmetic as row (pct*n + 99) / 100), times are consistent
# and samples stay within capacity. Every query counts the rows that break a
# rule, so the expected answer is 0. No query holds a ';' (a CMake list
# separator).
include_guard(GLOBAL)

function(drasim_run_facts out db)
  set(f)
  macro(_fact query)
    list(APPEND f "${db}" "${query}" "^0$")
  endmacro()
  # a summary metric of each run against a count over its pods
  foreach(pair "pods_arrived|1" "pods_scheduled|p.scheduled_ms IS NOT NULL"
               "pods_succeeded|p.state = 'Succeeded'" "pods_running_at_end|p.state = 'Running'"
               "pods_pending_at_end|p.state = 'Pending'")
    string(REPLACE "|" ";" parts "${pair}")
    list(GET parts 0 metric)
    list(GET parts 1 cond)
    _fact("SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM pods p WHERE p.run_id = r.run_id AND ${cond}) != (SELECT value FROM summary s WHERE s.run_id = r.run_id AND s.grp = '' AND s.metric = '${metric}')")
  endforeach()
  # one state each, and the columns that go with it
  _fact("SELECT count(*) FROM pods WHERE state NOT IN ('Succeeded', 'Running', 'Pending') OR (state = 'Pending') != (scheduled_ms IS NULL) OR (scheduled_ms IS NULL) != (node_id IS NULL) OR (scheduled_ms IS NULL) != (wait_ms IS NULL) OR (state = 'Succeeded') != (completion_ms IS NOT NULL)")
  _fact("SELECT count(*) FROM pods WHERE wait_ms != scheduled_ms - arrival_ms OR wait_ms < 0 OR completion_ms != scheduled_ms + duration_ms")
  # nothing after the end, nothing still running that should have finished
  _fact("SELECT count(*) FROM pods p JOIN runs r USING (run_id) WHERE p.arrival_ms > r.end_ms OR p.completion_ms > r.end_ms OR (p.state = 'Running' AND p.scheduled_ms + p.duration_ms < r.end_ms)")
  _fact("SELECT count(*) FROM runs r WHERE r.pods != (SELECT count(*) FROM pods p WHERE p.run_id = r.run_id)")
  # wait statistics recomputed from the pods (0 when nobody was scheduled)
  foreach(pair "wait_mean_s|avg(p.wait_ms)" "wait_max_s|max(p.wait_ms)")
    string(REPLACE "|" ";" parts "${pair}")
    list(GET parts 0 metric)
    list(GET parts 1 agg)
    _fact("SELECT count(*) FROM runs r WHERE abs(coalesce((SELECT ${agg} FROM pods p WHERE p.run_id = r.run_id AND p.wait_ms IS NOT NULL), 0) / 1000.0 - (SELECT value FROM summary s WHERE s.run_id = r.run_id AND s.grp = '' AND s.metric = '${metric}')) > 1e-6")
  endforeach()
  foreach(pct 50 99)
    _fact("SELECT count(*) FROM (SELECT run_id, wait_ms, row_number() OVER (PARTITION BY run_id ORDER BY wait_ms) AS rn, count(*) OVER (PARTITION BY run_id) AS n FROM pods WHERE wait_ms IS NOT NULL) w JOIN summary s USING (run_id) WHERE s.grp = '' AND s.metric = 'wait_p${pct}_s' AND w.rn = (${pct} * w.n + 99) / 100 AND abs(w.wait_ms / 1000.0 - s.value) > 1e-9")
  endforeach()
  # samples within capacity
  _fact("SELECT count(*) FROM samples WHERE pending_pods < 0 OR running_pods < 0 OR gpu_alloc_pct < 0 OR gpu_alloc_pct > 100.000001 OR gpu_equiv_alloc < 0")
  _fact("SELECT count(*) FROM sample_resources WHERE allocated < 0 OR allocated > allocatable")
  _fact("SELECT count(*) FROM summary s JOIN summary t USING (run_id) WHERE s.grp = '' AND t.grp = '' AND s.metric = 'gpu_alloc_pct' AND t.metric = 'gpu_alloc_peak_pct' AND (s.value < 0 OR s.value > t.value + 1e-9 OR t.value > 100.000001)")
  set(${out} "${f}" PARENT_SCOPE)
endfunction()
