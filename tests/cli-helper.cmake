# Self-tests of drasim_cli_test (tests/lib/cli_test.cmake): each WILL_FAIL case
# must fail, proving that the helper checks the exit code, every EXPECT (a ';'
# inside a regex does not split it), REJECT and SQL.
set(_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)
drasim_cli_test(NAME cli-helper/pass
  COMMAND cel eval "1 + 2"
  EXPECT "^3\n$")
drasim_cli_test(NAME cli-helper/wrong-exit-fails
  COMMAND cel eval "1 +"
  EXIT 0)
# split at ';', the REJECT below would contain "x" and fail
drasim_cli_test(NAME cli-helper/semicolon-regex-is-one-regex
  COMMAND cel eval [["x\x3By"]]
  EXPECT "x;y" REJECT "x;zz")
drasim_cli_test(NAME cli-helper/every-expect-must-match
  COMMAND cel eval "1 + 2"
  EXPECT "3" "4")
drasim_cli_test(NAME cli-helper/reject
  COMMAND cel eval "1 + 2"
  REJECT "3")
set_tests_properties(cli-helper/wrong-exit-fails
  cli-helper/every-expect-must-match cli-helper/reject PROPERTIES WILL_FAIL TRUE)
