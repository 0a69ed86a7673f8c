-- One pod at 0 that runs drasim.seed seconds: with stop.allPodsDone the run
-- ends when it does, so sim_end_s equals the seed. Also drasim.seed pods
-- that fit nowhere (100 cpu on an 8-cpu node): the sample at 0 has
-- pending_pods = seed. Two metrics whose value per seed is known, for the
-- check, compare and report tests.
drasim.submit{name = "one", cpu = "1", duration = drasim.seed}
for i = 1, drasim.seed do drasim.submit{name = "big-" .. i, cpu = "100", duration = 1} end
