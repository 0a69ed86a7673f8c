# cdf_multi.gp -- small multiples of cumulative distributions: a panel per
# item of the array `panels` (a pod group), in each a curve per configuration
# (nconf of them, the same colour in every panel, named once in a legend of
# its own after the panels: the array `series`). Block (p-1)*nconf + (i-1)
# of the data file is panel p's configuration i (columns value, fraction).
# A panel's title says how many pods never started. drasim sets nconf, ncols and
# nrows, the margins m_bottom, m_top and the gap y_space between rows (as
# fractions of the height), and the terminal's size from them.
set xlabel xlabel_text offset 0,0.3
# small panels: a short y label (ylabel_text is for one large plot)
set ylabel "fraction started" offset 1,0
set yrange [y_min:1.002]
set xrange [0:*]
set multiplot layout nrows, ncols title plot_title font ",14" margins 0.06, 0.98, m_bottom, m_top spacing 0.06, y_space
unset key
do for [p=1:|panels|] {
  set title panels[p] font ",10" noenhanced
  plot for [i=1:nconf] datafile index ((p-1)*nconf + i - 1) using 1:2 with steps lt i notitle
}
# several configurations: one legend for every panel, in the next cell
if (nconf > 1) {
  unset title; unset border; unset tics; unset xlabel; unset ylabel; unset grid
  set key center center vertical Left reverse samplen 2 font ",10"
  set xrange [0:1]; set yrange [0:1]
  plot for [i=1:nconf] 2 with lines lt i title series[i]
}
unset multiplot
