-- pairs() visits keys in a fixed order (numbers by value, strings bytewise,
-- false, true), whatever the process's string-hash seed; __pairs still works.
local t = {}
for i = 1, 300 do t["k" .. i] = i end
t[10] = "ten"; t[-2.5] = "x"; t[3] = "three"; t[true] = 1; t[false] = 0
local order = {}
for k, v in pairs(t) do
  assert(t[k] == v, "value of " .. tostring(k))
  order[#order + 1] = k
end
assert(#order == 305, "visited " .. #order)
assert(order[1] == -2.5 and order[2] == 3 and order[3] == 10, "numbers first, ascending")
for i = 4, 302 do
  assert(type(order[i]) == "string" and order[i] < order[i + 1], "strings bytewise at " .. i)
end
assert(order[304] == false and order[305] == true, "booleans last")
-- removing the current key while iterating is allowed, and removed keys are not visited
local u = {a = 1, b = 2, c = 3}
local seen = {}
for k in pairs(u) do
  seen[#seen + 1] = k
  if k == "a" then u.b = nil end
end
assert(#seen == 2 and seen[1] == "a" and seen[2] == "c", table.concat(seen, ","))
-- a __pairs metamethod is honoured
local proxy = setmetatable({}, {__pairs = function() return function(_, k) if not k then return 1, "one" end end, nil, nil end})
local n = 0
for k, v in pairs(proxy) do n = n + 1; assert(k == 1 and v == "one") end
assert(n == 1)
