-- Required at 40 min by gen.lua.
local M = {}
function M.submit() drasim.submit{cpu = "1", memory = "1Gi", duration = "5m"} end
return M
