-- job_wait.lua: a job-level metric. A job is args.workers pods (default 4)
-- submitted together; it can only make progress once all of them run, so
-- its wait is the time until its LAST pod starts, not any one pod's wait.
-- The script measures it with drasim.on_start and records the mean and the
-- maximum over the jobs started so far (drasim.record: the last value wins),
-- so `drasim compare` and `drasim check` read user_job_wait_mean_s and
-- user_job_wait_max_s like drasim's own pod-level wait_mean_s. Each pod is
-- labelled with its job (view pod_labels), so SQL can recompute the metric.
-- Run by scenarios/examples/lua-job-wait.yaml.
local args = drasim.args
local workers = args.workers or 4
local job_of, left, submitted = {}, {}, {}
local started, total, worst = 0, 0, 0
local claims = drasim.mode == "dra" and {claims = {drasim.claim{count = args.gpus or 2}}} or nil

local function job(id)
  local job_name = string.format("job-%03d", id)
  submitted[job_name], left[job_name] = drasim.now(), workers
  for w = 1, workers do
    local pod = drasim.submit{name = job_name .. "-w" .. w, group = "worker", cpu = "16", memory = "128Gi",
                              duration = args.duration or "1h", labels = {job = job_name},
                              gpu = {devicePlugin = {["nvidia.com/gpu"] = args.gpus or 2}, dra = claims}}
    job_of[pod] = job_name
  end
end

drasim.on_start(function(pod)
  local j = job_of[pod]
  left[j] = left[j] - 1
  if left[j] > 0 then return end
  local wait = drasim.now() - submitted[j]   -- the job's last pod started now
  started, total, worst = started + 1, total + wait, math.max(worst, wait)
  drasim.record("user_job_wait_mean_s", total / started)
  drasim.record("user_job_wait_max_s", worst)
  drasim.record("user_jobs_started", started)
end)

local n = 0
drasim.every(args.every or "20m", function()
  n = n + 1
  job(n)
end, 0)
