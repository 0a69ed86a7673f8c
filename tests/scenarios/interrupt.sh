#!/bin/sh
# Ctrl-C during a long `drasim run`: non-zero exit, the old database intact,
# no temporary file left.   interrupt.sh DRASIM SCENARIO OUT
drasim=$1 scenario=$2 out=$3
printf 'sentinel\n' > "$out"
"$drasim" run "$scenario" -o "$out" --quiet &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -ne 0 ] || { echo "expected a non-zero exit after SIGINT, got 0"; exit 1; }
[ "$(cat "$out")" = sentinel ] || { echo "$out was replaced by an interrupted run"; exit 1; }
for f in "$out".tmp-*; do
  [ -e "$f" ] && { echo "temporary file left behind: $f"; exit 1; }
done
echo "interrupted run exited $rc, $out intact"
