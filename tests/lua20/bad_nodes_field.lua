-- an unknown field of drasim.nodes
local n = drasim.nodes{gpu = 2}
