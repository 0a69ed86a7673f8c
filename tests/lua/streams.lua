-- Two arrival processes (tests/lua/streams.yaml): a chain of drasim.after
-- timers with exponential gaps, and a drasim.every tick with random run
-- times. With args.noop each callback also sets a no-op timer (and a no-op
-- after_schedule); that must change no arrival time and no run time.
local noop = drasim.args.noop
local function nothing() end
local function arrive()
  if noop then drasim.after(0, nothing) end
  drasim.submit{group = "chain", cpu = "1", memory = "1Gi", duration = drasim.exponential(1800)}
  if noop then drasim.after(60, nothing); drasim.after_schedule(nothing) end
  drasim.after(drasim.exponential(600), arrive)
end
drasim.after(0, arrive)
drasim.every("7m", function()
  if noop then drasim.after(1, nothing) end
  drasim.submit{group = "tick", cpu = "1", memory = "1Gi", duration = 60 + drasim.random_int(0, 3600)}
end)
