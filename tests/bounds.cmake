# Bounded work on hostile input (issue 25): tests/unit/test_bounds.c runs in
# seconds; the quadratic or unbounded versions it guards against take minutes.
set_tests_properties(unit/test_bounds PROPERTIES TIMEOUT 30)
