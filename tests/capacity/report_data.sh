#!/bin/sh
# report_data.sh DRASIM DIR NAME DB... -- `drasim report DB... -o DIR` and print
# DIR/data/NAME.dat (tests/capacity.cmake checks its numbers).
drasim=$1 dir=$2 name=$3
shift 3
rm -rf "$dir"
"$drasim" report "$@" -o "$dir" || exit 1
cat "$dir/data/$name.dat"
