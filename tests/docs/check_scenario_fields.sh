#!/bin/sh
# check_scenario_fields.sh -- every field docs/SCENARIOS.md documents is used by
# a scenario that drasim loads. The documented fields are the keys of the
# document's ```yaml blocks and of the YAML in backticks in its tables and
# lists (`{poisson: {ratePerMinute: 4}}`, `metadata.description`); keys with a
# "/" (labels, resource names) are values, not fields. The scenarios are the
# `kind: Scenario` files under scenarios/ and tests/ (not the fuzz corpus); a
# file counts only if `drasim run FILE --set stop.time=1s` accepts it (unknown
# keys are errors, so every key of an accepted file was read).
#   tests/docs/check_scenario_fields.sh SRCDIR DRASIM WORKDIR
src=$1 drasim=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 2

# the other way round: every key the scenario loader accepts (the key lists of
# its parsers; capitalised entries are values: plugin names, operators) is
# named in code in docs/SCENARIOS.md
awk '/static const char \*const [A-Za-z_]+\[\] = \{/ { on = 1 }
     on { s = $0; while (match(s, /"[a-z][A-Za-z]*"/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
          if (/};/) on = 0 }' \
  "$src"/sim/model/scenario*.c "$src"/sim/model/cluster_spec.c "$src"/sim/workload/lua_scenario.c | sort -u > "$work/accepted"
awk '/^[ \t]*```/ { code = !code; next }
     { s = $0
       if (!code) { t = ""; while (match(s, /`[^`]+`/)) { t = t " " substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } s = t }
       n = split(s, w, /[^A-Za-z]+/); for (i = 1; i <= n; i++) if (w[i] != "") print w[i] }' \
  "$src/docs/SCENARIOS.md" | sort -u > "$work/mentioned"
rc=0
for key in $(comm -23 "$work/accepted" "$work/mentioned"); do
  echo "the scenario loader accepts '$key', but docs/SCENARIOS.md does not mention it"
  rc=1
done
[ -s "$work/accepted" ] || { echo "found no key lists in the scenario loader's sources"; rc=1; }

# documented keys, one per line
awk '
  function keys(s,   k) {
    sub(/(^|[ \t])#.*$/, "", s)
    while (match(s, /(^|[ \t{,\[-])[A-Za-z_][A-Za-z0-9_.\/-]*:([ \t]|$)/)) {
      k = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
      sub(/^[ \t{,\[-]/, "", k); sub(/:[ \t]*$/, "", k)
      if (k ~ /\//) continue
      n = split(k, part, "."); for (i = 1; i <= n; i++) print part[i]   # scheduling.mode: x
    }
  }
  /^[ \t]*```/ { if (inyaml) { inyaml = 0; next } if ($0 ~ /```yaml/) inyaml = 1; else skip = !skip; next }
  inyaml { keys($0); next }
  skip { next }
  /^\|/ || /^[ \t]*[-*] / {            # table rows and list items: YAML in backticks
    line = $0
    while (match(line, /`[^`]+`/)) {
      code = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH)
      if (code ~ /:/) keys(code)
    }
  }
  /^\| `[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*` \|/ {   # a reference table: its first cell names a field path
    split($0, cell, "`"); n = split(cell[2], part, "."); for (i = 1; i <= n; i++) print part[i]
  }' "$src/docs/SCENARIOS.md" | sort -u > "$work/documented"

# candidate scenario files
find "$src/scenarios" "$src/tests" -name '*.yaml' -not -path '*/fuzz/*' | sort |
  while read -r f; do grep -q '^kind: Scenario' "$f" && echo "$f"; done > "$work/files"

# does FILE load? (cached)
loads() {
  tag=$(printf '%s' "$1" | tr '/' '_')
  if [ ! -e "$work/$tag.rc" ]; then
    # a bounded try: hostile test scenarios (endless Lua loops) do not count
    timeout 20 "$drasim" run "$1" --set stop.time=1s -q -o "$work/load.db" > "$work/$tag.log" 2>&1
    echo $? > "$work/$tag.rc"
  fi
  [ "$(cat "$work/$tag.rc")" -eq 0 ]
}

n=0
while read -r key; do
  n=$((n + 1))
  found=""
  for f in $(grep -lE "(^|[[:space:]{,[-])$key:([[:space:]]|\$)" $(cat "$work/files") 2>/dev/null); do
    # the key outside comments
    sed 's/[[:space:]]#.*$//; s/^#.*$//' "$f" | grep -qE "(^|[[:space:]{,[-])$key:([[:space:]]|\$)" || continue
    if loads "$f"; then found=$f; break; fi
  done
  if [ -z "$found" ]; then
    echo "docs/SCENARIOS.md documents '$key', but no scenario that drasim loads uses it"
    rc=1
  fi
done < "$work/documented"
[ $rc -eq 0 ] && echo "all $(wc -l < "$work/accepted") keys the loader accepts are in docs/SCENARIOS.md; all $n fields documented in docs/SCENARIOS.md are used by a scenario drasim loads"
exit $rc
