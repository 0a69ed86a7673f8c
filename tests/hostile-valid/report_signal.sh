#!/bin/sh
# report_signal.sh DRASIM SCENARIO DIR (finding 18): `drasim report` draws with
# a gnuplot child; a stop signal sent to drasim alone (not to its process
# group, as a terminal's Ctrl-C would) must not leave that child running. The
# gnuplot here is a stand-in that notes its pid and sleeps.
set -u
drasim=$1 scenario=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
"$drasim" run "$scenario" -o s.db -q || exit 1
printf '#!/bin/sh\necho $$ > "$GP_PIDFILE"\nexec sleep 60\n' > fake-gnuplot
chmod +x fake-gnuplot
for sig in TERM INT; do
  rm -rf r gp.pid
  GP_PIDFILE=$PWD/gp.pid DRASIM_GNUPLOT=$PWD/fake-gnuplot env --default-signal=INT "$drasim" report s.db -o r 2>err.txt &
  pid=$!
  n=0
  while [ ! -s gp.pid ]; do
    n=$((n + 1)); [ $n -lt 200 ] || { kill -9 $pid; echo "FAIL: gnuplot never started"; exit 1; }
    sleep 0.1
  done
  gp=$(cat gp.pid)
  kill -s $sig $pid
  wait $pid
  echo "SIG$sig: drasim exit $?"
  if kill -0 "$gp" 2>/dev/null; then
    kill "$gp"
    echo "SIG$sig: gnuplot left running"
  else
    echo "SIG$sig: gnuplot ended"
  fi
done
