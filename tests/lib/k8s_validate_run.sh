#!/bin/sh
# k8s_validate_run.sh VALIDATOR OUT.yaml COMMAND... -- run COMMAND with its
# standard output in OUT.yaml; when it succeeds, validate OUT.yaml
# (drasim_k8s_validate() COMMAND, tests/lib/k8s_validate.cmake).
set -u
validator=$1 out=$2
shift 2
"$@" > "$out" || { rc=$?; echo "k8s_validate_run: $* exited $rc" >&2; exit 2; }
exec "$validator" "$out"
