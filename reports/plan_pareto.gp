# plan_pareto.gp -- `drasim plan --minimize cost|energy` (`plan --report`, and
# `drasim report` of its database: table plan_pareto): the measured objective
# of every probe against its value of the SLO's first threshold, the Pareto
# front (no other probe is at least as good on both and better on one) as a
# staircase, the answer starred, the threshold as a vertical line.
# Data: index 0 one line per probe: 1 SLO value, 2 objective, 3 1 when it
# passed every expectation, 4 1 on the front, 5 1 at the answer, 6 the probe's
# number; index 1 the front's points by SLO value (1 SLO value, 2 objective).
# front_style: steps (lower SLO values are better) or fsteps (higher).
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set arrow 1 from threshold, graph 0 to threshold, graph 1 nohead dt 2 lw 1.5 lc rgb "#555555"
plot datafile index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.4 lc rgb "#2ca02c" title 'probe passes every expectation', \
     datafile index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 6 ps 1.4 lc rgb "#d62728" title 'probe fails', \
     datafile index 1 using 1:2 with @front_style lw 2 lc rgb "#ff7f0e" title 'Pareto front', \
     datafile index 1 using 1:2 with points pt 13 ps 2 lc rgb "#ff7f0e" notitle, \
     datafile index 0 using 1:($5 > 0 ? $2 : 1/0) with points pt 3 ps 3.5 lw 2 lc rgb "#1f77b4" title 'the answer', \
     datafile index 0 using 1:2:6 with labels offset 1.2,0.6 font ",8" notitle, \
     NaN with lines dt 2 lw 1.5 lc rgb "#555555" title threshold_text
