-- An __index metamethod of the pod table calls drasim.submit again while the
-- outer submit reads the table (issue 10: heap use-after-free in parse_shape).
-- Every call uses a new shape, so each one builds and parses a new class.
local nested = 0
local mt = {__index = function(t, k)
  if k == "requests" or k == "gpu" or k == "tolerations" then
    nested = nested + 1
    drasim.submit{group = "inner" .. nested, cpu = tostring(nested % 5 + 1), duration = 5}
  end
  return nil
end}
for i = 1, 40 do
  drasim.submit(setmetatable({group = "outer" .. i, cpu = "1", memory = i .. "Mi", duration = 10}, mt))
end
assert(nested == 120, "nested submits: " .. nested)
