#!/bin/sh
# report_keeps.sh DRASIM: `drasim report` of a database it cannot read into a
# folder holding an earlier report (of good.db) changes nothing there: no data
# file replaced or removed, no NAME.dat.tmp-PID left; into a new folder, no
# folder is left behind.
drasim=$1
rm -rf keep fresh && "$drasim" report good.db -o keep > /dev/null 2>&1 || exit 99
before=$(cd keep && find . -type f | sort | xargs cksum)
"$drasim" report pods-nocol.db -o keep
echo "rc=$?"
after=$(cd keep && find . -type f | sort | xargs cksum)
[ "$before" = "$after" ] && echo "earlier report intact"
"$drasim" report pods-nocol.db -o fresh
echo "rc=$?"
[ -e fresh ] || echo "no folder left"
