-- drasim.evict with a reason that is not a string (tests/lua.cmake).
drasim.evict("x", {reason = {}})
