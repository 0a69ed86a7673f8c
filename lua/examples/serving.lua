-- serving.lua: an autoscaled LLM-serving fleet. A reconcile loop (a
-- drasim.process) wakes every args.interval (default 5m), reads the target
-- replica count from a daily load curve and scales the fleet to it like a
-- Deployment under a HorizontalPodAutoscaler: new replicas are submitted, and
-- surplus ones deleted (drasim.delete, newest first, as a ReplicaSet scales
-- down pending and younger pods first). After the scheduling pass of each
-- reconcile it samples the target and the running replicas (user_target,
-- user_ready): on a cluster with room for the peak they are equal at every
-- reconcile. Run by scenarios/examples/lua-serving.yaml.
local args = drasim.args
local interval = drasim.duration(args.interval or "5m")
local low, high = args.min_replicas or 2, args.max_replicas or 16
local peak = drasim.duration(args.peak or "14h")

-- target replicas: low at night, high at the daily peak (a raised cosine)
local function target(t)
  local x = (1 + math.cos(2 * math.pi * (t - peak) / 86400)) / 2
  return low + math.floor((high - low) * x + 0.5)
end

local replicas = {}   -- names, oldest first
local claims = drasim.mode == "dra" and {claims = {drasim.claim{count = 1}}} or nil

local function reconcile()
  local want = target(drasim.now())
  while #replicas < want do
    replicas[#replicas + 1] = drasim.submit{group = "serve", cpu = "8", memory = "64Gi", duration = "30d",
                                            labels = {app = "llm-server"},
                                            gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}, dra = claims}}
  end
  while #replicas > want do
    drasim.delete(table.remove(replicas), "scaled down")
  end
  drasim.after_schedule(function()
    drasim.sample("user_target", want)
    drasim.sample("user_ready", drasim.running("serve"))
  end)
end

drasim.process(function()
  while true do
    reconcile()
    drasim.sleep(interval)
  end
end)
