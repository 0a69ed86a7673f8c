# columns.gp -- several quantities of one run over time: column 1 is the
# time (h), column i+1 is series[i].
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set xrange [0:*]
set yrange [0:*]
plot for [i=1:|series|] datafile using 1:(column(i+1)) with lines lt i title series[i]
