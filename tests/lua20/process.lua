-- The process layer (tests/lua20/dp.yaml): sleep, wait (a pod that succeeds, one deleted), any, all.
-- Times by hand: every pod starts at once (the cluster is empty).
local function eq(a, b, what) if a ~= b then error(what .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end end
local log = {}
local function note(s) log[#log + 1] = string.format("%s@%g", s, drasim.now()) end

local p1 = drasim.process(function(d)
  drasim.sleep(d)                                   -- 0 -> 60 s
  note("slept")
  local a = drasim.submit{name = "a", cpu = "1", duration = "10m"}
  eq(drasim.wait(a), "succeeded", "wait a")         -- 60 + 600 = 660 s
  note("a-done")
  return "p1"
end, 60)

local p2 = drasim.process(function()
  local b = drasim.submit{name = "b", cpu = "1", duration = "1h"}
  drasim.after(300, function() drasim.delete(b, "enough") end)
  eq(drasim.wait(b), "deleted", "wait b")           -- deleted at 300 s
  note("b-deleted")
  return "p2"
end)

drasim.process(function()
  local i, r = drasim.any{p1, p2}                   -- p2 ends first (300 s)
  eq(i, 2, "any index"); eq(r, "p2", "any result")
  note("any")
  local all = drasim.all{p1, p2, drasim.submit{name = "c", cpu = "1", duration = "20m"}}   -- c ends at 1500 s
  eq(all[1], "p1", "all[1]"); eq(all[2], "p2", "all[2]"); eq(all[3], "succeeded", "all[3]: the pod's end")
  note("all")
  eq(table.concat(log, " "), "slept@60 b-deleted@300 any@300 a-done@660 all@1500", "the order of events")
  drasim.record("user_all_at", drasim.now())
end)
