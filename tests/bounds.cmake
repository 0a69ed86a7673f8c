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
