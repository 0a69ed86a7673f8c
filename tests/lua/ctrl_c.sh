#!/bin/sh
# ctrl_c.sh DRASIM SCENARIO OUT -- start `DRASIM run SCENARIO -o OUT`, send it
# SIGINT (Ctrl-C) once it catches SIGINT and has run 1 s more, and exit with
# its exit code (tests/lua_hostile.cmake).
# a background job of a non-interactive shell starts with SIGINT ignored, and
# drasim keeps ignored signals ignored (nohup): restore the default first
env --default-signal=INT "$1" run "$2" -o "$3" &
pid=$!
# wait (up to 60 s: a loaded machine, a sanitizer build) until drasim has
# installed its handler (bit 2 of SigCgt in /proc/PID/status), so a slow
# start-up never turns the test into a kill by the default action
i=0
while [ $i -lt 600 ]; do
  mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
  [ -n "$mask" ] && [ $(( 0x$mask & 2 )) -ne 0 ] && break
  sleep 0.1
  i=$((i + 1))
done
sleep 1
kill -INT "$pid"
wait "$pid"
