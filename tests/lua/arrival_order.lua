-- arrival_order.lua -- pods submitted in and out of time order
-- (sim/workload/lua_arrivals.c): those not before the last one queued join
-- the FIFO run, which has one engine event for the lot; the others get an
-- event each. Either way they arrive by (time, submission order), and a pod
-- deleted before it arrived never does. test_lua.c checks the order:
-- p9 (0 s), p6 (1 s), p2, p3 (3 s), q1 (4 s), p1 (5 s), p10 (7 s), p7, p8, q2 (9 s), p11.
-- q2 comes after p7 and p8 although the engine hears of p7 only at 7 s (when
-- p4's place in the run comes up): p7 took its place in the event order at 0 s.
local times = {5, 3, 3, 7, 5, 1, 9, 9, 0, 7, 11}   -- FIFO: p1 p4 p7 p8 p11; the rest one event each
for i, s in ipairs(times) do
  drasim.submit{name = "p" .. i, at = s, duration = 60, cpu = "1"}
end
assert(drasim.pod("p4").state == "submitted" and drasim.pod("p5").state == "submitted")
assert(drasim.delete("p4") == "submitted")   -- queued in the FIFO run
assert(drasim.delete("p5") == "submitted")   -- queued with an event of its own
assert(drasim.pod("p4") == nil and drasim.pod("p5") == nil)
drasim.at(3, function()
  drasim.submit{name = "q1", at = 4, duration = 60, cpu = "1"}   -- before the run's tail (11 s): an event of its own
  drasim.submit{name = "q2", at = 9, duration = 60, cpu = "1"}   -- before the run's tail (11 s) too
  assert(drasim.pod("p1").state == "submitted" and drasim.pod("p2").state ~= "submitted")
end)
