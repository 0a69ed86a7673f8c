-- trace_replay.lua: resample a job trace (lua/examples/trace.csv: GPUs per pod
-- and run time of 48 made-up jobs) on a business-hours arrival curve, and
-- react to the cluster:
--   * every finished multi-GPU job is followed by a short evaluation pod on a
--     1g.10gb MIG slice (drasim.on_finish);
--   * when the queue drains and whole GPUs are free, a backfill burst of
--     1-GPU jobs is sent (drasim.pending, drasim.free_gpus).
-- Run by scenarios/examples/lua-trace.yaml; knobs in drasim.args.
local dist = require "drasim.dist"
local rate = require "drasim.rate"
local jobs = require "drasim.jobs"

local args = drasim.args
local rows = drasim.csv("trace.csv")
local pick = dist.empirical(rows)   -- a random row of the trace, rows keep gpus and seconds together

-- Quiet nights, busy days: arrivals per hour by time of day.
local curve = rate.steps{{"0h", args.night_rate or 6}, {"8h", args.day_rate or 40}, {"19h", args.night_rate or 6}}

rate.arrivals(curve, function()
  local job = pick()
  local names = jobs.training_gang{group = "trace-" .. job.gpus .. "gpu", pods = 1, gpus = job.gpus,
                                   duration = job.seconds * dist.uniform(0.8, 1.2)}
  if job.gpus >= 2 then
    drasim.on_finish(names[1], function(name)
      drasim.submit{group = "eval", cpu = "4", memory = "16Gi", tolerations = {jobs.gpu_toleration},
                    gpu = {devicePlugin = {["nvidia.com/mig-1g.10gb"] = 1}}, duration = dist.exponential(600)}
    end)
  end
end)

drasim.every("15m", function()
  local free = drasim.free_gpus()["nvidia.com/gpu"] or 0
  if drasim.pending() == 0 and free >= 8 then
    for _ = 1, math.min(free // 2, args.max_backfill or 16) do
      jobs.training_gang{group = "backfill", pods = 1, gpus = 1, priority = -10,
                         duration = dist.pareto(600, 2)}
    end
  end
end)
