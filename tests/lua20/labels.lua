-- labels = {...} on submitted pods (tests/lua20.cmake checks the pod_labels rows).
local a = drasim.submit{name = "a", cpu = "1", duration = "10m", labels = {app = "chat", ["example.com/tier"] = "gold"}}
drasim.submit{name = "b", cpu = "1", duration = "10m", labels = {app = "chat", ["example.com/tier"] = "gold"}}
drasim.submit{name = "c", cpu = "1", duration = "10m", labels = {app = "batch", empty = ""}, at = 60}
drasim.submit{name = "d", cpu = "1", duration = "10m"}
drasim.after(1, function()
  local p = drasim.pod(a)
  assert(p.labels.app == "chat" and p.labels["example.com/tier"] == "gold", "labels of pod a")
  assert(drasim.pod("d").labels == nil, "pod d has no labels")
end)
