-- Job mixes: gangs, services with replicas, notebooks on MIG slices.
local jobs = require "drasim.jobs"
local g = jobs.training_gang{name = "train", pods = 2, gpus = 8, duration = "1h"}
assert(#g == 2 and g[1] == "train-0")
local s = jobs.inference_service{name = "svc", replicas = 3, gpu = {["nvidia.com/mig-1g.10gb"] = 1}, duration = "2h"}
assert(#s == 3)
local nb = jobs.notebook{profile = "1g.10gb", duration = "30m"}
assert(nb[1] == "notebook-0")
local picked = jobs.mix{{1, function() return "x" end}}
assert(picked == "x")
