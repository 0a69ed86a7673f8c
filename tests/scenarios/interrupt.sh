#!/bin/sh
# Ctrl-C during a long `drasim run`: non-zero exit, the old database intact,
# no temporary file left.   interrupt.sh DRASIM SCENARIO OUT
drasim=$1 scenario=$2 out=$3
printf 'sentinel\n' > "$out"
"$drasim" run "$scenario" -o "$out" --quiet &
pid=$!
# A background job of a non-interactive shell starts with SIGINT ignored until
# drasim installs its handler, so keep sending it until the run is gone.
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 120 ]; do
  sleep 0.5
  kill -INT "$pid" 2>/dev/null
  i=$((i + 1))
done
wait "$pid"
rc=$?
[ "$rc" -ne 0 ] || { echo "expected a non-zero exit after SIGINT, got 0"; exit 1; }
[ "$(cat "$out")" = sentinel ] || { echo "$out was replaced by an interrupted run"; exit 1; }
for f in "$out".tmp-*; do
  [ -e "$f" ] && { echo "temporary file left behind: $f"; exit 1; }
done
echo "interrupted run exited $rc, $out intact"
