-- autoscale.lua: notebooks on a day curve and bursts of training, for the
-- cluster-autoscaler example (scenarios/examples/autoscaler-diurnal.yaml).
--   * notebooks: one dynamic-MIG slice each (1g.10gb or 3g.40gb), arriving on
--     a diurnal curve (busiest at 14:00), sessions of 30 minutes to 3 hours;
--   * training: at 10:00 and 20:00 a burst of 8-GPU jobs on H100s and a
--     steady trickle of 4-GPU jobs on the fixed A100 nodes.
-- In DRA mode every GPU is a claim (ResourceClaimTemplate spec in the pod).
local dist = require "drasim.dist"
local rate = require "drasim.rate"

local args = drasim.args

local function mig_claim(profile)
  return {claims = {{name = "mig", spec = {devices = {requests = {{name = "mig", exactly = {
    deviceClassName = "mig.nvidia.com",
    selectors = {{cel = {expression = "device.attributes['gpu.nvidia.com'].profile == '" .. profile .. "'"}}}}}}}}}}}
end

local function gpu_claim(n, product)
  return {claims = {{name = "gpus", spec = {devices = {requests = {{name = "gpus", exactly = {
    deviceClassName = "gpu.nvidia.com", allocationMode = "ExactCount", count = n,
    selectors = {{cel = {expression = "device.attributes['gpu.nvidia.com'].productName == '" .. product .. "'"}}}}}}}}}}}
end

local small, large = mig_claim("1g.10gb"), mig_claim("3g.40gb")
local notebooks = rate.diurnal{mean = args.notebooks_per_hour or 40, amplitude = 0.9, peak = "14h"}
rate.arrivals(notebooks, function()
  drasim.submit{group = "notebook", cpu = "4", memory = "32Gi",
                gpu = {dra = dist.uniform(0, 1) < 0.7 and small or large},
                duration = dist.uniform(1800, 10800)}
end)

local h100 = gpu_claim(8, "NVIDIA H100 80GB HBM3")
local function burst()
  for _ = 1, args.burst or 12 do
    drasim.submit{group = "train-h100", cpu = "64", memory = "512Gi", priority = 100,
                  gpu = {dra = h100}, duration = dist.lognormal{median = 5400, sigma = 0.5}}
  end
end
drasim.at("10h", burst)
drasim.at("20h", burst)

local a100 = gpu_claim(4, "NVIDIA A100-SXM4-80GB")
rate.arrivals(rate.constant(args.a100_per_hour or 3), function()
  drasim.submit{group = "train-a100", cpu = "32", memory = "256Gi", priority = 50,
                gpu = {dra = a100}, duration = dist.lognormal{median = 3600, sigma = 0.6}}
end)
