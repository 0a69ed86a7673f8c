-- lua-queue.lua: Lua pods reach their queue by label, as pod groups do
-- (issue 27: "Lua pods likewise"). Every pod takes a whole 8-GPU node for 1 h.
local train = {duration = "1h", cpu = "1", gpu = {devicePlugin = {["nvidia.com/gpu"] = 8}}}
local function pod(name, extra)
  local p = {name = name, at = 0}
  for k, v in pairs(train) do p[k] = v end
  for k, v in pairs(extra) do p[k] = v end
  drasim.submit(p)
end
local q = drasim.args.queue_label or "kueue.x-k8s.io/queue-name"
for i = 0, 2 do pod("a-" .. i, {namespace = drasim.args.ns, labels = {[q] = "team-a", app = "train"}}) end
pod("free-0", {labels = {app = "train"}})                        -- no queue: straight to the scheduler
pod("lost-0", {namespace = drasim.args.ns, labels = {[q] = "nope"}})  -- a queue that does not exist
