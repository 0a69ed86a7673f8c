-- Queued timers cost C memory outside the Lua heap: they are charged to the memory limit.
local function f() end
while true do drasim.after(1, f) end
