#!/bin/sh
# check_report_plots.sh -- the plot files docs/REPORTS.md lists are the ones
# `drasim report` makes: reports of one quickstart run, of an OpenB policy
# sweep (trace: arrival curves, several configurations) and of two DRA runs
# (dynamic MIG: frag_mig metrics) and of a numeric sweep (metric vs the
# swept count) and of an autoscaled run (node groups). Every PNG made must match a documented
# `NAME.png/.svg` row (`<word>` = any name), come with its SVG, and every
# documented row must be made by one of the reports. Needs gnuplot.
#   tests/docs/check_report_plots.sh SRCDIR DRASIM WORKDIR
src=$1 drasim=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
unset DRASIM_DATADIR
step() { "$drasim" "$@" > step.log 2>&1 || { echo "drasim $*: failed"; cat step.log; exit 1; }; }
step run "$src/scenarios/quickstart.yaml" -q -o one.db
step report one.db -o one
step sweep "$src/scenarios/openb/default.yaml" --param scheduling.policy=random,fgd --seeds 42 -o openb.db
step report openb.db -o openb
step run "$src/scenarios/examples/dra-quickstart.yaml" --seeds 1..2 -q -o dra.db
step report dra.db -o dra
step sweep "$src/scenarios/quickstart.yaml" --param workload.podGroups.train-2gpu.count=100,200 --seeds 1 --set stop.time=2h -o count.db
step report count.db -o count
step run "$src/tests/sharing/ts-hand.yaml" -q -o usage.db
step report usage.db -o usage
step run "$src/tests/autoscaler/basic.yaml" -q -o ca.db
step report ca.db -o ca

# documented names as anchored regexes: `arrival_<column>.png/.svg` -> ^arrival_[a-z0-9_]+$
awk '/^\| `[^`]+\.png\/\.svg` \|/ { split($0, c, "`"); n = c[2]; sub(/\.png\/\.svg$/, "", n)
       gsub(/<[a-z]+>/, "[a-z0-9_]+", n); print "^" n "$" }' "$src/docs/REPORTS.md" > patterns
[ -s patterns ] || { echo "docs/REPORTS.md: no | \`NAME.png/.svg\` | rows found"; exit 1; }

rc=0
for png in one/*.png openb/*.png dra/*.png count/*.png usage/*.png ca/*.png; do
  [ -e "$png" ] || { echo "no plots were drawn in $(dirname "$png")/ (gnuplot.log: $(cat "$(dirname "$png")/gnuplot.log"))"; rc=1; continue; }
  name=$(basename "$png" .png)
  [ -s "${png%.png}.svg" ] || { echo "$png has no SVG"; rc=1; }
  matched=0
  while read -r re; do
    if printf '%s\n' "$name" | grep -qE "$re"; then matched=1; echo "$re" >> made; fi
  done < patterns
  [ $matched -eq 1 ] || { echo "docs/REPORTS.md does not list $name.png/.svg (made for $(dirname "$png").db)"; rc=1; }
done
while read -r re; do
  grep -qxF -- "$re" made 2>/dev/null || { echo "docs/REPORTS.md lists $re.png/.svg, which no report made"; rc=1; }
done < patterns
[ $rc -eq 0 ] && echo "the $(wc -l < patterns) plot files of docs/REPORTS.md are exactly those drasim report makes"
exit $rc
