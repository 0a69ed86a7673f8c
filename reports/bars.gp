# bars.gp -- grouped bars with min..max whiskers. Each row: the category's
# number k (1..), then for each series its mean, min and max; the label of
# category k is categories[k], set by drasim (labels are never read from the
# data file).
set title plot_title font ",14"
set xlabel xlabel_text offset 0,0.3
set ylabel ylabel_text
set yrange [0:*]
# values that may be negative (a Lua generator's own): drasim sets y_free
if (exists("y_free")) { set yrange [*:*] }
set style data histogram
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.75 border rgb "#333333"
set bars front
set xtics rotate by -20 left
set grid noxtics
# one series: the title says it all
if (|series| == 1) unset key
plot for [i=1:|series|] datafile using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(categories[int(column(1))]) lt i title series[i]
