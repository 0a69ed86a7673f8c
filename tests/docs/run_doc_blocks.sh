#!/bin/sh
# run_doc_blocks.sh -- run the shell blocks of one Markdown document the way a
# reader would: in order, in a scratch copy of the checkout, with the drasim
# under test. The convention (which fences run, `no-test`, `exit=N`,
# `file=NAME`) is in docs/TESTING.md; extract_blocks.awk does the parsing.
#
#   tests/docs/run_doc_blocks.sh DOC.md SRCDIR DRASIM WORKDIR
#
# WORKDIR is emptied and filled with symbolic links to every top-level entry
# of SRCDIR, except:
#   build/drasim, bin/drasim   the binary under test (so `build/drasim` and a
#                              bare `drasim` both work); build/tools/k8s-schema/k8s_validate
#   tools/setup                a no-op: the checkout is already built
#   cmake -S . -B build ..., cmake --build build ...
#                              no-ops for the same reason (a wrapper in bin/);
#                              any other cmake command runs the real cmake
# Exits 0 when every block exits with its expected code (0 unless exit=N) and
# the document's fences follow the convention; otherwise prints each failing
# block with its output and exits 1.
set -u
doc=$1 src=$2 drasim=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$doc")
real_cmake=$(command -v cmake || echo cmake)

rm -rf "$work"
mkdir -p "$work/.blocks" "$work/build" "$work/bin" "$work/tools" "$work/tmp" || exit 2
# top-level entries the checkout ignores (/build*/, /results.db, /report/ in
# .gitignore) are outputs of an earlier run: not linked, so that a block
# writing report/ cannot write into the source tree
ignored=$(sed -n 's|^/\([^/]*\)/*$|\1|p' "$src/.gitignore" 2>/dev/null)
for entry in "$src"/* "$src"/.ci; do
  base=$(basename "$entry")
  [ -e "$entry" ] || continue
  [ "$base" = tools ] && continue
  skip=0
  for pat in $ignored build; do
    # shellcheck disable=SC2254
    case $base in $pat) skip=1 ;; esac
  done
  [ $skip -eq 0 ] && ln -s "$entry" "$work/$base"
done
for entry in "$src"/tools/*; do
  [ "$(basename "$entry")" = setup ] || ln -s "$entry" "$work/tools/$(basename "$entry")"
done
cat > "$work/tools/setup" <<'EOF'
#!/bin/sh
echo "tools/setup: (docs test) the checkout is already built" >&2
EOF
ln -s "$drasim" "$work/build/drasim"
ln -s "$drasim" "$work/bin/drasim"
# k8s_validate, built beside drasim (tools/k8s-schema/README.md)
kv="$(dirname "$drasim")/tools/k8s-schema/k8s_validate"
if [ -x "$kv" ]; then
  mkdir -p "$work/build/tools/k8s-schema" && ln -s "$kv" "$work/build/tools/k8s-schema/k8s_validate"
fi
cat > "$work/bin/cmake" <<EOF
#!/bin/sh
case "\$*" in
  "-S . -B build"|"-S . -B build "*|"--build build"|"--build build "*)
    echo "cmake \$*: (docs test) the checkout is already built" >&2; exit 0 ;;
esac
exec "$real_cmake" "\$@"
EOF
chmod +x "$work/tools/setup" "$work/bin/cmake"

manifest=$(awk -v doc="$name" -v out="$work/.blocks" -f "$here/extract_blocks.awk" "$doc") || exit 2
failed=0 ran=0
lint=$(printf '%s\n' "$manifest" | awk '$1 == "lint"')
if [ -n "$lint" ]; then
  printf '%s\n' "$lint" | while read -r _ line msg; do echo "$doc:$line: $msg"; done
  failed=1
fi

# one manifest line at a time (a here-document keeps the loop in this shell)
while read -r kind id line arg; do
  case $kind in
    file)
      mkdir -p "$work/$(dirname "$arg")" && cp "$work/.blocks/$id" "$work/$arg" || failed=1 ;;
    output)
      if [ -z "${last:-}" ]; then
        echo "$doc:$line: an output block must follow a block that runs"; failed=1
      else
        while IFS= read -r want; do
          [ -z "$want" ] && continue
          grep -qxF -- "$want" "$work/.blocks/$last.log" || {
            echo "---- $doc:$line: the output of the block above lacks the line"
            echo "$want"
            echo "---- it printed:"; cat "$work/.blocks/$last.log"; echo "----"
            failed=1
          }
        done < "$work/.blocks/$id"
      fi ;;
    sh)
      ran=$((ran + 1)) last=$id
      (cd "$work" && env -u DRASIM_DATADIR PATH="$work/bin:$PATH" TMPDIR="$work/tmp" \
         sh "$work/.blocks/$id") > "$work/.blocks/$id.log" 2>&1
      rc=$?
      if [ "$rc" -ne "$arg" ]; then
        failed=1
        echo "---- $doc:$line: block exited $rc, expected $arg; the block:"
        grep -v '^__st=' "$work/.blocks/$id"
        echo "---- its output (last 40 lines):"
        tail -n 40 "$work/.blocks/$id.log"
        echo "----"
      fi ;;
  esac
done <<EOF
$(printf '%s\n' "$manifest" | awk '$1 != "lint"')
EOF

echo "$doc: $ran shell block(s) run, $( [ $failed -eq 0 ] && echo ok || echo FAILED)"
exit $failed
