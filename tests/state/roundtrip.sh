#!/bin/sh
# roundtrip.sh DRASIM K8S_VALIDATE OUTDIR [drasim run arguments...]
# Today's cluster made with drasim's own commands (tests/state.cmake): the
# inventory of fleet.yaml (and of a one-node fleet, inventory-1.yaml), the
# state of today.yaml at 1h as a kubectl List, both checked against the
# Kubernetes API schema; then run-tomorrow.yaml starts from them with the
# extra arguments. Run from tests/state.
set -e
d=$1 v=$2 o=$3
shift 3
mkdir -p "$o"
"$d" inventory fleet.yaml -o "$o/inventory.yaml" --force
"$d" inventory fleet.yaml --set 'cluster.nodePools[0].count=1' -o "$o/inventory-1.yaml" --force
"$d" state today.yaml --at 1h --set cluster.inventory="$o/inventory.yaml" -o "$o/today-at-1h.yaml" --force
"$v" "$o/inventory.yaml" "$o/today-at-1h.yaml"
exec "$d" run run-tomorrow.yaml --set cluster.inventory="$o/inventory.yaml" --set cluster.state="$o/today-at-1h.yaml" "$@"
