# Lua on par with pod groups (issue 26 item 8): owner, checkpoint and
# terminationGracePeriodSeconds on drasim.submit; dynamic-MIG fragmentation
# and fgd for Lua pods; timers set in a callback leave the arrivals alone.
set(_l26 ${CMAKE_SOURCE_DIR}/tests/lua)
set(_l26_out ${CMAKE_CURRENT_BINARY_DIR}/lua26-cli)
file(MAKE_DIRECTORY ${_l26_out})

# owner service / job with checkpoint and grace (derivation in tests/lua/lifecycle.lua)
set(_db ${_l26_out}/lifecycle.db)
drasim_cli_test(NAME lua26/owner-checkpoint-grace
  COMMAND run ${_l26}/lifecycle.yaml -o ${_db}
  EXPECT "4 pods arrived, 4 scheduled"
  SQL ${_db} "SELECT group_concat(name || ':' || state || ':' || arrival_ms || ':' || scheduled_ms || ':' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
             "^svc:Deleted:0:0:3630000 job:Deleted:0:0:9120000 svc-r1:Succeeded:3600000:3630000:14430000 job-r1:Succeeded:9000000:9120000:19920000$"
      ${_db} "SELECT group_concat(grp || ':' || metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE metric IN ('pods_replaced', 'pods_lost', 'gpu_hours_lost') ORDER BY grp, metric)"
             "^:gpu_hours_lost=0[.]5 :pods_lost=0[.]0 :pods_replaced=2[.]0 serve:gpu_hours_lost=0[.]0 serve:pods_lost=0[.]0 serve:pods_replaced=1[.]0 train:gpu_hours_lost=0[.]5 train:pods_lost=0[.]0 train:pods_replaced=1[.]0$")
foreach(_case
    "lifecycle_bad_owner|lifecycle_bad_owner.lua:2: drasim.submit: .*owner: expected none, job or service"
    "lifecycle_bad_checkpoint|lifecycle_bad_checkpoint.lua:2: drasim.submit: .*checkpoint: only a pod group with owner: job")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  drasim_cli_test(NAME lua26/refused-${_name} RAW
    COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSCRIPT=${_l26}/${_name}.lua
            -DOUT=${_l26_out}/${_name}.db "-DEXPECT=${_expect}" -P ${CMAKE_SOURCE_DIR}/tests/lua/cli_check.cmake)
endforeach()

# no-op timers (and an after_schedule) set in the arrival callbacks: the same pods, arrivals and run times
drasim_cli_test(NAME lua26/streams-plain COMMAND run ${_l26}/streams.yaml -o ${_l26_out}/streams-plain.db)
drasim_cli_test(NAME lua26/streams-noop
  COMMAND run ${_l26}/streams.yaml -o ${_l26_out}/streams-noop.db --set workload.lua.args.noop=true)
drasim_cli_test(NAME lua26/streams-unperturbed RAW
  COMMAND sqlite3 ${_l26_out}/streams-noop.db "ATTACH '${_l26_out}/streams-plain.db' AS n; SELECT (SELECT count(*) FROM main.pods) = (SELECT count(*) FROM n.pods), (SELECT count(*) FROM main.pods) > 100, count(*) = (SELECT count(*) FROM n.pods) FROM main.pods a JOIN n.pods b USING (pod_id) WHERE a.name = b.name AND a.arrival_ms = b.arrival_ms AND a.duration_ms = b.duration_ms"
  EXPECT "^1[|]1[|]1\n$"
  DEPENDS lua26/streams-plain lua26/streams-noop)

# dynamic MIG: the Lua twin of a pod-group scenario places every pod on the same MIG device
# and measures the same (non-zero) MIG fragmentation under policy fgd
drasim_cli_test(NAME lua26/mig-groups COMMAND run ${_l26}/mig-groups.yaml -o ${_l26_out}/mig-groups.db)
drasim_cli_test(NAME lua26/mig-lua COMMAND run ${_l26}/mig-lua.yaml -o ${_l26_out}/mig-lua.db)
drasim_cli_test(NAME lua26/mig-lua-as-groups RAW
  COMMAND sqlite3 ${_l26_out}/mig-lua.db "ATTACH '${_l26_out}/mig-groups.db' AS g; SELECT count(*) FROM main.pods p JOIN main.claim_allocations c USING (run_id, pod_id) JOIN g.pods q ON q.name = p.name JOIN g.claim_allocations d ON d.pod_id = q.pod_id AND d.device = c.device; SELECT a.value = b.value AND a.value > 0 FROM main.summary a JOIN g.summary b USING (metric, grp) WHERE a.grp = '' AND a.metric IN ('frag_mig_pct_mean', 'frag_mig_pct_end')"
  EXPECT "^12\n1\n1\n$"
  DEPENDS lua26/mig-groups lua26/mig-lua)
