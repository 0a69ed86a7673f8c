#!/bin/sh
# same_results.sh A.db B.db: exit 0 when both results databases hold the same
# tables, the same columns and the same rows, run ids aside: each run_id is
# replaced by the run's position in run-id order (so the runs must also come
# in the same order). drasim stores no wall-clock column (docs/SCHEMA.md), so
# there are no timing columns to leave out. Prints the first difference.
set -eu
a=$1 b=$2
tables() { sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"; }
ta=$(tables "$a"); tb=$(tables "$b")
if [ "$ta" != "$tb" ]; then
  echo "tables differ: $a: $(echo $ta) / $b: $(echo $tb)"; exit 1
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in $ta; do
  ca=$(sqlite3 "$a" "SELECT name FROM pragma_table_info('$t') ORDER BY cid")
  cb=$(sqlite3 "$b" "SELECT name FROM pragma_table_info('$t') ORDER BY cid")
  if [ "$ca" != "$cb" ]; then echo "$t: columns differ"; exit 1; fi
  sel=""
  for c in $ca; do
    if [ "$c" = run_id ]; then
      e="(SELECT count(*) FROM runs r WHERE r.run_id <= x.run_id)"
    else
      e="quote(x.\"$c\")"
    fi
    sel="${sel:+$sel, }$e"
  done
  q="SELECT * FROM ($(echo "SELECT $sel FROM \"$t\" x")) ORDER BY 1"
  for i in $(seq 2 $(echo "$ca" | wc -l)); do q="$q, $i"; done
  sqlite3 "$a" "$q" > "$tmp/a"; sqlite3 "$b" "$q" > "$tmp/b"
  if ! cmp -s "$tmp/a" "$tmp/b"; then
    echo "$t: rows differ (< $a, > $b):"; diff "$tmp/a" "$tmp/b" | head -5; exit 1
  fi
  n=$(wc -l < "$tmp/a"); total=$(( ${total:-0} + n ))
done
echo "same results: $(echo $ta | wc -w) tables, $total rows"
