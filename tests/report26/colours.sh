#!/bin/sh
# colours.sh GNUPLOT SRCDIR -- how many distinct colours linetypes 1..64 of
# reports/common.gp have (tests/report26.cmake expects 64: none repeats).
"$1" -e "load '$2/reports/common.gp'; show linetype" 2>&1 |
  sed -n 's/^[[:space:]]*linetype \([0-9]*\),  *linecolor rgb "\([^"]*\)".*/\1 \2/p' |
  awk '$1 <= 64 { print $2 }' | sort -u | wc -l
