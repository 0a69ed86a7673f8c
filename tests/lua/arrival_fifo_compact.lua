-- arrival_fifo_compact.lua -- 10,000 pods queued in time order (1 s apart) at
-- time 0; at 6000.5 s, with 6,000 of them arrived, one more pod joins the
-- FIFO run, which then moves its remaining 4,000 entries to the front
-- (lua_arrivals.c), and c9000, queued since time 0, is deleted: found at its
-- new place. test_lua.c checks: 10,000 pods, no c9000, late at 20,000 s.
for i = 1, 10000 do
  drasim.submit{name = "c" .. i, at = i, duration = 30, cpu = "1"}
end
drasim.at(6000.5, function()
  assert(drasim.pod("c6000").state ~= "submitted" and drasim.pod("c6001").state == "submitted")
  drasim.submit{name = "late", at = 20000, duration = 30, cpu = "1"}
  assert(drasim.delete("c9000") == "submitted")
  assert(drasim.pod("c9000") == nil and drasim.pod("c8999").state == "submitted")
end)
