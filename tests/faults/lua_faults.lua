-- The fault verbs from Lua (tests/faults/lua.yaml): a rule evicts a pod, a
-- GPU fails and is repaired, a node fails and is drained; the results are
-- checked in tests/faults.cmake (fault_timeline, pods.reason).
local gpu = {dra = {claims = {{name = "gpu", spec = {devices = {requests = {{name = "g",
  exactly = {deviceClassName = "gpu.nvidia.com"}}}}}}}}}
drasim.submit{name = "p", cpu = "1", memory = "1Gi", duration = "5h", gpu = gpu}
drasim.at("1h", function()
  local node = drasim.pod("p").node
  local n = drasim.add_device_taint_rule{name = "r", pool = node, key = "example.com/x", effect = "NoExecute"}
  assert(n == 2, "rule matched " .. n)
  assert(not pcall(drasim.add_device_taint_rule, {name = "r", pool = node, key = "k"}))   -- exists
  assert(not pcall(drasim.add_device_taint_rule, {name = "q", key = "k"}))                -- no selector
end)
drasim.at("2h", function()
  assert(drasim.pod("p").state == "deleted", drasim.pod("p").state)
  assert(drasim.remove_device_taint_rule("r") == true)
  assert(drasim.remove_device_taint_rule("r") == false)
  assert(drasim.fail_gpu("a-0", 1, "gpu-lost") == true)
  assert(not pcall(drasim.fail_gpu, "a-0", 5))          -- no such GPU
  assert(not pcall(drasim.fail_gpu, "nosuch", 0))
  assert(not pcall(drasim.fail_gpu, "a-0", 0, "bad-kind"))
end)
drasim.at("3h", function()
  assert(drasim.repair_gpu("a-0", 1) == true)
  assert(drasim.fail_node("a-1") == true)
end)
drasim.at("4h", function()
  assert(drasim.repair_node("a-1") == true)
  assert(drasim.drain_node("a-0") == true)
end)
drasim.at("5h", function() assert(drasim.uncordon_node("a-0") == true) end)
