#!/bin/sh
# leftovers.sh DIR DRASIM ARGS...: runs drasim ARGS in the empty folder DIR
# (created), then prints its exit status and how many files it left there
# (no database, temp or lock file may stay after an error).
dir=$1
drasim=$2
shift 2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 99
"$drasim" "$@"
echo "rc=$?"
echo "left=$(ls -A | wc -l)"
ls -A
