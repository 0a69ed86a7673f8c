-- drasim.submit makes no Lua string for a made-up name when the call is a
-- statement (lua_pods.c base_name): the names go on numbering the same, and
-- a call whose result is used gets its name; a made-up name skips the names
-- the script gave (tests/unit/test_lua.c: pods g-0 .. g-4, x, g-5, g-7, g-6, g-8).
local function pod() return {group = "g", cpu = "1", duration = 60} end
drasim.submit(pod())                                    -- g-0, result dropped
assert(drasim.submit(pod()) == "g-1")
local ok, name = pcall(drasim.submit, pod())
assert(ok and name == "g-2")
assert(select("#", drasim.submit(pod())) == 1)         -- g-3
local t = {drasim.submit(pod())}                        -- g-4
assert(#t == 1 and t[1] == "g-4")
local p = pod()
p.name = "x"
drasim.submit(p)
assert(drasim.submit(pod()) == "g-5")
p = pod()
p.name = "g-7"
drasim.submit(p)
assert(drasim.submit(pod()) == "g-6")
assert(drasim.submit(pod()) == "g-8")                  -- g-7 is taken
