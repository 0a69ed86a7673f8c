# plan_cost.gp -- `drasim plan --report` when a varied pool is an autoscaled
# node group: the measured cost at every probe against fleet size. Data
# columns: 1 the varied pools' max nodes (or price x max), 2 ca_cost and
# 4 ca_node_hours (means over the seeds), 3 1 when the point passed every
# expectation.
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel "ca_cost (price x node-hours, every node group)"
set y2label "ca_node_hours"
set ytics nomirror
set y2tics
plot datafile using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.4 lc rgb "#2ca02c" title 'ca_cost, point passes', \
     datafile using 1:($3 > 0 ? 1/0 : $2) with points pt 6 ps 1.4 lc rgb "#d62728" title 'ca_cost, point fails', \
     datafile using 1:4 axes x1y2 with points pt 2 ps 1.2 lc rgb "#1f77b4" title 'ca_node_hours'
