-- Queued timers are charged to memoryLimit (docs/LUA.md: 64 bytes each,
-- outside the Lua heap). 50,000 queued timers are charged 3.2 MB; the Lua
-- heap holds about 1 MB more (their registry references). string.rep of
-- 2.75 MiB needs about twice that while it builds (its buffer doubles):
-- about 5.8 MB. 3.2 + 1 + 5.8 MB exceeds the 8 MiB (8.39 MB) limit, so the
-- script must fail here; without the timers' charge it would need about
-- 6.8 MB and pass. (Measured: with a 1.75 MiB string the script passes.)
local function f() end
for _ = 1, 50000 do drasim.after(3600, f) end
local s = string.rep("x", math.floor(2.75 * 1024 * 1024))
drasim.submit{name = "not-reached-" .. #s, cpu = "1", duration = 1}
