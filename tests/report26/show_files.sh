#!/bin/sh
# show_files.sh DIR FILE... -- "== FILE" and its content, for each FILE in DIR
# (tests/report26.cmake matches the pages and data files of a report).
dir=$1; shift
cd "$dir" || exit 2
for f in "$@"; do echo "== $f"; cat "$f" || exit 1; done
