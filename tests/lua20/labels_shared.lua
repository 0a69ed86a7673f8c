-- Pods sharing one label set (tests/lua20.cmake lua20/labels-shared): a, b and c
-- are submitted with the same table; changing that table afterwards, or the
-- table drasim.pod(name).labels returns, changes no pod's labels.
local t = {app = "chat", ["example.com/tier"] = "gold"}
drasim.submit{name = "a", cpu = "1", duration = "10m", labels = t}
drasim.submit{name = "b", cpu = "1", duration = "10m", labels = t}
drasim.submit{name = "c", cpu = "1", duration = "10m", labels = {["example.com/tier"] = "gold", app = "chat"}}
t.app = "batch"          -- the table after the submissions: d has the new labels, a to c keep theirs
t.extra = "x"
drasim.submit{name = "d", cpu = "1", duration = "10m", labels = t}
drasim.submit{name = "e", cpu = "1", duration = "10m", at = 5, labels = {app = "chat", ["example.com/tier"] = "gold"}}
drasim.after(1, function()
  local a = drasim.pod("a").labels
  a.app = "changed"       -- a copy: neither a nor the pods sharing its set change
  a.more = "y"
  for _, n in ipairs{"a", "b", "c"} do
    local l = drasim.pod(n).labels
    assert(l.app == "chat" and l["example.com/tier"] == "gold" and l.more == nil and l.extra == nil, "labels of pod " .. n)
  end
  local d = drasim.pod("d").labels
  assert(d.app == "batch" and d.extra == "x" and d["example.com/tier"] == "gold", "labels of pod d")
  assert(drasim.pod("e").labels == nil, "e has not arrived: no labels yet")
end)
drasim.after(10, function()
  assert(drasim.pod("e").labels.app == "chat", "labels of pod e")
end)
