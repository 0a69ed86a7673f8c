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
