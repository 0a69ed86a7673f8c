-- owner, checkpoint, terminationGracePeriodSeconds on drasim.submit
-- (tests/lua/lifecycle.yaml, tests/lua.cmake). One node, 2 GPUs.
--  * svc (owner service, 4 h) is evicted at 1 h with the default 30 s grace:
--    its replacement svc-r1 arrives at 1 h, starts when svc's GPU is free
--    (1 h 0 m 30 s) and serves the rest, 3 h: it ends at 4 h 0 m 30 s.
--  * job (owner job, checkpoint 1 h, 5 h, grace 120 s) is evicted at 2 h 30 m:
--    it keeps its GPU until 2 h 32 m; job-r1 arrives at 2 h 30 m, starts at
--    2 h 32 m and redoes the work since the 2 h checkpoint, 3 h: ends 5 h 32 m.
--  Work lost: job 1 GPU x 30 min = 0.5 GPU-hours, svc 0; 2 pods replaced, 0 lost.
local gpu1 = {devicePlugin = {["nvidia.com/gpu"] = 1}}
drasim.submit{name = "svc", group = "serve", cpu = "1", memory = "1Gi", gpu = gpu1, duration = "4h",
              owner = "service"}
drasim.submit{name = "job", group = "train", cpu = "1", memory = "1Gi", gpu = gpu1, duration = "5h",
              owner = "job", checkpoint = "1h", terminationGracePeriodSeconds = 120}
drasim.at("1h", function() assert(drasim.evict("svc") == "running") end)
drasim.at("150m", function() assert(drasim.evict("job") == "running") end)
