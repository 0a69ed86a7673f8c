-- free_devices is a DRA query
local n = drasim.free_devices{class = "gpu.nvidia.com"}
