-- drasim.record and drasim.sample (tests/lua/record.yaml, tests/lua.cmake): every row is checked.
drasim.sample("user_queue", 1)                    -- user_samples: user_queue 0 ms 1.0
drasim.record("user_gang_wait_s", 10)             -- replaced at 90 s: the last value wins
drasim.record("user_gang_wait_s", 2.5, "train")   -- a group's row (grp = 'train')
drasim.submit{name = "t1", group = "train", cpu = "1", memory = "1Gi", duration = "1m"}
drasim.after("90s", function()
  drasim.sample("user_queue", 4.5)                -- user_queue 90000 ms 4.5
  drasim.sample("user_other.x-1", -2)             -- user_other.x-1 90000 ms -2.0
  drasim.record("user_gang_wait_s", 150)
  drasim.record("user_count", 3)
end)
