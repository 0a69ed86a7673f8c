#!/bin/sh
# run_pod.sh OUT INDEX: run OUT/pod.sh (the Indexed Job's command, written by
# check_job) as the pod would, with OUT/in as the ConfigMap mount, OUT/tree as
# its /tmp/sweep, OUT/results as the results volume, DRASIM_DATADIR and PATH
# (drasim) from the caller, and JOB_COMPLETION_INDEX=INDEX.
set -eu
out=$1
rm -rf "$out/tree" "$out/results"
mkdir -p "$out/results"
sed -e "s#/sweep/in#$out/in#g" -e "s#/tmp/sweep#$out/tree#g" -e "s#/results/#$out/results/#g" "$out/pod.sh" > "$out/pod-local.sh"
JOB_COMPLETION_INDEX=$2 sh "$out/pod-local.sh"
ls "$out/results"
