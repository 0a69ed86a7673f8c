# Placement policies in device-plugin mode, end to end (issue 11, one scheduler):
# hand-made fleets where the right placement of one `probe` pod is derived by
# hand in the scenario's comment and differs between policies, in each device
# kind of the GPU view -- whole GPUs, time-slicing replicas, OpenB-style
# milli-GPU shares -- plus Lua pods, the quickstart under all six policies,
# and an unknown policy refused.
set(_pol_out ${CMAKE_CURRENT_BINARY_DIR}/policy-cli)
file(MAKE_DIRECTORY ${_pol_out})
set(_pol_dir ${CMAKE_SOURCE_DIR}/tests/policy)

# The probe's node (and units) for scenario `fleet` under `pol`: one test.
# `node` is the node's name, `devices` the pods.devices regex of the probe.
function(_policy_probe fleet pol node devices)
  set(db ${_pol_out}/${fleet}-${pol}.db)
  drasim_cli_test(NAME policy/${fleet}-${pol}
    COMMAND run ${_pol_dir}/${fleet}.yaml --policy ${pol} -o ${db} --force
    EXPECT "0 pending at end"
    SQL ${db} "SELECT policy FROM runs" "^${pol}$"
        ${db} "SELECT n.name || ' ' || ifnull(p.devices, '-') FROM pods p JOIN nodes n USING (run_id, node_id) WHERE p.name = 'probe-0'"
              "^${node} ${devices}$")
endfunction()

# whole GPUs (tests/policy/whole-gpu.yaml): the pinned pods never move
set(_db ${_pol_out}/whole-gpu-bestfit.db)
foreach(p IN ITEMS bestfit:c-0:nvidia.com/gpu=0 dotprod:a-0:nvidia.com/gpu=2 gpu-clustering:b-0:nvidia.com/gpu=1
                   gpu-packing:a-0:nvidia.com/gpu=2 fgd:d-0:nvidia.com/gpu=0
                   random:b-0:nvidia.com/gpu=1)   # random: seed 1's draw (seeded; not derivable by hand)
  string(REPLACE ":" ";" f "${p}")
  list(GET f 0 pol)
  list(GET f 1 node)
  list(GET f 2 dev)
  _policy_probe(whole-gpu ${pol} ${node} ${dev})
endforeach()
drasim_cli_test(NAME policy/whole-gpu-pinned
  COMMAND run ${_pol_dir}/whole-gpu.yaml --policy gpu-packing -o ${_pol_out}/whole-gpu-pinned.db --force
  SQL ${_pol_out}/whole-gpu-pinned.db
      "SELECT group_concat(p.name || '@' || n.name || '=' || ifnull(p.devices, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id) p JOIN nodes n USING (run_id, node_id)"
      "^on-a-0@a-0=nvidia.com/gpu=0,1 on-b-0@b-0=nvidia.com/gpu=0 on-c-0@c-0=- probe-0@a-0=nvidia.com/gpu=2$")

# time-slicing, 2 replicas (tests/policy/time-slicing.yaml): unit u is on GPU u / 2
foreach(p IN ITEMS bestfit:b-0:nvidia.com/gpu=2 dotprod:b-0:nvidia.com/gpu=2 gpu-clustering:a-0:nvidia.com/gpu=1
                   gpu-packing:a-0:nvidia.com/gpu=1 fgd:a-0:nvidia.com/gpu=1
                   random:c-0:nvidia.com/gpu=0)   # random: seed 1's draws (on-a got GPU 1: unit 2)
  string(REPLACE ":" ";" f "${p}")
  list(GET f 0 pol)
  list(GET f 1 node)
  list(GET f 2 dev)
  _policy_probe(time-slicing ${pol} ${node} ${dev})
endforeach()
drasim_cli_test(NAME policy/time-slicing-random-gpu
  COMMAND run ${_pol_dir}/time-slicing.yaml --policy random -o ${_pol_out}/ts-random.db --force
  SQL ${_pol_out}/ts-random.db "SELECT devices FROM pods WHERE name = 'on-a-0'" "^nvidia.com/gpu=2$")

# milli-GPU shares (tests/policy/milli.yaml): the node and the GPU (pods.devices
# lists the GPUs a milli-GPU pod took; derivations in the scenario's header).
foreach(p IN ITEMS bestfit:d:0 dotprod:b:0 gpu-clustering:b:0 gpu-packing:b:0 fgd:b:0 random:d:1)   # random: seed 1's draws
  string(REPLACE ":" ";" f "${p}")
  list(GET f 0 pol)
  list(GET f 1 node)
  list(GET f 2 gpu)
  _policy_probe(milli ${pol} ${node} "alibabacloud.com/gpu-milli=${gpu}")
endforeach()

# Lua pods (tests/policy/lua-probe.yaml: whole-gpu.yaml's pods from a script)
_policy_probe(lua-probe bestfit c-0 nvidia.com/gpu=0)
_policy_probe(lua-probe fgd d-0 nvidia.com/gpu=0)

# the quickstart (pod groups, no Lua) runs under every policy and records it
foreach(pol IN ITEMS random dotprod gpu-clustering gpu-packing bestfit fgd)
  drasim_cli_test(NAME policy/quickstart-${pol}
    COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml --policy ${pol} -o ${_pol_out}/qs-${pol}.db --force
    EXPECT "quickstart: 44 nodes, 1000 pods arrived, 1000 scheduled, 0 pending at end"
    SQL ${_pol_out}/qs-${pol}.db "SELECT policy FROM runs" "^${pol}$")
endforeach()
# placements differ where the policies differ; the same seed gives the same ones
drasim_cli_test(NAME policy/quickstart-differ
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml --policy random -o ${_pol_out}/qs-random2.db --force
  DEPENDS policy/quickstart-random policy/quickstart-bestfit policy/quickstart-fgd
  SQL ${_pol_out}/qs-bestfit.db
      "ATTACH '${_pol_out}/qs-random.db' AS r; SELECT count(*) > 100 FROM pods p JOIN r.pods q USING (pod_id) WHERE p.node_id IS NOT q.node_id"
      "^1$"
      ${_pol_out}/qs-bestfit.db
      "ATTACH '${_pol_out}/qs-fgd.db' AS r; SELECT count(*) > 100 FROM pods p JOIN r.pods q USING (pod_id) WHERE p.node_id IS NOT q.node_id"
      "^1$"
      ${_pol_out}/qs-random2.db
      "ATTACH '${_pol_out}/qs-random.db' AS r; SELECT count(*) FROM pods p JOIN r.pods q USING (pod_id) WHERE p.node_id IS NOT q.node_id OR p.devices IS NOT q.devices"
      "^0$")
