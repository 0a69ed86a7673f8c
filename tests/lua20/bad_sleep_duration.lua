-- a bad duration
drasim.process(function() drasim.sleep("soon") end)
