# Hostile input to what drasim writes for other programs (issue 25, findings 1-3):
# `sweep --emit-job` manifests and scripts, ConfigMap contents, inventories,
# `compare --format csv`. docs/SECURITY.md says what each guarantees.
set(_he_out ${CMAKE_CURRENT_BINARY_DIR}/hostile-emit)
file(MAKE_DIRECTORY ${_he_out})
get_filename_component(_he_bindir ${CMAKE_BINARY_DIR}/drasim DIRECTORY)

# file and directory names with CR, U+2028, NEL, newline, ---, a quote, $(...):
# one object per manifest, scripts that parse and pass the arguments unchanged
drasim_cli_test(NAME hostile-emit/emit-job-names RAW
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweeps/hostile_names.sh $<TARGET_FILE:drasim> $<TARGET_FILE:sweeps_check_job>
          $<TARGET_FILE:k8s_validate> ${CMAKE_SOURCE_DIR}/tests/sweeps/run_pod.sh ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml
          ${_he_out}/names
  ENV "PATH=${_he_bindir}:$ENV{PATH}" "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  EXPECT "job ok: 1 file in the ConfigMap, 2 shards, 2 at a time" "slurm argv ok" "shard-00001[.]db" "hostile names ok")
# the schema check catches an injected document even when it is a valid object
drasim_k8s_validate(NAME hostile-emit/extra-document FILES ${CMAKE_SOURCE_DIR}/tests/k8s-schema/bad-extra-doc.yaml
  DOCUMENTS 1 EXIT 1 EXPECT "bad-extra-doc[.]yaml: 2 documents, expected 1 [(]--documents[)]")

# inventory label values that YAML 1.1 reads as numbers (1_000, 0b101, 1_0.5) are quoted
drasim_cli_test(NAME hostile-emit/inventory-labels
  COMMAND inventory ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml
          --set "cluster.nodePools.h100-train.labels={lab-a: \"1_000\", lab-b: \"0b101\", lab-c: \"1_0.5\", lab-d: v1}"
  EXPECT "[\n]    lab-a: \"1_000\"\n    lab-b: \"0b101\"\n    lab-c: \"1_0[.]5\"\n    lab-d: v1\n")

# compare --format csv: cells a spreadsheet would run as formulas start with ',
# numbers (+0, 0%) stay numbers
drasim_cli_test(NAME hostile-emit/compare-csv-formulas RAW
  COMMAND sh -c "$0 sweep $1 --set stop.time=10m --param 'metadata.name==1+2,\"@SUM(1)\",-1+2,+3' -q -o csvinj.db --force && $0 compare csvinj.db csvinj.db --format csv"
          $<TARGET_FILE:drasim> ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml
  WORKDIR ${_he_out}
  EXPECT "[\n]'=1[+]2 device-plugin " "[\n]\"'@SUM[(]1[)] device-plugin " "[\n]'-1[+]2 device-plugin "
         "[\n]'[+]3 device-plugin " ",pods_arrived,23,23,[+]0,0%,-,-\n"
  REJECT "[\n][=]" "[\n][@]" "[\n]\"[@]" "[\n][-]" "[\n][+]")

# a CR in a --param key (free-form: workload.lua.args) is one escaped YAML string, not a line break
drasim_cli_test(NAME hostile-emit/param-key-cr RAW
  COMMAND sh -c "rm -rf crjob && $0 sweep $1 --param \"$(printf 'workload.lua.args.k\\r---\\rkind: Pod')=1,2\" --emit-job crjob -q && $2 --documents 1 crjob/job.yaml crjob/configmap.yaml && grep -c 'k[\\]r---[\\]rkind: Pod=1,2' crjob/job.yaml"
          $<TARGET_FILE:drasim> ${CMAKE_SOURCE_DIR}/tests/sweeps/lua-files/scenario.yaml $<TARGET_FILE:k8s_validate>
  WORKDIR ${_he_out} EXPECT "job[.]yaml: 1 document valid [(]1 Job" "configmap[.]yaml: 1 document valid" "[\n]2\n")

# finding 4: every file any point may read is shipped -- the second point's
# script (alt.lua) and CSV (alt.csv, at 10 min), the first point's CSV at 30 min
# and module at 40 min: scenario + 5 files. Each shard then runs from the
# ConfigMap alone and submits its 3 pods (gen.lua: 2 CSV rows + 1 from the module;
# alt.lua: 3 CSV rows).
set(_he_lf ${CMAKE_SOURCE_DIR}/tests/sweeps/lua-files/scenario.yaml)
drasim_cli_test(NAME hostile-emit/lua-files-emit
  COMMAND sweep ${_he_lf} --param workload.lua.script=gen.lua,alt.lua --emit-job ${_he_out}/lua-files --force -q
  FILE_EXISTS ${_he_out}/lua-files/job.yaml)
drasim_cli_test(NAME hostile-emit/lua-files-valid RAW
  COMMAND $<TARGET_FILE:sweeps_check_job> ${_he_out}/lua-files 2 2 drasim:latest ${_he_out}/lua-files-pod
  DEPENDS hostile-emit/lua-files-emit EXPECT "job ok: 6 files in the ConfigMap, 2 shards, 2 at a time")
set(_he_after hostile-emit/lua-files-valid)
foreach(_i 0 1)   # one after the other: run_pod.sh clears the pod's tree and results
  drasim_cli_test(NAME hostile-emit/lua-files-pod-${_i} RAW
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweeps/run_pod.sh ${_he_out}/lua-files-pod ${_i}
    ENV "PATH=${_he_bindir}:$ENV{PATH}" "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
    DEPENDS ${_he_after} EXPECT "shard-0000${_i}[.]db"
    SQL ${_he_out}/lua-files-pod/results/shard-0000${_i}.db "SELECT pods FROM runs" "^3$")
  list(APPEND _he_after hostile-emit/lua-files-pod-${_i})
endforeach()
