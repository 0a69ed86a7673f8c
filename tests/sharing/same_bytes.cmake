# same_bytes.cmake -- run SCENARIO twice in DRA mode (shared claims, MPS, the
# contention model) and compare the databases byte for byte.
#   cmake -DDRASIM=... -DSCENARIO=... -DOUT=prefix -P same_bytes.cmake
foreach(i 1 2)
  file(REMOVE ${OUT}-${i}.db)
  execute_process(COMMAND ${DRASIM} run ${SCENARIO} -q -o ${OUT}-${i}.db --set scheduling.mode=dra RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed: ${rc}")
  endif()
endforeach()
file(SHA256 ${OUT}-1.db a)
file(SHA256 ${OUT}-2.db b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the two databases differ")
endif()
message("identical")
