-- drasim.free_gpus counts schedulable nodes only (docs/LUA.md): of the two
-- 4-GPU nodes n1 is cordoned, so 4 GPUs are free, by resource and by model;
-- a 1-GPU pod then leaves 3.
local f = drasim.free_gpus()
assert(f["nvidia.com/gpu"] == 4, "free gpus " .. tostring(f["nvidia.com/gpu"]))
assert(drasim.free_gpus("model")["NVIDIA-A100-SXM4-40GB"] == 4)
assert(drasim.nodes().count == 2 and drasim.nodes().schedulable == 1)
drasim.submit{name = "one", cpu = "1", duration = 10, gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}}
drasim.after(1, function()
  assert(drasim.free_gpus()["nvidia.com/gpu"] == 3, "after one pod " .. drasim.free_gpus()["nvidia.com/gpu"])
  drasim.submit{name = "checked", cpu = "1", duration = 1}
end)
