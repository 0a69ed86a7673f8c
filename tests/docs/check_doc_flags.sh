#!/bin/sh
# check_doc_flags.sh -- every option the docs pass to drasim (a `--flag` on a
# line of README.md or docs/*.md that says `drasim`) is one that a drasim
# command's --help describes.
#   tests/docs/check_doc_flags.sh SRCDIR DRASIM
src=$1 drasim=$2
help=$("$drasim" --help 2>&1)
for c in $(printf '%s\n' "$help" | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
  help="$help
$("$drasim" "$c" --help 2>&1)"
done
known=$(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ -n "$known" ] || { echo "drasim --help lists no options"; exit 1; }
rc=0 n=0
for doc in "$src"/README.md "$src"/docs/*.md; do
  for f in $(grep -h 'drasim' "$doc" | grep -oE -- '(^|[ `(\[])--[a-z][a-z-]*' | sed 's/^[^-]*//' | sort -u); do
    n=$((n + 1))
    printf '%s\n' "$known" | grep -qxF -- "$f" || { echo "${doc#"$src"/} passes $f to drasim, which no --help describes"; rc=1; }
  done
done
[ $rc -eq 0 ] && echo "all $n options the docs pass to drasim are in its --help"
exit $rc
