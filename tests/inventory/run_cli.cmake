# run_cli.cmake -- `drasim inventory` end to end (cmake -P script).
# -DDRASIM=<binary> -DSRC=<source dir> -DOUT=<scratch dir>
set(dir ${SRC}/tests/inventory)
file(MAKE_DIRECTORY ${OUT})

# 1. the small scenario gives exactly the reviewed output, written with -o
file(REMOVE ${OUT}/small.yaml)
execute_process(COMMAND ${DRASIM} inventory ${dir}/small-scenario.yaml -o ${OUT}/small.yaml
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "drasim inventory failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/small.yaml ${dir}/small-expected.yaml
                RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "${OUT}/small.yaml differs from ${dir}/small-expected.yaml")
endif()
file(GLOB leftovers ${OUT}/small.yaml.tmp*)
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()

# 2. standard output gives the same stream
execute_process(COMMAND ${DRASIM} inventory ${dir}/small-scenario.yaml OUTPUT_VARIABLE text RESULT_VARIABLE rc)
file(READ ${dir}/small-expected.yaml want)
if(NOT rc EQUAL 0 OR NOT text STREQUAL want)
  message(FATAL_ERROR "stdout output differs (${rc})")
endif()

# 3. an invalid scenario: exit code 3, message with file:line:col
execute_process(COMMAND ${DRASIM} inventory ${dir}/bad-scenario.yaml RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3 OR NOT err MATCHES "bad-scenario.yaml:9:39: unknown field 'migMode' in gpu" OR NOT out STREQUAL "")
  message(FATAL_ERROR "bad scenario: rc=${rc} stderr=${err}")
endif()

# 4. usage errors and unwritable output: exit code 2
execute_process(COMMAND ${DRASIM} inventory RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "no scenario: rc=${rc}")
endif()
execute_process(COMMAND ${DRASIM} inventory ${dir}/small-scenario.yaml -o ${OUT}/no/such/dir/x.yaml
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot write")
  message(FATAL_ERROR "unwritable output: rc=${rc} stderr=${err}")
endif()
execute_process(COMMAND ${DRASIM} inventory --help RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: drasim inventory")
  message(FATAL_ERROR "--help: rc=${rc}")
endif()
