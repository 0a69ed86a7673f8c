#!/bin/sh
# ctrl_c.sh DRASIM SCENARIO OUT -- start `DRASIM run SCENARIO -o OUT`, send it
# SIGINT (Ctrl-C) after 1 s, and exit with its exit code (tests/lua_hostile.cmake).
# a background job of a non-interactive shell starts with SIGINT ignored, and
# drasim keeps ignored signals ignored (nohup): restore the default first
env --default-signal=INT "$1" run "$2" -o "$3" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
