-- Retrying invalid shapes under pcall must not grow C memory: this runs to the
-- instruction limit (the test checks that the process stays within bounds).
local i = 0
while true do
  i = i + 1
  pcall(drasim.submit, {duration = 1, nodeSelector = {k = "v" .. i}, tolerations = {{operator = "Bogus"}}})
end
