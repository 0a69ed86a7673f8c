-- tests/policy/lua-probe.yaml: the pods of tests/policy/whole-gpu.yaml, submitted from Lua.
local H = 3600
drasim.submit{group = "on-a", cpu = "8", memory = "32Gi", nodeSelector = {slot = "a"},
              gpu = {devicePlugin = {["nvidia.com/gpu"] = 2}}, duration = H}
drasim.submit{group = "on-b", cpu = "16", memory = "64Gi", nodeSelector = {slot = "b"},
              gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}, duration = H}
drasim.submit{group = "on-c", cpu = "56", memory = "224Gi", nodeSelector = {slot = "c"}, duration = H}
drasim.after("1s", function()
  drasim.submit{group = "probe", cpu = "4", memory = "16Gi",
                gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}, duration = H}
end)
