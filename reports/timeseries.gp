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
# a limit to draw as a dashed line (the site's power envelope): drasim sets
# envelope_kw; the y range then reaches it even when every value is below
if (exists("envelope_kw")) { \
  stats datafile using 4 nooutput; \
  set yrange [0:(STATS_max > envelope_kw ? STATS_max : envelope_kw) * 1.08]; \
  set arrow from graph 0, first envelope_kw to graph 1, first envelope_kw nohead dt 2 lw 2 lc rgb "#c0392b"; \
  set label sprintf("envelope %g kW", envelope_kw) at graph 0.01, first envelope_kw offset 0,0.7 tc rgb "#c0392b" }
plot for [i=1:|series|] datafile index (i-1) using 1:3:4 with filledcurves lt i notitle, \
     for [i=1:|series|] datafile index (i-1) using 1:2 with lines lt i title series[i]
