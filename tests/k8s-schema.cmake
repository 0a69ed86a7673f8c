# k8s_validate (tools/k8s-schema): manifests validated offline against the
# Kubernetes 1.35 OpenAPI v3 schema. Its own tests first (valid objects pass,
# each mutated one fails for its reason and only that), then what drasim
# writes: every scenario's `drasim inventory` and the manifests of `drasim
# sweep --emit-job` (tests/sweeps.cmake writes them).
set(_ks ${CMAKE_SOURCE_DIR}/tests/k8s-schema)

drasim_k8s_validate(NAME k8s-schema/valid FILES ${_ks}/valid.yaml
  EXPECT "valid[.]yaml: 9 documents valid [(]1 Job, 1 ConfigMap, 1 PersistentVolumeClaim, 1 Pod, 1 Node, 1 DeviceClass, 1 ResourceSlice, 1 ResourceClaim, 1 ResourceClaimTemplate; Kubernetes 1[.]35[)]")
foreach(_case
    "unknown-field|spec[.]template[.]spec[.]containers[[]0[]]: unknown field \"resourcez\""
    "type|spec[.]parallelism: expected an integer [(]int32[)], got a string \"20\""
    "required|spec[.]template[.]spec[.]containers[[]0[]]: missing required field \"name\""
    "int32|spec[.]completions: 2147483648 is out of the int32 range"
    "quantity|spec[.]template[.]spec[.]containers[[]0[]][.]resources[.]limits[[]memory[]]: \"2 Gi\" is not a quantity"
    "int-or-string|spec[.]template[.]spec[.]containers[[]0[]][.]livenessProbe[.]tcpSocket[.]port: expected an integer or a string, got a number"
    "yaml11-bool|metadata[.]labels[[]nvidia[.]com/mig[.]capable[]]: expected a string, got a boolean \"yes\" [(]quote it[)]")
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" 0 ${_bar} _n)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_case}" ${_bar} -1 _msg)
  drasim_k8s_validate(NAME k8s-schema/bad-${_n} FILES ${_ks}/bad-${_n}.yaml EXIT 1
    EXPECT "bad-${_n}[.]yaml: doc 1: ${_msg}" "bad-${_n}[.]yaml: 1 schema violation in 1 document")
endforeach()
drasim_k8s_validate(NAME k8s-schema/bad-doc-index FILES ${_ks}/bad-doc3.yaml EXIT 1
  EXPECT "bad-doc3[.]yaml: doc 3: spec[.]devices[.]requests[[]0[]]: missing required field \"name\""
         "bad-doc3[.]yaml: doc 4: no schema for apiVersion resource[.]k8s[.]io/v1beta1, kind ResourceSlice"
         "bad-doc3[.]yaml: 2 schema violations in 4 documents")
# what the 1.35 built-in schemas do not use (enum, x-kubernetes-int-or-string,
# x-kubernetes-preserve-unknown-fields) and the rest of the formats, on a schema of its own
drasim_cli_test(NAME k8s-schema/synthetic-valid RAW
  COMMAND $<TARGET_FILE:k8s_validate> --schema ${_ks}/synthetic-schema.json ${_ks}/synthetic-valid.yaml
  EXPECT "synthetic-valid[.]yaml: 2 documents valid [(]2 Widget; Kubernetes test[)]")
drasim_cli_test(NAME k8s-schema/synthetic-bad RAW
  COMMAND $<TARGET_FILE:k8s_validate> --schema ${_ks}/synthetic-schema.json ${_ks}/synthetic-bad.yaml
  EXIT 1
  EXPECT "doc 1: spec[.]mode: \"Medium\" is not one of Fast, Slow\n"
         "doc 1: spec[.]port: expected an integer or a string, got a list\n"
         "doc 1: spec[.]extra[.]known: expected an integer [(]int64[)], got a string \"x\"\n"
         "doc 1: spec[.]ratio: expected a number, got a string \"1[.]5\"\n"
         "doc 1: spec[.]flags[[]1[]]: expected a boolean, got a string \"off\"\n"
         "doc 1: spec[.]size: expected string or number, got a list\n"
         "doc 1: spec[.]sealed: unknown field \"b\"\n"
         "doc 1: spec[.]when: \"2026-01-02 15:04\" is not an RFC 3339 date-time\n"
         "doc 1: spec[.]blob: not base64 [(]format byte[)]\n"
         "doc 1: spec[.]count: -2147483649 is out of the int32 range\n"
         "doc 2: missing required field \"spec\"\n"
         "synthetic-bad[.]yaml: 11 schema violations in 2 documents")
drasim_cli_test(NAME k8s-schema/not-yaml RAW
  COMMAND sh -c "$0 - < $1" $<TARGET_FILE:k8s_validate> ${_ks}/not-yaml.yaml
  EXIT 2 EXPECT "k8s_validate: -:3:1: invalid YAML")
drasim_cli_test(NAME k8s-schema/missing-file RAW
  COMMAND $<TARGET_FILE:k8s_validate> ${_ks}/no-such.yaml
  EXIT 2 EXPECT "no-such[.]yaml: cannot open: No such file")
drasim_cli_test(NAME k8s-schema/usage RAW COMMAND $<TARGET_FILE:k8s_validate> EXIT 2 EXPECT "usage: k8s_validate")

# drasim inventory, for every scenario (and allocate-mig.yaml, itself a
# manifest of the kinds inventory writes plus a ResourceClaim)
file(GLOB _ks_scenarios CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scenarios/examples/*.yaml)
list(APPEND _ks_scenarios ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)
foreach(_sc ${_ks_scenarios})
  get_filename_component(_n ${_sc} NAME_WE)
  file(STRINGS ${_sc} _kind REGEX "^kind: ")
  if(_kind MATCHES "kind: Scenario")
    drasim_k8s_validate(NAME k8s-schema/inventory-${_n} COMMAND inventory ${_sc}
      EXPECT "Node, 5 DeviceClass, [0-9]+ ResourceSlice")   # the chart's five classes (issue 13)
  elseif(_kind MATCHES "kind: (Node|ResourceSlice|DeviceClass|ResourceClaim)")
    drasim_k8s_validate(NAME k8s-schema/manifest-${_n} FILES ${_sc})
  endif()
endforeach()
