-- restartPolicy on drasim.submit (tests/crashloop/lua.yaml): a 3-hour job
-- with restartPolicy Never on GPU 0, whose GPU fails at 1h30m: the pod
-- fails (state "failed"), its Job's replacement "job-r1" redoes the 1 h
-- since its last checkpoint (at 1 h) on GPU 1 (the failed GPU left
-- allocatable): it ends at 1h30m + 2h = 3h30m (12600 s). A bad value is
-- refused.
drasim.submit{name = "job", cpu = "1", duration = "3h", owner = "job", checkpoint = "1h",
              restartPolicy = "Never", gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}}
assert(not pcall(drasim.submit, {name = "bad", cpu = "1", duration = "1h", restartPolicy = "Sometimes"}))
drasim.at("90m", function()
  assert(drasim.fail_gpu("a-0", 0) == true)
  assert(drasim.pod("job").state == "failed", drasim.pod("job").state)
end)
