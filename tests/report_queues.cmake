# `drasim report` and `compare` per Kueue ClusterQueue (sim/report/report_queues.c,
# docs/QUEUES.md "The report per ClusterQueue") on tests/queues/run/borrowing.yaml,
# whose numbers are derived by hand in its header: team-a admits 4 Workloads, 2
# while borrowing, waits 0, 0, 0, 7 s (mean 1.75, p90 7); its GPU quota is 2
# nominal + 1 borrowed: usage peaks at 3 (a-0..a-2 from 2 s to 10 s), borrowed at 1.
# With nominal 3 instead, a-3 fits at once (borrowing 1): waits all 0, 1 borrowing.
set(_rq ${CMAKE_CURRENT_BINARY_DIR}/report-queues)
file(MAKE_DIRECTORY ${_rq})
set(_rq_scn ${CMAKE_SOURCE_DIR}/tests/queues/run/borrowing.yaml)
drasim_cli_test(NAME report/queue-pages RAW
  COMMAND sh -c "rm -rf '${_rq}/rep' && \"$0\" run '${_rq_scn}' --set output.sampleInterval=1s -q -o '${_rq}/b.db' --force && \"$0\" report '${_rq}/b.db' -o '${_rq}/rep' && cat '${_rq}/rep/index.html' '${_rq}/rep/queue-team-a.html'" $<TARGET_FILE:drasim>
  ENV DRASIM_GNUPLOT=/nonexistent/gnuplot
  EXPECT "<h2 id=\"queues\">ClusterQueues</h2>"
         "<tr><th><a href=\"queue-team-a.html\">team-a</a></th><td class=\"num\">4</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">7</td><td class=\"num\">0</td><td class=\"num\">0</td></tr>"
         "<h1>ClusterQueue team-a</h1>"
         "<td class=\"num\">4</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">1.75</td><td class=\"num\">0</td><td class=\"num\">7</td><td class=\"num\">7</td><td class=\"num\">7</td>"
         "<td>h100</td><td>nvidia.com/gpu</td><td class=\"num\">2</td><td class=\"num\">[0-9.]+</td><td class=\"num\">3</td><td class=\"num\">[0-9.]+</td><td class=\"num\">[0-9.]+</td><td class=\"num\">1</td>"
         "<th>InClusterQueue</th><th>InCohortReclamation</th>"
  FILE_EXISTS ${_rq}/rep/queue-team-b.html ${_rq}/rep/data/queue1_usage.dat ${_rq}/rep/data/queue1_state.dat
  FILE_ABSENT ${_rq}/rep/group-team-a.html ${_rq}/rep/group-team-b.html)
# a run without queues: no ClusterQueues table, no queue pages or plots
drasim_cli_test(NAME report/no-queue-pages RAW
  COMMAND sh -c "rm -rf '${_rq}/plain' && \"$0\" run '${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml' --set stop.time=1h -q -o '${_rq}/plain.db' --force && \"$0\" report '${_rq}/plain.db' -o '${_rq}/plain' && ls '${_rq}/plain' '${_rq}/plain/data' && cat '${_rq}/plain/index.html'" $<TARGET_FILE:drasim>
  ENV DRASIM_GNUPLOT=/nonexistent/gnuplot
  EXPECT "index.html"
  REJECT "id=\"queues\"" "queue-" "queue[0-9]")
drasim_cli_test(NAME compare/per-queue RAW
  COMMAND sh -c "\"$0\" run '${_rq_scn}' -q -o '${_rq}/c1.db' --force && \"$0\" run '${_rq_scn}' --set 'queues.objects[2].spec.resourceGroups[0].flavors[0].resources[2].nominalQuota=3' -q -o '${_rq}/c2.db' --force && \"$0\" compare '${_rq}/c1.db' '${_rq}/c2.db'" $<TARGET_FILE:drasim>
  EXPECT "team-a +queue_admitted_borrowing +2 +1 +-1 +-50[.]00% +one run: no CI"
         "team-a +queue_wait_censored_p99_s +7 +0 +-7 +-100[.]00%"
         "team-b +queue_admitted +1 +1 +[+]0 +0%")
