-- drasim.wait for a pod never submitted
drasim.process(function() drasim.wait("nope") end)
