#!/bin/sh
# check_report_plots.sh -- the plot files docs/REPORTS.md lists are the ones
# `drasim report` makes: reports of one quickstart run, of an OpenB policy
# sweep (trace: arrival curves, several configurations) and of two DRA runs
# (dynamic MIG: frag_mig metrics) and of a numeric sweep (metric vs the
# swept count), of an autoscaled run (node groups) and of a run with faults
# (tests/faults/all-keys.yaml) and of a Lua run that samples and records
# (tests/lua/record.yaml: user_* plots) and of a `plan --minimize` database
# (tests/plan/minimize-cost.yaml: plan_pareto) and of a run with power
# (tests/cost/fleet-hand.yaml: power over time). Every PNG made must match a documented
# `NAME.png/.svg` row (`<word>` = any name), come with its SVG, and every
# documented row must be made by one of the reports. The plots are not
# rendered: a stand-in gnuplot writes each file the script sets as output
# (drasim checks every plot file exists afterwards), so the check counts
# plots, not seconds of rendering (issue 25: 7 reports under load timed out);
# tests/report*.cmake render with the real gnuplot.
#   tests/docs/check_report_plots.sh SRCDIR DRASIM WORKDIR
src=$1 drasim=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
unset DRASIM_DATADIR
cat > stand-in-gnuplot <<'GP'
#!/bin/sh
# gnuplot's stand-in: `gnuplot plots.gp` writes every file named by `set output '...'`.
sed -n "s/^set output '\([A-Za-z0-9_.-]*\)'$/\1/p" "$1" | while read -r f; do echo plot > "$f" || exit 1; done
GP
chmod +x stand-in-gnuplot && DRASIM_GNUPLOT=$PWD/stand-in-gnuplot && export DRASIM_GNUPLOT || exit 2
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
step run "$src/tests/faults/all-keys.yaml" -q -o faults.db
step report faults.db -o faults
step run "$src/tests/lua/record.yaml" -q -o lua.db
step report lua.db -o lua
step run "$src/tests/queues/run/borrowing.yaml" -q -o queues.db
step report queues.db -o queues
step plan "$src/tests/plan/minimize-cost.yaml" --expect "$src/tests/plan/start-slo.yaml" --vary od=0..1 --vary spot=0..2 --minimize cost -j 2 -q -o pareto.db
step report pareto.db -o pareto
step run "$src/tests/cost/fleet-hand.yaml" -q -o cost.db
step report cost.db -o cost

# documented names as anchored regexes: `arrival_<column>.png/.svg` -> ^arrival_[a-z0-9_]+$
awk '/^\| `[^`]+\.png\/\.svg` \|/ { split($0, c, "`"); n = c[2]; sub(/\.png\/\.svg$/, "", n)
       gsub(/<[a-z]+>/, "[a-z0-9_]+", n); print "^" n "$" }' "$src/docs/REPORTS.md" > patterns
[ -s patterns ] || { echo "docs/REPORTS.md: no | \`NAME.png/.svg\` | rows found"; exit 1; }

# one awk pass (a grep per plot and pattern took minutes under load)
rc=0
for png in one/*.png openb/*.png dra/*.png count/*.png usage/*.png ca/*.png faults/*.png lua/*.png queues/*.png pareto/*.png cost/*.png; do
  [ -e "$png" ] || { echo "no plots were drawn in $(dirname "$png")/ (gnuplot.log: $(cat "$(dirname "$png")/gnuplot.log"))"; rc=1; continue; }
  [ -s "${png%.png}.svg" ] || { echo "$png has no SVG"; rc=1; }
  echo "$png"
done > made-plots
awk 'FNR == NR { re[++n] = $0; next }
     { name = $0; sub(/^.*\//, "", name); sub(/\.png$/, "", name); hit = 0
       for (i = 1; i <= n; i++) if (name ~ re[i]) { hit = 1; used[i] = 1 }
       if (!hit) { d = $0; sub(/\/[^\/]*$/, "", d)
                   printf "docs/REPORTS.md does not list %s.png/.svg (made for %s.db)\n", name, d; bad = 1 } }
     END { for (i = 1; i <= n; i++) if (!used[i]) { printf "docs/REPORTS.md lists %s.png/.svg, which no report made\n", re[i]; bad = 1 }
           exit bad }' patterns made-plots || rc=1
[ $rc -eq 0 ] && echo "the $(wc -l < patterns) plot files of docs/REPORTS.md are exactly those drasim report makes"
exit $rc
