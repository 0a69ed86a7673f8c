#!/bin/sh
# run_shards.sh DRASIM SCENARIO N SWEEP-ARGS...: in the current directory, the
# unsharded sweep (full.db), its N shards as N processes at once (s0.db ..),
# their merge in shard order (all.db) and, to show the comparison can fail,
# out of order (rev.db: shard 1 first).
set -eu
drasim=$1 scenario=$2 n=$3
shift 3
rm -f full.db s[0-9]*.db all.db rev.db
"$drasim" sweep "$scenario" "$@" -o full.db
pids=""
i=0
while [ $i -lt "$n" ]; do
  "$drasim" sweep "$scenario" "$@" --shard $i/$n -o s$i.db & pids="$pids $!"
  i=$((i + 1))
done
for p in $pids; do wait "$p"; done
list=""; i=0
while [ $i -lt "$n" ]; do list="$list s$i.db"; i=$((i + 1)); done
"$drasim" merge $list -o all.db
"$drasim" merge s1.db s0.db $(echo "$list" | sed 's/ s[01][.]db//g') -q -o rev.db
