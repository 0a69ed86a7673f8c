-- A runtime error inside a timer callback on line 4.
local function broken()
  local t = nil
  return t.field
end
drasim.after("10m", function() broken() end)
