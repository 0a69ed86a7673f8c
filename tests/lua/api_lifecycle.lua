-- Pod life cycle from Lua: delete, on_start, pod(name), counts including
-- pods submitted in the same callback, pods submitted past the stop time.
-- Cluster (test_lua.c): 2 nodes x 8 H100 (+ a MIG node an 8-GPU pod cannot use).
local gpu8 = {devicePlugin = {["nvidia.com/gpu"] = 8}}
local starts, own, finished_a = {}, {}, false
drasim.on_start(function(n) starts[#starts + 1] = n .. "@" .. drasim.now() end)
drasim.submit{name = "a", cpu = "1", duration = "1h", gpu = gpu8,
              on_start = function(n) own[#own + 1] = n .. "@" .. drasim.now() end}
for _, n in ipairs{"b", "c", "d"} do drasim.submit{name = n, cpu = "1", duration = "1h", gpu = gpu8} end
drasim.on_finish("a", function() finished_a = true end)
-- submitted in this chunk, not arrived yet: counted as pending, not running
assert(drasim.pending() == 4 and drasim.pending("lua") == 4, "pending " .. drasim.pending())
assert(drasim.running() == 0)
assert(drasim.pod("a").state == "submitted")
drasim.submit{name = "late", cpu = "1", duration = "1h", at = "11h"}   -- stop is 10h
drasim.submit{name = "e", cpu = "1", duration = "1h", at = "2h"}

drasim.after(60, function()
  assert(table.concat(starts, ",") == "a@0.0,b@0.0", table.concat(starts, ","))
  assert(table.concat(own, ",") == "a@0.0", table.concat(own, ","))
  local a = drasim.pod("a")
  assert(a.state == "running" and a.arrival == 0 and a.start == 0 and a.finish == nil)
  assert(a.node == "h100-0" or a.node == "h100-1", tostring(a.node))
  assert(#a.devices["nvidia.com/gpu"] == 8)
  assert(drasim.pod("c").state == "pending" and drasim.pod("c").node == nil)
  assert(drasim.delete("c", "scaled down") == "pending")
  assert(drasim.pending() == 1, "pending after delete " .. drasim.pending())
  assert(drasim.delete("c") == nil)                       -- already deleted
  local c = drasim.pod("c")
  assert(c.state == "deleted" and c.finish == 60 and c.start == nil)
  assert(drasim.delete("a", "culled") == "running")
  assert(drasim.running() == 1 and drasim.pending() == 1)  -- d binds in the scheduling pass after this callback
  assert(drasim.delete("e") == "submitted" and drasim.pod("e") == nil and drasim.delete("e") == nil)
  assert(drasim.delete("nosuch") == nil and drasim.pod("nosuch") == nil)
end)
drasim.after(61, function()
  assert(table.concat(starts, ",") == "a@0.0,b@0.0,d@60.0", table.concat(starts, ","))
  local d = drasim.pod("d")
  assert(d.state == "running" and d.start == 60 and d.node == drasim.pod("a").node)
  assert(drasim.pod("a").state == "deleted" and drasim.pod("a").finish == 60)
end)
drasim.after("1h1s", function()
  -- b ended at 1h; a's completion due at 1h must not end it a second time
  assert(drasim.running() == 1, "running " .. drasim.running())
  assert(drasim.pod("b").state == "succeeded" and drasim.pod("b").finish == 3600)
  assert(not finished_a, "on_finish ran for a deleted pod")
end)
