# CLI tests of preemption and gangs (issue 15, docs/PREEMPTION.md) on the
# hand-made clusters of tests/preempt/*.yaml, whose comments derive every
# expected number.
set(_pe_out ${CMAKE_CURRENT_BINARY_DIR}/preempt-cli)
set(_pe_src ${CMAKE_SOURCE_DIR}/tests/preempt)
file(MAKE_DIRECTORY ${_pe_out})

# device plugin: the inference pod preempts one training pod (grace 30 s) and binds at 630 s
set(_db ${_pe_out}/dp.db)
drasim_cli_test(NAME preempt/device-plugin-preempts
  COMMAND run ${_pe_src}/inference-over-training.yaml -o ${_db}
  SQL ${_db} "SELECT scheduled_ms, node_id FROM pods WHERE name = 'inference-0'" "^630000[|]0$"
      ${_db} "SELECT count(*), min(reason), min(completion_ms) FROM pods WHERE state = 'Deleted'" "^1[|]PreemptionByScheduler[|]630000$"
      ${_db} "SELECT group_concat(grp || ':' || metric || '=' || value, ' ') FROM summary WHERE metric IN ('preemptions', 'preempted', 'preemption_victims')"
             "^:preemptions=1[.]0 :preemption_victims=1[.]0 training:preemptions=0[.]0 training:preempted=1[.]0 inference:preemptions=1[.]0 inference:preempted=0[.]0$"
      # work lost: 8 GPUs x 600 s run before the eviction
      ${_db} "SELECT printf('%.4f', value) FROM summary WHERE grp = '' AND metric = 'gpu_hours_lost_preemption'" "^1[.]3333$")

# DRA in 1.36: the dry run frees no devices, the pod waits for a training pod to end
set(_db ${_pe_out}/dra.db)
drasim_cli_test(NAME preempt/dra-136-cannot
  COMMAND run ${_pe_src}/inference-over-training.yaml --set scheduling.mode=dra -o ${_db}
  EXPECT "warning: 1 preemption attempts found only DRA devices in the way: in Kubernetes 1[.]36"
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'inference-0'" "^7200000$"
      ${_db} "SELECT count(*) FROM pods WHERE state = 'Deleted'" "^0$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE grp = '' AND metric LIKE 'preempt%' ORDER BY metric)" "^preemption_attempts=1[.]0 preemption_blocked_by_dra=1[.]0 preemption_victims=0[.]0 preemptions=0[.]0$")

# DRA with the KEP-5690 switch: as with the device plugin
set(_db ${_pe_out}/dra-kep5690.db)
drasim_cli_test(NAME preempt/dra-kep5690-preempts
  COMMAND run ${_pe_src}/inference-over-training.yaml --set scheduling.mode=dra
          --set scheduling.features.DRAPreemption=true -o ${_db}
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'inference-0'" "^630000$"
      ${_db} "SELECT count(*), min(reason) FROM pods WHERE state = 'Deleted'" "^1[|]PreemptionByScheduler$"
      ${_db} "SELECT value FROM summary WHERE grp = 'inference' AND metric = 'preemptions'" "^1[.]0$")

# preemptionPolicy: Never: no victim, it waits
set(_db ${_pe_out}/never.db)
drasim_cli_test(NAME preempt/never
  COMMAND run ${_pe_src}/inference-over-training.yaml --set workload.podGroups.inference.preemptionPolicy=Never -o ${_db}
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'inference-0'" "^7200000$"
      ${_db} "SELECT count(*) FROM pods WHERE state = 'Deleted'" "^0$")

