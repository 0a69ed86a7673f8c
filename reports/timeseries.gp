# timeseries.gp -- one line per series over simulated time. The data file
# holds one block per series (separated by two blank lines) with columns
#   hour  mean  min  max
# A series made of several runs (seeds) gets a shaded min..max band.
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set xrange [0:*]
set yrange [0:*]
# values that may be negative (a Lua generator's own): drasim sets y_free
if (exists("y_free")) { set yrange [*:*] }
plot for [i=1:|series|] datafile index (i-1) using 1:3:4 with filledcurves lt i notitle, \
     for [i=1:|series|] datafile index (i-1) using 1:2 with lines lt i title series[i]
