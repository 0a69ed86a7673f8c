-- bench_lua_yaml.lua -- the Lua side of tools/bench/bench_lua_yaml.sh: the
-- pods of its YAML scenario (four groups g1/g2/g4/g8 of 1/2/4/8 GPUs, pods/4
-- each, Poisson arrivals at the same total rate, exponential run times of mean
-- 1 h, cpu 4), written the way a script would: one table per pod, the gpu
-- table per pod, in device-plugin or DRA form (args.mode). args.labels: two
-- labels per pod ({app, size}: four label sets). args.form = "template": the
-- same pods (same draws, names, classes: the same results) from one
-- drasim.template per group, each pod giving only its at and duration.
local a = drasim.args
local n, gap, dra, labelled = a.pods, 3600 / a.rate, a.mode == "dra", a.labels == 1
local t = 0
if a.form == "template" then
  local tmpl = {}
  for k = 0, 3 do
    local g = 1 << k
    local gpu
    if dra then
      gpu = {dra = {claims = {{name = "gpu", spec = {devices = {requests = {
              {name = "gpu", exactly = {deviceClassName = "gpu.nvidia.com", count = g}}}}}}}}}
    else
      gpu = {devicePlugin = {["nvidia.com/gpu"] = g}}
    end
    tmpl[g] = drasim.template{group = "g" .. g, cpu = "4", gpu = gpu,
                              labels = labelled and {app = "bench", size = "g" .. g} or nil}
  end
  for i = 1, n do
    t = t + drasim.exponential(gap)
    drasim.submit(tmpl[1 << ((i - 1) % 4)], {at = t, duration = drasim.exponential(3600)})
  end
  return
end
for i = 1, n do
  local g = 1 << ((i - 1) % 4)
  t = t + drasim.exponential(gap)
  local gpu
  if dra then
    gpu = {dra = {claims = {{name = "gpu", spec = {devices = {requests = {
            {name = "gpu", exactly = {deviceClassName = "gpu.nvidia.com", count = g}}}}}}}}}
  else
    gpu = {devicePlugin = {["nvidia.com/gpu"] = g}}
  end
  drasim.submit{group = "g" .. g, at = t, duration = drasim.exponential(3600), cpu = "4", gpu = gpu,
                labels = labelled and {app = "bench", size = "g" .. g} or nil}
end
