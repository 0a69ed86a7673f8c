#!/bin/sh
# check_schema.sh -- docs/SCHEMA.md against real results databases: the
# tables and their columns (in order), the summary metrics (every run's, and
# all of them), and the values it lists for runs.mode, runs.policy and
# pods.state, and that its example SQL queries run. The databases: the
# quickstart (device plugin), its DRA twin, a sweep, the OpenB trace in both
# modes, and tests/docs/fields-*.yaml (RTCR scoring, a shared DRA claim,
# dynamic MIG with `policy: fgd`), tests/lua/record.yaml (drasim.record and
# drasim.sample: user_samples), tests/lua/evict.yaml (evictions), tests/lua20/dp.yaml (label_sets, pod_label_sets, view pod_labels), `drasim plan` databases (tests/plan: fixed pools and a node group),
# a `drasim merge` of the sweep and the quickstart, and issue 17's sharing
# runs (tests/sharing/dra-hand.yaml: usage_pools and the usage metrics; the
# sidecar example: gpus_per_pod; tests/sharing/pool-sharing.yaml).
# tests/faults/all-keys.yaml: fault_timeline and the fault metrics.
# tests/queues/run/borrowing.yaml: queue_usage, queue_state and the queue metrics;
# tests/queues/run/pods-ready.yaml: the waitForPodsReady eviction metrics;
# tests/queues/kai/run/{reclaim,capacity}.yaml: KAI's, queue_fair_share.
# tests/cost/fleet-hand.yaml: cost_pools, power_samples, the cost and power metrics.
# tests/cost/queue-hand.yaml: the queue_cost metrics (chargeback per ClusterQueue).
# tests/plan/minimize-cost.yaml with --minimize cost: plan_pareto.
#   tests/docs/check_schema.sh SRCDIR DRASIM WORKDIR
src=$1 drasim=$2 work=$3
doc=$src/docs/SCHEMA.md
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
unset DRASIM_DATADIR

run() { out=$1; shift; "$drasim" "$@" -q -o "$out" > "$out.log" 2>&1 || { echo "drasim $*: failed"; cat "$out.log"; exit 1; }; }
run qs.db run "$src/scenarios/quickstart.yaml" --seeds 1..2
run dra.db run "$src/scenarios/examples/dra-quickstart.yaml"
run sweep.db sweep "$src/scenarios/quickstart.yaml" --param scheduling.scoring=LeastAllocated,MostAllocated --seeds 1
run openb.db run "$src/scenarios/openb/default.yaml" --policy bestfit
run openb-dra.db run "$src/scenarios/openb/default-dra.yaml"
run fields-dp.db run "$src/tests/docs/fields-device-plugin.yaml"
run fields-dra.db run "$src/tests/docs/fields-dra.yaml"
run merged.db merge sweep.db qs.db
run lua-record.db run "$src/tests/lua/record.yaml"
run lua-evict.db run "$src/tests/lua/evict.yaml"
run lua-labels.db run "$src/tests/lua20/dp.yaml"
run sharing.db run "$src/tests/sharing/dra-hand.yaml"
run sidecar.db run "$src/scenarios/examples/sidecar-gpu.yaml"
run pools.db run "$src/tests/sharing/pool-sharing.yaml"
run preempt.db run "$src/tests/preempt/inference-over-training.yaml"   # preemption (issue 15)
run preempt-dra.db run "$src/tests/preempt/inference-over-training.yaml" --set scheduling.mode=dra   # blocked by DRA (1.36)
run gang.db run "$src/tests/preempt/gang-partial.yaml"                  # gangs (issue 15)
run faults.db run "$src/tests/faults/all-keys.yaml"
run topo.db run "$src/tests/topology/gb200-racks.yaml"                  # racks, KEP-5732 (issue 28)
run cd.db run "$src/tests/topology/cd-two-gangs.yaml"                   # ComputeDomains (issue 28)
run jobs.db run "$src/tests/traces/slurm.yaml" --set "workload.jobs[0].mode=as-recorded"   # job traces (issue 29)
run philly.db run "$src/tests/traces/philly.yaml"                       # Philly's restarts (issue 29)
run queues.db run "$src/tests/queues/run/borrowing.yaml"                # Kueue in front of the scheduler (issue 27)
run queues-ready.db run "$src/tests/queues/run/pods-ready.yaml"        # Kueue waitForPodsReady: queue_evicted_* metrics
run queues-tas.db run "$src/tests/queues/run/tas-unlabelled.yaml"     # Kueue TAS: queue_tas_unlabelled_nodes (issue 28)
run kai.db run "$src/tests/queues/kai/run/reclaim.yaml"                 # KAI in front of the scheduler (issue 27)
run kai-missing.db run "$src/tests/queues/kai/run/capacity.yaml"        # a KAI Queue that does not exist
run kai-topo.db run "$src/tests/queues/kai/topology/unlabelled.yaml"  # KAI Topology: kai_topology_unlabelled_nodes (issue 28)
run cost.db run "$src/tests/cost/fleet-hand.yaml"                      # prices, power (issue 30)
run cost-queue.db run "$src/tests/cost/queue-hand.yaml"                # chargeback per ClusterQueue (issue 30)
run plan.db plan "$src/tests/plan/plan.yaml" --expect "$src/tests/plan/slo.yaml" --seeds 1 --vary big=1..8 --vary small=1..8 -j 2
run plan-ca.db plan "$src/tests/plan/autoscale.yaml" --expect "$src/tests/plan/autoscale-slo.yaml" --seeds 1 --vary cpu=1..4 -j 2
run plan-min.db plan "$src/tests/plan/minimize-cost.yaml" --expect "$src/tests/plan/start-slo.yaml" --vary od=0..1 --vary spot=0..2 --minimize cost -j 2
dbs="qs.db dra.db sweep.db openb.db openb-dra.db fields-dp.db fields-dra.db lua-record.db lua-evict.db lua-labels.db plan.db merged.db sharing.db sidecar.db pools.db preempt.db preempt-dra.db gang.db faults.db topo.db queues.db queues-ready.db queues-tas.db cd.db cost.db cost-queue.db jobs.db kai.db kai-missing.db kai-topo.db philly.db"
rc=0
fail() { echo "docs/SCHEMA.md: $*"; rc=1; }

