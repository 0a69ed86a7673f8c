-- drasim.seed pods of group `hold` (1 GPU, 10 s) at 0, then one pod of group
-- `w` (1 GPU) at 1 s (tests/groups.cmake, compare per group, paired by seed).
local gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}
for i = 1, drasim.seed do drasim.submit{name = "hold-" .. i, group = "hold", cpu = "1", gpu = gpu, duration = 10} end
drasim.submit{name = "w", group = "w", at = 1, cpu = "1", gpu = gpu, duration = 10}
