-- mix.lua: a day of mixed GPU work on the quickstart fleet, written as a Lua
-- generator (scenarios/examples/lua-mix.yaml runs it).
--   * training: 2-pod gangs of 8 H100s and single 2-GPU A100 jobs, arriving on
--     a diurnal curve (busiest at 14:00);
--   * inference: a few services with replicas on 1g.10gb MIG slices, started at
--     the beginning and scaled up at the morning peak;
--   * notebooks on 3g.20gb slices, every `notebook_every`;
--   * a burst of CPU batch work whenever the queue drains.
-- Knobs come from the scenario's `args` (drasim.args).
local dist = require "drasim.dist"
local rate = require "drasim.rate"
local jobs = require "drasim.jobs"

local args = drasim.args
local H100 = {["nvidia.com/gpu.product"] = "NVIDIA-H100-80GB-HBM3"}
local A100 = {["nvidia.com/gpu.product"] = "NVIDIA-A100-SXM4-80GB"}

-- Training on a diurnal curve: a weighted mix of two job shapes.
local train_rate = rate.diurnal{mean = args.train_per_hour or 20, amplitude = 0.6, peak = "14h"}
rate.arrivals(train_rate, function()
  jobs.mix{
    {1, function()
      jobs.training_gang{pods = 2, gpus = 8, gpu_selector = H100, priority = 100,
                         duration = dist.lognormal{median = 7200, sigma = 0.6}}
    end},
    {6, function()
      jobs.training_gang{pods = 1, gpus = 2, gpu_selector = A100, priority = 50, cpu = "16", memory = "128Gi",
                         duration = dist.lognormal{median = 2700, sigma = 0.8}}
    end},
  }
end)

-- Inference services: long-running replicas, more of them from 09:00.
local services = args.services or 4
for i = 1, services do
  jobs.inference_service{name = "svc" .. i, replicas = 3, gpu = {["nvidia.com/mig-1g.10gb"] = 1},
                         duration = drasim.stop_time}
end
drasim.at("9h", function()
  for i = 1, services do
    jobs.inference_service{name = "svc" .. i .. "-peak", replicas = 2, gpu = {["nvidia.com/mig-1g.10gb"] = 1},
                           duration = "6h"}
  end
end)

-- Notebooks on 3g.20gb slices; their sessions last from 30 minutes to 3 hours.
drasim.every(args.notebook_every or "8m", function()
  jobs.notebook{profile = "3g.20gb", cpu = "8", memory = "64Gi", duration = dist.uniform(1800, 10800)}
end)

-- When nothing waits, top the cluster up with CPU batch work (Pareto-tailed run times).
local bursts = 0
drasim.every("10m", function()
  if drasim.pending() == 0 and bursts < (args.max_bursts or 20) then
    bursts = bursts + 1
    for _ = 1, dist.poisson(args.burst_size or 12) do
      drasim.submit{group = "cpu-burst", cpu = "8", memory = "32Gi", duration = math.min(dist.pareto(300, 1.8), 14400)}
    end
  end
end)
