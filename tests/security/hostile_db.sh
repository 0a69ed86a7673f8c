#!/bin/sh
# hostile_db.sh DRASIM SCENARIO OUT.db -- a results database whose every
# label source holds shell and gnuplot syntax: backquotes, $(...), @macros,
# both quotes, backslashes and newlines. Used by tests/security.cmake: a
# report of it must draw every plot and run no command (no PWNED* file).
set -eu
drasim=$1 scenario=$2 out=$3
rm -f "$out"
# scenario name and sweep values from the command line
"$drasim" sweep "$scenario" --set stop.time=2h -q -o "$out" \
  --param 'metadata.name=demo`touch PWNED_name`,o$(touch PWNED_dollar)th'"'"'e"r\' \
  --param 'scheduling.scoring=LeastAllocated,MostAllocated'
# the rest as someone else's database could hold it
sqlite3 "$out" <<'SQL'
UPDATE runs SET mode = 'dra`touch PWNED_mode`' || char(10) || 'x' WHERE run_id = 1;
UPDATE runs SET policy = 'p''`touch PWNED_policy`"' || char(10) || '@x' WHERE run_id = 2;
UPDATE runs SET scenario = scenario || char(27) || '[2J' || char(27) || ']0;title' || char(7) WHERE run_id = 4;
UPDATE sweep SET param = 'k`touch PWNED_param`' || char(10) || 'k' WHERE run_id = 3 AND param = 'scheduling.scoring';
UPDATE nodes SET gpu_model = 'A100`touch PWNED_model`' || char(10) || '1 2 3' WHERE run_id = 1;
UPDATE sample_resources SET resource = 'nvidia.com/gpu`touch PWNED_res`' || char(13) || char(10) || '"' WHERE run_id = 1 AND resource = 'nvidia.com/gpu';
INSERT INTO summary(run_id, metric, value) VALUES(1, 'frag`touch PWNED_metric`/../../x', 1);
INSERT INTO summary(run_id, metric, value) VALUES(2, 'frag`touch PWNED_metric`/../../x', 2);
ALTER TABLE samples ADD COLUMN "frag`touch PWNED_column`/../../y" REAL;
SQL
