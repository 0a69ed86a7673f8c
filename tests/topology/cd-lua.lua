-- two pods of ComputeDomain cd-a at 0 s, two of cd-b at 1 s (tests/topology/cd-wait.yaml, in Lua)
local function pod(name, cd, at, dur)
  drasim.submit{name = name, at = at, duration = dur, cpu = "8",
    gpu = {dra = {claims = {drasim.claim{count = 1}, {name = "channel", resourceClaimTemplateName = cd .. "-channel"}}}}}
end
pod("a-0", "cd-a", "0s", "10m"); pod("a-1", "cd-a", "0s", "10m")
pod("b-0", "cd-b", "1s", "20m"); pod("b-1", "cd-b", "1s", "20m")
