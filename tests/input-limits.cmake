# Input limits (issue 10, docs/SCENARIOS.md "Limits"): endless or non-regular
# files as any input fail fast with a message naming the file; directories are
# "is a directory"; memory-hungry settings fail before the run, naming the field.
set(_lim ${CMAKE_CURRENT_SOURCE_DIR}/input-limits)
set(_lim_out ${CMAKE_CURRENT_BINARY_DIR}/input-limits)
file(MAKE_DIRECTORY ${_lim_out})

drasim_cli_test(NAME limits/lua-script-dev-zero TIMEOUT 20 EXIT 3
  COMMAND run ${_lim}/lua-devzero.yaml -o ${_lim_out}/a.db
  EXPECT "/dev/zero: is not a regular file \\(a character device\\)"
  FILE_ABSENT ${_lim_out}/a.db)
drasim_cli_test(NAME limits/lua-script-directory EXIT 3
  COMMAND run ${_lim}/lua-directory.yaml -o ${_lim_out}/b.db
  EXPECT "input-limits/\\.: is a directory"
  REJECT "pods arrived" "read error"
  FILE_ABSENT ${_lim_out}/b.db)
drasim_cli_test(NAME limits/trace-dev-zero TIMEOUT 20 EXIT 3
  COMMAND run ${_lim}/trace-devzero.yaml -o ${_lim_out}/c.db
  EXPECT "/dev/zero: is not a regular file")
drasim_cli_test(NAME limits/inventory-dev-zero TIMEOUT 20 EXIT 3
  COMMAND run ${_lim}/inventory-devzero.yaml -o ${_lim_out}/d.db
  EXPECT "/dev/zero: is not a regular file")
drasim_cli_test(NAME limits/scenario-dev-zero TIMEOUT 20 EXIT 3
  COMMAND run /dev/zero -o ${_lim_out}/e.db
  EXPECT "/dev/zero: is not a regular file")
drasim_cli_test(NAME limits/scenario-directory EXIT 3
  COMMAND run ${_lim} -o ${_lim_out}/f.db
  EXPECT "input-limits: is a directory"
  REJECT "read error")
drasim_cli_test(NAME limits/expect-dev-zero TIMEOUT 20 EXIT 3
  COMMAND check ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml --expect /dev/zero
  EXPECT "/dev/zero: is not a regular file")
drasim_cli_test(NAME limits/allocate-dev-zero TIMEOUT 20 EXIT 3
  COMMAND allocate /dev/zero
  EXPECT "/dev/zero: is not a regular file")
drasim_cli_test(NAME limits/allocate-directory EXIT 3
  COMMAND allocate ${_lim}
  EXPECT "input-limits: is a directory")
drasim_cli_test(NAME limits/sample-interval-1ms EXIT 3
  COMMAND run ${_lim}/sample-1ms.yaml -o ${_lim_out}/g.db
  EXPECT "sample-1ms.yaml:13:26: output.sampleInterval: expected at least 1s, found 1ms"
  FILE_ABSENT ${_lim_out}/g.db)
drasim_cli_test(NAME limits/pods-1e8 TIMEOUT 20 EXIT 3
  COMMAND run ${_lim}/pods-1e8.yaml -o ${_lim_out}/h.db
  EXPECT "pods-1e8.yaml:92:12: count: the pod groups ask for 100000600 pods, more than the limit of 5000000"
  FILE_ABSENT ${_lim_out}/h.db)
# the pod limit can be raised or lowered: quickstart asks for exactly 1000 pods
drasim_cli_test(NAME limits/max-pods-env-lowers EXIT 3 ENV DRASIM_MAX_PODS=999
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_lim_out}/i.db
  EXPECT "quickstart.yaml:[0-9]+:12: count: the pod groups ask for 1000 pods, more than the limit of 999")
drasim_cli_test(NAME limits/max-pods-env-exact ENV DRASIM_MAX_PODS=1000
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_lim_out}/j.db
  EXPECT "quickstart: 44 nodes")
# the input size limit (DRASIM_MAX_INPUT_MIB=1) against a 1.5 MiB scenario is in tests/unit/test_fileio.c

# Recorded Nodes: the API server's rules for resource values (issue 10)
drasim_cli_test(NAME limits/node-fractional-gpu EXIT 3
  COMMAND allocate ${_lim}/node-fractional-gpu.yaml
  EXPECT "node-fractional-gpu.yaml:6:21: Node n1: status.allocatable.nvidia.com/gpu: invalid value '1.5': must be an integer")
drasim_cli_test(NAME limits/node-negative-gpu EXIT 3
  COMMAND allocate ${_lim}/node-negative-gpu.yaml
  EXPECT "node-negative-gpu.yaml:5:43: Node n1: status.allocatable.nvidia.com/gpu: invalid value '-2': must be greater than or equal to 0")

# Recorded inventories whose DRA slices do not add up (issue 10, model/inventory_check.c)
# A slice whose Node is missing gets a Node made from its nodeName (issue 13:
# slices-only dumps), with no CPU or memory, and a warning naming the place.
drasim_cli_test(NAME limits/inventory-slice-for-missing-node
  COMMAND run ${_lim}/inventory-ghost.yaml -o ${_lim_out}/ghost.db --force
  EXPECT "warning: .*inv-ghost.yaml:8:1: 1 node created from ResourceSlice nodeName .*e.g. n2.: their CPU and memory are unknown"
         "inv-ghost: 2 nodes, 1 pods arrived, 1 scheduled"
  SQL ${_lim_out}/ghost.db "SELECT n.name FROM pods p JOIN nodes n USING (run_id, node_id)" "^n1$")
drasim_cli_test(NAME limits/inventory-incomplete-pool-warns
  COMMAND run ${_lim}/inventory-incomplete.yaml -o ${_lim_out}/incomplete.db
  EXPECT "warning: .*inv-incomplete.yaml:8:1: ResourceSlice s1: pool gpu.example.com/p generation 1 has 1 of its 3 slices"
         "inv-incomplete: 1 nodes, 1 pods arrived, 1 scheduled")
drasim_cli_test(NAME limits/inventory-node-twice EXIT 3
  COMMAND run ${_lim}/inventory-dup.yaml -o ${_lim_out}/dup.db
  EXPECT "inv-dup.yaml:13:1: Node n1: listed twice")
