#!/bin/sh
# interrupt_parse.sh DRASIM DIR (finding 16): SIGINT while a 6 MB YAML file is
# parsed stops the parse ("interrupted", exit 2, nothing left). Before, the
# parse ran to its end and the file's error (its unknown field) came out, exit 3.
set -u
drasim=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
awk 'BEGIN { printf "bogus: ["; for (i = 0; i < 3000000; i++) printf "0,"; printf "0]\n" }' > big.yaml
env --default-signal=INT "$drasim" run big.yaml -o out.db -q 2>err.txt &
pid=$!
n=0
while ! ls out.db.tmp-* >/dev/null 2>&1; do
  n=$((n + 1)); [ $n -lt 400 ] || { kill -9 $pid; echo "FAIL: no temporary file"; exit 1; }
  sleep 0.05
done
kill -s INT $pid
wait $pid
echo "exit $?"
cat err.txt
rm -f big.yaml
echo "left: $(ls out.db* 2>/dev/null | wc -l)"
