# cmake -P driver for the Lua CLI tests (see tests/lua.cmake): writes a small
# scenario whose workload is the Lua script SCRIPT, runs `DRASIM run` on it
# writing OUT (pre-filled with a sentinel) and expects exit code 3, stderr
# matching EXPECT, OUT unchanged and no temporary file left.
cmake_minimum_required(VERSION 3.18)
set(scenario ${OUT}.yaml)
file(WRITE ${scenario} "apiVersion: drasim/v1
kind: Scenario
metadata: {name: lua-cli}
seed: 1
stop: {time: 1h}
cluster:
  nodePools:
  - {name: h100, count: 2, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}
scheduling: {mode: device-plugin}
workload:
  lua: {script: ${SCRIPT}}
")
file(WRITE ${OUT} "sentinel: a good earlier result\n")
execute_process(COMMAND ${DRASIM} run ${scenario} -o ${OUT} --quiet --force
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 60)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit code 3, got ${rc}: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match '${EXPECT}':\n${err}")
endif()
file(READ ${OUT} content)
if(NOT content STREQUAL "sentinel: a good earlier result\n")
  message(FATAL_ERROR "${OUT} was modified by a failed run")
endif()
file(GLOB leftovers "${OUT}.tmp-*")
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()
message(STATUS "refused as expected:\n${err}")
