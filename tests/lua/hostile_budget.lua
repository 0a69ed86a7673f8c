-- Every callback uses about 60 % of the instruction limit (1,000,000, set by
-- the test): the run succeeds only if the budget is fresh for each callback.
local calls = 0
drasim.every("1m", function()
  local x = 0
  for i = 1, 200000 do x = x + i end
  calls = calls + 1
  if calls == 50 then
    drasim.submit{name = "done-50", cpu = "1", duration = 1}
    return false
  end
end, 0)
