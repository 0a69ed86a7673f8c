-- The selector's string is cut short: the claim's CEL does not compile (tests/cel-load/lua-bad-cel.yaml).
drasim.submit{name = "nb", cpu = "1", duration = "10m",
  gpu = {dra = {claims = {{name = "gpu", spec = {devices = {requests = {{name = "g", exactly = {
    deviceClassName = "gpu.nvidia.com", selectors = {{cel = {expression = "device.driver == 'gpu.nvidia.com"}}}}}}}}}}}}}
