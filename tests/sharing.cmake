# CLI tests of issue 17 (docs/SHARING.md): containers (the sidecar example:
# N GPUs under the device plugin, N/2 under DRA), device-plugin sharing per
# node pool (failRequestsGreaterThanOne, MPS, the warning about multi-GPU
# requests on fewer physical GPUs, the rule on resource names), the contention
# model on hand-computed cases, and bad sharing configs at FILE:LINE:COL.
set(_sh_out ${CMAKE_CURRENT_BINARY_DIR}/sharing-cli)
set(_sh_src ${CMAKE_SOURCE_DIR}/tests/sharing)
file(MAKE_DIRECTORY ${_sh_out})

# The sidecar example: 16 pods, server + GPU sidecar. Device plugin: 2 GPUs a
# pod, all 32; DRA: both containers name one claim, 1 GPU a pod, 16 of 32.
# CPU: max(init 8, 4 + 1) = 8 cores a pod -> 128 of 384 = 33.33 %.
drasim_cli_test(NAME sharing/sidecar-device-plugin
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/sidecar-gpu.yaml -o ${_sh_out}/sidecar-dp.db
  EXPECT "16 scheduled"
  SQL ${_sh_out}/sidecar-dp.db "SELECT printf('%.2f', value) FROM summary WHERE grp = 'inference' AND metric = 'gpus_per_pod'" "^2[.]00$"
      ${_sh_out}/sidecar-dp.db "SELECT printf('%.2f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_peak_pct'" "^100[.]00$"
      ${_sh_out}/sidecar-dp.db "SELECT printf('%.2f', value) FROM summary WHERE grp = '' AND metric = 'cpu_alloc_pct'" "^33[.]33$")
drasim_cli_test(NAME sharing/sidecar-dra
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/sidecar-gpu.yaml -o ${_sh_out}/sidecar-dra.db --set scheduling.mode=dra
  EXPECT "16 scheduled"
  SQL ${_sh_out}/sidecar-dra.db "SELECT printf('%.2f', value) FROM summary WHERE grp = 'inference' AND metric = 'gpus_per_pod'" "^1[.]00$"
      ${_sh_out}/sidecar-dra.db "SELECT printf('%.2f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_peak_pct'" "^50[.]00$"
      ${_sh_out}/sidecar-dra.db "SELECT count(*) FROM claim_allocations" "^16$")

# Per-pool sharing (tests/sharing/pool-sharing.yaml says why each pod lands where it does).
drasim_cli_test(NAME sharing/pools
  COMMAND run ${_sh_src}/pool-sharing.yaml -o ${_sh_out}/pools.db
  EXPECT "warning: group two: 1 pods asked for several GPUs and got shared replicas of fewer physical GPUs"
  REJECT "warning: group one" "warning: group big"
  SQL ${_sh_out}/pools.db "SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name = 'big-0'" "^whole-0$"
      ${_sh_out}/pools.db "SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name = 'two-0'" "^mps-0$"
      ${_sh_out}/pools.db "SELECT group_concat(n.name || '=' || c, ' ') FROM (SELECT node_id, count(*) c FROM pods WHERE name LIKE 'one-%' GROUP BY node_id) x JOIN nodes n ON n.node_id = x.node_id ORDER BY n.name" "^sliced-0=4 mps-0=2$|^mps-0=2 sliced-0=4$"
      ${_sh_out}/pools.db "SELECT printf('%.1f', value) FROM summary WHERE grp = '' AND metric = 'gpu_total'" "^4[.]0$"
      ${_sh_out}/pools.db "SELECT value FROM summary WHERE grp = 'two' AND metric = 'pods_on_fewer_gpus'" "^1[.]0$"
      ${_sh_out}/pools.db "SELECT count(*) FROM summary WHERE metric = 'pods_on_fewer_gpus'" "^1$")
# the nodes' labels and resources per pool: GFD's sharing strategy, MPS capability, renamed units
drasim_cli_test(NAME sharing/inventory-labels
  COMMAND inventory ${_sh_src}/pool-sharing.yaml
  EXPECT "drasim[.]io/device-plugin[.]fail-requests-greater-than-one: \"true\""
         "nvidia[.]com/gpu[.]sharing-strategy: mps" "nvidia[.]com/gpu[.]sharing-strategy: time-slicing"
         "nvidia[.]com/gpu[.]sharing-strategy: none" "nvidia[.]com/mps[.]capable: \"true\""
         "nvidia[.]com/gpu[.]shared: \"4\"")

