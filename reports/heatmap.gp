# heatmap.gp -- racks x time: column 1 is the time (h), column 2 the rack's
# index (0-based, racks[] holds their names), column 3 the GPUs in use; one
# block per instant. Variables: nracks, cb_max, cb_text, racks (array).
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set cblabel cb_text
unset grid
set palette defined (0 "#f7fbff", 0.001 "#c6dbef", 0.5 "#4292c6", 1 "#08306b")
set cbrange [0:cb_max]
set yrange [-0.5:nracks - 0.5]
set xrange [0:*]
set style fill solid 1.0 noborder
if (nracks <= 40) { set ytics () ; do for [i=1:nracks] { set ytics add (racks[i] i - 1) } }
plot datafile using 1:2:3 with image notitle
