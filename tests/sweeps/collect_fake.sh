#!/bin/sh
# collect_fake.sh JOBDIR WORKDIR STATES FAILED [COLLECT ARGS...]: run the
# collect.sh of `drasim sweep --emit-job JOBDIR` in WORKDIR against the fake
# kubectl beside this script (fake-kubectl/kubectl: STATES are the Job's
# conditions look by look, FAILED its failed indexes or "-"), one second between
# looks; print its kubectl calls, exit with its exit code.
set -u
jobdir=$1 work=$2 states=$3 failed=${4#-}
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 99
FAKE_KUBECTL_DIR=$work FAKE_JOB_STATES=$states FAKE_FAILED_INDEXES=$failed DRASIM_COLLECT_POLL=1 \
  PATH="$here/fake-kubectl:$PATH" sh "$jobdir/collect.sh" "$@"
rc=$?
[ ! -f log ] || sed "s/^/call: /" log
exit $rc
