-- drasim.evict (tests/lua/evict.yaml, tests/lua.cmake). One node, 2 GPUs:
-- a and b (1 GPU, 2 h) run from 0; c (2 GPUs, 10 m) waits. At 1 h a is
-- evicted with a 60 s grace period and b with its default 30 s, so c starts
-- at 1 h 1 m, when both GPUs are free; c ends at 1 h 11 m.
local function expect(got, want, what)
  if got ~= want then error(what .. ": got " .. tostring(got) .. ", want " .. tostring(want), 2) end
end
local gpu1 = {devicePlugin = {["nvidia.com/gpu"] = 1}}
local gpu2 = {devicePlugin = {["nvidia.com/gpu"] = 2}}
drasim.submit{name = "a", group = "batch", cpu = "1", memory = "1Gi", gpu = gpu1, duration = "2h"}
drasim.submit{name = "b", group = "batch", cpu = "1", memory = "1Gi", gpu = gpu1, duration = "2h"}
drasim.submit{name = "c", group = "wide", cpu = "1", memory = "1Gi", gpu = gpu2, duration = "10m", at = "1m"}
drasim.at("1h", function()
  expect(drasim.evict("a", {grace = "60s"}), "running", "evict a")
  expect(drasim.evict("b", {reason = "spot reclaim"}), "running", "evict b")
  expect(drasim.evict("a"), nil, "evict a again (terminating)")
  expect(drasim.pod("a").state, "terminating", "a's state")
  expect(drasim.evict("nobody"), nil, "evict an unknown pod")
end)
drasim.at("1h40s", function()
  expect(drasim.pod("b").state, "deleted", "b after its grace period")
  expect(drasim.pod("a").state, "terminating", "a still in its grace period")
  expect(drasim.pod("c").state, "pending", "c waits for a's GPU")
end)
