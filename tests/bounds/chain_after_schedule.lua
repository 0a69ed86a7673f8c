-- issue 25, finding 9: an after_schedule callback that submits a pod for now
-- (so another scheduling pass runs at the same instant) and sets itself again:
-- simulated time never advances. Pods: 1 CPU each, which the 64-CPU nodes soon
-- cannot take, so they stay pending.
local function again()
  drasim.submit{cpu = "1", duration = 60}
  drasim.after_schedule(again)
end
again()
