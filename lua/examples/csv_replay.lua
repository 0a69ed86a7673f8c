-- csv_replay.lua: replay a job log exactly (one pod per row, at its submit
-- time, for its run time), streamed with drasim.csv_rows: the file is never
-- held in memory, so a log of millions of rows costs what one row costs.
-- Columns (args.file, default jobs.csv): job, submit (ISO 8601), gpus, cpu,
-- seconds. Every column is typed; `job` stays a string ("007" stays "007").
-- A process sleeps until each row's submit time, so every instant is its own
-- callback with its own instruction budget. Run by scenarios/examples/lua-csv-replay.yaml.
local types = {submit = "time", gpus = "integer", cpu = "number", seconds = "number"}
local toleration = {key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule"}

drasim.process(function()
  local t0
  for row in drasim.csv_rows(drasim.args.file or "jobs.csv", {types = types}) do
    t0 = t0 or row.submit
    local at = row.submit - t0
    if at >= drasim.stop_time then break end
    if at > drasim.now() then drasim.sleep(at - drasim.now()) end
    drasim.submit{name = row.job, group = row.gpus > 0 and "gpu" or "cpu", cpu = row.cpu, memory = "8Gi",
                  tolerations = {toleration}, duration = row.seconds,
                  gpu = row.gpus > 0 and {devicePlugin = {["nvidia.com/gpu"] = row.gpus}} or nil}
  end
end)
