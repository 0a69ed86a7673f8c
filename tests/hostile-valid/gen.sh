#!/bin/sh
# gen.sh DIR: inputs that cannot live in git as text (finding 7): an events
# file whose target holds a NUL byte, and a scenario whose gpuFailures kind
# is a 2 MB value, each next to a scenario that reads it.
set -e
cd "$1"
printf 'time,target,event\n1h,node/a-0\000x,fail\n' > nul-events.csv
head=$(printf 'apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: gen}\nstop: {time: 1h}\ncluster:\n  nodePools:\n  - {name: a, count: 1, cpu: "8", memory: 64Gi, gpu: {model: H100-80GB, count: 2}}\nscheduling: {mode: dra}\nworkload:\n  podGroups:\n  - {name: p, count: 1, arrival: {times: [0s]}, duration: 1m, requests: {cpu: "1"}}\nfaults:\n')
printf '%s\n  events: nul-events.csv\n' "$head" > nul-events.yaml
{ printf '%s\n  gpuFailures:\n  - {ratePerGpuDay: 1, kind: ' "$head"; head -c 2097152 /dev/zero | tr '\000' 'k'; printf '}\n'; } > big-value.yaml
echo generated
# finding 12: an expander-priorities regex of 20,000 nested parentheses
if [ -n "$2" ]; then
  deep=$(awk 'BEGIN { for (i = 0; i < 20000; i++) printf "("; printf "a"; for (i = 0; i < 20000; i++) printf ")" }')
  sed "s/(unclosed/$deep/" "$2/tests/autoscaler/bad/regex.yaml" > regex-deep.yaml
  echo generated-regex
fi
