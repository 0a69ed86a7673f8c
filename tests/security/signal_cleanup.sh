#!/bin/sh
# signal_cleanup.sh DRASIM SCENARIO DIR -- a long `drasim run` killed by each
# catchable stop signal leaves neither OUT, OUT.tmp-<pid> nor OUT.lock; one
# signal stops it cleanly ("interrupted", exit 2), a second one at once
# (exit by the signal). SIGXFSZ (file size limit) fails the write, which
# removes the temporary file; SIGPIPE (closed stdout) does not lose the database.
set -u
drasim=$1 scenario=$2 dir=$3
mkdir -p "$dir" && cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
leftovers() { ls sig.db sig.db.tmp-* sig.db.lock 2>/dev/null; }

start() {
  rm -f sig.db sig.db.tmp-* sig.db.lock err.txt
  # env --default-signal: a non-interactive sh starts background jobs with
  # SIGINT and SIGQUIT ignored (and drasim keeps ignored signals ignored)
  env --default-signal=INT,QUIT "$drasim" run "$scenario" --seeds 1..100000 -o sig.db -q 2>err.txt &
  pid=$!
  n=0
  while ! ls sig.db.tmp-* >/dev/null 2>&1; do
    n=$((n + 1)); [ $n -lt 200 ] || { kill -9 $pid; fail "no temporary file after 20 s"; }
    sleep 0.1
  done
  sleep 0.3
}

for sig in INT TERM HUP QUIT; do
  start
  kill -s $sig $pid
  wait $pid; rc=$?
  [ $rc -eq 2 ] || fail "SIG$sig once: exit $rc, expected 2 ($(cat err.txt))"
  grep -q interrupted err.txt || fail "SIG$sig once: no 'interrupted' message: $(cat err.txt)"
  [ -z "$(leftovers)" ] || fail "SIG$sig once left $(leftovers)"
  echo "SIG$sig once: exit 2, interrupted, nothing left"

  start
  # two different signals: a repeated one may be merged while pending
  other=TERM; [ $sig = TERM ] && other=HUP
  kill -s $sig $pid; kill -s $other $pid
  wait $pid; rc=$?
  [ $rc -ne 0 ] || fail "SIG$sig twice: exit 0"
  [ -z "$(leftovers)" ] || fail "SIG$sig twice left $(leftovers)"
  echo "SIG$sig then SIG$other: exit $rc, nothing left"
done

# file size limit: the write fails (EFBIG instead of death by SIGXFSZ)
rm -f sig.db sig.db.tmp-* sig.db.lock
(ulimit -f 64; "$drasim" run "$scenario" -o sig.db -q 2>err.txt); rc=$?
[ $rc -eq 2 ] || fail "SIGXFSZ: exit $rc, expected 2 ($(cat err.txt))"
[ -z "$(leftovers)" ] || fail "SIGXFSZ left $(leftovers)"
echo "SIGXFSZ: exit 2 ($(head -c 120 err.txt)), nothing left"

# closed standard output: the database is still written
rm -f sig.db
"$drasim" run "$scenario" -o sig.db --seeds 1..2 | true
[ -s sig.db ] || fail "SIGPIPE: no database"
[ -z "$(ls sig.db.tmp-* sig.db.lock 2>/dev/null)" ] || fail "SIGPIPE left temporary files"
echo "SIGPIPE: database written"
echo "all signals: ok"