# ---- documented tables: "table col,col,..." per line -----------------------
# from `name(col, ...)` signatures (may wrap lines) and from "| column |"
# tables under a "## name" heading
awk '
  /^```/ { fence = !fence; next }
  fence { next }
  /^## / { heading = substr($0, 4); intable = 0 }
  /^\| column \|/ { if (heading ~ /^[a-z_]+$/) { intable = 1; cols[heading] = "" } next }
  intable && /^\|---/ { next }
  intable && /^\|/ {
    split($0, cell, "|"); c = cell[2]; gsub(/[` ]/, "", c)
    cols[heading] = cols[heading] (cols[heading] == "" ? "" : ",") c; next }
  { intable = 0; text = text " " $0 }
  END {
    for (t in cols) print t, cols[t]
    while (match(text, /`[a-z_]+\([a-z0-9_, ]+\)`/)) {
      sig = substr(text, RSTART + 1, RLENGTH - 2); text = substr(text, RSTART + RLENGTH)
      name = sig; sub(/\(.*/, "", name); c = sig; sub(/^[^(]*\(/, "", c); sub(/\)$/, "", c); gsub(/ /, "", c)
      print name, c
    }
  }' "$doc" | sort -u > documented_tables

# ---- actual tables (and views: pod_labels, claim_allocations) -----------------------------------
for db in $dbs; do
  for t in $(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'"); do
    echo "$t $(sqlite3 "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('$t') ORDER BY cid)")"
  done
done > actual_tables
# a plan --minimize: only its plan_pareto table (issue 30: the Pareto front)
echo "plan_pareto $(sqlite3 plan-min.db "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('plan_pareto') ORDER BY cid)")" >> actual_tables
# a plan over a node group: only its `plan` table (its runs' autoscaler tables are not this check's)
echo "plan $(sqlite3 plan-ca.db "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('plan') ORDER BY cid)")" >> actual_tables
sort -u -o actual_tables actual_tables

