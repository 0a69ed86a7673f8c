-- Each callback spends about half of the scenario's instruction limit
-- (instructionLimit 400000; 100,000 loop iterations of two VM instructions,
-- FORLOOP and ADD: about 200,000).
-- The budget is per callback (docs/LUA.md), so ten callbacks run fine and
-- submit ten pods; a budget carried over would stop the run by the third.
local calls = 0
drasim.every("1s", function()
  local x = 0
  for i = 1, 100000 do x = x + i end
  assert(x == 5000050000)
  calls = calls + 1
  drasim.submit{name = "tick-" .. calls, cpu = "1", duration = 0.5}
  if calls == 10 then return false end
end, 0)
