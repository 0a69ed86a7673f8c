-- Reads a CSV at 30 min and requires a module at 40 min (lua-files/scenario.yaml).
drasim.at("30m", function()
  for row in drasim.csv_rows("late.csv", {types = {gpus = "integer"}}) do
    drasim.submit{cpu = "1", memory = "1Gi", duration = "5m", gpu = {devicePlugin = {["nvidia.com/gpu"] = row.gpus}}}
  end
end)
drasim.at("40m", function()
  local later = require "mods.later"
  later.submit()
end)
