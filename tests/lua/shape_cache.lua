-- shape_cache.lua -- pods of one group whose tables are laid out alike but
-- differ deep inside (lua_shape_cache.c: a pod laid out word for word like
-- one of its group's last few takes that one's class; any difference is a
-- miss and the shape key decides). By hand (tests/unit/test_lua.c), the class of p1 ..
-- p13: A 0, B 1, A 0, B 1, C 2, A 0, D 3, D 3, A in group d 4, A with
-- priority 5 5, A with priority 6 6, A with priority 5 5, A 0; then group e
-- cycles twice through ten zones, more layouts than a group keeps (8): p14 ..
-- p23 classes 7 .. 16, p24 .. p33 the same again.
local function tol(k) return {{key = k, operator = "Exists"}} end
local function A() return {nodeSelector = {zone = "a"}, tolerations = tol("k")} end
local pods = {
  A(),
  {nodeSelector = {zone = "b"}, tolerations = tol("k")},                        -- B: a nested value differs
  A(),
  {nodeSelector = {zone = "b"}, tolerations = tol("k")},
  {nodeSelector = {zone = "a"}, tolerations = tol("j")},                        -- C: a value two tables down
  A(),
  {nodeSelector = {zone = "a", note = string.rep("x", 50)}, tolerations = tol("k")},   -- D: a long string (no cache)
  {nodeSelector = {zone = "a", note = string.rep("x", 50)}, tolerations = tol("k")},
  A(),                                                                          -- group d below
  A(), A(), A(),                                                                -- priorities below
  A(),
}
for round = 1, 2 do
  for z = 1, 10 do pods[#pods + 1] = {group = "e", nodeSelector = {zone = "z" .. z}, tolerations = tol("k")} end
end
pods[9].group = "d"
pods[10].priority, pods[11].priority, pods[12].priority = 5, 6, 5
for i, p in ipairs(pods) do
  p.name, p.at, p.duration, p.cpu = "p" .. i, i, 60, "1"
  p.group = p.group or "c"
  drasim.submit(p)
end