# The time-slicing model by hand (tests/sharing/ts-hand.yaml): a 88 s, b 138 s.
drasim_cli_test(NAME sharing/time-slicing-by-hand
  COMMAND run ${_sh_src}/ts-hand.yaml -o ${_sh_out}/ts.db
  SQL ${_sh_out}/ts.db "SELECT group_concat(name || '=' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)" "^a-0=88000 b-0=138000$"
      ${_sh_out}/ts.db "SELECT group_concat(grp || ':' || printf('%.3f', value), ' ') FROM summary WHERE metric = 'slowdown_max'" "^:1[.]760 a:1[.]760 b:1[.]380$"
      # used: 0.8 x 50 s and 0.8 x 100 s; allocated: the GPU split in two for 88 s, then b's alone 50 s
      ${_sh_out}/ts.db "SELECT group_concat(grp || ':' || printf('%.1f', value * 3600), ' ') FROM summary WHERE metric = 'usage_gpu_hours_used'" "^:120[.]0 a:40[.]0 b:80[.]0$"
      ${_sh_out}/ts.db "SELECT group_concat(grp || ':' || printf('%.1f', value * 3600), ' ') FROM summary WHERE metric = 'usage_gpu_hours_allocated'" "^:138[.]0 a:44[.]0 b:94[.]0$")

# Bad sharing configs: one error at the value at fault, exit 3, no database.
drasim_cli_test(NAME sharing/bad-both-modes
  COMMAND run ${_sh_src}/bad-both-modes.yaml -o ${_sh_out}/bad1.db
  EXIT 3 EXPECT "bad-both-modes[.]yaml:16:12: devicePlugin: time-slicing and MPS cannot be used together"
  FILE_ABSENT ${_sh_out}/bad1.db)
drasim_cli_test(NAME sharing/bad-mps-replicas
  COMMAND run ${_sh_src}/bad-both-modes.yaml -o ${_sh_out}/bad2.db --set "cluster.nodePools[0].devicePlugin={mps: {replicas: 49}}"
  EXIT 3 EXPECT "mps[.]replicas: expected 1 to 48, found 49"
  FILE_ABSENT ${_sh_out}/bad2.db)
drasim_cli_test(NAME sharing/bad-claim-strategy
  COMMAND run ${_sh_src}/bad-claim.yaml -o ${_sh_out}/bad3.db
  EXIT 3 EXPECT "bad-claim[.]yaml:26:27: unknown GPU sharing strategy: Spatial, supported GPU sharing strategies: TimeSlicing, MPS"
  FILE_ABSENT ${_sh_out}/bad3.db)

# The model under DRA by hand (tests/sharing/dra-hand.yaml): MPS on a shared
# claim, an MPS thread cap, time-slicing with phases.
drasim_cli_test(NAME sharing/dra-by-hand
  COMMAND run ${_sh_src}/dra-hand.yaml -o ${_sh_out}/dra-hand.db
  SQL ${_sh_out}/dra-hand.db "SELECT group_concat(name || '=' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
      "^a-0=76320 b-0=76320 c-0=80000 d-0=150000 e-0=170000$"
      # the run ends with e: a completion rescheduled earlier leaves a stale event that must not move the clock
      ${_sh_out}/dra-hand.db "SELECT value FROM summary WHERE grp = '' AND metric = 'sim_end_s'" "^170[.]0$"
      # the shared GPU of a and b counts once, split between them; d and e split theirs for 150 s
      ${_sh_out}/dra-hand.db "SELECT group_concat(grp || ':' || printf('%.2f', value * 3600), ' ') FROM summary WHERE metric = 'usage_gpu_hours_allocated'"
      "^:326[.]32 a:38[.]16 b:38[.]16 c:80[.]00 d:75[.]00 e:95[.]00$"
      ${_sh_out}/dra-hand.db "SELECT group_concat(grp || ':' || printf('%.2f', value * 3600), ' ') FROM summary WHERE metric = 'usage_gpu_hours_used'"
      "^:262[.]00 a:36[.]00 b:36[.]00 c:20[.]00 d:50[.]00 e:120[.]00$"
      # three GPUs: one per shared claim, one for c
      ${_sh_out}/dra-hand.db "SELECT count(DISTINCT device), count(*) FROM claim_allocations" "^3[|]5$")

