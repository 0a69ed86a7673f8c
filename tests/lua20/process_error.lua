-- an error inside a process names this script's line
drasim.process(function()
  drasim.sleep("1m")
  local t = nil
  return t.x
end)
