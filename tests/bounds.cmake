# Bounded work on hostile input (issue 25): tests/unit/test_bounds.c runs in
# seconds; the quadratic or unbounded versions it guards against take minutes.
set_tests_properties(unit/test_bounds PROPERTIES TIMEOUT 30)

# Finding 6: a gang out of the queue (group back-off after a rejection, or
# before its quorum) keeps a pending reason. tests/preempt/gang-partial.yaml:
# the filler holds one node, 2 of the gang's 4 x 4-GPU pods fit on the other,
# so at the rejection both nodes lack GPUs for the third pod.
set(_bd_out ${CMAKE_CURRENT_BINARY_DIR}/bounds-cli)
set(_bd_gang ${CMAKE_SOURCE_DIR}/tests/preempt/gang-partial.yaml)
file(MAKE_DIRECTORY ${_bd_out})
set(_bd_why "0/2 nodes are available: 2 Insufficient nvidia[.]com/gpu[.] gang: 2 of minCount 4 pods placed")
# 1.36: the Permit timeout rejects at 6:00; at 6:01 the gang backs off (1 s)
drasim_cli_test(NAME bounds/gang-reason-permit-backoff
  COMMAND run ${_bd_gang} --set stop.time=6m0s500ms -o ${_bd_out}/permit.db
  EXPECT "group gang: 0 of 4 pods ever started; reason: ${_bd_why}, the others did not fit before the Permit timeout"
  SQL ${_bd_out}/permit.db "SELECT grp, pods, reason FROM pending_reasons"
      "^gang[|]4[|]${_bd_why}, the others did not fit before the Permit timeout; it is retried after the group back-off$")
# 1.37: cycles fail at 60, 61, 63, 67, 75, 85, 95 s; at 100 s the gang backs off until 105 s
drasim_cli_test(NAME bounds/gang-reason-cycle-backoff
  COMMAND run ${_bd_gang} --set cluster.kubernetesVersion=1.37 --set stop.time=100s -o ${_bd_out}/cycle.db
  SQL ${_bd_out}/cycle.db "SELECT grp, pods, reason FROM pending_reasons"
      "^gang[|]4[|]${_bd_why}, the workload cycle found no room for the others; it is retried after the group back-off$")
# before the quorum: 3 of 4 pods by 6 min (the fourth at 7 min)
drasim_cli_test(NAME bounds/gang-reason-quorum
  COMMAND run ${_bd_gang} --set stop.time=6m --set "workload.podGroups.gang.arrival.times=[1m,1m,1m,7m]" -o ${_bd_out}/quorum.db
  SQL ${_bd_out}/quorum.db "SELECT grp, pods, reason FROM pending_reasons"
      "^gang[|]3[|]gang: 3 of minCount 4 pods have arrived; none is tried before the quorum [(]PreEnqueue[)]$")

# Finding 11: the fault timeline is bounded. tests/bounds/faults-flood.yaml:
# 1.12e8 expected failures by stop.time, refused up front naming the process;
# mtbf is capped as the rate is (1 day / 1e6 = 86.4 ms); a run without a stop
# time (or Lua's verbs) stops at the limit. Exit 3, no database.
set(_bd_flood ${CMAKE_SOURCE_DIR}/tests/bounds/faults-flood.yaml)
drasim_cli_test(NAME bounds/faults-expected-draws
  COMMAND run ${_bd_flood} -o ${_bd_out}/flood.db
  EXIT 3
  EXPECT "faults-flood[.]yaml:16:5: faults[.]gpuFailures: about 1[.]12e[+]08 failures would be drawn by stop[.]time [(]1e[+]06 per GPU-day x 16 GPUs x 7 days[)], more than the limit of 1000000 fault events per run"
  FILE_ABSENT ${_bd_out}/flood.db)
drasim_cli_test(NAME bounds/faults-mtbf-capped
  COMMAND run ${_bd_flood} --set "faults.gpuFailures.xid={name: xid, mtbf: 1ms}" -o ${_bd_out}/mtbf.db
  EXIT 3
  EXPECT "mtbf: expected at least 87ms [(]at most 1e6 failures per day, as ratePerGpuDay[)], found 1ms"
  FILE_ABSENT ${_bd_out}/mtbf.db)
# no stop time: 16 GPUs x 1000 per GPU-day (with 1-min repairs) pass 200 events within the hour
drasim_cli_test(NAME bounds/faults-events-at-run-time
  COMMAND run ${_bd_flood} --set "stop={allPodsDone: true}" --set "faults.gpuFailures.xid.ratePerGpuDay=1000" -o ${_bd_out}/events.db
  ENV DRASIM_MAX_FAULT_EVENTS=200
  EXIT 3
  EXPECT "faults-flood[.]yaml:[0-9]+:[0-9]+: faults: more than 200 fault events [(]failures, repairs, drains, rule changes[)] by t = "
  FILE_ABSENT ${_bd_out}/events.db)
# Lua: two timeline points a second (fail, repair at the same instant: one point) for 10 minutes
drasim_cli_test(NAME bounds/faults-lua-verbs
  COMMAND run ${_bd_flood} --set "faults=null" --set stop.time=10m --set "workload={lua: {script: ${CMAKE_SOURCE_DIR}/tests/bounds/fault_verbs.lua}}" -o ${_bd_out}/verbs.db
  ENV DRASIM_MAX_FAULT_EVENTS=100
  EXIT 3
  EXPECT "faults: more than 100 fault events [(]failures, repairs, drains, rule changes[)] by t = 10[01][.]000 s"
  FILE_ABSENT ${_bd_out}/verbs.db)

# Finding 9: chains of after_schedule / on_start callbacks at one instant
# (each submits a pod for now) end: a script's pods count against
# DRASIM_MAX_PODS (here 2000), and every kind of callback against the
# 1,000,000 callbacks per instant. Exit 3, no database.
foreach(_bd_chain after_schedule on_start)
  drasim_cli_test(NAME bounds/lua-chain-${_bd_chain}
    COMMAND run ${CMAKE_SOURCE_DIR}/tests/bounds/chain.yaml --set workload.lua.script=chain_${_bd_chain}.lua -o ${_bd_out}/chain-${_bd_chain}.db
    ENV DRASIM_MAX_PODS=2000
    EXIT 3
    EXPECT "chain_${_bd_chain}[.]lua:[0-9]+: drasim[.]submit: more than 2000 pods in the run"
    FILE_ABSENT ${_bd_out}/chain-${_bd_chain}.db
    TIMEOUT 60)
endforeach()

# Finding 10: the cluster view is charged by its work: an endless loop over
# drasim.nodes{} / free_devices{} on 20 dynamic-MIG nodes ends at the
# instruction limit, never at the wall-clock limit (it did after 60 s).
foreach(_bd_view nodes free_devices)
  drasim_cli_test(NAME bounds/lua-view-${_bd_view}-charged
    COMMAND run ${CMAKE_SOURCE_DIR}/tests/bounds/view-mig.yaml --set workload.lua.script=view_${_bd_view}.lua -o ${_bd_out}/view-${_bd_view}.db
    EXIT 3
    EXPECT "view_${_bd_view}[.]lua:2: instruction limit exceeded [(]100000000 instructions in one callback"
    REJECT "time limit"
    FILE_ABSENT ${_bd_out}/view-${_bd_view}.db)
endforeach()
