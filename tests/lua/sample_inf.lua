-- drasim.sample with an infinite value (tests/lua.cmake).
drasim.sample("user_s", 1)
drasim.sample("user_s", math.huge)
