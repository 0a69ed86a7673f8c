-- an unknown field of drasim.claim
local c = drasim.claim{devices = 2}