# The "5 % used" example: whole GPUs (device plugin) versus one shared claim
# per team with MPS (DRA). The same pods and busy draws: the GPUs taken drop
# from 38 to 8 (of 48), the used share of allocated GPU time rises, and the
# DRA run pays a slowdown (MPS thread caps and crowded GPUs), the whole-GPU
# run none.
drasim_cli_test(NAME sharing/five-percent-whole
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/five-percent.yaml -o ${_sh_out}/five-whole.db
  SQL ${_sh_out}/five-whole.db "SELECT printf('%.3f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_peak_pct'" "^79[.]167$"
      ${_sh_out}/five-whole.db "SELECT printf('%.3f', value) FROM summary WHERE grp = '' AND metric = 'slowdown_max'" "^1[.]000$"
      ${_sh_out}/five-whole.db "SELECT value < 15 FROM summary WHERE grp = '' AND metric = 'usage_used_pct'" "^1$"
      ${_sh_out}/five-whole.db "SELECT count(*), sum(gpus) FROM usage_pools" "^1[|]48[.]0$")
drasim_cli_test(NAME sharing/five-percent-shared
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/five-percent.yaml -o ${_sh_out}/five-shared.db --set scheduling.mode=dra
  SQL ${_sh_out}/five-shared.db "SELECT printf('%.3f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_peak_pct'" "^16[.]667$"
      ${_sh_out}/five-shared.db "SELECT value > 30 FROM summary WHERE grp = '' AND metric = 'usage_used_pct'" "^1$"
      ${_sh_out}/five-shared.db "SELECT value > 1.05 FROM summary WHERE grp = '' AND metric = 'slowdown_mean'" "^1$"
      ${_sh_out}/five-shared.db "SELECT value FROM summary WHERE grp = '' AND metric = 'dra_shared_claims_allocated'" "^[0-9.]+$")
drasim_cli_test(NAME sharing/five-percent-report
  COMMAND report ${_sh_out}/five-whole.db ${_sh_out}/five-shared.db -o ${_sh_out}/five-report
  DEPENDS sharing/five-percent-whole sharing/five-percent-shared
  FILE_EXISTS ${_sh_out}/five-report/usage.svg ${_sh_out}/five-report/slowdown.svg ${_sh_out}/five-report/index.html
              ${_sh_out}/five-report/usage_by_group.svg ${_sh_out}/five-report/usage_by_pool.svg)
# The used GPU-hours do not depend on where pods run: the same busy draws in both runs
drasim_cli_test(NAME sharing/five-percent-same-work RAW
  COMMAND sqlite3 ${_sh_out}/five-whole.db "ATTACH '${_sh_out}/five-shared.db' AS s; SELECT printf('%.6f', a.value) = printf('%.6f', b.value) FROM summary a, s.summary b WHERE a.grp = '' AND b.grp = '' AND a.metric = 'usage_gpu_hours_used' AND b.metric = 'usage_gpu_hours_used'"
  DEPENDS sharing/five-percent-whole sharing/five-percent-shared
  EXPECT "^1\n$")

# Lua pods take containers and usage too (the same parser as pod groups)
drasim_cli_test(NAME sharing/lua-containers
  COMMAND run ${_sh_src}/lua-containers.yaml -o ${_sh_out}/lua.db
  SQL ${_sh_out}/lua.db "SELECT group_concat(metric || '=' || printf('%.1f', value * iif(metric = 'usage_gpu_hours_used', 3600, 1)), ' ') FROM summary WHERE grp = 'side' AND metric IN ('gpus_per_pod', 'usage_gpu_hours_used')"
      "^gpus_per_pod=2[.]0 usage_gpu_hours_used=10[.]0$")

# Same scenario and seed, byte-identical database, with the model on (rescheduled completions included)
drasim_cli_test(NAME sharing/deterministic RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DOUT=${_sh_out}/det
          -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/five-percent.yaml -P ${_sh_src}/same_bytes.cmake
  EXPECT "identical")
