#!/bin/sh
# check_docs_table.sh -- README.md's "Documentation" table lists every
# docs/*.md, and every file it lists exists.
#   tests/docs/check_docs_table.sh SRCDIR
src=$1
listed=$(awk '/^## Documentation/ { on = 1; next } on && /^## / { exit }
              on && /^\| `[^`]+` \|/ { split($0, f, "`"); print f[2] }' "$src/README.md")
rc=0
for f in "$src"/docs/*.md; do
  rel=docs/$(basename "$f")
  printf '%s\n' "$listed" | grep -qxF "$rel" || { echo "README.md: docs table lacks $rel"; rc=1; }
done
for rel in $listed; do
  [ -f "$src/$rel" ] || { echo "README.md: docs table lists $rel, which does not exist"; rc=1; }
done
[ $rc -eq 0 ] && echo "README.md lists all $(printf '%s\n' "$listed" | wc -l) documents"
exit $rc
