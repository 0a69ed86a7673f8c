-- drasim.record with a name drasim writes itself (tests/lua.cmake).
drasim.record("makespan_s", 1)
