-- issue 25, finding 11: Lua's fault verbs add timeline points too: every
-- second GPU 0 of the first node fails and is repaired (one point per second).
local node = drasim.nodes{}[1].name
drasim.every(1, function()
  drasim.fail_gpu(node, 0)
  drasim.repair_gpu(node, 0)
end)
