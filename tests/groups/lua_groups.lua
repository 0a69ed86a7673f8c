-- train-1 takes the only GPU for 30 min; train-2 (another shape: 2 CPUs) waits
-- for it from 10 min to 30 min; the `lua` pod needs no GPU (tests/groups/lua-groups.yaml).
local gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}
drasim.submit{name = "train-1", group = "train", cpu = "1", gpu = gpu, duration = "30m"}
drasim.submit{name = "train-2", group = "train", at = "10m", cpu = "2", gpu = gpu, duration = "10m"}
drasim.submit{name = "cpu-1", cpu = "1", duration = "5m"}
