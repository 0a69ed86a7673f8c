# Checked arithmetic where quantities meet scores (issue 10): a node with
# ~100 Pi of memory scores correctly (no int64 overflow, no UBSan report).
set(_ar_out ${CMAKE_CURRENT_BINARY_DIR}/arith)
file(MAKE_DIRECTORY ${_ar_out})
foreach(_seed 1 2 3)
  drasim_cli_test(NAME arith/huge-memory-spread-seed-${_seed}
    COMMAND run ${CMAKE_SOURCE_DIR}/tests/arith/huge-memory-spread.yaml --seed ${_seed}
            -o ${_ar_out}/huge-${_seed}.db -q
    ENV DRASIM_DATADIR=${CMAKE_SOURCE_DIR}
    REJECT "runtime error"
    SQL ${_ar_out}/huge-${_seed}.db "select count(distinct node_id) || ' nodes, ' || count(*) || ' pods' from pods"
        "^2 nodes, 2 pods$")
endforeach()
