-- notebooks.lua: Jupyter-style notebooks culled after an hour idle.
-- Each notebook asks for one whole GPU and would run all day (its duration
-- is only an upper bound); its user is active for a while after it starts,
-- then leaves it idle. Like JupyterHub's idle culler, a notebook idle for
-- args.idle (default 1h) is deleted, which frees its GPU for the next one
-- in the queue (drasim.on_start + drasim.after + drasim.delete).
-- Run by scenarios/examples/lua-notebooks.yaml.
local dist = require "drasim.dist"
local args = drasim.args
local idle = drasim.duration(args.idle or "1h")
local reason = "culled after " .. (args.idle or "1h") .. " idle"

local function notebook()
  local name = drasim.submit{group = "notebook", cpu = "4", memory = "16Gi", duration = "24h",
                             labels = {app = "notebook"},
                             gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}, dra = drasim.mode == "dra" and
                                    {claims = {drasim.claim{count = 1}}} or nil}}
  return name
end

-- when a notebook starts, its user works for a while (lognormal, median 40 min),
-- then the culler deletes it once it has been idle for `idle`
drasim.on_start(function(name)
  local active = dist.lognormal{median = args.active_median or 2400, sigma = 0.5}
  drasim.sample("user_active_s", active)
  drasim.after(active + idle, function()
    drasim.delete(name, reason)
  end)
end)

-- a burst in the morning, then a steady trickle
for _ = 1, args.morning or 12 do notebook() end
drasim.every(args.every or "30m", function() notebook() end)
