-- a CEL selector that does not compile: the error names the function and this line
local n = drasim.free_devices{class = "gpu.nvidia.com", selector = "device.attributes["}
