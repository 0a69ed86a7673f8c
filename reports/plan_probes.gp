# plan_probes.gp -- `drasim plan --report`: every probe of the search, passing
# and failing apart, the answer starred. Data columns: 1 the first varied
# pool's count, 2 the y of the probe (one pool varied: the combination of
# listed values, 1 without; several: the other pools' nodes), 3 1 when the
# point passed every expectation, 4 1 at the answer, 5 the probe's number.
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set offsets 0.5, 0.5, 0.5, 0.5
set xtics 1
set ytics 1
plot datafile using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.6 lc rgb "#2ca02c" title 'passes every expectation', \
     datafile using 1:($3 > 0 ? 1/0 : $2) with points pt 6 ps 1.6 lc rgb "#d62728" title 'fails', \
     datafile using 1:($4 > 0 ? $2 : 1/0) with points pt 3 ps 3 lc rgb "#1f77b4" title 'the answer', \
     datafile using 1:2:5 with labels offset 0.9,0.6 font ",8" notitle
