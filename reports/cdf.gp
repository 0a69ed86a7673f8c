# cdf.gp -- cumulative distribution per series: one block per series with
# columns value, fraction <= value.
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
# y_min (set by drasim): the smallest fraction drawn, so that the tail is
# readable when most pods did not wait at all
set yrange [y_min:1.002]
set xrange [0:*]
set key inside bottom right opaque
plot for [i=1:|series|] datafile index (i-1) using 1:2 with steps lt i title series[i]
