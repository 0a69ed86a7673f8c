-- issue 25, finding 9: every pod that starts submits another for now; each
-- runs 0 s, so it ends at once and the next one starts at the same instant.
drasim.on_start(function(name)
  drasim.submit{cpu = "1", duration = 0}
end)
drasim.submit{cpu = "1", duration = 0}
