#!/bin/sh
# report_data.sh DRASIM DIR NAME[,NAME...] DB... -- `drasim report DB... -o DIR` and print
# DIR/data/NAME.dat, or DIR/NAME when NAME has a dot (index.html, plots.gp);
# tests/capacity.cmake checks their numbers.
drasim=$1 dir=$2 name=$3
shift 3
rm -rf "$dir"
"$drasim" report "$@" -o "$dir" || exit 1
for n in $(echo "$name" | tr , ' '); do
  case $n in
    *.*) cat "$dir/$n" ;;
    *) cat "$dir/data/$n.dat" ;;
  esac
done
