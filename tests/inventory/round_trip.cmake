# round_trip.cmake -- `drasim inventory` output read back as a recorded
# inventory gives the same output, for every driver release and Kubernetes
# version (cmake -P script; prints "round trips: N identical").
# -DDRASIM=<binary> -DSRC=<source dir> -DOUT=<scratch dir>
file(MAKE_DIRECTORY ${OUT})
set(scenario ${SRC}/tests/inventory/versions-scenario.yaml)
file(WRITE ${OUT}/read-back.yaml "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: read-back}\nseed: 3\n"
     "stop: {time: 1h}\ncluster: {inventory: written.yaml}\nscheduling: {mode: dra}\nworkload: {podGroups: []}\n")
set(n 0)
foreach(driver v25.3 v25.8 v25.12 v0.4)
  foreach(k8s 1.34 1.35 1.36)
    set(extra)
    if(driver STREQUAL "v25.3" OR driver STREQUAL "v25.8")   # no dynamic MIG before v25.12
      set(extra --set "cluster.nodePools[2].gpu.mig=none")
    endif()
    execute_process(COMMAND ${DRASIM} inventory ${scenario} --set cluster.draDriver.version=${driver} ${extra}
                            --k8s-version ${k8s} -o ${OUT}/written.yaml --force
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${driver} ${k8s}: drasim inventory failed (${rc}): ${err}")
    endif()
    execute_process(COMMAND ${DRASIM} inventory ${OUT}/read-back.yaml --k8s-version ${k8s} -o ${OUT}/read.yaml --force
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${driver} ${k8s}: reading it back failed (${rc}): ${err}")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/written.yaml ${OUT}/read.yaml RESULT_VARIABLE diff)
    if(NOT diff EQUAL 0)
      message(FATAL_ERROR "${driver} ${k8s}: the inventory read back differs (${OUT}/written.yaml, ${OUT}/read.yaml)")
    endif()
    file(READ ${OUT}/written.yaml text)
    if(driver STREQUAL "v0.4" AND NOT text MATCHES "name: 00000-gpu[.]nvidia[.]com-h100-0-[a-z0-9]+\n")
      message(FATAL_ERROR "${driver}: no slice named as the v0.36 resourceslice controller names them")
    endif()
    math(EXPR n "${n} + 1")
  endforeach()
endforeach()
message("round trips: ${n} identical")
