-- crn.lua: common random numbers (tests/crn.cmake). Training jobs arrive on a
-- Poisson chain (drasim.at); every finished job may be followed by a retry
-- whose duration is drawn in drasim.on_finish, and a drain timer draws a burst
-- size only when nothing waits. The follow-ups and bursts depend on the fleet;
-- the training jobs (names, arrivals, durations) must not.
local function next_job()
  local t = drasim.now() + drasim.exponential(120)
  if t >= drasim.stop_time then return end
  drasim.at(t, function()
    local name = drasim.submit{group = "train", cpu = "8", duration = 600 + 1800 * drasim.random()}
    drasim.on_finish(name, function()
      if drasim.random() < 0.5 then
        drasim.submit{group = "retry", cpu = "8", duration = 300 + 600 * drasim.random()}
      end
    end)
    next_job()
  end)
end
next_job()
drasim.every("10m", function()
  if drasim.pending() == 0 then
    for _ = 1, drasim.random_int(1, 4) do drasim.submit{group = "burst", cpu = "4", duration = 120 * drasim.random()} end
  end
end)
