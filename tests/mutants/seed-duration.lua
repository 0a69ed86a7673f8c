-- One pod at 0 that runs drasim.seed seconds: with stop.allPodsDone the run
-- ends when it does, so sim_end_s equals the seed (a metric whose value per
-- seed is known, for the check and compare tests).
drasim.submit{name = "one", cpu = "1", duration = drasim.seed}