while read -r t cols; do
  want=$(awk -v t="$t" '$1 == t { print $2 }' documented_tables)
  if [ -z "$want" ]; then fail "table $t ($cols) is not documented"
  elif ! printf '%s\n' "$want" | grep -qxF "$cols"; then fail "table $t has columns $cols, documented: $want"
  fi
done < actual_tables
while read -r t cols; do
  awk -v t="$t" '$1 == t { found = 1 } END { exit !found }' actual_tables || fail "documents table $t, which no database has"
done < documented_tables

# ---- summary metrics -----------------------------------------------------------
# the "| metric |" tables of the "## summary" section; the first lists the
# metrics of every run, the others those of some kinds of run
awk '
  /^## / { insum = ($0 == "## summary") }
  insum && /^\| metric \|/ { ntab++; intab = 1; next }
  insum && intab && /^\|---/ { next }
  insum && intab && /^\|/ {
    split($0, cell, "|"); n = split(cell[2], m, ",")
    for (i = 1; i <= n; i++) { x = m[i]; gsub(/[` ]/, "", x); print (ntab == 1 ? "all" : "some"), x }
    next }
  { intab = 0 }' "$doc" | sort -u > documented_metrics
[ -s documented_metrics ] || fail "found no '| metric |' table under '## summary'"
for db in $dbs; do
  # user_* metrics are a Lua script's own (drasim.record), documented as a rule
  sqlite3 "$db" "SELECT DISTINCT metric FROM summary WHERE metric NOT LIKE 'user\\_%' ESCAPE '\\'" | sort > "$db.metrics"
  for m in $(awk '$1 == "all" { print $2 }' documented_metrics); do
    grep -qxF "$m" "$db.metrics" || fail "metric $m is documented for every run, $db lacks it"
  done
done
sort -u ./*.db.metrics > actual_metrics
awk '{ print $2 }' documented_metrics | sort -u > documented_metric_names
for m in $(comm -23 actual_metrics documented_metric_names); do fail "summary metric $m is not documented"; done
for m in $(comm -13 actual_metrics documented_metric_names); do fail "documents summary metric $m, which no run writes"; done

# ---- listed values -----------------------------------------------------------------
# the backticked words in a column's row of a "| column |" table
values() {
  awk -v h="## $1" -v c="$2" '
    /^## / { on = ($0 == h) }
    on && index($0, "| " c " |") == 1 {
      s = $0; sub(/^\|[^|]*\|[^|]*\|/, "", s)
      while (match(s, /`[^`]+`/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$doc"
}
check_values() {  # TABLE COLUMN (documented in the "## TABLE" section)
  values "$1" "$2" > "values.$1.$2"
  for db in $dbs; do
    sqlite3 "$db" "SELECT DISTINCT $2 FROM $1" | while read -r v; do
      grep -qxF "$v" "values.$1.$2" || echo "$1.$2 = '$v' in $db is not among the documented values: $(tr '\n' ' ' < "values.$1.$2")"
    done
  done
}
bad=$( { check_values runs mode; check_values runs policy; check_values pods state; } )
[ -n "$bad" ] && { printf 'docs/SCHEMA.md: %s\n' "$bad"; rc=1; }

# ---- the example queries: each runs on every database and answers on one ---------------
awk '/^```sql/ { on = 1; next } on && /^```/ { on = 0; next }
     on && !/^--/ && NF { q = q " " $0; if ($0 ~ /;[ \t]*$/) { print q; q = "" } }' "$doc" > queries
[ -s queries ] || fail "no example queries (\`\`\`sql blocks) found"
while IFS= read -r q; do
  answered=0
  for db in $dbs; do
    out=$(sqlite3 -bail "$db" "$q" 2>&1) || { fail "example query fails on $db: $q: $out"; continue; }
    [ -n "$out" ] && answered=1
  done
  [ $answered -eq 1 ] || fail "example query answers nothing on any database: $q"
done < queries

[ $rc -eq 0 ] && echo "docs/SCHEMA.md matches $(wc -l < actual_tables) table definitions and $(wc -l < actual_metrics) metrics of $(echo $dbs | wc -w) databases"
exit $rc
