#!/usr/bin/env bash
# Reproduce the FGD paper's main table: the six policies x seeds 42-51 on the
# OpenB default trace at 130% arrived GPU demand, compared with the published
# means (tests/openb/expected/analysis_allo_discrete.csv, from the paper's
# artifact). Writes a Markdown table to stdout (docs/OPENB.md holds one).
#
#   tools/openb/reproduce.sh [BUILD_DIR] [SEEDS...]
# Environment: SCENARIO (default scenarios/openb/default.yaml), OUT (work
# folder, default a temporary one), COLUMN (arrival percent, default 130),
# CURVE=1 also prints drasim vs published at 50, 70, ..., 130 % arrived.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
shift || true
SEEDS=${*:-42 43 44 45 46 47 48 49 50 51}
SCENARIO=${SCENARIO:-scenarios/openb/default.yaml}
COLUMN=${COLUMN:-130}
OUT=${OUT:-$(mktemp -d)}
EXPECTED=tests/openb/expected/analysis_allo_discrete.csv
FRAG_EXPECTED=tests/openb/expected/analysis_frag_discrete.csv
POLICIES="random:01-Random dotprod:02-DotProd gpu-clustering:03-GpuClustering gpu-packing:04-GpuPacking bestfit:05-BestFit fgd:06-FGD"

# published mean over seeds of column $COLUMN for a policy label, from one CSV
published() {
  awk -F, -v col="$COLUMN" -v pol="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) { if ($i == col) c = i; if ($i == "workload") w = i; if ($i == "sc_policy") p = i } next }
    $w == "openb_pod_list_default" && $p == pol { s += $c; n++ }
    END { if (n) printf "%.2f", s / n; else printf "n/a" }' "$1"
}

start=$(date +%s.%N)
for entry in $POLICIES; do
  pol=${entry%%:*}
  for seed in $SEEDS; do
    "$BUILD/drasim" run "$SCENARIO" --policy "$pol" --seed "$seed" -q -o "$OUT/$pol-$seed.db"
  done
done
end=$(date +%s.%N)

echo "| policy | drasim GPU alloc % | published | diff | drasim frag % of GPUs | published frag |"
echo "|---|---:|---:|---:|---:|---:|"
for entry in $POLICIES; do
  pol=${entry%%:*}
  label=${entry#*:}
  vals=""
  fvals=""
  for seed in $SEEDS; do
    row=$(sqlite3 "$OUT/$pol-$seed.db" "SELECT gpu_alloc_pct || ' ' || frag_gpu_pct FROM arrival_curve WHERE arrived_pct = $COLUMN")
    vals="$vals ${row%% *}"
    fvals="$fvals ${row#* }"
  done
  mean=$(echo "$vals" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s / NF }')
  fmean=$(echo "$fvals" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s / NF }')
  pub=$(published "$EXPECTED" "$label")
  fpub=$(published "$FRAG_EXPECTED" "$label")
  diff=$(awk -v a="$mean" -v b="$pub" 'BEGIN { printf "%+.2f", a - b }')
  echo "| $label | $mean | $pub | $diff | $fmean | $fpub |"
done
awk -v s="$start" -v e="$end" -v n="$(echo $SEEDS | wc -w)" \
  'BEGIN { printf "\n%d runs (6 policies x %d seeds) in %.1f s wall\n", 6 * n, n, e - s }'

# curve_table TITLE COLUMN-IN-DB EXPECTED-CSV
curve_table() {
  cols="50 70 80 90 95 100 110 120 130"
  echo
  echo "$1, drasim / published, mean over seeds, by arrived GPU demand (%):"
  echo
  printf "| policy |"; for c in $cols; do printf " %s |" "$c"; done; echo
  printf "|---|"; for c in $cols; do printf -- "---:|"; done; echo
  for entry in $POLICIES; do
    pol=${entry%%:*}
    label=${entry#*:}
    printf "| %s |" "$label"
    for c in $cols; do
      vals=""
      for seed in $SEEDS; do
        vals="$vals $(sqlite3 "$OUT/$pol-$seed.db" "SELECT $2 FROM arrival_curve WHERE arrived_pct = $c")"
      done
      mean=$(echo "$vals" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s / NF }')
      pub=$(COLUMN=$c; published "$3" "$label")
      printf " %s / %s |" "$mean" "$pub"
    done
    echo
  done
}

if [ "${CURVE:-0}" = 1 ]; then
  curve_table "GPU allocation (% of GPUs)" gpu_alloc_pct "$EXPECTED"
  curve_table "Fragmented GPU (% of GPUs)" frag_gpu_pct "$FRAG_EXPECTED"
fi
