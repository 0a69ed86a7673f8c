-- drasim.jobs: building blocks for job mixes. Each function submits its pods
-- and returns their names. In dra mode (drasim.mode == "dra") a job without
-- `dra` gets the DRA form of its GPU demand (drasim.claim): whole GPUs as
-- `gpu.nvidia.com` devices, MIG slices as `mig.nvidia.com` devices of the
-- profile; device-plugin runs are unchanged.
--   local jobs = require "drasim.jobs"
--   jobs.training_gang{pods = 2, gpus = 8, duration = "3h", nodeSelector = {...}}
--   jobs.inference_service{name = "chat", replicas = 4, gpu = {["nvidia.com/mig-1g.10gb"] = 1}, duration = "6h"}
--   jobs.notebook{profile = "3g.20gb", duration = "2h"}
--   jobs.mix{{3, function() ... end}, {1, function() ... end}}   -- weighted choice of generators
local dist = require "drasim.dist"

local M = {}

local function check(cond, msg) if not cond then error(msg, 3) end end

-- The toleration GPU nodes usually carry.
M.gpu_toleration = {key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule"}

-- The DRA claims of a device-plugin demand {resource = n}: nvidia.com/gpu ->
-- n whole GPUs, nvidia.com/mig-<profile> -> n MIG devices of that profile.
function M.dra_claims(demand)
  local claims = {}
  for _, res in ipairs(drasim.sorted_keys(demand)) do
    local n = demand[res]
    local profile = type(res) == "string" and res:match("^nvidia%.com/mig%-(.+)$")
    if res == "nvidia.com/gpu" then
      claims[#claims + 1] = drasim.claim{name = "gpu", count = n}
    elseif profile then
      claims[#claims + 1] = drasim.claim{name = "mig-" .. profile:gsub("[^%w]", "-"), profile = profile, count = n}
    elseif res ~= "nodeSelector" then
      error("drasim.jobs: no DRA form of resource " .. tostring(res), 3)
    end
  end
  return {claims = claims}
end

-- p.dra, else in dra mode the DRA form of the device-plugin demand dp.
local function dra_of(p, dp)
  if p.dra or drasim.mode ~= "dra" then return p.dra end
  return M.dra_claims(dp)
end

local function pod(p, extra)
  local t = {
    group = p.group, name = p.name, at = p.at, duration = p.duration, priority = p.priority,
    cpu = p.cpu, memory = p.memory, nodeSelector = p.nodeSelector, affinity = p.affinity,
    tolerations = p.tolerations or {M.gpu_toleration},
  }
  for k, v in pairs(extra) do t[k] = v end
  return t
end

-- A distributed training job: `pods` pods with `gpus` whole GPUs each, submitted
-- together (drasim.submit_gang). Optional gpu_selector (device-plugin node selector,
-- e.g. {["nvidia.com/gpu.product"] = "NVIDIA-H100-80GB-HBM3"}) and dra (claims).
function M.training_gang(p)
  check(type(p) == "table", "training_gang: expected a table")
  local pods, gpus = p.pods or 1, p.gpus or 8
  check(math.type(pods) == "integer" and pods >= 1, "training_gang: pods must be a positive integer")
  check(math.type(gpus) == "integer" and gpus >= 1, "training_gang: gpus must be a positive integer")
  local dp = {["nvidia.com/gpu"] = gpus, nodeSelector = p.gpu_selector}
  local t = pod(p, {size = pods, group = p.group or "training",
                    gpu = {devicePlugin = dp, dra = dra_of(p, {["nvidia.com/gpu"] = gpus})}})
  t.cpu, t.memory = p.cpu or tostring(8 * gpus), p.memory or (64 * gpus .. "Gi")
  return drasim.submit_gang(t)
end

-- An inference service: `replicas` long-running pods with the same demand
-- (`gpu`: device-plugin resources, e.g. {["nvidia.com/mig-1g.10gb"] = 1}).
function M.inference_service(p)
  check(type(p) == "table" and type(p.gpu) == "table", "inference_service: expected {gpu = {resource = n}, ...}")
  local replicas = p.replicas or 1
  check(math.type(replicas) == "integer" and replicas >= 1, "inference_service: replicas must be a positive integer")
  local t = pod(p, {size = replicas, group = p.group or "inference", gpu = {devicePlugin = p.gpu, dra = dra_of(p, p.gpu)}})
  t.cpu, t.memory = p.cpu or "4", p.memory or "32Gi"
  return drasim.submit_gang(t)
end

-- A notebook on one MIG slice (profile such as "1g.10gb", "3g.20gb"), or on a
-- whole GPU when profile is nil.
function M.notebook(p)
  p = p or {}
  local res = p.profile and ("nvidia.com/mig-" .. p.profile) or "nvidia.com/gpu"
  local t = pod(p, {group = p.group or "notebook", gpu = {devicePlugin = {[res] = 1}, dra = dra_of(p, {[res] = 1})}})
  t.cpu, t.memory = p.cpu or "4", p.memory or "16Gi"
  return {drasim.submit(t)}
end

-- Weighted choice among generator functions: mix{{weight, fn}, ...} calls one.
function M.mix(entries) return dist.choice(entries)() end

return M
