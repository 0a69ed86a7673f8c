#!/bin/sh
# hostile_names.sh DRASIM CHECK_JOB K8S_VALIDATE RUN_POD SCENARIO OUT -- `sweep
# --emit-job` with a scenario file name and an output directory that hold YAML
# and shell syntax: CR, U+2028, NEL, a newline, "---", "kind: Pod", "#", a
# quote and $(...). Every manifest must still be one object that a YAML reader
# parses (check_job, k8s_validate --documents 1), both scripts must parse
# (sh -n), slurm.sh must hand drasim exactly the arguments given (a stub drasim
# records its argv), the Job's pod must run the shard from the ConfigMap's
# files, and no command planted in a name may run (no PWNED file).
set -eu
drasim=$1 check=$2 validate=$3 run_pod=$4 scen=$5 out=$6
rm -rf "$out"
mkdir -p "$out"
cd "$out"
name=$(printf 'q\r---\rkind: Pod\342\200\250x\302\205 #$(touch PWNED)'"'"'.yaml')
cp "$scen" "./$name"
dir=$(printf 'job\ntouch PWNED\r---')
"$drasim" sweep "./$name" --set stop.time=10m --param scheduling.scoring=LeastAllocated,MostAllocated --emit-job "$dir" -q
"$validate" --quiet --documents 1 "$dir"/configmap.yaml "$dir"/results-pvc.yaml "$dir"/job.yaml "$dir"/merge-job.yaml
"$check" "$dir" 2 2 drasim:latest pod
sh -n "$dir/slurm.sh"
sh -n "$dir/collect.sh"
# slurm.sh runs `drasim sweep` with exactly these arguments
mkdir stub
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\000" "$a"; done > "$ARGV_OUT"\n' > stub/drasim
chmod +x stub/drasim
ARGV_OUT=$PWD/argv SLURM_ARRAY_TASK_ID=1 SLURM_SUBMIT_DIR=$PWD PATH="$PWD/stub:$PATH" sh "$dir/slurm.sh"
printf 'sweep\000./%s\000--set\000stop.time=10m\000--param\000scheduling.scoring=LeastAllocated,MostAllocated\000--shard\000auto/2\000-o\000results/shard-00001.db\000--force\000-q\000' "$name" > argv.expected
cmp argv argv.expected
echo "slurm argv ok"
# the pod, as Kubernetes would run it, from the ConfigMap's files alone
sh "$run_pod" "$PWD/pod" 1
[ -z "$(find . -name 'PWNED*')" ] || { echo "a planted command ran" >&2; exit 1; }
echo "hostile names ok"
