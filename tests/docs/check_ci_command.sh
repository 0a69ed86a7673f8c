#!/bin/sh
# check_ci_command.sh -- README.md's "Build and run every test" command must be
# the command .ci/run runs, character for character (the README's block is
# `sh no-test`: running ctest from inside ctest would recurse).
#   tests/docs/check_ci_command.sh SRCDIR
src=$1
readme_cmd=$(awk '/^Build and run every test/ { want = 1; next }
                  want && /^```/ { if (inside) exit; inside = 1; next }
                  want && inside { print }' "$src/README.md")
if [ -z "$readme_cmd" ]; then
  echo "README.md: no block after 'Build and run every test'"; exit 1
fi
if [ "$(printf '%s\n' "$readme_cmd" | wc -l)" -ne 1 ]; then
  echo "README.md: the test command block should be one line:"; printf '%s\n' "$readme_cmd"; exit 1
fi
if ! grep -qxF -- "$readme_cmd" "$src/.ci/run"; then
  echo "README.md's test command is not a line of .ci/run:"
  echo "  README: $readme_cmd"
  echo "  .ci/run runs:"; grep -v '^#' "$src/.ci/run" | sed 's/^/    /'
  exit 1
fi
echo "README.md and .ci/run agree: $readme_cmd"
