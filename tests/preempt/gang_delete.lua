-- gang_delete.lua (tests/preempt/gang-delete.yaml): a gang pod deleted while it
-- waits at Permit gives back what it held and never starts.
drasim.submit{name = "filler", cpu = "8", memory = "64Gi", duration = "10m",
              gpu = {devicePlugin = {["nvidia.com/gpu"] = 8}}}
drasim.submit_gang{name = "g", size = 3, all_or_nothing = true, timeout = "1h",
                   template = {cpu = "8", memory = "64Gi", duration = "20m", at = 60,
                               gpu = {devicePlugin = {["nvidia.com/gpu"] = 4}}}}
drasim.at("2m", function() drasim.record("user_deleted_was_" .. (drasim.delete("g-0") or "nil"), 1) end)
