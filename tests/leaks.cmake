# No leaks and no memory errors under valgrind on the quickstart (skipped in
# sanitizer builds, where ASan already watches, and when valgrind is absent).
find_program(VALGRIND valgrind)
if(VALGRIND AND NOT DRASIM_SANITIZE)
  drasim_cli_test(NAME leaks/quickstart RAW
    COMMAND ${VALGRIND} --quiet --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all
            --error-exitcode=9 $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml
            -o ${CMAKE_CURRENT_BINARY_DIR}/leaks-quickstart.db --quiet
    REJECT "ERROR SUMMARY: [1-9]" "definitely lost")
endif()
# drasim admit: a preemption case (targets, minimisation) and an invalid snapshot (issue 27)
if(VALGRIND AND NOT DRASIM_SANITIZE)
  drasim_cli_test(NAME leaks/admit-preempt RAW
    COMMAND ${VALGRIND} --quiet --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all
            --error-exitcode=9 $<TARGET_FILE:drasim> admit ${CMAKE_SOURCE_DIR}/tests/queues/preemption/base.yaml
            ${CMAKE_SOURCE_DIR}/tests/queues/preemption/borrowwithincohort-from-cq-and-other-cqs-below-threshold.yaml
    EXIT 1 REJECT "ERROR SUMMARY: [1-9]" "definitely lost")
  drasim_cli_test(NAME leaks/admit-bad-input RAW
    COMMAND ${VALGRIND} --quiet --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all
            --error-exitcode=9 $<TARGET_FILE:drasim> admit --no-implicit-cohorts ${CMAKE_SOURCE_DIR}/tests/queues/bad/cohort-cycle.yaml
    EXIT 3 REJECT "ERROR SUMMARY: [1-9]" "definitely lost")
endif()
