#!/bin/sh
# compare_wide.sh DRASIM SCENARIO: a results database with a 100,000-character
# metric name; prints the size of compare's text output, the row of that
# metric (runs of blanks squeezed) and the longest csv line (finding 14).
set -e
drasim=$1
rm -f w.db
"$drasim" run "$2" -o w.db >/dev/null
sqlite3 w.db "INSERT INTO summary VALUES(1, replace(hex(zeroblob(50000)), '00', 'xy'), 1.5, '')"
echo "text-bytes=$("$drasim" compare w.db w.db | wc -c)"
"$drasim" compare w.db w.db | grep -a 'xyxy' | sed 's/  */ /g'
echo "csv-longest=$("$drasim" compare w.db w.db --format csv | awk '{ if (length($0) > m) m = length($0) } END { print m }')"
