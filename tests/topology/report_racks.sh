#!/bin/sh
# report_racks.sh DRASIM SRC OUT: the rack heat map of pack.yaml (tests/topology.cmake
# topology/report-rack-heatmap), and none for the same run without racks.
set -e
d=$1 src=$2 out=$3
"$d" run "$src/pack.yaml" -o "$out/pack-hm.db" -q --force
"$d" report "$out/pack-hm.db" -o "$out/pack-hm" --force >/dev/null
sqlite3 "$out/pack-hm.db" "SELECT 'row', name, gpus FROM topology_racks ORDER BY rack"
sqlite3 "$out/pack-hm.db" "SELECT 'use', gpus_used FROM topology_rack_usage WHERE t_ms = 60000"
grep -E '^0[.]016667 ' "$out/pack-hm/data/rack_usage.dat"
echo "heatmap templates: $(grep -c 'heatmap[.]gp' "$out/pack-hm/plots.gp")"
"$d" run "$src/../../scenarios/quickstart.yaml" -o "$out/norack.db" -q --force
"$d" report "$out/norack.db" -o "$out/norack" --force >/dev/null
echo "no racks: $(sqlite3 "$out/norack.db" "SELECT count(*) FROM sqlite_master WHERE name LIKE 'topology_rack%'") tables, $(ls "$out/norack/data" | grep -c rack_usage) data files"
