# common.gp -- shared style of every drasim report plot (loaded first).
# Variables set by drasim before a template: datafile, plot_title,
# xlabel_text, ylabel_text, series (array of series titles); bars.gp also
# categories (array of category labels). Every string is a single-quoted
# gnuplot literal written by sim/report/escape.c.
set termoption noenhanced
set border 3 lc rgb "#444444"
set tics nomirror out
set grid ytics xtics lc rgb "#cccccc" lw 1 dt 2
set key below center vertical Left reverse nobox samplen 2 spacing 1.1 width 2 height 1
set linetype 1 lc rgb "#1f77b4" lw 2
set linetype 2 lc rgb "#d62728" lw 2 dt (8,4)
set linetype 3 lc rgb "#2ca02c" lw 2
set linetype 4 lc rgb "#ff7f0e" lw 2 dt (8,4)
set linetype 5 lc rgb "#9467bd" lw 2
set linetype 6 lc rgb "#8c564b" lw 2 dt (8,4)
set linetype 7 lc rgb "#e377c2" lw 2
set linetype 8 lc rgb "#7f7f7f" lw 2 dt (8,4)
# (every other series dashed, so that coinciding curves stay visible)
# Beyond 8 series, more colours that never repeat within a plot of up to 64
# series: hues spaced by the golden angle, darker and lighter in turn.
do for [i=9:64] {
  h = (i - 9) * 0.381966 - floor((i - 9) * 0.381966)
  if (i % 2) { set linetype i lc rgb hsv2rgb(h, 0.85, 0.75) lw 2 } else { set linetype i lc rgb hsv2rgb(h, 0.6, 0.55) lw 2 dt (8,4) }
}
set linetype cycle 64
set style fill transparent solid 0.18 noborder
