-- drasim.record with NaN, inside a timer (tests/lua.cmake).
drasim.after("1m", function()
  drasim.record("user_x", 0/0)
end)
