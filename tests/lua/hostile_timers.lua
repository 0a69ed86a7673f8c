-- 20,000 one-shot timers in a chain, each submitting a pod that arrives one
-- second later, plus short-lived `every` timers and cancelled timers: fired,
-- stopped and cancelled timers (and arrived pods) give their slots back.
local left = 20000
local function step()
  left = left - 1
  drasim.submit{group = "chain", cpu = "1m", duration = 1, at = drasim.now() + 1}
  local n = 0
  drasim.every(0.5, function() n = n + 1; return n < 2 end)
  drasim.cancel(drasim.after(100, function() error("cancelled timer fired") end))
  if left > 0 then drasim.after(2, step) end
end
drasim.after(0, step)
-- an id of a finished timer cancels nothing, even when its slot serves another timer
local first = drasim.after(0, function() end)
drasim.after(1, function() drasim.cancel(first) end)
