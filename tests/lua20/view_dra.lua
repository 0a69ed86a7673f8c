-- The cluster view in DRA mode (tests/lua20/dra.yaml: h100-0 with 8 whole GPUs, mig-0 with 2
-- dynamic-MIG GPUs, cpu-0): drasim.nodes{}, free_devices, free_gpus, drasim.claim, after_schedule.
local function eq(a, b, what) if a ~= b then error(what .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end end

local n = drasim.nodes{}
eq(#n, 3, "nodes")
eq(n[1].name, "h100-0", "first node")
eq(n[1].gpus, 8, "h100-0 free GPUs")
eq(n[1].devices["gpu.nvidia.com"], 8, "h100-0 gpu devices")
eq(n[2].devices["gpu.nvidia.com"], 2, "mig-0 whole GPUs")
eq(n[2].mig["3g.40gb"], 4, "mig-0: 3g.40gb placements (2 per GPU)")
eq(n[2].mig["7g.80gb"], 2, "mig-0: 7g.80gb")
eq(n[3].gpus, 0, "cpu-0 GPUs")
eq(n[3].cpu, 32.0, "cpu-0 free cores")
eq(#drasim.nodes{min_free_gpus = 4}, 1, "nodes with 4 free GPUs")
eq(#drasim.nodes{node = "mig-0"}, 1, "node by name")
eq(#drasim.nodes{selector = {["kubernetes.io/hostname"] = "cpu-0"}}, 1, "node by label")
eq(drasim.free_gpus()["gpu.nvidia.com"], 10, "free_gpus in DRA mode")
eq(drasim.free_gpus("model")["NVIDIA-H100-80GB-HBM3"], 10, "free_gpus by model")

-- two pods submitted now: 4 whole GPUs (only h100-0 has 4), one 3g.40gb slice
drasim.submit{name = "train", cpu = "8", memory = "64Gi", duration = "1h",
              gpu = {dra = {claims = {drasim.claim{count = 4}}}}}
drasim.submit{name = "nb", cpu = "2", memory = "8Gi", duration = "1h",
              gpu = {dra = {claims = {drasim.claim{profile = "3g.40gb"}}}}}
-- counts of free devices do not include pods submitted now: they are placed by the pass
eq(drasim.free_gpus()["gpu.nvidia.com"], 10, "before the pass")
drasim.after_schedule(function()
  eq(drasim.pod("train").state, "running", "train placed")
  eq(drasim.pod("nb").state, "running", "nb placed")
  eq(drasim.pod("nb").node, "mig-0", "nb on the MIG node")
  local k, list = drasim.free_devices{class = "gpu.nvidia.com"}
  eq(k, 5, "whole GPUs free after the pass (10 - 4 - the one nb carved)")
  eq(#list, 5, "device list")
  local m = drasim.free_devices{class = "mig.nvidia.com", selector = "device.attributes['gpu.nvidia.com'].profile == '3g.40gb'"}
  eq(m, 3, "3g.40gb placements left")
  eq(drasim.nodes{node = "mig-0"}[1].gpus, 1, "mig-0 whole GPUs left")
  drasim.record("user_after_schedule_ran", 1)
end)
