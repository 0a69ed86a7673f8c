-- Lua pods with DRA claim templates in a DRA-mode run: each gets one GPU (tests/lua/dra.yaml).
for i = 1, 5 do
  drasim.submit{name = "nb" .. i, at = i * 10, cpu = "1", memory = "1Gi", duration = "10m",
    gpu = {dra = {claims = {{name = "gpu", spec = {devices = {requests = {{name = "g", exactly = {deviceClassName = "gpu.nvidia.com"}}}}}}}}}}
end
