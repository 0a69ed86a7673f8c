# CLI tests of "why pods wait" (issue 12, item 3): table pending_reasons
# (docs/SCHEMA.md), the run's closing lines, and DRA reasons as specific as
# the device plugin's (sched/dra/dra_explain.c).
set(_rsn_out ${CMAKE_CURRENT_BINARY_DIR}/reasons-cli)
set(_rsn_src ${CMAKE_SOURCE_DIR}/tests/reasons)
file(MAKE_DIRECTORY ${_rsn_out})

# tests/reasons/dra-reasons.yaml: every node has 5 free GPUs after `fill`.
set(_d ${_rsn_out}/dra-reasons.db)
drasim_cli_test(NAME reasons/dra-specific
  COMMAND run ${_rsn_src}/dra-reasons.yaml -o ${_d}
  EXPECT "dra-reasons: 2 nodes, 9 pods arrived, 2 scheduled, 7 pending at end"
         "\n  why pods wait [(]pending at end, by group and reason[)]:\n"
         "\n    big: 1 pod: 0/2 nodes are available: 2 request gpu needs 8 devices on one node; the largest free block on any node is 5[.]\n"
         "\n    two: 2 pods: 0/2 nodes are available: 2 request gpu needs 6 devices on one node; the largest free block on any node is 5[.]\n"
         "\n    nomatch: 1 pod: 0/2 nodes are available: 2 request gpu: no device matches selector device[.]attributes[[]'gpu[.]nvidia[.]com'[]][.]productName == 'NVIDIA B200' [(]class gpu[.]nvidia[.]com[)][.]\n"
         "\n    noclass: 1 pod: 0/2 nodes are available: 2 request gpu: device class nosuch[.]nvidia[.]com does not exist[.]\n"
         "\n    cpu: 1 pod: 0/2 nodes are available: 2 Insufficient cpu[.]\n"
         "\n    huge: 1 pod: 0/2 nodes are available: 2 request gpu needs 9 devices on one node; at most 8 match on any node[.]\n"
         "warning: group big: 0 of 1 pods ever started; reason: 0/2 nodes are available: 2 request gpu needs 8 devices"
  REJECT "cannot allocate all claims" "why pods wait.*\n    fill:"
  SQL ${_d} "SELECT group_concat(grp || '=' || pods, ' ') FROM pending_reasons WHERE run_id = 1"
            "^big=1 two=2 nomatch=1 noclass=1 cpu=1 huge=1$"
      ${_d} "SELECT reason FROM pods WHERE name = 'big-0'"
            "^0/2 nodes are available: 2 request gpu needs 8 devices on one node; the largest free block on any node is 5[.]$"
      # diagnostics only: the allocator calls counted are scheduling's (29, as before the
      # explanation existed), and fill's 2 pods hold 3 devices each
      ${_d} "SELECT (SELECT value FROM summary WHERE grp = '' AND metric = 'dra_allocate_calls') || ' ' || (SELECT count(*) FROM claim_allocations)"
            "^29[.]0 6$")

# one group, two reasons; rows agree with pods.reason counted per group
set(_m ${_rsn_out}/mixed.db)
drasim_cli_test(NAME reasons/table-per-group
  COMMAND run ${_rsn_src}/mixed.yaml -o ${_m}
  EXPECT "\n  why pods wait [(]pending at end, by group and reason[)]:\n    mixed: 2 pods: 0/1 nodes are available: 1 Insufficient nvidia[.]com/gpu[.]\n    mixed: 1 pod: 0/1 nodes are available: 1 Insufficient cpu[.]\n"
  REJECT "    ok: "
  SQL ${_m} "SELECT group_concat(grp || '|' || pods || '|' || reason, ' ; ') FROM pending_reasons"
            "^mixed[|]2[|]0/1 nodes are available: 1 Insufficient nvidia[.]com/gpu[.] ; mixed[|]1[|]0/1 nodes are available: 1 Insufficient cpu[.]$"
      ${_m} "SELECT count(*) FROM (SELECT grp, reason, pods FROM pending_reasons EXCEPT SELECT g.name, p.reason, count(*) FROM pods p JOIN pod_groups g USING (run_id, group_id) WHERE p.state = 'Pending' GROUP BY g.name, p.reason)"
            "^0$")

# no pod pending: the table exists, empty, and no "why" lines
set(_n ${_rsn_out}/none.db)
drasim_cli_test(NAME reasons/none-pending
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/groups/lua-groups.yaml -o ${_n}
  REJECT "why pods wait"
  SQL ${_n} "SELECT count(*) FROM pending_reasons" "^0$")

# dynamic MIG, one device per claim: no GPU has the slices left
drasim_cli_test(NAME reasons/dra-mig-one-device
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-mig-frag.yaml -o ${_rsn_out}/mig-frag.db
  EXPECT "\n    train-4g: [0-9]+ pods?: 0/4 nodes are available: 4 request mig: no matching device is free on any node [(]in use, or its GPU's capacity taken[)][.]\n"
  REJECT "cannot allocate all claims" "largest free block on any node is 0")
