-- drasim.record with a character outside [A-Za-z0-9_.-] (tests/lua.cmake).

drasim.record("user_a b", 1)
