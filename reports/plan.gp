# plan.gp -- `drasim plan --report`: one expectation's metric against fleet
# size. Data columns: 1 the varied pools' nodes (or cost), 2 the value,
# 3 1 when the point passed every expectation; `threshold` is the line.
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
plot datafile using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.4 lc rgb "#2ca02c" title 'point passes every expectation', \
     datafile using 1:($3 > 0 ? 1/0 : $2) with points pt 6 ps 1.4 lc rgb "#d62728" title 'point fails', \
     threshold with lines lt 2 title threshold_text
