-- Shape keys write numbers below 100 inline and larger ones the general way
-- (lua_pods.c put_int): pods differing only in a priority or in the length of
-- their group name around those boundaries are different classes, and equal
-- ones share a class. 14 priorities (group "p") and 4 group names of 9, 10,
-- 99 and 100 characters (priority 0, group lengths being written the same
-- way), two pods each: 18 classes of 2 pods (tests/unit/test_lua.c).
local prios = {0, 1, 9, 10, 11, 19, 90, 91, 99, 100, 101, 109, 110, 1000}
local t = 0
for _ = 1, 2 do
  for _, p in ipairs(prios) do
    t = t + 1
    drasim.submit{group = "p", priority = p, cpu = "1", duration = 60, at = t}
  end
  for _, n in ipairs({9, 10, 99, 100}) do
    t = t + 1
    drasim.submit{group = ("g"):rep(n), priority = 0, cpu = "1", duration = 60, at = t}
  end
end
