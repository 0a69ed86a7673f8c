-- drasim.evict with a grace that is not a duration (tests/lua.cmake).
drasim.evict("x", {grace = "soon"})
