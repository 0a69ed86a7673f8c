-- The pods of tests/lua/mig-groups.yaml, from Lua: a-0..5 (1g.10gb) at 0, 20m, ...,
-- b-0..5 (3g.40gb) at 10m, 30m, ...; 2 h each. Every shape is made at t = 0
-- (one pod each so far), so the typical MIG requests are 1g and 3g at 1/2 each.
local function pod(group, i, profile, at)
  local cel = "device.attributes['gpu.nvidia.com'].profile == '" .. profile .. "'"
  local request = {name = "mig", exactly = {deviceClassName = "mig.nvidia.com", selectors = {{cel = {expression = cel}}}}}
  local claim = {name = "mig", spec = {devices = {requests = {request}}}}
  drasim.submit{name = group .. "-" .. i, group = group, cpu = "2", memory = "8Gi", duration = "2h", at = at,
                gpu = {dra = {claims = {claim}}}}
end
for i = 0, 5 do pod("a", i, "1g.10gb", i * 1200) end
for i = 0, 5 do pod("b", i, "3g.40gb", i * 1200 + 600) end
