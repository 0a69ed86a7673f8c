-- Thousands of pods with three demand shapes make three classes.
local shapes = {
  {cpu = "1", memory = "1Gi"},
  {cpu = "2", gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}},
  {cpu = "1", memory = "1Gi", tolerations = {{key = "k", operator = "Exists"}}},
}
for i = 1, drasim.args.pods do
  local s = shapes[i % 3 + 1]
  drasim.submit{cpu = s.cpu, memory = s.memory, gpu = s.gpu, tolerations = s.tolerations,
                duration = 60, at = i}
end
