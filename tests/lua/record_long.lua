-- drasim.record with a metric name of 65 characters (tests/lua.cmake).
drasim.record("user_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1)
