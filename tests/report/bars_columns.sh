#!/bin/sh
# bars_columns.sh -- reports/bars.gp reads the columns drasim writes for bar
# plots (report_data.c write_bars: category, then mean min max per series):
# gnuplot's table output of a two-series row must give each series its own
# mean and whiskers (a one-column shift once drew the whiskers of series 1 up
# to the mean of series 2).
#   tests/report/bars_columns.sh GNUPLOT SRCDIR WORKDIR
gp=$1 src=$2 work=$3
mkdir -p "$work" && cd "$work" || exit 2
printf '1 10 8 12 20 19 21\n2 5 4 6 7 6 9\n' > bars.dat
"$gp" -e "datafile='bars.dat'; plot_title='t'; array categories[2]=['a','b']; array series[2]=['x','y']; xlabel_text=''; ylabel_text=''; set table 'bars.out'" "$src/reports/bars.gp" || exit 1
grep -v '^#' bars.out | awk 'NF >= 4 { printf "%s:%s:%s ", $2, $3, $4 } END { print "" }'
