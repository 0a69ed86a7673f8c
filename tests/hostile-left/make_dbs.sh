#!/bin/sh
# make_dbs.sh DRASIM SCENARIO: in the current folder, a results database of
# two short runs (good.db) and copies of it damaged the ways a shared or
# hand-edited file can be (issue 25, findings 17 and 20/#29). Needs sqlite3.
set -e
drasim=$1
rm -rf ./*
"$drasim" run "$2" --set stop.time=10m --seeds 1..2 -q -o good.db
cp good.db noruns.db && sqlite3 noruns.db 'DROP TABLE runs'
cp good.db runs-nocol.db && sqlite3 runs-nocol.db 'ALTER TABLE runs DROP COLUMN policy'
cp good.db pods-nocol.db && sqlite3 pods-nocol.db 'ALTER TABLE pods DROP COLUMN wait_ms'
cp good.db samples-nocol.db && sqlite3 samples-nocol.db 'ALTER TABLE samples DROP COLUMN pending_pods'
cp good.db runs-view.db && sqlite3 runs-view.db 'CREATE TABLE r0 AS SELECT * FROM runs; DROP TABLE runs; CREATE VIEW runs AS SELECT * FROM r0; DROP TABLE r0'
# a summary value stored as text in every run (read as 0 before: a baseline passed)
cp good.db sum-text.db && sqlite3 sum-text.db "UPDATE summary SET value = 'high' WHERE metric = 'gpu_alloc_pct'"
cp good.db sum-blob.db && sqlite3 sum-blob.db "UPDATE summary SET value = X'00ff' WHERE metric = 'wait_p99_s' AND run_id = 2"
cp good.db user-text.db && sqlite3 user-text.db "CREATE TABLE user_samples(run_id INTEGER NOT NULL, series TEXT NOT NULL, time_ms INTEGER NOT NULL, value REAL); INSERT INTO user_samples VALUES(2, 'queue', 0, 'lots')"
# tables and columns whose names no drasim database has (report A B leaves them out)
cp good.db odd-names.db && sqlite3 odd-names.db 'CREATE TABLE "my notes"(run_id INTEGER, note TEXT); ALTER TABLE samples ADD COLUMN "gpu %" REAL'
printf 'just text\n' > text.db
head -c 30000 good.db > trunc.db
printf 'apiVersion: drasim/v1\nkind: Expect\nseeds: 1..2\nset:\n- stop.time=10m\nbaseline:\n  file: sum-text.db\n  metrics:\n    gpu_alloc_pct: 0.5\n' > expect-text.yaml
echo made
