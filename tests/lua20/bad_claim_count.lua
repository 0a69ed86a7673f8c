-- count must be a positive integer
local c = drasim.claim{count = 0}