# DefaultPreemption off (the default): as before preemption existed
set(_db ${_pe_out}/off.db)
drasim_cli_test(NAME preempt/off-by-default
  COMMAND run ${_pe_src}/inference-over-training.yaml --set scheduling.features.DefaultPreemption=false -o ${_db}
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'inference-0'" "^7200000$")

# a terminating victim's grace period is the group's terminationGracePeriodSeconds
set(_db ${_pe_out}/grace.db)
drasim_cli_test(NAME preempt/grace-period
  COMMAND run ${_pe_src}/inference-over-training.yaml --set workload.podGroups.training.terminationGracePeriodSeconds=120 -o ${_db}
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'inference-0'" "^720000$")

# bad input: FILE:LINE:COL, exit 3
drasim_cli_test(NAME preempt/bad-policy
  COMMAND run ${_pe_src}/inference-over-training.yaml --set workload.podGroups.inference.preemptionPolicy=Sometimes -o ${_pe_out}/bad-policy.db
  EXIT 3
  EXPECT "--set workload[.]podGroups[.]inference[.]preemptionPolicy:1:[0-9]+: preemptionPolicy: expected PreemptLowerPriority or Never, found 'Sometimes'")
drasim_cli_test(NAME preempt/bad-k8s-version
  COMMAND run ${_pe_src}/gang-partial.yaml --set cluster.kubernetesVersion=1.9 -o ${_pe_out}/bad-k8s-version.db
  EXIT 3
  EXPECT "--set cluster[.]kubernetesVersion:1:[0-9]+: kubernetesVersion: expected 1[.]34, 1[.]35, 1[.]36 or 1[.]37, found '1[.]9'")
drasim_cli_test(NAME preempt/gang-before-1.35
  COMMAND run ${_pe_src}/gang-partial.yaml --set cluster.kubernetesVersion=1.34 -o ${_pe_out}/gang-1.34.db
  EXIT 3
  EXPECT "gang-partial[.]yaml:[0-9]+:[0-9]+: gang: needs cluster[.]kubernetesVersion 1[.]35 or later")
drasim_cli_test(NAME preempt/bad-gang-min
  COMMAND run ${_pe_src}/gang-partial.yaml --set workload.podGroups.gang.gang.minCount=5 -o ${_pe_out}/bad-gang-min.db
  EXIT 3
  EXPECT "--set workload[.]podGroups[.]gang[.]gang[.]minCount:1:[0-9]+: gang[.]minCount: expected 1 to the group's count [(]4[)], found 5")

# gangs, 1.36: Permit holds 2 of 4 pods; three 5-min timeouts, then all start at 20 min
set(_db ${_pe_out}/gang-136.db)
drasim_cli_test(NAME gang/permit-136
  COMMAND run ${_pe_src}/gang-partial.yaml -o ${_db}
  SQL ${_db} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods WHERE name LIKE 'gang-%'" "^1200000$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gang' AND metric LIKE 'gang%'"
             "^gangs=1[.]0 gangs_started=1[.]0 gang_attempts_failed=3[.]0 gang_wait_mean_s=1140[.]0 gang_wait_max_s=1140[.]0 gang_held_gpu_s=9064[.]0 gang_hold_max_s=300[.]0$")

# gangs, 1.37: the workload cycle holds nothing; 117 failed cycles; starts at 1205 s
set(_db ${_pe_out}/gang-137.db)
drasim_cli_test(NAME gang/workload-cycle-137
  COMMAND run ${_pe_src}/gang-partial.yaml --set cluster.kubernetesVersion=1.37 -o ${_db}
  SQL ${_db} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods WHERE name LIKE 'gang-%'" "^1205000$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gang' AND metric LIKE 'gang%'"
             "^gangs=1[.]0 gangs_started=1[.]0 gang_attempts_failed=117[.]0 gang_wait_mean_s=1145[.]0 gang_wait_max_s=1145[.]0 gang_held_gpu_s=0[.]0 gang_hold_max_s=0[.]0$")

# quorum (PreEnqueue): a gang whose pods arrive over time enters the queue with its last one (50 min;
# the filler has ended): nothing is held before
set(_db ${_pe_out}/gang-quorum.db)
drasim_cli_test(NAME gang/quorum
  COMMAND run ${_pe_src}/gang-partial.yaml "--set" "workload.podGroups.gang.arrival.times=[1m, 2m, 3m, 50m]" -o ${_db}
  SQL ${_db} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods WHERE name LIKE 'gang-%'" "^3000000$"
      ${_db} "SELECT value FROM summary WHERE grp = 'gang' AND metric = 'gang_held_gpu_s'" "^0[.]0$")

# a bad gang field in the file itself: FILE:LINE:COL
drasim_cli_test(NAME gang/bad-field-in-file
  COMMAND run ${_pe_src}/bad-gang.yaml -o ${_pe_out}/bad-gang.db
  EXIT 3
  EXPECT "bad-gang[.]yaml:23:7: unknown field 'minimum' in gang [(]expected one of: minCount, timeout, topology[)]")

# the Lua example: 16 x 8-GPU gangs, 10-minute all-or-nothing retry. No partial gang holds GPUs
# past its timeout (the longest Permit wait is at most 600 s), partial holds do happen (so the
# check can fail), and the script's on_timeout saw every rejected attempt.
set(_db ${_pe_out}/lua-gang.db)
drasim_cli_test(NAME gang/lua-training-gang
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-training-gang.yaml -o ${_db}
  SQL ${_db} "SELECT value > 0 AND value <= 600 FROM summary WHERE grp = '' AND metric = 'gang_hold_max_s'" "^1$"
      ${_db} "SELECT value > 0 FROM summary WHERE grp = '' AND metric = 'gang_held_gpu_s'" "^1$"
      ${_db} "SELECT (SELECT value FROM summary WHERE grp = '' AND metric = 'gang_attempts_failed') = (SELECT value FROM summary WHERE grp = '' AND metric = 'user_gang_timeouts')" "^1$"
      # every started gang started whole: its 16 pods share one start time
      ${_db} "SELECT count(*) FROM (SELECT substr(name, 1, length(rtrim(name, '0123456789')) - 1) AS g FROM pods WHERE name LIKE 'train-%' AND scheduled_ms IS NOT NULL GROUP BY g HAVING count(DISTINCT scheduled_ms) > 1)" "^0$")
drasim_cli_test(NAME gang/lua-training-gang-bad-timeout
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-training-gang.yaml --set workload.lua.args.timeout=soon -o ${_pe_out}/bad-timeout.db
  EXIT 3
  EXPECT "training_gang[.]lua:[0-9]+: drasim[.]submit_gang: timeout: expected a duration such as 90s, 5m or 1h30m, found 'soon'")

# DRA 1.36 still preempts for CPU (the node's devices are free)
set(_db ${_pe_out}/dra-cpu.db)
drasim_cli_test(NAME preempt/dra-136-for-cpu
  COMMAND run ${_pe_src}/dra-cpu.yaml -o ${_db}
  SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'gpu-serving-0'" "^90000$"
      ${_db} "SELECT state, reason FROM pods WHERE name = 'cpu-batch-0'" "^Deleted[|]PreemptionByScheduler$")

# gangs in DRA mode: rejected pods' claims are freed and allocated again; same numbers as the device plugin
set(_db ${_pe_out}/gang-dra.db)
drasim_cli_test(NAME gang/permit-136-dra
  COMMAND run ${_pe_src}/gang-partial.yaml --set scheduling.mode=dra -o ${_db}
  SQL ${_db} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods WHERE name LIKE 'gang-%'" "^1200000$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gang' AND metric IN ('gang_attempts_failed', 'gang_held_gpu_s')"
             "^gang_attempts_failed=3[.]0 gang_held_gpu_s=9064[.]0$"
      # 1 filler claim + 2 per rejected attempt (3) + 4 for the one that started; all deleted at the end
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('dra_claims_created', 'dra_claims_deleted')" "^dra_claims_created=11[.]0 dra_claims_deleted=11[.]0$")

# a gang pod deleted at Permit: never starts, its GPUs come back
set(_db ${_pe_out}/gang-delete.db)
drasim_cli_test(NAME gang/delete-while-waiting
  COMMAND run ${_pe_src}/gang-delete.yaml -o ${_db}
  SQL ${_db} "SELECT group_concat(name || ':' || state || ':' || ifnull(scheduled_ms, '-'), ' ') FROM pods WHERE name LIKE 'g-%' ORDER BY name"
             "^g-0:Deleted:- g-1:Succeeded:600000 g-2:Succeeded:600000$"
      ${_db} "SELECT value FROM summary WHERE metric = 'user_deleted_was_pending'" "^1[.]0$"
      ${_db} "SELECT gpus_alloc FROM samples WHERE time_ms = 1860000" "^0$")

# a gang that can never start (3 x 8 GPUs on 2 nodes) does not keep a `stop: allPodsDone` run alive:
# its timeouts and back-off ends are background events, as a blocked pod class has none
foreach(_v 1.36 1.37)
  set(_db ${_pe_out}/gang-never-${_v}.db)
  drasim_cli_test(NAME gang/never-fits-ends-${_v}
    COMMAND run ${_pe_src}/gang-partial.yaml --set cluster.kubernetesVersion=${_v} "--set" "stop={allPodsDone: true}"
            --set workload.podGroups.filler.duration=1s "--set" "workload.podGroups.gang.gpu.devicePlugin={nvidia.com/gpu: 8}"
            -o ${_db}
    TIMEOUT 60
    EXPECT "warning: group gang: 0 of 4 pods ever started"
    SQL ${_db} "SELECT value < 120 FROM summary WHERE grp = '' AND metric = 'sim_end_s'" "^1$")
endforeach()
