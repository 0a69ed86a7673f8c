#!/bin/sh
# check_doc_paths.sh -- every file or folder of the checkout that README.md or
# a docs/*.md names in backticks exists: paths from the top
# (`tests/openb/README.md`, `tools/bench/run`) and source files named from
# sim/ (`sched/policies/place_mig.c`, `alloc/alloc_prefer.c`); a program counts when its
# source does (`tools/bench/bench_openb`: bench_openb.c). Placeholders (`<x>`,
# `*`, `...`) and test names (`docs/schema`: docs/ without an extension) are
# skipped.
#   tests/docs/check_doc_paths.sh SRCDIR
src=$1
rc=0 n=0
for doc in "$src"/README.md "$src"/docs/*.md; do
  rel=${doc#"$src"/}
  for p in $(awk '{ s = $0; while (match(s, /`[^` ]+`/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$doc" |
             grep -E '^(sim|tests|tools|scenarios|lua|data|reports|docs|\.ci)/[A-Za-z0-9_./-]*$|^(util|model|cel|alloc|engine|workload|sched|store|report|cli)/[A-Za-z0-9_]+\.[ch]$' |
             grep -v -e '\.\.\.' -e '^docs/[a-z/-]*$' | sort -u); do
    n=$((n + 1))
    [ -e "$src/$p" ] || [ -e "$src/sim/$p" ] || [ -e "$src/$p.c" ] || { echo "$rel names \`$p\`, which does not exist"; rc=1; }
  done
done
[ $rc -eq 0 ] && echo "all $n paths the docs name exist"
exit $rc
