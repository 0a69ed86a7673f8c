-- Timers, on_finish and the clock: the pods' arrival times record what happened.
assert(drasim.now() == 0)
assert(require("helper").answer == 42)
local first = drasim.submit{name = "first", cpu = "1", duration = "10m"}
assert(first == "first")
drasim.on_finish("first", function(name)
  assert(name == "first" and drasim.now() == 600)
  drasim.submit{name = "after-first", cpu = "1", duration = 60}
end)
drasim.at("1h", function() drasim.submit{name = "at-1h", cpu = "1", duration = 1} end)
drasim.after(90, function() drasim.submit{name = "after-90s", cpu = "1", duration = 1} end)
drasim.submit{name = "future", at = "2h", cpu = "1", duration = 1}
local n = 0
drasim.every("30m", function()
  n = n + 1
  drasim.submit{group = "tick", cpu = "1", duration = 1}
  if n == 3 then return false end   -- stop after three ticks
end)
local t = drasim.every("1m", function() error("cancelled timer fired") end)
drasim.cancel(t)
-- gangs: consecutive names, same instant
local g = drasim.submit_gang{name = "g", size = 3, cpu = "1", duration = "5m", at = "3h"}
assert(#g == 3 and g[1] == "g-0" and g[3] == "g-2")
assert(drasim.duration("1h30m") == 5400 and drasim.duration(12) == 12)
