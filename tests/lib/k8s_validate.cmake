# drasim_k8s_validate(): a test that validates Kubernetes manifests offline
# against the API's OpenAPI v3 schema (tools/k8s-schema/README.md).
#
#   drasim_k8s_validate(NAME <ctest name>
#                       FILES <manifest>...        validate these files (every document)
#                     | COMMAND <arg>...           run drasim with these arguments and validate
#                                                  its standard output (drasim must exit 0)
#                       [DEPENDS <test>...] [WORKDIR <dir>] [LABELS <label>...]
#                       [EXIT <code>] [EXPECT <regex>...]
#                       [DOCUMENTS <n>])           each file holds exactly n documents
#
# Passes when every document is valid: exit 0 and one "<file>: N documents
# valid" line per file. For a manifest that must be refused (a mutated one),
# give EXIT 1 and EXPECT the violations' messages
# ("<file>: doc N: <field path>: <what>").
set(DRASIM_K8S_VALIDATE_RUN ${CMAKE_CURRENT_LIST_DIR}/k8s_validate_run.sh)
set(DRASIM_K8S_VALIDATE_OUT ${CMAKE_BINARY_DIR}/k8s-validate)
file(MAKE_DIRECTORY ${DRASIM_K8S_VALIDATE_OUT})

function(drasim_k8s_validate)
  cmake_parse_arguments(PARSE_ARGV 0 K "" "NAME;EXIT;WORKDIR;DOCUMENTS" "FILES;COMMAND;DEPENDS;LABELS;EXPECT")
  if(NOT K_NAME OR (NOT K_FILES AND NOT K_COMMAND) OR (K_FILES AND K_COMMAND))
    message(FATAL_ERROR "drasim_k8s_validate: NAME and one of FILES or COMMAND are required")
  endif()
  if(NOT DEFINED K_EXIT)
    set(K_EXIT 0)
  endif()
  set(expect ${K_EXPECT})
  if(K_EXIT EQUAL 0)
    list(APPEND expect "documents? valid [(]")
    set(reject "schema violation" "doc [0-9]+: ")
  else()
    list(APPEND expect "schema violations? in [0-9]+ documents?")
    set(reject "")
  endif()
  set(docs "")
  if(DEFINED K_DOCUMENTS)
    set(docs --documents ${K_DOCUMENTS})
  endif()
  if(K_FILES)
    set(cmd $<TARGET_FILE:k8s_validate> ${docs} ${K_FILES})
  else()
    string(MAKE_C_IDENTIFIER "${K_NAME}" stem)
    set(cmd sh ${DRASIM_K8S_VALIDATE_RUN} $<TARGET_FILE:k8s_validate> ${DRASIM_K8S_VALIDATE_OUT}/${stem}.yaml
            $<TARGET_FILE:drasim> ${K_COMMAND})
  endif()
  set(opt "")
  if(K_WORKDIR)
    list(APPEND opt WORKDIR ${K_WORKDIR})
  endif()
  if(K_DEPENDS)
    list(APPEND opt DEPENDS ${K_DEPENDS})
  endif()
  if(K_LABELS)
    list(APPEND opt LABELS ${K_LABELS})
  endif()
  if(reject)
    list(APPEND opt REJECT ${reject})
  endif()
  drasim_cli_test(NAME ${K_NAME} RAW COMMAND ${cmd} EXIT ${K_EXIT} EXPECT ${expect} ${opt})
endfunction()
