-- The jobs library's DRA forms (tests/lua20/dra.yaml): the same calls as in device-plugin mode,
-- claims made by drasim.claim. Free whole GPUs: 10 - 4 (gang) - 2 (service) - 1 (carved by the notebook) = 3.
local jobs = require "drasim.jobs"
local function eq(a, b, what) if a ~= b then error(what .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end end
local nb = jobs.notebook{profile = "3g.40gb", duration = "30m"}   -- first in the queue: on mig-0
local g = jobs.training_gang{name = "train", pods = 1, gpus = 4, duration = "1h"}
local s = jobs.inference_service{name = "svc", replicas = 2, gpu = {["nvidia.com/gpu"] = 1}, duration = "1h"}
local c = jobs.dra_claims{["nvidia.com/mig-1g.10gb"] = 2}
eq(c.claims[1].spec.devices.requests[1].exactly.count, 2, "dra_claims count")
eq(c.claims[1].spec.devices.requests[1].exactly.deviceClassName, "mig.nvidia.com", "dra_claims class")
drasim.after_schedule(function()
  for _, name in ipairs{g[1], s[1], s[2], nb[1]} do eq(drasim.pod(name).state, "running", name) end
  eq(drasim.pod(nb[1]).node, "mig-0", "the notebook's node")
  eq(drasim.free_gpus()["gpu.nvidia.com"], 3, "free whole GPUs")
  drasim.record("user_jobs_ok", 1)
end)
