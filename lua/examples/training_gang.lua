-- training_gang.lua: 16 x 8-GPU training gangs on a busy H100 fleet, each
-- all-or-nothing with a 10-minute retry (scenarios/examples/lua-training-gang.yaml).
--   * background: 1- and 4-GPU batch jobs keep most of the fleet busy;
--   * every `gang_every` a 16-pod gang of whole nodes (8 GPUs each) arrives.
-- With all_or_nothing = true the scheduler's gang model (docs/PREEMPTION.md)
-- holds the placed pods at Permit for at most `timeout`; then it releases
-- them, calls on_timeout and retries. With all_or_nothing = false (args) the
-- pods start as they fit: a half-placed gang runs nothing useful and holds
-- its GPUs until its last pod starts.
local dist = require "drasim.dist"

local args = drasim.args
local aon = args.all_or_nothing ~= false
local timeouts = 0

drasim.every(args.batch_every or "150s", function()
  local gpus = drasim.random() < 0.7 and 1 or 4
  drasim.submit{group = "batch", cpu = tostring(8 * gpus), memory = (64 * gpus) .. "Gi",
                gpu = {devicePlugin = {["nvidia.com/gpu"] = gpus}},
                duration = dist.lognormal{median = 3600, sigma = 0.7}}
end)

drasim.every(args.gang_every or "4h", function()
  local t = {size = 16, all_or_nothing = aon,
             template = {group = "train", cpu = "64", memory = "512Gi",
                         gpu = {devicePlugin = {["nvidia.com/gpu"] = 8}}, duration = "3h"}}
  if aon then
    t.timeout = args.timeout or "10m"
    t.on_timeout = function(names)
      timeouts = timeouts + 1
      drasim.record("user_gang_timeouts", timeouts)
    end
  end
  drasim.submit_gang(t)
end)
