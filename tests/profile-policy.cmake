# Choosing a placement policy through the scheduler profile, and the named
# profile openb-artifact on pod groups (docs/PLACEMENT.md "Turning a policy
# on"): the policy's Score plugin enabled with a weight becomes the run's
# policy; two policies at once, or an unknown named profile, are refused at
# FILE:LINE:COL with nothing written; under openb-artifact a pod that fits
# nowhere is dropped and stays pending although a GPU frees up later.
set(_pp_out ${CMAKE_CURRENT_BINARY_DIR}/profile-policy-cli)
file(MAKE_DIRECTORY ${_pp_out})
set(_pp_dir ${CMAKE_SOURCE_DIR}/tests/profile-policy)

drasim_cli_test(NAME profile-policy/plugin-enables-policy
  COMMAND run ${_pp_dir}/base.yaml -o ${_pp_out}/base.db --force
  EXPECT "6 scheduled, 0 pending at end"
  SQL ${_pp_out}/base.db "SELECT policy FROM runs" "^bestfit$"
      # bestfit packs: six 1-GPU pods (30 min, one a minute) on the first node that fits, 4 GPUs each
      ${_pp_out}/base.db "SELECT count(DISTINCT node_id) FROM pods" "^2$")

drasim_cli_test(NAME profile-policy/two-policies
  COMMAND run ${_pp_dir}/two-policies.yaml -o ${_pp_out}/two.db
  EXIT 3
  EXPECT "two-policies.yaml:16:19: enabled plugin BestFitScore: the placement policy is already fgd; enable one placement policy at a time"
  FILE_ABSENT ${_pp_out}/two.db)

drasim_cli_test(NAME profile-policy/unknown-named-profile
  COMMAND run ${_pp_dir}/bad-profile-name.yaml -o ${_pp_out}/bad.db
  EXIT 3
  EXPECT "bad-profile-name.yaml:12:12: scheduling.profile: expected a KubeSchedulerProfile [(]a map[)] or the named profile openb-artifact, found 'fgd-artifact'"
  FILE_ABSENT ${_pp_out}/bad.db)

drasim_cli_test(NAME profile-policy/artifact-drops
  COMMAND run ${_pp_dir}/artifact-drop.yaml -o ${_pp_out}/drop.db --force
  EXPECT "2 pods arrived, 1 scheduled, 1 pending at end [(]1 unschedulable[)]"
  SQL ${_pp_out}/drop.db "SELECT state || ' ' || ifnull(scheduled_ms, '-') FROM pods WHERE name = 'p-1'" "^Pending -$"
      ${_pp_out}/drop.db "SELECT reason FROM pods WHERE name = 'p-1'" "profile openb-artifact does not retry"
      ${_pp_out}/drop.db "SELECT completion_ms FROM pods WHERE name = 'p-0'" "^600000$")

# the same scenario without the named profile: the second pod waits for the GPU and runs at 10 min
drasim_cli_test(NAME profile-policy/without-artifact-retries
  COMMAND run ${_pp_dir}/artifact-drop.yaml --set "scheduling.profile={}" -o ${_pp_out}/nodrop.db --force
  EXPECT "2 pods arrived, 2 scheduled, 0 pending at end"
  SQL ${_pp_out}/nodrop.db "SELECT scheduled_ms FROM pods WHERE name = 'p-1'" "^600000$")
