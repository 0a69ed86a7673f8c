-- Shape keys read the demand tables straight from Lua's table structs
-- (lua_walk.c): the same demand is one class however its tables were built
-- (constructor, assignments in another order, keys set and then removed,
-- list entries in the array part or in the hash part). Three demands, 7 pods
-- (tests/unit/test_lua.c): nodeSelector {a = "1", b = "2"} 3 pods, one
-- toleration 2 pods, two tolerations 2 pods.
local t = 0
local function submit(f)
  t = t + 1
  f.group, f.cpu, f.duration, f.at = "s", "1", 60, t
  drasim.submit(f)
end
local function tol(k) return {key = k, operator = "Exists"} end
-- A: a map of two labels
submit{nodeSelector = {a = "1", b = "2"}}
local m = {}
m.b = "2"
m.a = "1"
submit{nodeSelector = m}
local d = {}
for i = 1, 40 do d["x" .. i] = "gone" end
d.a, d.b = "1", "2"
for i = 1, 40 do d["x" .. i] = nil end   -- dead keys left in the node part
submit{nodeSelector = d}
-- B: a list of one toleration
submit{tolerations = {tol("k")}}
local l1 = {}
l1[1] = {operator = "Exists", key = "k"}
submit{tolerations = l1}
-- C: a list of two
submit{tolerations = {tol("k"), tol("j")}}
local l2 = {}
l2[2] = tol("j")   -- a hash-part key first
l2[1] = tol("k")
submit{tolerations = l2}
