-- Label sets through the layout cache (sim/workload/lua_shape_cache.c): pods
-- whose labels tables are built alike take the set of a recent pod laid out
-- the same; a value that differs (size), a table of another layout (two
-- constructors in another order) or one changed in place is a miss. 12 pods
-- cycle through sizes s1, s2, s3 with app = "web"; p13 reuses p1's table after
-- setting size = "s9"; the script checks every pod's labels once they arrived.
local want, tabs = {}, {}
for i = 1, 12 do
  local size = "s" .. ((i - 1) % 3 + 1)
  local l = i % 4 == 0 and {size = size, app = "web"} or {app = "web", size = size}
  tabs[i] = l
  want["p" .. i] = size
  drasim.submit{name = "p" .. i, cpu = "1", duration = "10m", labels = l}
end
tabs[1].size = "s9"   -- the table of p1, changed: p13 gets s9, p1 keeps s1
drasim.submit{name = "p13", cpu = "1", duration = "10m", labels = tabs[1]}
want.p13 = "s9"
drasim.after(1, function()
  for name, size in pairs(want) do
    local l = drasim.pod(name).labels
    assert(l.app == "web" and l.size == size and l.extra == nil, "labels of pod " .. name)
  end
end)
