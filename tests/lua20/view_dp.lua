-- The cluster view in device-plugin mode (tests/lua20/dp.yaml: h100-0/1 with 8 GPUs each, mig-0
-- with 56 MIG 1g.10gb slices, cpu-0): drasim.nodes{}, free_gpus and after_schedule.
local function eq(a, b, what) if a ~= b then error(what .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end end

local n = drasim.nodes{}
eq(#n, 4, "nodes")
eq(n[1].name, "h100-0", "first node")
eq(n[1].gpus, 8, "h100-0 free GPUs")
eq(n[1].resources["nvidia.com/gpu"], 8, "h100-0 nvidia.com/gpu")
eq(n[1].devices, nil, "no DRA devices in device-plugin mode")
eq(n[3].resources["nvidia.com/mig-1g.10gb"], 56, "mig-0 slices")
eq(n[3].gpus, 0, "static MIG GPUs are not whole GPUs")
eq(n[4].memory, 128 * 2^30, "cpu-0 free memory")
eq(#drasim.nodes{model = "NVIDIA-H100-80GB-HBM3", min_free_gpus = 1}, 2, "nodes with a free H100")
eq(drasim.nodes().count, 4, "drasim.nodes() keeps its summary form")

drasim.submit{name = "big", cpu = "60", memory = "64Gi", duration = "1h", gpu = {devicePlugin = {["nvidia.com/gpu"] = 6}}}
drasim.submit{name = "nb", cpu = "2", memory = "8Gi", duration = "1h", gpu = {devicePlugin = {["nvidia.com/mig-1g.10gb"] = 1}}}
drasim.after_schedule(function()
  local big = drasim.pod("big")
  eq(big.state, "running", "big placed")
  local node = drasim.nodes{node = big.node}[1]
  eq(node.gpus, 2, "GPUs left on big's node")
  eq(node.cpu, 4.0, "cores left on big's node")
  eq(drasim.free_gpus()["nvidia.com/gpu"], 10, "free_gpus")
  eq(drasim.free_gpus()["nvidia.com/mig-1g.10gb"], 55, "free MIG slices")
  drasim.after_schedule(function() drasim.record("user_nested", drasim.now()) end)   -- after the next pass
  drasim.record("user_after_schedule_ran", 1)
end)
drasim.at(60, function() end)
