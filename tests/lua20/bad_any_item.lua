-- drasim.any over something that is not a process
drasim.process(function() drasim.any{42} end)
