-- tests/policy/dra-lua-probe.yaml: the pods of tests/policy/dra-whole-gpu.yaml, submitted from Lua.
local H = 3600
local function gpus(n)
  return {dra = {claims = {{name = "g", spec = {devices = {requests = {
    {name = "g", exactly = {deviceClassName = "gpu.nvidia.com", count = n}}}}}}}}}
end
drasim.submit{group = "on-a", cpu = "8", memory = "32Gi", nodeSelector = {slot = "a"}, gpu = gpus(2), duration = H}
drasim.submit{group = "on-b", cpu = "16", memory = "64Gi", nodeSelector = {slot = "b"}, gpu = gpus(1), duration = H}
drasim.submit{group = "on-c", cpu = "56", memory = "224Gi", nodeSelector = {slot = "c"}, duration = H}
drasim.after("1s", function()
  drasim.submit{group = "probe", cpu = "4", memory = "16Gi", gpu = gpus(1), duration = H}
end)
